/* watch.h — --watch: run the diff, then again whenever either file (or a file it includes)
 * changes, with the trend of recent runs. Ends on Ctrl-C. The loop says nothing itself:
 * what each run shows comes from a view (report/watch_view.h) the wording layer supplies. */
#ifndef KD_WORKFLOW_WATCH_H
#define KD_WORKFLOW_WATCH_H

#include "diff/options.h"
#include "report/watch_view.h"

/* Runs until interrupted; returns the last run's outcome (or KD_FAIL_INPUT) if the files
 * vanish. A file that cannot be read before the first run (missing, not a regular file,
 * over the cap) is said with its side and returns KD_FAIL_INPUT at once, nothing run. */
int kd_watch_loop(const kd_diff_options *opts, const kd_watch_view *view, int argc, char **argv);

/* The loop with the terminal's view (report/watch_view.c): the terminal report on stdout,
 * the gate's reason on stderr, the trend line. */
int kd_watch_run(const kd_diff_options *opts, const struct kd_render_options *render, int argc, char **argv);

#endif
