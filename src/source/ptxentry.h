/* ptxentry.h — the kernels of a PTX file (any compiler's: Triton's cache, CuTe DSL,
 * hand-written), from its `.entry` declarations, for .ptx/.cubin inputs.
 *
 * Parameter types come from the declaration: `.u64 .ptr` and plain `.u64`/`.b64` are
 * pointers (that is how nvcc and Triton pass them; a 64-bit integer must be declared with a
 * `signature=` annotation), `.u32/.s32/.b32` int, `.u16/.s16` short, `.u8/.s8` char,
 * `.f32` float, `.f64` double. A pointer's element type is unknown (float until the launch
 * says otherwise: `NAME=f16`), and since PTX does not say which pointers are written, every
 * pointer is an output (compared in full) unless `inputs=a,b` names it an input.
 *
 * `signature=x:f32*,y:f16*,n:i32,eps:f32` (annotation or sidecar) replaces what the PTX
 * says, and is the only source of parameters for a cubin without its PTX. */
#ifndef KD_SOURCE_PTXENTRY_H
#define KD_SOURCE_PTXENTRY_H

#include "source/annotation.h"
#include "source/scan.h"
#include "util/strbuf.h"

/* The .entry kernels of ptx, described as above. */
void kd_ptx_kernels(const char *ptx, kd_kernel_list *out);

/* Kernels named `names` (count of them) without parameters (a cubin's: the annotations
 * give them). */
void kd_ptx_kernels_named(char *const *names, size_t count, kd_kernel_list *out);

/* Applies `signature=` and `inputs=` annotations to every kernel. Returns 0, or -1 with the
 * reason in error (a malformed signature). */
int kd_ptx_kernels_annotate(kd_kernel_list *kernels, const kd_annotations *annotations, kd_strbuf *error);

#endif
