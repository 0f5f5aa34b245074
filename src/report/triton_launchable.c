#include "report/triton_launchable.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "backend/triton_constexpr.h"
#include "backend/triton_msgs.h"
#include "report/diag_text.h"
#include "source/pykernels.h"
#include "util/diag.h"

typedef struct given_ctx {
    const kd_annotations *notes;
    const kd_launch_options *given;
} given_ctx;

const char *kd_triton_list_given_value(const char *name, const kd_annotations *notes, const kd_launch_options *given,
                                       const char **from)
{
    size_t len = strlen(name);
    for (size_t i = 0; given && i < given->scalars.count; i++)
        if (strncmp(given->scalars.items[i], name, len) == 0 && given->scalars.items[i][len] == '=') {
            *from = "--arg";
            return given->scalars.items[i] + len + 1;
        }
    const char *a = notes ? kd_annotation_get(notes, name) : NULL;
    *from = a ? "the file's annotation" : NULL;
    return a;
}

/* --arg NAME=VALUE or a `# kerndiff: NAME=VALUE` annotation: what the diff reads (setting_text). */
static bool is_given(const char *name, void *ctx)
{
    const given_ctx *g = ctx;
    const char *from;
    return kd_triton_list_given_value(name, g->notes, g->given, &from) != NULL;
}

bool kd_triton_list_refused(const kd_kernel *k, const kd_annotations *notes, const kd_launch_options *given,
                            const char *path, kd_strbuf *why)
{
    json_t *info = k->frontend_info ? json_loads(k->frontend_info, 0, NULL) : NULL;
    json_t *launches = json_object_get(info, "launches");
    /* the file's own launch is taken on a GPU (a capture): its values come from there */
    const char *unset = json_is_array(launches) && json_array_size(launches) == 0
                            ? kd_triton_unset_constexpr(info, json_array_get(json_object_get(info, "configs"), 0), is_given,
                                                        &(given_ctx){notes, given})
                            : NULL;
    if (unset) {
        kd_diag d = {0};
        if (kd_pykernels_block_like(unset))
            kd_diag_set(&d, KD_MSG_TRITON_LIST_NEEDS_BLOCK, 0, KD_S(unset), KD_S(k->name), KD_S(path),
                        KD_I(KD_TRITON_ASSUMED_BLOCK));
        else
            kd_diag_set(&d, KD_MSG_TRITON_LIST_NEEDS_VALUE, 0, KD_S(unset), KD_S(k->name), KD_S(path));
        kd_diag_text(&d, why);
        kd_diag_free(&d);
    }
    json_decref(info);
    return unset != NULL;
}

void kd_triton_list_constants(const kd_kernel *k, const kd_launch_options *given, kd_launch_abi *abi)
{
    json_t *info = k->frontend_info && given ? json_loads(k->frontend_info, 0, NULL) : NULL;
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(info, "params"), i, p) {
        const char *kind = json_string_value(json_object_get(p, "kind")), *name = json_string_value(json_object_get(p, "name"));
        if (!kind || !name || strcmp(kind, "constexpr") != 0)
            continue;
        size_t len = strlen(name);
        for (size_t j = 0; j < given->scalars.count; j++) {
            const char *item = given->scalars.items[j];
            if (strncmp(item, name, len) == 0 && item[len] == '=') {
                char *end = NULL;
                double value = strtod(item + len + 1, &end);
                if (end && end != item + len + 1 && *end == '\0')
                    kd_launch_abi_set(abi, name, value);
            }
        }
    }
    json_decref(info);
}
