/* A comparison's end, shared by diff and compare (cmd/cmd.h). */
#include "cmd/cmd.h"

#include <stdio.h>

#include "cli/outputs.h"
#include "cli/status.h"
#include "report/formats.h"
#include "report/gate_text.h"
#include "report/stderr_text.h"
#include "util/progress.h"

int kd_cmd_comparison_outputs(const kd_options *opts, const kd_comparison *c)
{
    if (!c->analysed)
        return 0;
    kd_status_clear();
    kd_format_request requests[KD_OUTPUTS_MAX];
    size_t n = kd_outputs_requests(opts, requests, KD_OUTPUTS_MAX);
    kd_format_subject s = {.kind = KD_SUBJECT_COMPARISON, .comparison = c, .render = &opts->render};
    /* A document on stdout owns it: then no terminal report. */
    return kd_formats_write(&s, kd_options_stdout_taken(opts) ? NULL : stdout, requests, n);
}

int kd_cmd_comparison_status(const kd_comparison *c, kd_outcome outcome, int output_failures)
{
    bool gate_failed;
    int rc = kd_comparison_status(c, outcome, output_failures, &gate_failed);
    if (gate_failed) {
        kd_strbuf why = {0};
        kd_gate_failure_text(c, &why);
        if (why.len)
            kd_untrusted_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
        kd_sb_free(&why);
    }
    return rc;
}
