#include "source/pykernels.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/xalloc.h"

bool kd_kernel_takes_descriptors(const kd_kernel *k)
{
    for (size_t i = 0; k && i < k->nparams; i++)
        if (strcmp(k->params[i].type, KD_TYPE_TENSOR_DESCRIPTOR) == 0)
            return true;
    return false;
}

size_t kd_pykernels_tile_axes(long long tile_dims)
{
    return tile_dims > 1 && tile_dims <= 4 ? (size_t)tile_dims : 1;
}

int kd_pykernels_assumed_block(size_t axes)
{
    size_t count = axes > 2 ? 2 : axes;
    int block = KD_TRITON_ASSUMED_BLOCK;
    for (;;) {
        long long tile = 1;
        for (size_t i = 0; i < count && tile <= KD_TRITON_ASSUMED_BLOCK; i++)
            tile *= block;
        if (tile <= KD_TRITON_ASSUMED_BLOCK || block == 1)
            return block;
        block /= 2;
    }
}

const char *kd_pykernels_scalar_type(const char *annotation, const char *value)
{
    if (annotation && *annotation) {
        if (strstr(annotation, "float") || strstr(annotation, "fp"))
            return "float";
        if (strstr(annotation, "64"))
            return "long long";
        if (strstr(annotation, "int"))
            return "int";
    }
    if (!value)
        return "int";
    bool hex = value[0] == '0' && (value[1] == 'x' || value[1] == 'X');
    if (!hex && (strpbrk(value, ".eE") || strcasestr(value, "inf") || strcasestr(value, "nan")))
        return "float";
    return "int";
}

static char *dup_or_null(const char *s) { return s ? kd_xstrdup(s) : NULL; }

/* 0, or 1 when the helper's description is malformed. */
static int add_param(kd_kernel *k, json_t *p)
{
    const char *kind = json_string_value(json_object_get(p, "kind"));
    const char *name = json_string_value(json_object_get(p, "name"));
    if (!kind || !name)
        return 1; /* malformed */
    if (strcmp(kind, "constexpr") == 0)
        return 0;
    k->params = kd_xreallocarray(k->params, k->nparams + 1, sizeof *k->params);
    kd_param *q = &k->params[k->nparams++];
    *q = (kd_param){0};
    q->name = kd_xstrdup(name);
    q->is_pointer = strcmp(kind, "pointer") == 0;
    q->is_const = q->is_pointer && !json_is_true(json_object_get(p, "stored"));
    if (q->is_pointer && !q->is_const && json_is_true(json_object_get(p, "loaded"))) {
        q->use = KD_USE_INOUT; /* a flag or annotation still overrides it */
        q->use_origin = "loaded and stored through in the source";
    }
    /* a buffer of indices (its loaded values cast to an integer, or used in an address): int */
    bool index = q->is_pointer && json_is_true(json_object_get(p, "index"));
    q->pointee = q->is_pointer ? kd_xstrdup(index ? "int" : "float") : NULL;
    q->type = kd_xstrdup(q->is_pointer ? (index ? (q->is_const ? "const int *" : "int *")
                                                : (q->is_const ? "const float *" : "float *"))
                         : strcmp(kind, "descriptor") == 0 ? KD_TYPE_TENSOR_DESCRIPTOR
                                                           : kd_pykernels_scalar_type(
                                                                 json_string_value(json_object_get(p, "annotation")), NULL));
    q->default_value = dup_or_null(json_string_value(json_object_get(p, "default")));
    return 0;
}

/* 0, or 1 when the helper's description is malformed. */
static int add_kernel(kd_kernel_list *out, json_t *k, json_t *imports)
{
    const char *name = json_string_value(json_object_get(k, "name"));
    json_t *params = json_object_get(k, "params");
    if (!name || !json_is_array(params))
        return 1;
    out->items = kd_xreallocarray(out->items, out->count + 1, sizeof *out->items);
    kd_kernel *kernel = &out->items[out->count++];
    *kernel = (kd_kernel){0};
    kernel->name = kd_xstrdup(name);
    kernel->qualified = kd_xstrdup(name);
    kernel->line = (int)json_integer_value(json_object_get(k, "line"));
    json_object_set(k, "imports", imports);
    /* jansson allocates with plain malloc; NULL from dumping an object is out of memory */
    if (!(kernel->frontend_info = json_dumps(k, JSON_COMPACT)))
        kd_die_oom(0);
    size_t i;
    json_t *p;
    json_array_foreach(params, i, p) {
        int rc = add_param(kernel, p);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int kd_pykernels_parse(const char *json, kd_kernel_list *out, kd_strbuf *error)
{
    *out = (kd_kernel_list){0};
    json_error_t jerr;
    json_t *root = json_loads(json, 0, &jerr);
    json_t *kernels = json_object_get(root, "kernels");
    json_t *imports = json_object_get(root, "imports");
    int rc = json_is_array(kernels) ? 0 : 1;
    size_t i;
    json_t *k;
    if (rc == 0 && !json_is_array(imports))
        imports = json_array();
    else if (rc == 0)
        json_incref(imports);
    json_t *helpers = json_array(); /* every kernel's description names the file's helpers */
    json_array_foreach(kernels, i, k)
        if (json_is_true(json_object_get(k, "helper")) && json_is_string(json_object_get(k, "name")))
            json_array_append(helpers, json_object_get(k, "name"));
    json_array_foreach(kernels, i, k)
        if (json_is_object(k))
            json_object_set(k, "helpers", helpers);
    json_decref(helpers);
    if (rc == 0) {
        json_array_foreach(kernels, i, k) {
            /* A jitted function that only other jitted functions call is inlined into them:
             * a helper, never a kernel to time or choose. */
            if (json_is_true(json_object_get(k, "helper")))
                continue;
            if ((rc = add_kernel(out, k, imports)) != 0)
                break;
        }
        json_decref(imports);
    }
    json_decref(root);
    if (rc != 0) {
        kd_sb_puts(error, "the Triton helper's kernel list is malformed (reinstall kerndiff)");
        kd_kernel_list_free(out);
        return -1;
    }
    return 0;
}

bool kd_pykernels_block_like(const char *constexpr_name) { return strstr(constexpr_name, "BLOCK") != NULL; }
