/* sweep.h — the diff at several sizes or compile-time values:
 *   --n 1M,4M,16M   or   --n 1M..64M:x4 (multiply)   or   --n 1K..8K:+1K (add)
 *   --sweep NAME=a,b,c   (-D NAME=a, -D NAME=b ...: one cached build per value)
 * A size is a runtime value: the builds are reused (the cache), only the launch changes.
 * Each point's setup tells measure/harness_pool.h how many points follow (the next point's
 * harness children start ahead), and the spec's free ends the pool.
 * Here: the request expanded and checked, and each point's diff options; cmd/sweep.c runs the
 * points and hands them to report/'s fan-out. */
#ifndef KD_WORKFLOW_SWEEP_H
#define KD_WORKFLOW_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "diff/options.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/strlist.h"

typedef struct kd_sweep_spec {
    const char *parameter;   /* "n" or the --sweep NAME */
    bool define;             /* a compile-time value (-D NAME=value) */
    char **values;           /* as text: "1048576", "4" */
    size_t count;
} kd_sweep_spec;

/* True when the options ask for a sweep: --sweep NAME=... given, or a list or range in --n. */
bool kd_sweep_requested(const char *sweep, const char *n);
/* True when an --n value is a list or a range (a sweep), not one count. NULL: false. */
bool kd_sweep_n_list(const char *n);
/* Expands the request (--sweep's text, else --n's), every point checked (a count for --n, a
 * -D value for --sweep), so that a bad point is refused before any point runs. Returns 0,
 * or -1 with the reason in *error (a bad value or range, over 64 points; a workflow/
 * message, said by the caller). */
int kd_sweep_parse(const char *sweep, const char *n, kd_sweep_spec *out, kd_diag *error);
void kd_sweep_spec_free(kd_sweep_spec *s);

/* One point's diff options: the base's, with the sweep's value in place of --n or one more
 * -D (whose list and text `defines` and `define_text` own: a comparison made with `diff`
 * points into them, so they are freed after it, kd_sweep_point_options_release). */
typedef struct kd_sweep_point_options {
    kd_diff_options diff;
    kd_strlist defines;
    kd_strbuf define_text;
} kd_sweep_point_options;
/* Point i's options into *o (its defines and define_text must be empty or released). */
void kd_sweep_point_setup(const kd_diff_options *base, const kd_sweep_spec *s, size_t i, kd_sweep_point_options *o);
/* Frees what point options own (the -D list and text), leaving them empty. */
void kd_sweep_point_options_release(kd_strlist *defines, kd_strbuf *define_text);

#endif
