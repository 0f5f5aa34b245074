/* watch_view.h — what --watch shows as it goes (workflow/watch.c's loop calls these hooks;
 * the loop itself says nothing). The type lives here, on report/'s floor, so that the
 * terminal's view (report/watch_view.c) names nothing above report/: workflow/ includes it,
 * never the other way round. */
#ifndef KD_REPORT_WATCH_VIEW_H
#define KD_REPORT_WATCH_VIEW_H

#include "diff/comparison.h"
#include "measure/stats.h"

struct kd_render_options;

/* What is shown as the watch goes; each hook gets ctx. */
typedef struct kd_watch_view {
    void (*run_started)(void *ctx, int run);                   /* run counts from 1 */
    void (*result)(void *ctx, const kd_comparison *c, int rc); /* after each run: the report, the gate */
    void (*trend)(void *ctx, const double *speedups, const kd_verdict *verdicts, int n); /* oldest first */
    void (*waiting)(void *ctx);                                /* before waiting for the next change */
    void *ctx;
} kd_watch_view;

/* The terminal's view: each run's header, the terminal report on stdout, the reason a run
 * failed or its gate did not pass on stderr, the trend of recent runs, the waiting line.
 * render must outlive the view. */
kd_watch_view kd_watch_terminal_view(const struct kd_render_options *render);

#endif
