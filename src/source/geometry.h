/* geometry.h — what a kernel file's code says about its launch, read from its text (not
 * from comment annotations): dynamic shared memory, the block a shared array is sized for,
 * and how far each buffer's index reaches. launch/spec uses it for what the user did not
 * set, and says that it assumed so.
 *
 * Read per kernel (CUDA C++: each __global__ definition; PTX: each .entry; Python: the
 * parameter names of each `def`, for annotation key checks only):
 *   - dynamic shared memory: `extern __shared__ T s[]` in the kernel, at file scope and
 *     used by it, or inside a helper the kernel names (the CUDA samples' SharedMemory<T>);
 *     `extern __shared__ char raw[]` cast to `(float *)raw` is of float. PTX: a module's
 *     `.extern .shared .align A .b8 s[]` that the entry's body names (A bytes a thread).
 *   - a block: a static `__shared__ T s[BLOCK]` (or `[TILE][TILE]`) whose size is a
 *     `#define`d or `const` integer and that the kernel indexes with threadIdx (directly or
 *     through a variable made from it): block BLOCK (TILE x TILE).
 *   - extents: every `P[EXPR]` of a pointer parameter P whose EXPR is sums and products of
 *     numbers, the kernel's scalars and variables bounded by a guard (`if (row < M)`,
 *     `for (k = 0; k < K; ...)`): the count is max(EXPR)+1 with each variable at its bound
 *     minus one ("(M-1)*K+(K-1)+1"), an expression of the kernel's scalars. A buffer whose
 *     index multiplies by a scalar but cannot be bounded is marked so: launching it with n
 *     elements would be a guess.
 *   - a 2-D kernel (threadIdx.y or blockIdx.y): how far its x and y thread indices go; in
 *     an unguarded one, the bound its row-major indexing implies (kd_kernel_geometry.implied);
 *     threadIdx.x/.y in an index are at most the block's (`block`, `__block_y` in counts). */
#ifndef KD_SOURCE_GEOMETRY_H
#define KD_SOURCE_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>

typedef struct kd_buffer_extent {
    char *param;       /* the pointer parameter */
    char *count;       /* element count, an expression of the kernel's scalars; NULL: unknown */
    char *indexing;    /* one index as written ("row * K + k"), for messages */
    unsigned rank;     /* distinct scalars multiplied in the index (1: flat, 2: rows x cols ...) */
} kd_buffer_extent;

typedef struct kd_kernel_geometry {
    char *name;                  /* unqualified name (PTX: the entry's name) */
    char **params;               /* parameter names in order */
    size_t nparams;
    char **template_params;      /* names of a template's parameters (T, blockSize) */
    size_t ntemplate_params;
    bool dynamic_shared;         /* uses extern __shared__ / .extern .shared */
    char *shared_name;           /* that array's name, or NULL */
    char *shared_type;           /* its element type as written ("float", "T"); NULL: unknown */
    unsigned shared_bytes;       /* PTX: bytes a thread from its .align; 0 otherwise */
    unsigned block[3];           /* from a sized shared array; block[0] == 0: none */
    char *block_reason;          /* "BLOCK_SIZE = 128 sizes __shared__ float temp[BLOCK_SIZE]" */
    char *launch_bounds;         /* __launch_bounds__'s first argument, evaluated; NULL: none */
    kd_buffer_extent *extents;
    size_t nextents;
    bool two_d;                  /* indexes threads in y */
    char *reach[2];              /* how far the x and y thread indices go (bound expressions), or NULL */
    /* An unguarded 2-D kernel (no `if (x < width)`): its grid-wide x and y indices bounded by
       the row-major relation of an index (`x + width * y`: x < width; y < the paired name's
       scalar, height, else the same one, a square), the grid then covering that shape. */
    char *reach_step[2];         /* blockIdx's factor in that index ("32"); NULL: none read */
    char *implied[2];            /* the index the bound was read from ("xIndex + width * yIndex") */
    bool square[2];              /* the bound is the other side's scalar (no name pairs with it) */
    char *reassigned;            /* an index local given a second value (transposeCoalesced's xIndex): the
                                    bounds hold only for a square shape (reach[0] == reach[1]) */
    bool paired[2];              /* the bound is the scalar named beside the row length (height of width) */
    /* Python (Triton): one program a row, `row = tl.program_id(0)`, `ptr + row * STRIDE`, the
       columns masked by `< LENGTH`: each STRIDE and the row LENGTH (a contiguous row-major
       tensor: STRIDE = LENGTH), and the row indexing as written, for messages. */
    char **row_strides;
    size_t nrow_strides;
    char *row_length;            /* NULL: not such a kernel */
    char **row_indexing;         /* each stride's row indexing ("input_ptr + row_idx * input_row_stride") */
    bool block_tile;             /* block[] is a tile's (TILE x ROWS from its loop), not a shared array's */
} kd_kernel_geometry;

typedef struct kd_file_geometry {
    kd_kernel_geometry *kernels;
    size_t count;
} kd_file_geometry;

/* Reads every kernel of text (len bytes, need not be NUL-terminated); the language is
 * told from the text (a PTX .entry, a Python def, else CUDA C++). Never fails. */
void kd_geometry_read(const char *text, size_t len, kd_file_geometry *out);
/* The kernel named name: its unqualified name, a template instance's ("reduce<float, 256>"
 * finds reduce), or a mangled entry's (_Z10scaled_addPKfPfi finds scaled_add). NULL: none. */
const kd_kernel_geometry *kd_geometry_find(const kd_file_geometry *g, const char *name);
/* The extent read for buffer param, or NULL. */
const kd_buffer_extent *kd_geometry_extent(const kd_kernel_geometry *k, const char *param);
/* Whether some kernel of the file has a parameter (or template parameter) named name. */
bool kd_geometry_has_param(const kd_file_geometry *g, const char *name);
void kd_geometry_free(kd_file_geometry *g);
/* Moves into `into` every kernel of `from` that `into` has no kernel of that name for (a
 * header's kernels, read after the file that includes it: the file's own come first); what
 * is left in from is freed, from is emptied. */
void kd_geometry_merge(kd_file_geometry *into, kd_file_geometry *from);

#endif
