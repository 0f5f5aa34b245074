/* The commands that only say something about kerndiff: --help (help), --version, --completion. */
#include "cmd/cmd.h"

#include <stdio.h>

#include "report/parts_text.h"
#include "report/report.h"
#include "wire/protocol.h"

/* kerndiff --help, kerndiff help [CMD], kerndiff CMD --help: from the rows' help parts. */
int kd_cmd_help(const kd_cmd_args *a)
{
    const kd_command_help *rows[16];
    size_t n = 0;
    const kd_cmd *table = a->opts->rows ? a->opts->rows : kd_cmds;
    for (const kd_cmd *c = table; c->name && n < sizeof rows / sizeof *rows; c++)
        rows[n++] = &c->help;
    return kd_help_print_for(kd_help_subject(a->argc, a->argv, table), rows, n);
}

/* The Makefile's: the commit built, "+" for changes not committed (unknown outside git). */
#ifndef KD_COMMIT
#define KD_COMMIT "unknown"
#endif

int kd_cmd_version(const kd_cmd_args *a)
{
    (void)a;
    printf("kerndiff %s\nbuilt with CUDA %s; harness protocol %d; JSON schema %d\nsource: commit %s\n", KD_VERSION,
           KD_CUDA_VERSION, KD_PROTOCOL_VERSION, KD_JSON_SCHEMA_VERSION, KD_COMMIT);
    kd_strbuf parts = {0};
    kd_parts_text(&parts); /* which tools and parts were found, and where */
    fputs(kd_sb_str(&parts), stdout);
    kd_sb_free(&parts);
    return 0;
}

int kd_cmd_completion(const kd_cmd_args *a)
{
    kd_print_completion(a->opts->completion_shell, a->opts->rows ? a->opts->rows : kd_cmds);
    return 0;
}
