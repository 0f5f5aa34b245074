/* help.h — kerndiff's help: the whole (kerndiff --help, kerndiff help) and one command's
 * (kerndiff help CMD, kerndiff CMD --help), made from the commands' rows (cmd/commands.c),
 * the option lines (cli/help.c) and the exit statuses (cli/exit_codes.h). */
#ifndef KD_CLI_HELP_H
#define KD_CLI_HELP_H

#include <stddef.h>

/* A command's help, a part of its row. Lines are "\n"-separated and fit 80 columns. */
typedef struct kd_command_help {
    const char *word;     /* what `kerndiff help WORD` names it by ("rank"; "diff" for the default) */
    const char *summary;  /* one line, at most 68 columns, for the global help's list */
    const char *synopsis; /* its forms, one a line ("kerndiff rank [options] BASE CAND..."); NULL:
                             a command with no help of its own (--version, --completion) */
    const char *what;     /* what it does, a few lines */
    /* The option lines it takes, "|"-separated: a section of the help ("Timing"), or one of a
     * section's options ("Workflows:--side"), in the order shown. */
    const char *options;
    const char *examples; /* command lines, one a line; the first also goes in the global help */
} kd_command_help;

/* The global help on stdout: every command's synopsis and summary, every option, the exit
 * statuses, the commands' first examples. */
void kd_help_print(const kd_command_help *const *commands, size_t n);
/* One command's help on stdout: its synopsis, what it does, its options only, its examples. */
void kd_help_print_command(const kd_command_help *command);
/* The command the command line asks help on (`kerndiff help CMD`, `kerndiff CMD --help`): the
 * word (one of commands' or not: kd_help_print_for says), or NULL for the global help. `rows`:
 * the commands' table (cli/command.h), whose words name a command. */
struct kd_command_row;
const char *kd_help_subject(int argc, char *const *argv, const struct kd_command_row *rows);
/* The help on `subject` (NULL: the global help); returns the exit status: 0, or KD_EXIT_USAGE
 * after saying that no command has that word. */
int kd_help_print_for(const char *subject, const kd_command_help *const *commands, size_t n);

#endif
