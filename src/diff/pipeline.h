/* compare.h — the pipeline for two files: read, discover kernels, choose one, build both
 * sides, analyse what the compiler made. Fills a kd_comparison for the renderers. */
#ifndef KD_DIFF_COMPARE_H
#define KD_DIFF_COMPARE_H

#include "diff/options.h"
#include "util/diag.h"
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

/* One kernel of a listed file with its launch as the diff resolves it: a side made of the
 * kernel, the file's annotations and the command line's launch flags, through the diff's own
 * kd_resolve_launch (diff/runtime.h), so that `list` and the diff cannot disagree. Nothing is
 * run (no capture of the file's own launch: described as a diff without a GPU describes it). */
typedef struct kd_listed_launch {
    bool described;      /* spec is the launch; else refused or launch_error says why not */
    kd_launch_spec spec; /* kd_launch_spec_build's result (a refusal keeps its needs_value) */
    char *launch_error;  /* the description's refusal (kd_describe_launch), or NULL */
    kd_diag refused;     /* the preparation's refusal (id 0: none), or, for a launch a diff that
                            times refuses (side.unset_block), that refusal; not said on stderr */
    kd_kernel *kernel;   /* the kernel as the launch takes it (Triton: scalar types of their
                            values), or NULL: as listed */
    kd_launch_abi abi;   /* what the preparation fixed (Triton: the constexprs' values, as constants) */
} kd_listed_launch;

/* Fills *out (kd_listed_launch_free) for kernel k of the file at path (notes: its annotations,
 * may be NULL). Returns the preparation's kd_outcome. */
int kd_list_launch(const kd_diff_options *opts, const char *path, const kd_kernel *k, const kd_annotations *notes,
                   kd_listed_launch *out);
void kd_listed_launch_free(kd_listed_launch *l);

#endif
