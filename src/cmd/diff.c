/* `kerndiff V1 V2` (and git mode): one comparison, or a sweep, or --watch. */
#include "cmd/cmd.h"

#include <stdio.h>

#include "cli/status.h"
#include "diff/pipeline.h"
#include "report/note_text.h"
#include "report/stderr_text.h"
#include "workflow/sweep.h"
#include "workflow/watch.h"

int kd_cmd_diff(const kd_cmd_args *a)
{
    const kd_options *opts = a->opts;
    if (opts->watch)
        return kd_exit_code(kd_watch_run(&opts->diff, &opts->render, a->argc, a->argv));
    if (kd_sweep_requested(opts->sweep, opts->diff.launch.n))
        return kd_cmd_sweep(a);
    kd_comparison c;
    kd_outcome outcome = kd_compare_files(&opts->diff, &c);
    c.argc = a->argc;
    c.argv = a->argv;
    int failures = kd_cmd_comparison_outputs(opts, &c);
    if (c.analysed && outcome != KD_OK) {
        /* Why the run stopped short, after the report (the report says what was done). */
        kd_strbuf why = {0};
        if (kd_note_text(&c.runtime_note, &why))
            kd_untrusted_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
        kd_sb_free(&why);
    }
    int rc = kd_cmd_comparison_status(&c, outcome, failures);
    kd_comparison_free(&c);
    return rc;
}
