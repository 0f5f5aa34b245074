/* sweep.h — the diff at several sizes or compile-time values:
 *   --n 1M,4M,16M   or   --n 1M..64M:x4 (multiply)   or   --n 1K..8K:+1K (add)
 *   --sweep NAME=a,b,c   (-D NAME=a, -D NAME=b ...: one cached build per value)
 * A size is a runtime value: the builds are reused (the cache), only the launch changes. */
#ifndef KD_WORKFLOW_SWEEP_H
#define KD_WORKFLOW_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include "cli/options.h"
#include "util/strbuf.h"

typedef struct kd_sweep_spec {
    const char *parameter;   /* "n" or the --sweep NAME */
    bool define;             /* a compile-time value (-D NAME=value) */
    char **values;           /* as text: "1048576", "4" */
    size_t count;
} kd_sweep_spec;

/* True when the options ask for a sweep (a list or range in --n, or --sweep). */
bool kd_sweep_requested(const kd_options *opts);
/* True when an --n value is a list or a range (a sweep), not one count. NULL: false. */
bool kd_sweep_n_list(const char *n);
/* Expands the request, every point checked (a count for --n, a -D value for --sweep), so
 * that a bad point is refused before any point runs. Returns 0, or -1 with the reason in
 * error (a bad value or range, over 64 points). */
int kd_sweep_parse(const kd_options *opts, kd_sweep_spec *out, kd_strbuf *error);
void kd_sweep_spec_free(kd_sweep_spec *s);

/* Runs the diff at every point, prints each point's headline as it comes, then a summary
 * table (and JSON/Markdown when asked). Returns the first non-zero exit status of a point
 * (later points still run unless a build or input error makes them pointless). */
int kd_sweep_run(const kd_options *opts, const kd_sweep_spec *spec);

#endif
