/* roles.h — what a kernel parameter is for when kerndiff launches the kernel itself:
 * pointers are buffers typed by their pointee, integers named like a length get the element
 * count, other scalars need a value from the user.
 *
 * A buffer's use, first that applies: the user's (`inputs=`, `outputs=`, `inouts=`,
 * `--buf NAME=in|out|inout`: kd_kernel_declare_uses), then the compiled code's (never
 * written: in; written: out; read and written, atomics and reductions: in-out; lost by the
 * analysis: out, "role assumed"), then the source's (a pointer the kernel's body reads and
 * never writes nor lets escape: in, source/body_writes.h), then the declaration's
 * (`const T *`: in, else out). */
#ifndef KD_SOURCE_ROLES_H
#define KD_SOURCE_ROLES_H

#include <stdbool.h>

#include "source/scan.h"
#include "util/strbuf.h"

typedef enum kd_param_role {
    KD_ROLE_INPUT,    /* filled with seeded random data, not compared */
    KD_ROLE_OUTPUT,   /* poisoned, compared after the run */
    KD_ROLE_LENGTH,   /* integer named n, N, size, len, count, numel, numElements, num_*, *_count ..., or that
                         the compiled code bounds the global thread index by (bounds_index): the element count */
    KD_ROLE_SCALAR,   /* any other value: needs --arg NAME=VALUE */
    KD_ROLE_STREAM,   /* a launcher's cudaStream_t: the harness's stream */
    KD_ROLE_SCRATCH,  /* compiler-owned workspace (Triton's scratch pointers): count bytes, never compared */
    KD_ROLE_INOUT,    /* read and written: seeded like an output's starting contents (never poisoned, so the
                         kernel reads data, not the poison), compared after the run */
} kd_param_role;

/* The launch role: a pointer's use (kd_param_buffer_use) as INPUT, OUTPUT or INOUT. */
kd_param_role kd_param_role_of(const kd_param *p);
/* An integer that is the element count because the compiled code bounds the global thread
 * index by it (kd_param bounds_index), not because of its name. */
bool kd_param_length_from_code(const kd_param *p);
/* Whether `name` is one of the plain names of an element count ("n", "numel", "n_elements"
 * ...), not only shaped like one ("SPLIT_SIZE", "n_cols"): the names a Triton constexpr may be
 * given --n by (a tile size given a million elements would compile for minutes). */
bool kd_param_named_count(const char *name);
/* "input buffer", "output buffer", "in-out buffer", "element count", ... */
const char *kd_param_role_name(kd_param_role r);
/* INPUT, OUTPUT and INOUT: a buffer kerndiff allocates (not the compiler's scratch). */
bool kd_param_role_is_buffer(kd_param_role r);
/* A buffer's direction as the launch line shows it: "in", "out", "in-out" ("" for others). */
const char *kd_param_role_direction(kd_param_role r);
/* The role of a use: IN -> INPUT, OUT -> OUTPUT, INOUT -> INOUT (DEFAULT -> OUTPUT). */
kd_param_role kd_param_role_of_use(kd_buffer_use u);

/* A pointer's use as decided above, and why, as a phrase for `list` and messages:
 * "never written in the compiled code", "written in the compiled code", "read and written
 * in the compiled code", "role assumed: the compiled code passes it where kerndiff cannot
 * follow it", "never written in the source", "declared const", "not declared const", or the
 * user's origin ("annotation").
 * Not a pointer: KD_USE_DEFAULT. */
kd_buffer_use kd_param_buffer_use(const kd_param *p, const char **why);
/* "in", "out", "in-out" ("" for KD_USE_DEFAULT). */
const char *kd_buffer_use_name(kd_buffer_use u);
/* "in" / "input" / "out" / "output" / "inout" / "in-out": the use, else KD_USE_DEFAULT. */
kd_buffer_use kd_buffer_use_parse(const char *word);

/* Declares the use of the pointer parameters named in `names` (comma separated: an
 * annotation's value) as `use`, from `origin` (static text). Returns 0, or -1 with the reason
 * in error when a name is not a pointer parameter of k (the reason lists those there are). */
int kd_kernel_declare_uses(kd_kernel *k, const char *names, kd_buffer_use use, const char *origin, kd_strbuf *error);

#endif
