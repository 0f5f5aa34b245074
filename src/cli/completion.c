/* Shell completions (--completion bash|zsh|fish), made from the option groups' tables
 * (cli/option_parse.h), the help text, the commands' rows (cli/command.h: each word and its
 * summary; `help CMD`'s words) and the table below. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/command.h"
#include "cli/option_parse.h"
#include "cli/options.h"

/* ---- shell completions, made from the option table, the help text and these two tables ---- */

/* What an option's value completes to: 'w' one of `words`, 'f' a file, 'd' a folder, 'c' a
 * program; an option with a value that is not listed here completes to nothing (a name, a number). */
static const struct {
    int code;
    char kind;
    const char *words;
} value_kinds[] = {
    {OPT_SIDE, 'w', "v1 v2"},
    {OPT_COMPLETION, 'w', "bash zsh fish"},
    {OPT_NCU_SET, 'w', "fast full"},
    {OPT_NCU_CLOCK, 'w', "none base"},
    {OPT_BATCH, 'w', "auto off"},
    {OPT_REGION_BLOCKS, 'w', "auto all 1 2 4 8 16"},
    {OPT_SANITIZE, 'w', "memcheck racecheck initcheck synccheck"},
    {OPT_ARCH, 'w', "sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_120"},
    {OPT_NCU_REPORT, 'd', NULL}, {'I', 'd', NULL},
    {OPT_NVCC, 'c', NULL}, {OPT_PYTHON, 'c', NULL}, {OPT_RUN, 'c', NULL}, {OPT_NCU, 'c', NULL}, {OPT_SANITIZER, 'c', NULL},
};

static char value_kind(int code, const char **words)
{
    if (code >= OPT_FORMAT && code < OPT_FORMAT_END) { /* an output format's FILE */
        *words = NULL;
        return 'f';
    }
    for (size_t i = 0; i < sizeof value_kinds / sizeof *value_kinds; i++)
        if (value_kinds[i].code == code) {
            *words = value_kinds[i].words;
            return value_kinds[i].kind;
        }
    *words = NULL;
    return 0;
}

/* An option's line in the help text ("--max-time", "-q"): its description, the text after
 * the option column, up to the end of that line; "" when the help has no such line. */
static void help_description(const char *option, char *out, size_t size)
{
    size_t len = strlen(option);
    *out = '\0';
    const char *help = kd_help();
    for (const char *line = help; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : line + strlen(line)) {
        if (strncmp(line, "  -", 3) != 0)
            continue;
        const char *end = line + strcspn(line, "\n");
        const char *column_end = strstr(line + 2, "  ");
        if (!column_end || column_end > end)
            column_end = end;
        for (const char *p = line + 2; p + len <= column_end; p++) {
            bool starts = p == line + 2 || p[-1] == ' ' || p[-1] == ',';
            char after = p[len];
            if (starts && strncmp(p, option, len) == 0 && !(after == '-' || after == '_' || (after >= 'a' && after <= 'z') ||
                                                            (after >= 'A' && after <= 'Z') || (after >= '0' && after <= '9'))) {
                const char *d = column_end + strspn(column_end, " ");
                snprintf(out, size, "%.*s", d < end ? (int)(end - d) : 0, d);
                return;
            }
        }
    }
}

/* Text inside a single-quoted shell word: ' closes the quote, so it is written '\'' (bash,
 * zsh); fish also reads \ inside quotes, so it is written \\ and ' as \'. */
static void put_quoted(const char *text, bool fish, const char *also_escape)
{
    for (const char *p = text; *p; p++) {
        if (*p == '\'')
            fputs(fish ? "\\'" : "'\\''", stdout);
        else if (fish && *p == '\\')
            fputs("\\\\", stdout);
        else if (also_escape && strchr(also_escape, *p))
            printf("\\%c", *p);
        else
            putchar(*p);
    }
}


/* The long option whose short form is `letter` (-q is --quiet), or NULL. */
static const struct option *long_of(int letter)
{
    for (const struct option *o = kd_opt_long_options(); o->name; o++)
        if (o->val == letter)
            return o;
    return NULL;
}

/* The command words (`kerndiff WORD`), space-separated. */
static void print_words(const kd_command_row *rows)
{
    bool first = true;
    for (const kd_command_row *r = rows; r->name; r++)
        if (kd_command_has_word(r)) {
            printf("%s%s", first ? "" : " ", r->name);
            first = false;
        }
}

