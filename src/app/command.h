/* command.h — how `kerndiff app` turns a command string into a program to run: one string
 * through /bin/sh -c (hyperfine's convention), or, with -N/--no-shell, split into words by
 * the shell's quoting rules and run directly:
 *   - blanks (space, tab, newline) outside quotes separate words;
 *   - a backslash outside quotes takes the next character as it is (backslash-newline is
 *     removed; a backslash at the very end stays a backslash, as in sh);
 *   - '...' keeps everything inside as it is;
 *   - "..." keeps everything inside except that a backslash before $ ` " \ or a newline
 *     escapes it (before any other character it stays);
 *   - '' and "" make an empty word.
 * Nothing is expanded ($VAR, globs, ~): that is the shell's job, which -N leaves out. */
#ifndef KD_APP_COMMAND_H
#define KD_APP_COMMAND_H

#include <stdbool.h>

#include "util/strbuf.h"
#include "util/strlist.h"

typedef struct kd_app_command {
    kd_strlist argv;   /* NULL-terminated, for posix_spawnp and kd_spawn */
    char *words;       /* the storage the split words point into (NULL through the shell) */
} kd_app_command;

/* Splits `text` into `words` (items point into *storage, malloc'd, which the caller frees,
 * also on failure). Returns 0, or -1 with the reason in err: "an unclosed ' quote" or
 * "an unclosed \" quote". No words at all is not an error. */
int kd_app_split_words(const char *text, char **storage, kd_strlist *words, kd_strbuf *err);

/* The argument vector that runs `cmd`: /bin/sh -c CMD, or its words with no_shell.
 * Returns 0; -1 with the reason in err for an unclosed quote ("the command 'CMD' has an
 * unclosed ' quote ..."); -2 for an empty command ("the command is empty"). Free
 * *out with kd_app_command_free in every case. */
int kd_app_command_make(const char *cmd, bool no_shell, kd_app_command *out, kd_strbuf *err);
void kd_app_command_free(kd_app_command *c);

#endif
