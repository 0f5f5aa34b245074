/* `kerndiff app -- CMD1 -- CMD2` (or two nsys exports): collect or read both sides, write
 * every output through the fan-out, gate on the total GPU kernel time. */
#include "cmd/cmd.h"

#include <stdio.h>

#include "app/collect.h"
#include "cli/outputs.h"
#include "cli/status.h"
#include "report/formats.h"
#include "report/gate_text.h"
#include "report/stderr_text.h"

int kd_cmd_app(const kd_cmd_args *a)
{
    const kd_options *opts = a->opts;
    kd_app_comparison c;
    kd_outcome outcome = kd_app_collect(opts->diff.files, &opts->app, opts->diff.gate.fail_if_slower_pct, &c);
    int failures = 0;
    if (outcome == KD_OK) {
        kd_format_request requests[KD_OUTPUTS_MAX];
        size_t n = kd_outputs_requests(opts, requests, KD_OUTPUTS_MAX);
        kd_format_subject s = {.kind = KD_SUBJECT_APP, .app = &c, .render = &opts->render, .app_top = opts->app.top};
        failures = kd_formats_write(&s, kd_options_stdout_taken(opts) ? NULL : stdout, requests, n);
    }
    bool gate_failed;
    int rc = kd_app_status(&c, outcome, failures, &gate_failed);
    if (gate_failed) {
        kd_strbuf why = {0};
        kd_app_gate_failure_text(&c, &why);
        kd_untrusted_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
        kd_sb_free(&why);
    }
    kd_app_comparison_free(&c);
    return rc;
}
