/* watch.h — --watch: run the diff, then again whenever either file (or a file it includes)
 * changes, with the trend of recent runs. Ends on Ctrl-C. The loop says nothing itself:
 * what each run shows comes from a view the wording layer supplies (report/watch_view.c). */
#ifndef KD_WORKFLOW_WATCH_H
#define KD_WORKFLOW_WATCH_H

#include "diff/model.h"
#include "diff/options.h"
#include "measure/stats.h"

/* What is shown as the watch goes; each hook gets ctx. */
typedef struct kd_watch_view {
    void (*run_started)(void *ctx, int run);                   /* run counts from 1 */
    void (*result)(void *ctx, const kd_comparison *c, int rc); /* after each run: the report, the gate */
    void (*trend)(void *ctx, const double *speedups, const kd_verdict *verdicts, int n); /* oldest first */
    void (*waiting)(void *ctx);                                /* before waiting for the next change */
    void *ctx;
} kd_watch_view;

/* Runs until interrupted; returns the last run's outcome (or KD_FAIL_INPUT) if the files
 * vanish. */
int kd_watch_loop(const kd_diff_options *opts, const kd_watch_view *view, int argc, char **argv);

/* The loop with the terminal's view (report/watch_view.c): the terminal report on stdout,
 * the gate's reason on stderr, the trend line. */
struct kd_render_options;
int kd_watch_run(const kd_diff_options *opts, const struct kd_render_options *render, int argc, char **argv);

#endif
