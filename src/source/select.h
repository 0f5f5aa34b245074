/* select.h — which kernel to compare: --fn, else the one kernel both files define, else
 * ask (numbered prompt on a terminal) or fail with the list of candidates. */
#ifndef KD_SOURCE_SELECT_H
#define KD_SOURCE_SELECT_H

#include <stdbool.h>
#include <stdio.h>
#include "source/scan.h"
#include "util/strbuf.h"

typedef struct kd_selection {
    char *name[2]; /* per side, as the user names it (may carry template args: "tk<float>") */
    bool one_kernel_each; /* paired because each file has one kernel, under different names */
} kd_selection;

/* kernels[i] are the kernels of files[i]. fn[i] are --fn's names or NULL. With `prompt_in`
 * non-NULL (a terminal) the user may be asked on `prompt_out`. Returns 0, or -1 with the
 * reason in `error` (which side, what is there, what to do). */
int kd_select_kernel(const kd_kernel_list kernels[2], const char *const files[2],
                     const char *const fn[2], FILE *prompt_in, FILE *prompt_out,
                     kd_selection *out, kd_strbuf *error);
void kd_selection_free(kd_selection *s);

/* The name without template arguments: "tk<float>" -> "tk" (malloc'd). */
char *kd_base_name(const char *name);

#endif
