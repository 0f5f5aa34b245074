/* select.h — which kernel to compare: --fn, else the one kernel both files define, else
 * fail with the list of candidates; and which kernels two files share (kd_match_kernels). */
#ifndef KD_SOURCE_SELECT_H
#define KD_SOURCE_SELECT_H

#include <stdbool.h>
#include "source/scan.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/strlist.h"

typedef struct kd_selection {
    char *name[2]; /* per side, as the user names it (may carry template args: "tk<float>") */
    bool one_kernel_each; /* paired because each file has one kernel, under different names */
} kd_selection;

/* kernels[i] are the kernels of files[i]. fn[i] are --fn's names or NULL. Returns 0, or -1
 * with the reason in `error` (which side, what is there, what to do; kd_diag_free it). Several kernels shared
 * without --fn are an error here: the diff compares each of them (kd_match_kernels) before
 * it asks for one. */
int kd_select_kernel(const kd_kernel_list kernels[2], const char *const files[2], const char *const fn[2],
                     kd_selection *out, kd_diag *error);
void kd_selection_free(kd_selection *s);

/* The kernels two files share and those only one has, by name. */
typedef struct kd_kernel_match {
    char **shared;          /* in names[0]'s order, each once (owned copies) */
    size_t nshared;
    char **only[2];         /* only in side 0 / side 1, in that side's order (owned copies) */
    size_t nonly[2];
} kd_kernel_match;

/* Matches names[0] against names[1] (each a side's kernels, a template as its compiled
 * instances: "reduce0<float>"), by equal spelling. */
void kd_match_kernels(const kd_strlist names[2], kd_kernel_match *out);
void kd_kernel_match_free(kd_kernel_match *m);

/* The name without template arguments: "tk<float>" -> "tk" (malloc'd). */
char *kd_base_name(const char *name);

#endif
