#include "source/ptxentry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/dtype.h"
#include "static/ptx.h"
#include "util/xalloc.h"

/* The C spelling of a PTX parameter type, and whether it is a pointer. NULL: unsupported
 * (an aligned byte array: a struct passed by value). */
static const char *c_type(const char *decl, bool *pointer)
{
    *pointer = strstr(decl, ".ptr") || strstr(decl, ".u64") || strstr(decl, ".b64");
    if (*pointer)
        return "float *";
    static const struct { const char *ptx, *c; } types[] = {
        {".u32", "unsigned int"}, {".s32", "int"}, {".b32", "int"}, {".f32", "float"}, {".f64", "double"},
        {".s64", "long long"}, {".u16", "unsigned short"}, {".s16", "short"}, {".u8", "unsigned char"},
        {".s8", "signed char"},
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strstr(decl, types[i].ptx))
            return types[i].c;
    return NULL;
}

static void push_param(kd_kernel *k, const char *name, size_t name_len, const char *type, bool pointer)
{
    k->params = kd_xreallocarray(k->params, k->nparams + 1, sizeof *k->params);
    kd_param *p = &k->params[k->nparams++];
    *p = (kd_param){kd_xstrndup(name, name_len), kd_xstrdup(type), NULL, pointer, false, NULL};
    if (pointer) {
        size_t n = strlen(type);
        while (n && (type[n - 1] == '*' || type[n - 1] == ' '))
            n--;
        p->pointee = kd_xstrndup(type, n);
    }
}

static kd_kernel *push_kernel(kd_kernel_list *out, const char *name)
{
    out->items = kd_xreallocarray(out->items, out->count + 1, sizeof *out->items);
    kd_kernel *k = &out->items[out->count++];
    *k = (kd_kernel){0};
    k->name = kd_xstrdup(name);
    k->qualified = kd_xstrdup(name);
    return k;
}

/* The parameter list of `.entry NAME(...)`: declarations separated by commas. */
static void read_params(kd_kernel *k, const char *open, const char *close)
{
    for (const char *p = open + 1; p < close;) {
        const char *end = memchr(p, ',', (size_t)(close - p));
        if (!end)
            end = close;
        const char *name_end = end;
        while (name_end > p && strchr(" \t\r\n", name_end[-1]))
            name_end--;
        const char *name = name_end;
        while (name > p && !strchr(" \t\r\n", name[-1]))
            name--;
        char decl[256];
        size_t dlen = (size_t)(name - p) < sizeof decl - 1 ? (size_t)(name - p) : sizeof decl - 1;
        memcpy(decl, p, dlen);
        decl[dlen] = '\0';
        bool pointer;
        const char *type = c_type(decl, &pointer);
        if (name_end > name)
            push_param(k, name, (size_t)(name_end - name), type ? type : "(struct)", pointer);
        p = end + 1;
    }
}

void kd_ptx_kernels(const char *ptx, kd_kernel_list *out)
{
    *out = (kd_kernel_list){0};
    char **names;
    size_t count;
    kd_ptx_entry_names(ptx, &names, &count);
    for (size_t i = 0; i < count; i++) {
        kd_kernel *k = push_kernel(out, names[i]);
        /* The declaration: ".entry NAME(" up to the matching ")". */
        size_t nlen = strlen(names[i]);
        const char *decl = ptx;
        while ((decl = strstr(decl, ".entry ")) != NULL) {
            const char *n = decl + 7;
            while (*n == ' ')
                n++;
            if (strncmp(n, names[i], nlen) == 0 && strchr(" \t\r\n(", n[nlen]))
                break;
            decl = n;
        }
        const char *open = decl ? strchr(decl, '(') : NULL, *brace = decl ? strchr(decl, '{') : NULL;
        const char *close = open ? strchr(open, ')') : NULL;
        if (open && close && (!brace || open < brace))
            read_params(k, open, close);
    }
    kd_ptx_names_free(names, count);
}

