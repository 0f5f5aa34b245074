/* pykernels.h — the Triton kernels of a .py file, from the JSON that the helper
 * `kerndiff-triton.py list` prints (it reads the file with Python's own `ast`).
 *
 * Each @triton.jit function that is a kernel (launched by the file, or called from no other
 * jitted function; the helper's "helper" flag marks the others) becomes a kd_kernel whose parameters are the kernel's runtime
 * arguments only: pointers (a buffer: an output when the kernel stores through it, else an
 * input; the pointee is float until the launch description says otherwise) and scalars
 * (an `int`; `float` when annotated so, or when the helper saw it used as a float). tl.constexpr meta-parameters are not arguments:
 * they stay in the kernel's frontend_info (the helper's JSON for it, with the file's local
 * imports added) for the Triton build. */
#ifndef KD_SOURCE_PYKERNELS_H
#define KD_SOURCE_PYKERNELS_H

#include "source/scan.h"
#include "util/strbuf.h"

/* Whether kernel k takes a tensor descriptor (KD_TYPE_TENSOR_DESCRIPTOR): only its caller's
 * launch builds it. */
bool kd_kernel_takes_descriptors(const kd_kernel *k);

/* Returns 0, or -1 with the reason in error (malformed JSON). */
int kd_pykernels_parse(const char *json, kd_kernel_list *out, kd_strbuf *error);

/* The C type kerndiff gives a scalar of a Triton kernel, from its Python annotation
 * ("tl.float32", "float", "tl.int64" ...) and the text of its value (may be NULL): "float"
 * for a float annotation or a value written with '.', an exponent, inf or nan; "long long"
 * for 64-bit annotations; else "int". */
const char *kd_pykernels_scalar_type(const char *annotation, const char *value);

/* A block-size constexpr (its name has BLOCK in it) that nothing gives a value (no default,
 * no literal at the file's call, no autotune config, no flag): a diff that times nothing (no
 * GPU) builds it with this value, the Triton tutorials' block, and says it was assumed; a
 * timed one refuses it. */
enum { KD_TRITON_ASSUMED_BLOCK = 1024 };
/* The value each assumed block-size constexpr gets, given the tile axes they size together
 * (kd_pykernels_tile_axes summed): KD_TRITON_ASSUMED_BLOCK for one axis, 32 for two (a 32 x 32
 * tile: BLOCK_M = BLOCK_N = 1024 is a million elements Triton compiles for minutes). More axes
 * count as two: a GEMM's BLOCK_M, BLOCK_N, BLOCK_K make tiles of two of them at a time, and
 * tl.dot wants each 16 or more. A power of two. */
int kd_pykernels_assumed_block(size_t axes);
/* The tile axes one block-size constexpr sizes: its tl.arange(0, NAME) count (the Triton
 * helper's "tile_dims", 0 or absent: one), so that one BLOCK_SIZE on both axes of a tile
 * counts twice. */
size_t kd_pykernels_tile_axes(long long tile_dims);
bool kd_pykernels_block_like(const char *constexpr_name);

#endif
