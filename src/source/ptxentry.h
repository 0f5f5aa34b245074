/* ptxentry.h — the kernels of a PTX file (any compiler's: Triton's cache, CuTe DSL,
 * hand-written), from its `.entry` declarations, for .ptx/.cubin inputs.
 *
 * A C++ entry (`_Z10scaled_addPKfS0_Pffi`) is listed under its demangled name
 * ("scaled_add"), typed from the mangled signature (`const float *` from `PKf`), its
 * parameters named p0, p1, ... An extern "C" entry keeps its name and its parameters' PTX
 * names, typed from the declaration: `.u64 .ptr` and plain `.u64`/`.b64` are pointers (that
 * is how nvcc and Triton pass them; a 64-bit integer must be declared with a `signature=`
 * annotation), `.u32/.s32/.b32` int, `.u16/.s16` short, `.u8/.s8` char, `.f32` float, `.f64`
 * double; a pointer's element type is unknown there (float until the launch says
 * otherwise: `NAME=f16`). Which pointers are read and written comes from the entry's code
 * (static/ptxflow.h, source/roles.h); `inputs=a,b`, `outputs=`, `inouts=` override it.
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

/* Kernels named `names` (count of them: a cubin's symbols). A C++ entry is listed under
 * its demangled name and typed from its mangled signature, parameters p0, p1, ...; an
 * extern "C" one has no parameters (the annotations' `signature=` gives them). */
void kd_ptx_kernels_named(char *const *names, size_t count, kd_kernel_list *out);

/* Applies `signature=`, `inputs=`, `outputs=` and `inouts=` annotations to every kernel. Returns 0, or -1 with the
 * reason in error (a malformed signature). */
int kd_ptx_kernels_annotate(kd_kernel_list *kernels, const kd_annotations *annotations, kd_strbuf *error);

#endif