/* "x:f32*" -> a parameter; "const" inputs are set by inputs= afterwards. */
static int signature_param(kd_kernel *k, const char *item, kd_strbuf *error)
{
    const char *colon = strchr(item, ':');
    size_t tlen = colon ? strlen(colon + 1) : 0;
    bool pointer = tlen && colon[tlen] == '*';
    char dtype[16];
    kd_dtype t = KD_DT_UNKNOWN;
    char *count = NULL;
    if (colon && tlen - pointer < sizeof dtype) {
        memcpy(dtype, colon + 1, tlen - pointer);
        dtype[tlen - pointer] = '\0';
        if (!kd_dtype_setting(dtype, &t, &count))
            t = KD_DT_UNKNOWN;
        free(count);
    }
    if (!colon || colon == item || t == KD_DT_UNKNOWN) {
        kd_sb_printf(error, "signature entry '%s': expected NAME:DTYPE or NAME:DTYPE* (e.g. x:f16*, n:i32)", item);
        return -1;
    }
    static const struct { kd_dtype t; const char *c; } spell[] = {
        {KD_DT_F16, "half"}, {KD_DT_BF16, "__nv_bfloat16"}, {KD_DT_F32, "float"}, {KD_DT_F64, "double"},
        {KD_DT_I8, "signed char"}, {KD_DT_U8, "unsigned char"}, {KD_DT_I16, "short"}, {KD_DT_U16, "unsigned short"},
        {KD_DT_I32, "int"}, {KD_DT_U32, "unsigned int"}, {KD_DT_I64, "long long"}, {KD_DT_U64, "unsigned long long"},
    };
    char type[40] = "int";
    for (size_t i = 0; i < sizeof spell / sizeof *spell; i++)
        if (spell[i].t == t)
            snprintf(type, sizeof type, "%s%s", spell[i].c, pointer ? " *" : "");
    push_param(k, item, (size_t)(colon - item), type, pointer);
    return 0;
}

static void free_params(kd_kernel *k)
{
    for (size_t i = 0; i < k->nparams; i++) {
        free(k->params[i].name);
        free(k->params[i].type);
        free(k->params[i].pointee);
        free(k->params[i].default_value);
    }
    free(k->params);
    k->params = NULL;
    k->nparams = 0;
}

static int apply_signature(kd_kernel *k, const char *signature, kd_strbuf *error)
{
    char *copy = kd_xstrdup(signature);
    free_params(k);
    int rc = 0;
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item && rc == 0; item = strtok_r(NULL, ",", &save))
        rc = signature_param(k, item, error);
    free(copy);
    return rc;
}

void kd_ptx_kernels_named(char *const *names, size_t count, kd_kernel_list *out)
{
    *out = (kd_kernel_list){0};
    for (size_t i = 0; i < count; i++)
        push_kernel(out, names[i]);
}

/* inputs=a,b: those pointers are inputs (const: seeded, not compared). */
static void mark_inputs(kd_kernel *k, const char *inputs)
{
    for (size_t i = 0; i < k->nparams; i++) {
        kd_param *p = &k->params[i];
        size_t n = strlen(p->name);
        for (const char *q = inputs; p->is_pointer && q; q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL)
            if (strncmp(q, p->name, n) == 0 && (q[n] == ',' || q[n] == '\0'))
                p->is_const = true;
    }
}

int kd_ptx_kernels_annotate(kd_kernel_list *kernels, const kd_annotations *annotations, kd_strbuf *error)
{
    const char *signature = kd_annotation_get(annotations, "signature");
    const char *inputs = kd_annotation_get(annotations, "inputs");
    for (size_t i = 0; i < kernels->count; i++) {
        if (signature && apply_signature(&kernels->items[i], signature, error) != 0)
            return -1;
        if (inputs)
            mark_inputs(&kernels->items[i], inputs);
    }
    return 0;
}
