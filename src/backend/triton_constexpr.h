/* triton_constexpr.h — where a Triton kernel's tl.constexpr takes its value in a timed diff:
 * the one rule that the diff (backend/triton_meta.c kd_triton_resolve_meta) and `kerndiff list`
 * (through the diff's own preparation, diff/pipeline.h kd_list_launch) both follow, so that list never calls a launch launchable that
 * the diff refuses (issue 26: tests/realfiles/triton_add.py was both). */
#ifndef KD_BACKEND_TRITON_CONSTEXPR_H
#define KD_BACKEND_TRITON_CONSTEXPR_H

#include <jansson.h>
#include <stdbool.h>

/* In the order the diff looks. */
typedef enum kd_constexpr_from {
    KD_CONSTEXPR_GIVEN,     /* --arg, --call, or a `# kerndiff: NAME=VALUE` annotation */
    KD_CONSTEXPR_CONFIG,    /* the autotune config used */
    KD_CONSTEXPR_DEFAULT,   /* the signature's default */
    KD_CONSTEXPR_CALL,      /* the literal the file's own call passes (its launch not taken) */
    KD_CONSTEXPR_LENGTH,    /* named like an element count (n, n_elements): --n */
    KD_CONSTEXPR_HEURISTIC, /* computed by @triton.heuristics at the build */
    KD_CONSTEXPR_NONE,      /* nothing: a timed diff refuses the launch */
} kd_constexpr_from;

/* Where constexpr `param` (one of the helper's description's params[]) takes its value from;
 * kernel: the description; config: the autotune config used (NULL: none); given: whether flags
 * or annotations give it. */
kd_constexpr_from kd_triton_constexpr_from(json_t *kernel, json_t *param, json_t *config, bool given);

/* The first tl.constexpr of kernel (the description) nothing gives a value to, or NULL
 * (borrowed from kernel). given(name, ctx): whether flags or annotations give it. */
const char *kd_triton_unset_constexpr(json_t *kernel, json_t *config, bool (*given)(const char *name, void *ctx),
                                      void *ctx);

#endif
