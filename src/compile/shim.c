#include "compile/shim.h"

#include <string.h>

#include "source/roles.h"

/* The parameter's type with __restrict__ dropped: restrict on the pointer being cast to
 * means nothing, and `T *__restrict__ *` reads badly in diagnostics. */
static void plain_type(const char *type, kd_strbuf *out)
{
    static const char *const drop[] = {"__restrict__", "__restrict", "restrict"};
    for (const char *p = type; *p;) {
        size_t skip = 0;
        for (size_t i = 0; i < sizeof drop / sizeof *drop && !skip; i++)
            if (strncmp(p, drop[i], strlen(drop[i])) == 0)
                skip = strlen(drop[i]);
        if (skip)
            p += skip;
        else
            kd_sb_append(out, p++, 1);
    }
}

void kd_shim_source(const kd_kernel *launcher, kd_strbuf *out)
{
    kd_sb_printf(out, "\nextern \"C\" int %s(void **args, void *stream)\n{\n    %s(", KD_SHIM_SYMBOL,
                 launcher->qualified);
    for (size_t i = 0; i < launcher->nparams; i++) {
        const kd_param *p = &launcher->params[i];
        kd_sb_puts(out, i ? ",\n        " : "\n        ");
        if (kd_param_role_of(p) == KD_ROLE_STREAM) {
            kd_sb_puts(out, "(cudaStream_t)stream");
            continue;
        }
        kd_sb_puts(out, "*(");
        plain_type(p->type, out);
        kd_sb_printf(out, " *)args[%zu]", i);
    }
    kd_sb_puts(out, ");\n    return (int)cudaGetLastError();\n}\n");
}
