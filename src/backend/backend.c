#include "backend/registry.h"

#include <stdlib.h>

#include "backend/backend_msgs.h"
#include "wire/locate.h"

/* In order of preference: the test seam first (it claims nothing unless set), then the
 * languages kerndiff recognises by suffix (source/kinds.h's kinds: Triton .py, PTX and
 * cubin), the CUDA backend last (it takes whatever nvcc may compile, .cu and its headers
 * and any suffix not in that list). */
static const kd_backend *const table[] = {
    &kd_backend_sim,
    &kd_backend_triton,
    &kd_backend_binary,
    &kd_backend_cuda,
};

const kd_backend *kd_backend_for(const char *v1_path, const char *v2_path)
{
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (table[i]->claims(v1_path) && table[i]->claims(v2_path))
            return table[i];
    return NULL;
}

const kd_backend *kd_frontend_for(const char *path)
{
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (table[i]->scan && table[i]->claims(path))
            return table[i];
    return &kd_backend_cuda;
}

int kd_backend_find_harness(const char *program, kd_argv *argv, kd_strbuf *why)
{
    *argv = (kd_argv){{NULL}};
    argv->items[0] = kd_harness_path(program);
    if (argv->items[0])
        return 0;
    kd_sb_printf(why, "cannot find the %s program beside kerndiff (build it with `make`, or set KERNDIFF_HARNESS_DIR)",
                 program);
    return -1;
}

void kd_argv_free(kd_argv *a)
{
    for (size_t i = 0; i < sizeof a->items / sizeof *a->items; i++)
        free(a->items[i]);
    *a = (kd_argv){{NULL}};
}

void kd_say_sided_args(int id, const char *side, const kd_diag_arg *args, size_t nargs)
{
    if (!side) {
        kd_say_args(id + 1, KD_DIAG_NO_SIDE, args, nargs);
        return;
    }
    kd_diag_arg with[KD_DIAG_MAX_ARGS];
    size_t n = 0;
    with[n++] = KD_S(side);
    for (size_t i = 0; i < nargs && n < KD_DIAG_MAX_ARGS; i++)
        with[n++] = args[i];
    kd_say_args(id, KD_DIAG_NO_SIDE, with, n);
}

const char *kd_frontend_python(const kd_frontend_options *opts)
{
    static char *default_python;
    if (opts->python)
        return opts->python;
    if (!default_python)
        default_python = kd_python_path();
    return default_python;
}
