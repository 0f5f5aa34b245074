#include "cli/options.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/exit_codes.h"

enum {
    OPT_FN = 256, OPT_ARCH, OPT_NVCC_FLAG, OPT_NVCC, OPT_NO_COLOR, OPT_JSON, OPT_MARKDOWN,
    OPT_NO_CACHE, OPT_BLOCK, OPT_ALL_INSTRUCTIONS, OPT_VERSION,
};

static const struct option long_options[] = {
    {"fn", required_argument, NULL, OPT_FN},
    {"arch", required_argument, NULL, OPT_ARCH},
    {"nvcc-flag", required_argument, NULL, OPT_NVCC_FLAG},
    {"nvcc", required_argument, NULL, OPT_NVCC},
    {"block", required_argument, NULL, OPT_BLOCK},
    {"no-color", no_argument, NULL, OPT_NO_COLOR},
    {"no-cache", no_argument, NULL, OPT_NO_CACHE},
    {"all-instructions", no_argument, NULL, OPT_ALL_INSTRUCTIONS},
    {"json", optional_argument, NULL, OPT_JSON},
    {"markdown", optional_argument, NULL, OPT_MARKDOWN},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

void kd_print_help(void)
{
    fputs(
        "usage: kerndiff [options] V1.cu V2.cu     diff two versions of a kernel\n"
        "       kerndiff list FILE.cu              list the kernels of a file\n"
        "\n"
        "Builds both versions with nvcc and shows what the compiler made of each: PTX and\n"
        "SASS instruction histograms, registers, spills, shared memory, barriers and the\n"
        "theoretical occupancy. Works without a GPU.\n"
        "\n"
        "Choosing the kernel:\n"
        "  --fn NAME             the kernel to compare (NAME<T> picks a template instance)\n"
        "  --fn NAME1:NAME2      when v1 and v2 name it differently\n"
        "                        default: the one kernel both files define\n"
        "Building:\n"
        "  --arch sm_XX          target architecture (default: the GPU's, else sm_90)\n"
        "  -I DIR                add an include folder (both sides)\n"
        "  -D NAME[=VALUE]       define a macro (both sides)\n"
        "  --nvcc-flag FLAG      pass FLAG to nvcc (both sides; repeatable)\n"
        "  --nvcc PATH           the nvcc to use (default: $KERNDIFF_NVCC, else nvcc on PATH,\n"
        "                        else /usr/local/cuda/bin/nvcc)\n"
        "  --no-cache            rebuild even if the build cache has both builds\n"
        "Analysis:\n"
        "  --block N             threads per block for the occupancy estimate\n"
        "                        (default: `// kerndiff: block=N` in the file,\n"
        "                        else __launch_bounds__, else 256)\n"
        "  --all-instructions    list unchanged instruction rows too\n"
        "Output:\n"
        "  --json[=FILE]         write JSON (docs/json-schema.json) to FILE or stdout;\n"
        "                        `--json FILE` works when FILE ends in .json\n"
        "  --markdown[=FILE]     write Markdown to FILE or stdout (`--markdown FILE.md`)\n"
        "  --no-color            no colour (also when NO_COLOR is set or not a terminal)\n"
        "  -h, --help            this text\n"
        "  --version             the version\n"
        "\n"
        "Exit status: 0 diff done, 2 usage, 3 input (missing file, kernel not found or\n"
        "ambiguous), 4 build failed, 5 runtime failure, 6 outputs differ (--require-match),\n"
        "7 a required tool is missing.\n"
        "\n"
        "Examples:\n"
        "  kerndiff examples/vector_loads/v1.cu examples/vector_loads/v2.cu\n"
        "  kerndiff --fn reduce --arch sm_80 old.cu new.cu\n"
        "  kerndiff --fn add_v1:add_v2 --json=diff.json a.cu b.cu\n"
        "  kerndiff list examples/matmul/v2.cu\n",
        stdout);
}

static int strlist_push(kd_strlist *list, const char *s)
{
    char **items = realloc(list->items, (list->count + 1) * sizeof *items);
    if (!items)
        return -1;
    list->items = items;
    list->items[list->count++] = (char *)s;
    return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* `--json FILE` (with a space) is taken only when FILE looks like the output file, so
 * `kerndiff --json a.cu b.cu` still means "JSON to stdout". */
static const char *optional_output(int argc, char **argv, const char *suffix)
{
    if (optarg)
        return optarg;
    if (optind < argc && argv[optind][0] != '-' && ends_with(argv[optind], suffix))
        return argv[optind++];
    return "-";
}

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
            opts->fn[0] = strndup(arg, (size_t)(p - arg));
            opts->fn[1] = strdup(p + 1);
            return 0;
        }
    }
    if (!*arg)
        return -1;
    opts->fn[0] = strdup(arg);
    opts->fn[1] = strdup(arg);
    return 0;
}

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "kerndiff: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'kerndiff --help'.\n");
    va_end(ap);
    return KD_EXIT_USAGE;
}

