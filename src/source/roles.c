#include "source/roles.h"

#include <stdbool.h>
#include <string.h>
#include <strings.h>

static bool is_integer_type(const char *type)
{
    static const char *const words[] = {"int", "long", "short", "size_t", "unsigned",
                                        "int32_t", "int64_t", "uint32_t", "uint64_t", "ptrdiff_t"};
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

static bool named_like_length(const char *name)
{
    static const char *const exact[] = {"n", "size", "len", "length", "count", "numel", "num", "total"};
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (strcasecmp(name, exact[i]) == 0)
            return true;
    return strncasecmp(name, "num_", 4) == 0 || ends_with(name, "_size") || ends_with(name, "_len") ||
           ends_with(name, "_count") || (name[0] == 'n' && name[1] == '_');
}

kd_param_role kd_param_role_of(const kd_param *p)
{
    if (!p->is_pointer && (strcmp(p->type, "cudaStream_t") == 0 || strcmp(p->type, "CUstream") == 0))
        return KD_ROLE_STREAM;
    if (p->is_pointer)
        return p->is_const ? KD_ROLE_INPUT : KD_ROLE_OUTPUT;
    if (is_integer_type(p->type) && named_like_length(p->name))
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
    }
    return "?";
}