/* What `kerndiff help CMD` takes: every command with a help of its own but help itself. */
static void print_help_words(const kd_command_row *rows)
{
    bool first = true;
    for (const kd_command_row *r = rows; r->name; r++)
        if (r->help.synopsis && r->id != KD_CMD_HELP) {
            printf("%s%s", first ? "" : " ", r->help.word ? r->help.word : r->name);
            first = false;
        }
}

/* bash: the `case` arm of every option of one value kind ('w': one arm per option). */
static void bash_value_arms(char want)
{
    bool first = true;
    for (const struct option *o = kd_opt_long_options(); o->name; o++) {
        const char *words;
        char kind = value_kind(o->val, &words);
        if (o->has_arg == no_argument || kind != want || (o->has_arg == optional_argument && !kind))
            continue;
        if (want == 'w') {
            /* A value that is optional is only the option's with '=' (--sanitize=racecheck). */
            printf("        --%s) %s{ _kerndiff_reply -W \"%s\"; return; };;\n", o->name,
                   o->has_arg == optional_argument ? "[[ $eq == 1 ]] && " : "", words);
            continue;
        }
        printf("%s", first ? "        " : "|");
        if (o->val < 256 && strchr(kd_short_options, o->val))
            printf("-%c|", o->val);
        printf("--%s", o->name);
        first = false;
    }
    for (const char *p = kd_short_options; *p; p++) {
        const char *words;
        if (p[1] == ':' && !long_of(*p) && value_kind(*p, &words) == want) {
            printf("%s-%c", first ? "        " : "|", *p);
            first = false;
        }
    }
    if (first)
        return;
    if (want)
        printf(") _kerndiff_reply -%c; return;;\n", want);
    else
        printf(") return;; # a value: nothing to offer\n");
}

static void bash_completion(const kd_command_row *rows)
{
    /* Each candidate is a line read into COMPREPLY whole: `COMPREPLY=($(compgen ...))` split
     * "c d.cu" in two and expanded a file named "*.cu" to every .cu file. */
    printf("# bash completion for kerndiff (kerndiff --completion bash)\n"
           "# _kerndiff_reply COMPGEN_ARGS...: the candidates for $cur, one a line, never split or globbed\n"
           "_kerndiff_reply() { mapfile -t COMPREPLY < <(compgen \"$@\" -- \"$cur\"); }\n"
           "_kerndiff() {\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} eq=0\n"
           "    # bash splits OPTION=VALUE at '=': complete the value of OPTION\n"
           "    if [[ $cur == = ]]; then cur=; eq=1\n"
           "    elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; eq=1; fi\n"
           "    case $prev in\n");
    bash_value_arms('w');
    bash_value_arms('f');
    bash_value_arms('d');
    bash_value_arms('c');
    bash_value_arms(0);
    printf("    esac\n    if [[ $cur == -* ]]; then\n        _kerndiff_reply -W \"");
    for (const struct option *o = kd_opt_long_options(); o->name; o++)
        printf("--%s ", o->name);
    for (const char *p = kd_short_options; *p; p++)
        if (*p != ':')
            printf("-%c ", *p);
    printf("\"\n    elif [[ $COMP_CWORD -eq 1 ]]; then\n        mapfile -t COMPREPLY < <(compgen -W \"");
    print_words(rows);
    printf("\" -- \"$cur\"; compgen -f -- \"$cur\")\n"
           "    elif [[ $COMP_CWORD -eq 2 && ${COMP_WORDS[1]} == help ]]; then\n"
           "        mapfile -t COMPREPLY < <(compgen -W \"");
    print_help_words(rows); /* kerndiff help CMD */
    printf("\" -- \"$cur\")\n    else\n        _kerndiff_reply -f\n    fi\n}\n"
           "complete -o filenames -F _kerndiff kerndiff\n");
}

/* zsh: _arguments specs, '--opt=[description]:message:action'. */
static void zsh_action(char kind, const char *words)
{
    switch (kind) {
    case 'w': printf("value:(%s)", words); break;
    case 'f': printf("file:_files"); break;
    case 'd': printf("folder:_files -/"); break;
    case 'c': printf("program:_command_names -e"); break;
    default: printf("value: "); break;
    }
}

