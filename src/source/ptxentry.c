#include "source/ptxentry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/dtype.h"
#include "source/compiled.h"
#include "source/ptxcount.h"
#include "source/roles.h"
#include "static/symbols.h"
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
    *p = (kd_param){.name = kd_xstrndup(name, name_len), .type = kd_xstrdup(type), .is_pointer = pointer};
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

/* A C++ entry (`_Z10scaled_addPKfS0_Pffi`) is the kernel its demangled name says:
 * "scaled_add", typed from the mangling (const included), parameters named p0, p1, ... (the
 * PTX's own names repeat the mangled name). Where the demangler gives no parameter list (a
 * name too long for it), the declaration's types stay. */
static void use_mangled_name(kd_kernel *k)
{
    if (strncmp(k->name, "_Z", 2) != 0)
        return;
    char *demangled = kd_demangle(k->name);
    kd_kernel typed;
    if (kd_kernel_from_signature(demangled, NULL, &typed) == 0 && typed.nparams == k->nparams) {
        kd_kernel_free(k);
        *k = typed;
        k->from_compiled = false;
    } else {
        if (kd_kernel_from_signature(demangled, NULL, &typed) == 0)
            kd_kernel_free(&typed);
        for (size_t i = 0; i < k->nparams; i++) {
            char name[24];
            snprintf(name, sizeof name, "p%zu", i);
            free(k->params[i].name);
            k->params[i].name = kd_xstrdup(name);
        }
        free(k->name);
        free(k->qualified);
        k->qualified = kd_xstrdup(demangled); /* "ns::big" when the demangler refused it */
        const char *colon = strrchr(demangled, ':');
        k->name = kd_xstrdup(colon ? colon + 1 : demangled);
    }
    free(demangled);
}

void kd_ptx_kernels(const char *ptx, kd_kernel_list *out)
{
    *out = (kd_kernel_list){0};
    char **names;
    size_t count;
    kd_ptx_entry_names(ptx, &names, &count);
    for (size_t i = 0; i < count; i++) {
        kd_kernel *k = push_kernel(out, names[i]);
        char *decl = kd_ptx_entry_params(ptx, names[i]);
        if (decl) {
            size_t len = strlen(decl);
            /* read_params reads "(...)": the list between its parentheses */
            char *wrapped = kd_xmalloc(len + 3);
            wrapped[0] = '(';
            memcpy(wrapped + 1, decl, len);
            wrapped[len + 1] = ')';
            wrapped[len + 2] = '\0';
            read_params(k, wrapped, wrapped + len + 1);
            free(wrapped);
        }
        free(decl);
        use_mangled_name(k);
        kd_compiled_read_uses(k, ptx, names[i]);
        kd_ptx_mark_counts(k, ptx, names[i]);
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
    /* what the code does through each parameter stays, position by position */
    size_t nold = k->nparams;
    kd_param_access *old = kd_xcalloc(nold + 1, sizeof *old);
    for (size_t i = 0; i < nold; i++)
        old[i] = k->params[i].access;
    free_params(k);
    int rc = 0;
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item && rc == 0; item = strtok_r(NULL, ",", &save))
        rc = signature_param(k, item, error);
    for (size_t i = 0; rc == 0 && k->nparams == nold && i < nold; i++)
        if (k->params[i].is_pointer)
            k->params[i].access = old[i];
    free(old);
    free(copy);
    return rc;
}

/* A cubin's C++ entry: its demangled name and the types of its mangled signature (there
 * is no PTX declaration to agree with), parameters p0, p1, ...; an extern "C" entry or one
 * the demangler refuses keeps its symbol and no parameters. */
static void type_from_mangled_name(kd_kernel *k)
{
    if (strncmp(k->name, "_Z", 2) != 0)
        return;
    char *demangled = kd_demangle(k->name);
    kd_kernel typed;
    if (kd_kernel_from_signature(demangled, NULL, &typed) == 0) {
        kd_kernel_free(k);
        *k = typed;
        k->from_compiled = false;
    }
    free(demangled);
}

void kd_ptx_kernels_named(char *const *names, size_t count, kd_kernel_list *out)
{
    *out = (kd_kernel_list){0};
    for (size_t i = 0; i < count; i++)
        type_from_mangled_name(push_kernel(out, names[i]));
}

/* inputs=a,b (outputs=, inouts=): the uses of those pointers, where a kernel has them (an
 * annotation speaks for every kernel of the file). */
static void mark_uses(kd_kernel *k, const char *names, kd_buffer_use use)
{
    for (size_t i = 0; i < k->nparams; i++) {
        kd_param *p = &k->params[i];
        size_t n = strlen(p->name);
        for (const char *q = names; p->is_pointer && q; q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL)
            if (strncmp(q, p->name, n) == 0 && (q[n] == ',' || q[n] == '\0')) {
                p->use = use;
                p->use_origin = "annotation";
                p->is_const = use == KD_USE_IN;
            }
    }
}

int kd_ptx_kernels_annotate(kd_kernel_list *kernels, const kd_annotations *annotations, kd_strbuf *error)
{
    const char *signature = kd_annotation_get(annotations, "signature");
    static const struct { const char *key; kd_buffer_use use; } uses[] = {
        {"inputs", KD_USE_IN}, {"outputs", KD_USE_OUT}, {"inouts", KD_USE_INOUT},
    };
    for (size_t i = 0; i < kernels->count; i++) {
        if (signature && apply_signature(&kernels->items[i], signature, error) != 0)
            return -1;
        for (size_t u = 0; u < sizeof uses / sizeof *uses; u++) {
            const char *names = kd_annotation_get(annotations, uses[u].key);
            if (names)
                mark_uses(&kernels->items[i], names, uses[u].use);
        }
    }
    return 0;
}
