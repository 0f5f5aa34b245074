/* The terminal's view of --watch (report/watch_view.h; workflow/watch.c runs the loop): each
 * run's header, the terminal report on stdout, the reason a run failed or its gate did not pass on stderr, the trend of
 * recent runs and the waiting line. The loop itself (workflow/watch.c) says nothing. */
#include "report/watch_view.h"

#include <stdio.h>

#include "report/gate_text.h"
#include "report/model_text.h"
#include "report/note_text.h"
#include "report/report.h"
#include "report/stderr_text.h"
#include "util/outcome.h"

static void run_started(void *ctx, int run)
{
    (void)ctx;
    printf("== run %d\n", run);
}

static void result(void *ctx, const kd_comparison *c, int rc)
{
    const kd_render_options *render = ctx;
    if (c->analysed)
        kd_render_terminal(stdout, c, render);
    kd_strbuf why = {0};
    if (rc != KD_OK && kd_note_text(&c->runtime_note, &why))
        kd_untrusted_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
    kd_sb_free(&why);
    if (rc == KD_OK && c->gate.result != KD_GATE_PASSED) {
        /* a gate not judged names itself and the real reason, as the exit message does */
        if (c->gate.result == KD_GATE_NOT_MEASURED)
            kd_gate_not_evaluated_text(c, &why);
        else
            kd_gate_reason(&c->gate, &why);
        kd_untrusted_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
    }
    kd_sb_free(&why);
}

static void trend(void *ctx, const double *speedups, const kd_verdict *verdicts, int n)
{
    (void)ctx;
    printf("trend (oldest first):");
    for (int i = 0; i < n; i++)
        printf(" %.3fx%s", speedups[i], verdicts[i] == KD_VERDICT_FASTER ? "+" : verdicts[i] == KD_VERDICT_SLOWER ? "-" : "~");
    printf("   (+ faster, - slower, ~ no significant difference)\n");
}

static void waiting(void *ctx)
{
    (void)ctx;
    printf("watching for changes (Ctrl-C to stop)...\n");
    fflush(stdout);
}

kd_watch_view kd_watch_terminal_view(const struct kd_render_options *render)
{
    return (kd_watch_view){.run_started = run_started, .result = result, .trend = trend, .waiting = waiting,
                           .ctx = (void *)render};
}
