/* list_text.h — `kerndiff list FILE`: every kernel of a file as a diff would see it, so a
 * user sees what kerndiff will assume before anything runs:
 *
 *   reduce0<...>  (line 21 of helpers.cuh)
 *     template <class T>; instances: reduce0<float> reduce0<int>
 *     T *                      g_idata      input buffer of T (never written in the compiled code)
 *     T *                      g_odata      output buffer of T (written in the compiled code)
 *     unsigned int             n            element count
 *     instance reduce0<float>, compiled as void reduce0<float>(float*, float*, unsigned int)
 *     launch: grid 4096 (default)  block 256 (default)  smem 1024 B (assumed)  n 1048576 (default)
 *             g_idata: 1048576 f32 in (n)  g_odata: 1048576 f32 out (n)  n = 1048576 (n)
 *     assumed: smem 1024 B: one float of extern __shared__ sdata per thread of the block
 *
 * Each buffer says its role and why (the user's annotation or flag, the compiled code's use,
 * or the declaration's const); a kernel says where it lives (its line, the header that
 * declares it, the PTX entry, or the compiled code only); a template's rows carry the roles
 * of its first compiled instance; each launch says what was assumed from the code. Names,
 * types and messages that quote the user's source are escaped (report/untrusted.h). */
#ifndef KD_REPORT_LIST_TEXT_H
#define KD_REPORT_LIST_TEXT_H

#include "diff/options.h"
#include "launch/spec.h"
#include "source/annotation.h"
#include "source/scan.h"
#include "util/strbuf.h"

/* The list of `kernels` of the file at `path` (its annotations `notes`, may be NULL; `ptx`
 * the build's PTX or NULL, for template instances), each launched with the command line's
 * options `opts` (its launch flags), each launch resolved as the diff resolves it
 * (diff/pipeline.h kd_list_launch): this file only words it. */
void kd_list_text(const char *path, const kd_kernel_list *kernels, const kd_annotations *notes, const char *ptx,
                  const kd_diff_options *opts, kd_strbuf *out);

#endif