static void zsh_completion(const kd_command_row *rows)
{
    char description[160];
    printf("#compdef kerndiff\n# zsh completion for kerndiff (kerndiff --completion zsh)\n"
           "_kerndiff_first() {\n    _alternative 'commands:command:((");
    bool first = true;
    for (const kd_command_row *r = rows; r->name; r++) {
        if (!kd_command_has_word(r))
            continue;
        printf("%s%s\\:\"", first ? "" : " ", r->name);
        put_quoted(r->help.summary ? r->help.summary : "", false, "\"");
        printf("\"");
        first = false;
    }
    printf("))' 'files:file:_files'\n}\nlocal -a specs\nspecs=(\n");
    for (const struct option *o = kd_opt_long_options(); o->name; o++) {
        char name[48];
        snprintf(name, sizeof name, "--%s", o->name);
        help_description(name, description, sizeof description);
        const char *words;
        char kind = value_kind(o->val, &words);
        printf("    '%s%s[", name, o->has_arg == required_argument ? "=" : o->has_arg == optional_argument ? "=-" : "");
        put_quoted(description, false, "[]:\\");
        printf("]");
        if (o->has_arg != no_argument) {
            printf(o->has_arg == optional_argument ? "::" : ":");
            zsh_action(kind, words);
        }
        printf("'\n");
    }
    for (const char *p = kd_short_options; *p; p++) {
        if (*p == ':')
            continue;
        char name[4] = {'-', *p, '\0'};
        help_description(name, description, sizeof description);
        const char *words;
        char kind = value_kind(*p, &words);
        printf("    '%s%s[", name, p[1] == ':' ? "+" : "");
        put_quoted(description, false, "[]:\\");
        printf("]");
        if (p[1] == ':') {
            printf(":");
            zsh_action(kind, words);
        }
        printf("'\n");
    }
    printf(")\n_arguments -s -S : $specs '1: :_kerndiff_first' '*:file:_files'\n");
}

static void fish_completion(const kd_command_row *rows)
{
    char description[160];
    printf("# fish completion for kerndiff (kerndiff --completion fish)\n");
    for (const struct option *o = kd_opt_long_options(); o->name; o++) {
        char name[48];
        snprintf(name, sizeof name, "--%s", o->name);
        help_description(name, description, sizeof description);
        printf("complete -c kerndiff -l %s", o->name);
        if (o->val < 256 && strchr(kd_short_options, o->val))
            printf(" -s %c", o->val);
        const char *words;
        char kind = value_kind(o->val, &words);
        /* -r: the value is the next word; -f: no files unless the value is one. */
        if (o->has_arg == required_argument)
            printf(" -r%s", kind == 'f' ? " -F" : " -f");
        else if (o->has_arg == optional_argument && kind == 'w')
            printf(" -f"); /* --sanitize=TOOLS: the words only */
        if (kind == 'w')
            printf(" -a '%s'", words);
        else if (kind == 'd')
            printf(" -a '(__fish_complete_directories)'");
        else if (kind == 'c')
            printf(" -a '(__fish_complete_command)'");
        if (*description) {
            printf(" -d '");
            put_quoted(description, true, NULL);
            printf("'");
        }
        printf("\n");
    }
    for (const char *p = kd_short_options; *p; p++) {
        if (*p == ':' || long_of(*p))
            continue; /* written with its long form */
        char name[4] = {'-', *p, '\0'};
        help_description(name, description, sizeof description);
        const char *words;
        char kind = value_kind(*p, &words);
        printf("complete -c kerndiff -s %c%s%s -d '", *p, p[1] == ':' ? " -r -f" : "",
               kind == 'd' ? " -a '(__fish_complete_directories)'" : "");
        put_quoted(description, true, NULL);
        printf("'\n");
    }
    for (const kd_command_row *r = rows; r->name; r++) {
        if (!kd_command_has_word(r))
            continue;
        printf("complete -c kerndiff -n __fish_use_subcommand -a %s -d '", r->name);
        put_quoted(r->help.summary ? r->help.summary : "", true, NULL);
        printf("'\n");
    }
    printf("complete -c kerndiff -n '__fish_seen_subcommand_from help' -f -a '"); /* kerndiff help CMD */
    print_help_words(rows);
    printf("'\n");
}

void kd_print_completion(const char *shell, const kd_command_row *rows)
{
    if (!strcmp(shell, "bash"))
        bash_completion(rows);
    else if (!strcmp(shell, "zsh"))
        zsh_completion(rows);
    else
        fish_completion(rows);
}
