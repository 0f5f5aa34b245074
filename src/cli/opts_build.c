/* The options of how each side is built: --fn, --arch, nvcc and its flags, the cache, and Triton inputs
 * (--python, --run, --nth, --config ...) (cli/option_parse.h: one group per subsystem). */
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"
#include "compile/build.h"
#include "util/xalloc.h"

static const struct option options[] = {
    {"fn", required_argument, NULL, OPT_FN},
    {"arch", required_argument, NULL, OPT_ARCH},
    {"nvcc-flag", required_argument, NULL, OPT_NVCC_FLAG},
    {"nvcc", required_argument, NULL, OPT_NVCC},
    {"no-run", no_argument, NULL, OPT_NO_RUN},
    {"no-autotune", no_argument, NULL, OPT_NO_AUTOTUNE},
    {"no-cache", no_argument, NULL, OPT_NO_CACHE},
    {"python", required_argument, NULL, OPT_PYTHON},
    {"run", required_argument, NULL, OPT_RUN},
    {"nth", required_argument, NULL, OPT_CAPTURE_NTH},
    {"capture-timeout", required_argument, NULL, OPT_CAPTURE_TIMEOUT},
    {"no-capture", no_argument, NULL, OPT_NO_CAPTURE},
    {"config", required_argument, NULL, OPT_CONFIG},
    {NULL, 0, NULL, 0},
};

/* NAME1:NAME2, where "::" is a C++ scope and not the separator. */
static int parse_fn(const char *arg, kd_options *opts)
{
    for (const char *p = arg; *p; p++) {
        if (p[0] == ':' && p[1] == ':') {
            p++;
            continue;
        }
        if (*p == ':') {
            if (p == arg || !p[1])
                return -1;
            opts->diff.fn[0] = kd_xstrndup(arg, (size_t)(p - arg));
            opts->diff.fn[1] = kd_xstrdup(p + 1);
            return 0;
        }
    }
    if (!*arg)
        return -1;
    opts->diff.fn[0] = kd_xstrdup(arg);
    opts->diff.fn[1] = kd_xstrdup(arg);
    return 0;
}

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    switch (c) {
    case 'I':
    case 'D':
    case OPT_NVCC_FLAG: {
        /* Checked here, before anything runs: nvcc hands some arguments to a shell. */
        kd_strbuf why = {0};
        int bad = c == 'D' ? kd_build_check_define(optarg, &why)
                           : kd_build_check_flag(c == 'I' ? "-I" : "--nvcc-flag", optarg, &why);
        if (bad)
            kd_usage_error("%s", kd_sb_str(&why));
        kd_sb_free(&why);
        if (bad)
            return KD_EXIT_USAGE;
        kd_strlist_push(c == 'I'   ? &opts->diff.frontend.include_dirs
                        : c == 'D' ? &opts->diff.frontend.defines
                                   : &opts->diff.frontend.nvcc_flags, optarg);
        break;
    }
    case OPT_NVCC: opts->diff.frontend.nvcc = optarg; break;
    case OPT_PYTHON: opts->diff.frontend.python = optarg; break;
    case OPT_RUN:
        if (strspn(optarg, " \t") == strlen(optarg))
            return kd_usage_error("--run wants a command that launches the kernel (e.g. 'python run.py'), got '%s'", optarg);
        opts->diff.frontend.run_command = optarg;
        break;
    case OPT_NO_CAPTURE: opts->diff.frontend.no_capture = true; break;
    case OPT_CONFIG:
        if (!*optarg || strspn(optarg, " ") == strlen(optarg))
            return kd_usage_error("--config wants a config number (1, 2 ...) or NAME=VALUE,..., got '%s'", optarg);
        opts->diff.frontend.config = optarg;
        break;
    case OPT_CAPTURE_NTH: {
        double v;
        if (kd_opt_number(optarg, 1, 1000000, false, &v) != 0 || v != (int)v)
            return kd_usage_error("--nth wants a whole number from 1 to 1000000, got '%s'", optarg);
        opts->diff.frontend.capture_nth = (int)v;
        break;
    }
    case OPT_CAPTURE_TIMEOUT: {
        double v;
        if (kd_opt_number(optarg, 1, MAX_TIMEOUT_S, false, &v) != 0)
            return kd_usage_error("--capture-timeout wants seconds from 1 to %d, got '%s'", MAX_TIMEOUT_S, optarg);
        opts->diff.frontend.capture_timeout_s = (int)(v + 0.5);
        break;
    }
    case OPT_ARCH: opts->diff.arch = optarg; break;
    case OPT_NO_CACHE: opts->diff.frontend.no_cache = true; break;
    case OPT_FN:
        free((char *)opts->diff.fn[0]);
        free((char *)opts->diff.fn[1]);
        opts->diff.fn[0] = opts->diff.fn[1] = NULL;
        if (parse_fn(optarg, opts) != 0)
            return kd_usage_error("--fn wants NAME or NAME1:NAME2, got '%s'", optarg);
        break;
    case OPT_NO_RUN: opts->diff.no_run = true; break;
    case OPT_NO_AUTOTUNE: opts->diff.no_autotune = true; break;
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_build = {"build", options, parse};
