/* compare.h — the pipeline for two files: read, discover kernels, choose one, build both
 * sides, analyse what the compiler made. Fills a kd_comparison for the renderers. */
#ifndef KD_DIFF_COMPARE_H
#define KD_DIFF_COMPARE_H

#include "diff/options.h"
#include "diff/comparison.h"

/* Returns KD_OK or another kd_outcome. A failure before the static analysis is
 * complete has been printed to stderr (what failed, on which side, what to do); a runtime
 * failure after it is in c->runtime_note, with c->analysed set so the report can still
 * be shown. */
int kd_compare_files(const kd_diff_options *opts, kd_comparison *out);

/* Reads one file through its backend's front end (backend.h) and finds its kernels and
 * `kerndiff:` annotations (`annotations` may be NULL); on failure prints the reason naming
 * `side` (NULL: no side). */
int kd_scan_file(const kd_frontend_options *opts, const char *path, const char *side, kd_kernel_list *kernels,
                 kd_annotations *annotations);

/* `kerndiff list`: the kernels of one file as a diff would see them. When the scan cannot
 * tell everything (a macro may declare kernels; a template's instances have types only once
 * compiled) the file is built: kernels found only in the compiled code are added to
 * `kernels`, and *ptx is the build's PTX (for kd_compiled_instances), else NULL. On
 * failure the reason is printed; kernels and annotations are the caller's to free. */
int kd_list_file(const kd_diff_options *opts, const char *path, kd_kernel_list *kernels, kd_annotations *annotations,
                 char **ptx);

#endif
