/* spec.h — how one side's kernel is launched: one buffer per pointer parameter, typed by
 * its pointee; values for the scalars; grid, block and dynamic shared memory.
 *
 * Precedence, per setting: the side's --call settings, the command line, then the file's
 * `// kerndiff:` annotations, then inference from the signature:
 *   - a pointer parameter is a buffer of `n` elements of its pointee type (a float4*
 *     buffer of n holds n float4); its role is the compiled code's or the declaration's
 *     (source/roles.h): input (seeded random data), output (poisoned, compared after the
 *     run) or in-out (seeded, never poisoned, compared), unless `--call vN:NAME=in|out|inout`,
 *     `--buf NAME=in|out|inout` or `inputs=`/`outputs=`/`inouts=` says otherwise.
 *     `NAME=EXPR` (annotation) or `--buf NAME=EXPR` sets its element count; EXPR may use n.
 *   - an integer parameter named like a length (roles.h) gets n;
 *   - any other scalar needs `NAME=VALUE` (annotation) or `--arg NAME=VALUE`;
 *   - block: `block=EXPR` / --block, else what the code says (source/geometry.h): its
 *     __launch_bounds__, else the size of a constant-sized shared array it indexes by
 *     threadIdx (`#define BLOCK_SIZE 128`, `__shared__ float s[TILE][TILE]`), else 16x16 for
 *     a kernel that indexes threads in y, else 256; grid: `grid=EXPR` / --grid, default
 *     ceil(n/block) (a 2-D kernel: enough blocks to cover how far its x and y indices go);
 *     `smem=EXPR` / --smem: dynamic shared memory bytes, default 0, or, for a kernel with
 *     `extern __shared__ T s[]`, one T per thread of the block ("assumed").
 *   - a buffer that the kernel indexes in 2-D (`A[row*K+k]` with `row < M`, `k < K`) gets
 *     the extent its index reaches (M*K, origin "indexing"), and its shape's scalars without
 *     a value get sqrt(n) each ("assumed"), or n itself when one of them is named N (or n) and
 *     the user gave n (--n 2048 on an SGEMM(M, N, K): 2048 x 2048); one whose 2-D index cannot be bounded is an
 *     error that asks for its count, rather than a launch that might fault.
 *   - n: --n, else `n=COUNT` annotation, else 1M (1048576).
 * An annotation key that is no setting and no parameter of the file's kernels is an error. 
 * grid/block/smem/buffer expressions may use n, block (the block's x), and every scalar
 * parameter's value by name. grid and block take "X" or "X,Y" or "X,Y,Z". */
#ifndef KD_LAUNCH_SPEC_H
#define KD_LAUNCH_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include "util/strlist.h"
#include "launch/call.h"
#include "launch/dtype.h"
#include "source/annotation.h"
#include "source/roles.h"
#include "source/scan.h"
#include "util/strbuf.h"

typedef struct kd_launch_arg {
    char *name;
    kd_param_role role;     /* INPUT/OUTPUT/INOUT: a buffer; LENGTH/SCALAR: a value; STREAM: the harness's */
    kd_type_info type;      /* pointee type for buffers, the value's type for scalars */
    unsigned long long count;/* buffers: elements of `type` (vector types count whole vectors) */
    double value;           /* scalars: the value (integers exact up to 2^53) */
    const char *origin;     /* "--buf", "--arg", "--call vN", "annotation", "n", "inferred" */
} kd_launch_arg;

typedef struct kd_launch_spec {
    unsigned long long n;
    const char *n_origin;   /* "--n", "--call vN", "annotation", "default" */
    unsigned grid[3], block[3];
    unsigned long long dynamic_smem;
    /* Where grid, block and dynamic_smem came from: "--grid" (the flag), "--call vN",
     * "annotation" or "default"; the report shows them so a wrong launch can be seen. */
    const char *grid_origin, *block_origin, *smem_origin;
    kd_launch_arg *args;    /* in parameter order */
    size_t nargs;
    bool dynamic_shared;    /* the kernel uses extern __shared__ memory (its size is smem) */
    /* What kerndiff assumed from the kernel's code rather than was told, as phrases joined
     * by "; " ("block 128: BLOCK_SIZE = 128 sizes __shared__ float temp[BLOCK_SIZE] ...");
     * "" when nothing. The origins above say "assumed" / "__launch_bounds__" / "shared
     * array" / "indexing" where one of these applies. */
    char assumed[1024];
    /* After a failed build (kd_launch_spec_build's -1, the rest zeroed): the named scalar
     * parameters that still need a value (none given, none in the file, none the code can
     * tell), ", "-joined in parameter order; "" when the failure was another. The one rule
     * behind the refusal, for everyone who says what a launch needs (the diff of several
     * kernels, kd_launch_needs_collect). */
    char needs_value[512];
    /* After a failed build: the request names what the kernel lacks (an --arg/--buf/--call
     * entry of no parameter, an unknown annotation key, a role annotation of no buffer): a
     * mistake in what was asked, refused whether or not anything can run, so that a machine
     * without a GPU catches it too. */
    bool misnamed;
} kd_launch_spec;

/* What a kernel's compiler fixes about its launch. A Triton cubin runs with 32 x num_warps
 * threads, exactly the dynamic shared memory Triton computed, and trailing scratch pointers
 * (global, then profile; docs/PROTOCOL.md `arg I scratch`); its meta-parameters (BLOCK=1024)
 * are compile-time values, not arguments, but grid expressions may use them. */
typedef struct kd_launch_constant {
    char *name;
    double value;
} kd_launch_constant;