int kd_options_parse(int argc, char **argv, kd_options *opts)
{
    memset(opts, 0, sizeof *opts);
    const char *no_color = getenv("NO_COLOR");
    opts->color = isatty(STDOUT_FILENO) && !(no_color && *no_color);
    const char *nvcc_env = getenv("KERNDIFF_NVCC");
    opts->nvcc = nvcc_env && *nvcc_env ? nvcc_env : NULL;

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "hI:D:", long_options, NULL)) != -1) {
        switch (c) {
        case 'h': opts->command = KD_CMD_HELP; return 0;
        case OPT_VERSION: opts->command = KD_CMD_VERSION; return 0;
        case 'I': strlist_push(&opts->include_dirs, optarg); break;
        case 'D': strlist_push(&opts->defines, optarg); break;
        case OPT_NVCC_FLAG: strlist_push(&opts->nvcc_flags, optarg); break;
        case OPT_NVCC: opts->nvcc = optarg; break;
        case OPT_ARCH: opts->arch = optarg; break;
        case OPT_NO_COLOR: opts->color = false; break;
        case OPT_NO_CACHE: opts->no_cache = true; break;
        case OPT_ALL_INSTRUCTIONS: opts->all_instructions = true; break;
        case OPT_JSON: opts->json_path = optional_output(argc, argv, ".json"); break;
        case OPT_MARKDOWN: opts->markdown_path = optional_output(argc, argv, ".md"); break;
        case OPT_FN:
            free((char *)opts->fn[0]);
            free((char *)opts->fn[1]);
            opts->fn[0] = opts->fn[1] = NULL;
            if (parse_fn(optarg, opts) != 0)
                return usage_error("--fn wants NAME or NAME1:NAME2, got '%s'", optarg);
            break;
        case OPT_BLOCK: {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v <= 0 || v > 1024)
                return usage_error("--block wants a thread count from 1 to 1024, got '%s'", optarg);
            opts->block = (int)v;
            break;
        }
        default:
            return usage_error("unknown option or missing value: '%s'", argv[optind - 1]);
        }
    }
    /* GNU getopt has moved every option in front, so the rest are the files. */
    const char *positional[3];
    int npos = 0;
    while (optind < argc) {
        if (npos == 3)
            return usage_error("too many files: '%s'", argv[optind]);
        positional[npos++] = argv[optind++];
    }
    if (npos > 0 && strcmp(positional[0], "list") == 0) {
        if (npos != 2)
            return usage_error("usage: kerndiff list FILE.cu");
        opts->command = KD_CMD_LIST;
        opts->files[0] = positional[1];
        return 0;
    }
    if (npos != 2)
        return usage_error(npos < 2 ? "need two kernel files: kerndiff [options] V1.cu V2.cu"
                                    : "need exactly two kernel files");
    opts->command = KD_CMD_DIFF;
    opts->files[0] = positional[0];
    opts->files[1] = positional[1];
    return 0;
}

void kd_options_free(kd_options *opts)
{
    free(opts->include_dirs.items);
    free(opts->defines.items);
    free(opts->nvcc_flags.items);
    free((char *)opts->fn[0]);
    free((char *)opts->fn[1]);
}
