/* watch.h — --watch: run the diff, then again whenever either file (or a file it includes)
 * changes, with the trend of recent runs. Ends on Ctrl-C. */
#ifndef KD_WORKFLOW_WATCH_H
#define KD_WORKFLOW_WATCH_H

#include "diff/options.h"
#include "report/report.h"

/* Runs until interrupted; returns the last run's outcome (or
 * KD_FAIL_INPUT) if the files vanish. */
int kd_watch_run(const kd_diff_options *opts, const kd_render_options *render, int argc, char **argv);

#endif
