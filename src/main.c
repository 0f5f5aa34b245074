/* kerndiff — compare two versions of a GPU kernel. This file only dispatches: the command
 * word (cli/options.c) selects a row of cmd/'s table (cmd/cmd.h), whose module runs it; each
 * stage of the pipeline lives in its own folder under src/ (see docs/ARCHITECTURE.md). */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>

#include "cli/exit_codes.h"
#include "cli/options.h"
#include "cli/outputs.h"
#include "cli/status.h"
#include "cmd/cmd.h"
#include "diff/runtime.h"
#include "report/announce.h"
#include "report/diag_text.h"
#include "report/formats.h"
#include "report/stderr_text.h"
#include "util/env.h"
#include "util/output.h"
#include "util/progress.h"
#include "util/xalloc.h"

int main(int argc, char **argv)
{
    /* A harness that dies makes writes to its pipe fail; that must be an error to handle,
     * not a signal that ends kerndiff. */
    signal(SIGPIPE, SIG_IGN);
    /* jansson's allocations follow the out-of-memory policy too (util/xalloc.h). */
    json_set_alloc_funcs(kd_xmalloc, free);
    /* The engine's messages are data (util/diag.h), worded by report/ on stderr. */
    kd_diag_set_sink(kd_diag_to_stderr, NULL);
    kd_diag_set_words(kd_diag_text); /* a reason still handed up as text gets the same words */
    kd_trace_set_status_sink(kd_status_to_stderr); /* util/progress.h's status line, drawn by report/ */
    kd_runtime_on_verdict(kd_announce_verdict);    /* the verdict said as soon as it is known */
    kd_options opts;
    int rc = kd_options_parse(argc, argv, &opts);
    if (rc == 0 && kd_env_check() != 0) /* a misspelt knob's value would read as unset, silently */
        rc = KD_EXIT_USAGE;
    if (rc == 0)
        rc = kd_outputs_check(&opts); /* before anything runs: no report over the user's work */
    if (rc != 0) {
        kd_options_free(&opts);
        return rc;
    }
    kd_trace_set(opts.verbosity);
    const kd_cmd *cmd = opts.row; /* the command's row (cmd/commands.c), found by the parse */
    kd_cmd_args args = {&opts, argc, argv};
    rc = cmd ? cmd->run(&args) : KD_EXIT_TOOL;
    /* Nothing asked for goes unsaid: a run that stopped before its report names each output
     * it did not write (a usage error is the command line's, said already). */
    if (rc != KD_EXIT_OK && rc != KD_EXIT_USAGE)
        kd_outputs_unwritten(&opts);
    kd_options_free(&opts);
    /* A reader that stopped reading (kerndiff ... | head) is no failure: quietly, the run's
     * status (cli/exit_codes.h, KD_EXIT_OK's row). Any other write error is one. */
    int err;
    if (kd_stdout_check(&err) != 0 && err == EPIPE)
        return rc;
    if (kd_formats_stdout_check() != 0 && rc == KD_EXIT_OK)
        rc = kd_outputs_status(1); /* a report nobody received: the status says so too */
    return rc;
}
