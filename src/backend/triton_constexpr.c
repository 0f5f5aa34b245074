#include "backend/triton_constexpr.h"

#include <string.h>

#include "source/roles.h"

/* Whether @triton.heuristics of the kernel computes `name`. */
static bool computed(json_t *kernel, const char *name)
{
    size_t i;
    json_t *h;
    json_array_foreach(json_object_get(kernel, "heuristics"), i, h) {
        const char *n = json_string_value(json_object_get(h, "name"));
        if (n && strcmp(n, name) == 0)
            return true;
    }
    return false;
}

kd_constexpr_from kd_triton_constexpr_from(json_t *kernel, json_t *param, json_t *config, bool given)
{
    const char *name = json_string_value(json_object_get(param, "name"));
    if (!name)
        return KD_CONSTEXPR_NONE;
    if (given)
        return KD_CONSTEXPR_GIVEN;
    if (json_object_get(json_object_get(config, "meta"), name))
        return KD_CONSTEXPR_CONFIG;
    if (json_string_value(json_object_get(param, "default")))
        return KD_CONSTEXPR_DEFAULT;
    if (json_string_value(json_object_get(param, "call_value")))
        return KD_CONSTEXPR_CALL;
    /* a constexpr named exactly as a count is one (tutorial `n: tl.constexpr`); one shaped like
       a size (SPLIT_SIZE, CODE_SIZE, group_size) is a tile's, never given the element count */
    if (kd_param_named_count(name))
        return KD_CONSTEXPR_LENGTH;
    return computed(kernel, name) ? KD_CONSTEXPR_HEURISTIC : KD_CONSTEXPR_NONE;
}

const char *kd_triton_unset_constexpr(json_t *kernel, json_t *config, bool (*given)(const char *name, void *ctx),
                                      void *ctx)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(kernel, "params"), i, p) {
        const char *kind = json_string_value(json_object_get(p, "kind")), *name = json_string_value(json_object_get(p, "name"));
        if (kind && name && strcmp(kind, "constexpr") == 0 &&
            kd_triton_constexpr_from(kernel, p, config, given && given(name, ctx)) == KD_CONSTEXPR_NONE)
            return name;
    }
    return NULL;
}
