#include "source/roles.h"

#include <stdbool.h>
#include <string.h>
#include <strings.h>

static bool is_integer_type(const char *type)
{
    static const char *const words[] = {"int", "long", "short", "size_t", "unsigned",
                                        "int32_t", "int64_t", "uint32_t", "uint64_t", "ptrdiff_t",
                                        "uint", "ulong", "ushort"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strstr(type, words[i]))
            return !strstr(type, "float") && !strstr(type, "double");
    return false;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

static bool contains_nocase(const char *s, const char *part)
{
    for (size_t n = strlen(part); *s; s++)
        if (strncasecmp(s, part, n) == 0)
            return true;
    return false;
}

/* A count of elements, not of something else: `block_size`, `tile_size`, `num_threads`,
 * `warp_count`, `stride` size the launch or the layout, not the data. */
static bool names_geometry(const char *name)
{
    static const char *const parts[] = {"block", "tile", "thread", "warp", "grid", "stride", "pitch", "dim", "smem",
                                        "shared", "iter", "step"};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        if (contains_nocase(name, parts[i]))
            return true;
    return false;
}

bool kd_param_named_count(const char *name)
{
    static const char *const exact[] = {"n", "size", "len", "length", "count", "numel", "num", "total", "nelem",
                                        "nelems", "nelements", "numelements", "num_elements", "n_elements",
                                        "num_elems", "n_elems", "nitems", "num_items", "numitems"};
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (strcasecmp(name, exact[i]) == 0)
            return true;
    return false;
}

static bool named_like_length(const char *name)
{
    if (kd_param_named_count(name))
        return true;
    if (names_geometry(name))
        return false;
    return strncasecmp(name, "num_", 4) == 0 || ends_with(name, "_size") || ends_with(name, "_len") ||
           ends_with(name, "_count") || (name[0] == 'n' && name[1] == '_');
}

kd_buffer_use kd_param_buffer_use(const kd_param *p, const char **why)
{
    const char *unused;
    if (!why)
        why = &unused;
    *why = "";
    if (!p->is_pointer)
        return KD_USE_DEFAULT;
    if (p->use != KD_USE_DEFAULT) {
        *why = p->use_origin ? p->use_origin : "declared";
        return p->use;
    }
    switch (p->access) {
    case KD_ACCESS_UNUSED:
        *why = "not used by the compiled code";
        return KD_USE_IN;
    case KD_ACCESS_READ:
        *why = "never written in the compiled code";
        return KD_USE_IN;
    case KD_ACCESS_WRITE:
        *why = "written in the compiled code";
        return KD_USE_OUT;
    case KD_ACCESS_READ_WRITE:
        *why = "read and written in the compiled code";
        return KD_USE_INOUT;
    case KD_ACCESS_ESCAPES:
        *why = "role assumed: the compiled code passes it where kerndiff cannot follow it";
        return KD_USE_OUT;
    case KD_ACCESS_UNKNOWN:
        break;
    }
    if (!p->is_const && p->unwritten_in_source) {
        *why = "never written in the source";
        return KD_USE_IN;
    }
    *why = p->is_const ? "declared const" : "not declared const";
    return p->is_const ? KD_USE_IN : KD_USE_OUT;
}

const char *kd_buffer_use_name(kd_buffer_use u)
{
    switch (u) {
    case KD_USE_IN: return "in";
    case KD_USE_OUT: return "out";
    case KD_USE_INOUT: return "in-out";
    case KD_USE_DEFAULT: break;
    }
    return "";
}

kd_buffer_use kd_buffer_use_parse(const char *word)
{
    static const struct { const char *word; kd_buffer_use use; } words[] = {
        {"in", KD_USE_IN},   {"input", KD_USE_IN},      {"out", KD_USE_OUT},     {"output", KD_USE_OUT},
        {"inout", KD_USE_INOUT}, {"in-out", KD_USE_INOUT}, {"in_out", KD_USE_INOUT},
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcmp(word, words[i].word) == 0)
            return words[i].use;
    return KD_USE_DEFAULT;
}

int kd_kernel_declare_uses(kd_kernel *k, const char *names, kd_buffer_use use, const char *origin, kd_strbuf *error)
{
    for (const char *item = names; *item;) {
        while (*item == ',' || *item == ' ')
            item++;
        size_t len = strcspn(item, ", ");
        if (len == 0)
            break;
        kd_param *found = NULL;
        for (size_t i = 0; i < k->nparams && !found; i++)
            if (strlen(k->params[i].name) == len && strncmp(k->params[i].name, item, len) == 0)
                found = &k->params[i];
        if (!found || !found->is_pointer) {
            kd_sb_printf(error, "'%.*s' is not a pointer parameter of %s; its buffers:", (int)len, item, k->qualified);
            size_t shown = 0;
            for (size_t i = 0; i < k->nparams; i++)
                if (k->params[i].is_pointer)
                    kd_sb_printf(error, "%s %s", shown++ ? "," : "", k->params[i].name);
            if (!shown)
                kd_sb_puts(error, " none");
            return -1;
        }
        found->use = use;
        found->use_origin = origin;
        item += len;
    }
    return 0;
}

kd_param_role kd_param_role_of(const kd_param *p)
{
    if (!p->is_pointer && (strcmp(p->type, "cudaStream_t") == 0 || strcmp(p->type, "CUstream") == 0))
        return KD_ROLE_STREAM;
    if (p->is_pointer)
        return kd_param_role_of_use(kd_param_buffer_use(p, NULL));
    if (is_integer_type(p->type) && (named_like_length(p->name) || p->bounds_index))
        return KD_ROLE_LENGTH;
    return KD_ROLE_SCALAR;
}

const char *kd_param_role_name(kd_param_role r)
{
    switch (r) {
    case KD_ROLE_INPUT: return "input buffer";
    case KD_ROLE_OUTPUT: return "output buffer";
    case KD_ROLE_LENGTH: return "element count";
    case KD_ROLE_SCALAR: return "scalar";
    case KD_ROLE_STREAM: return "stream";
    case KD_ROLE_SCRATCH: return "scratch";
    case KD_ROLE_INOUT: return "in-out buffer";
    }
    return "?";
}

bool kd_param_role_is_buffer(kd_param_role r)
{
    return r == KD_ROLE_INPUT || r == KD_ROLE_OUTPUT || r == KD_ROLE_INOUT;
}

const char *kd_param_role_direction(kd_param_role r)
{
    switch (r) {
    case KD_ROLE_INPUT: return "in";
    case KD_ROLE_OUTPUT: return "out";
    case KD_ROLE_INOUT: return "in-out";
    default: return "";
    }
}

kd_param_role kd_param_role_of_use(kd_buffer_use u)
{
    return u == KD_USE_IN ? KD_ROLE_INPUT : u == KD_USE_INOUT ? KD_ROLE_INOUT : KD_ROLE_OUTPUT;
}

bool kd_param_length_from_code(const kd_param *p)
{
    return !p->is_pointer && p->bounds_index && is_integer_type(p->type) && !named_like_length(p->name);
}