typedef struct kd_launch_abi {
    bool fixed;                        /* false: the launch decides everything (CUDA) */
    unsigned block_threads;
    unsigned long long dynamic_smem;
    kd_launch_constant *constants;     /* compile-time values (owned): usable in expressions, and
                                          --arg NAME=VALUE of one is not an unknown name */
    size_t nconstants;
    unsigned nscratch;                 /* trailing scratch pointers, 0..2 */
    unsigned long long scratch_bytes[2]; /* per program (block); 0: a NULL pointer */
    char *default_grid;                /* grid when none is given ("cdiv(n,BLOCK)"; owned), or NULL */
    /* Captured data (a Triton side taken from the user's launch, issue 26): items[i] is the
     * file whose bytes seed buffer argument i (the compiled kernel's parameter order, as
     * wire/client.h's kd_harness_side.fill wants it; owned), NULL for one seeded at random;
     * count is the number of parameters, 0 when nothing was captured. */
    kd_strlist fill;
} kd_launch_abi;
/* Adds or replaces a constant. */
void kd_launch_abi_set(kd_launch_abi *abi, const char *name, double value);
void kd_launch_abi_free(kd_launch_abi *abi);

/* The launch settings of the command line (--n, --grid, --block, --smem, --buf, --arg,
 * --call), filled once by the option parser; kd_side_launch_request (diff/runtime.h)
 * makes a side's request from them. NULL / empty: not given. */
typedef struct kd_launch_options {
    const char *n, *grid, *block, *smem;
    kd_strlist buffers;       /* --buf NAME=EXPR */
    kd_strlist scalars;       /* --arg NAME=VALUE */
    kd_call_settings call[2]; /* --call vN:KEY=VALUE,...: each side's settings, merged */
} kd_launch_options;

typedef struct kd_launch_request {
    const kd_kernel *kernel;
    const kd_annotations *annotations; /* may be NULL */
    const char *n;                     /* --n or NULL */
    const char *grid, *block, *smem;   /* --grid/--block/--smem or NULL */
    const kd_strlist *buffers;         /* --buf NAME=EXPR */
    const kd_strlist *scalars;         /* --arg NAME=VALUE */
    const kd_call_settings *call;      /* this side's --call settings, or NULL */
    const char *call_origin;           /* "--call v1" or "--call v2": quoted in messages */
    const kd_launch_abi *abi;          /* NULL: nothing fixed by the compiler */
    const char *comment;               /* the file's annotation comment ("//", "#"), for messages; NULL: "//" */
} kd_launch_request;

/* The harnesses pass at most this many kernel parameters (their argument tables). */
#define KD_LAUNCH_MAX_ARGS 64

/* Returns 0, or -1 with a reason in `error` that names the parameter or setting and what
 * to do (e.g. "scalar parameter 'alpha' (float) needs a value: --arg alpha=VALUE or
 * `// kerndiff: alpha=VALUE`"; every scalar without a value is named in one message).
 * Unknown --buf/--arg/--call names, a pointee type kerndiff cannot allocate (a struct, a
 * template's T), zero or oversized geometry and more than KD_LAUNCH_MAX_ARGS parameters
 * are errors. */
int kd_launch_spec_build(const kd_launch_request *req, kd_launch_spec *out, kd_strbuf *error);
void kd_launch_spec_free(kd_launch_spec *s);

/* Whether `failed`'s refusal was for want of a value for scalar `name` (its needs_value). */
bool kd_launch_spec_needs(const kd_launch_spec *failed, const char *name);
/* Appends the scalars `failed` still needs (its needs_value) to `names` (", "-joined), each
 * once: a name already in `names` is skipped. For a line that gathers several launches'
 * needs (several kernels, two sides). */
void kd_launch_needs_collect(const kd_launch_spec *failed, kd_strbuf *names);
/* The flags that give those names values, the command line's syntax: "--arg a=VALUE --arg
 * b=VALUE" for names "a, b" (a message's data, worded in report/). */
void kd_launch_needs_flags(const char *names, kd_strbuf *flags);

/* What several kernels' launches need, gathered for one line (the several-kernels timing
 * line): kd_launch_needs_add once per kernel, with its two sides' launches. `names` is the
 * union ("a, b"), `flags` its --arg flags; `differ` says the kernels do not all need the
 * same (then an --arg of one kernel's parameter is refused for another: `each` gives each
 * kernel that needs values with its own, "ka: --arg a=VALUE; kc: --arg b=VALUE"). */
typedef struct kd_launch_needs_line {
    kd_strbuf names, flags, each;
    bool differ;
    size_t kernels;
    char *first; /* the first kernel's needs, to compare the others with */
} kd_launch_needs_line;
void kd_launch_needs_add(kd_launch_needs_line *line, const char *kernel, const kd_launch_spec *v1,
                         const kd_launch_spec *v2);
void kd_launch_needs_line_free(kd_launch_needs_line *line);

/* The grid's blocks (Triton: programs). */
unsigned long long kd_launch_spec_blocks(const kd_launch_spec *s);

/* Whether any part of the launch was not told (by a flag, an annotation, the compiled code or a
 * capture) but assumed: a default n, grid or block, a guessed dynamic shared size, a scalar or
 * buffer size inferred from the code, or anything said in `assumed`. Such a launch is run once
 * under memcheck before it is timed (issue 39). */
bool kd_launch_spec_guessed(const kd_launch_spec *s);

/* Total bytes of every buffer (for the "not enough GPU memory" message). */
unsigned long long kd_launch_spec_bytes(const kd_launch_spec *s);

#endif
