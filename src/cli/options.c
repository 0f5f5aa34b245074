#include "cli/options.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/exit_codes.h"
#include "launch/expr.h"
#include "util/suggest.h"
#include "util/xalloc.h"
#include "compile/build.h"
#include "ncu/profile.h"

enum {
    OPT_FN = 256, OPT_ARCH, OPT_NVCC_FLAG, OPT_NVCC, OPT_NO_COLOR, OPT_JSON, OPT_MARKDOWN,
    OPT_NO_CACHE, OPT_BLOCK, OPT_ALL_INSTRUCTIONS, OPT_VERSION, OPT_N, OPT_GRID, OPT_SMEM, OPT_BUF,
    OPT_ARG, OPT_CALL, OPT_NO_RUN, OPT_TARGET, OPT_MAX_TIME, OPT_MIN_RUNS, OPT_MAX_RUNS, OPT_TIMEOUT,
    OPT_SEED, OPT_NO_CHECK, OPT_REQUIRE_MATCH, OPT_RTOL, OPT_ATOL, OPT_BATCH, OPT_LOCK_CLOCKS,
    OPT_NCU, OPT_NO_NCU, OPT_NCU_SET, OPT_NCU_REPEATS, OPT_NCU_CLOCK, OPT_ALL_METRICS, OPT_PER_KERNEL,
    OPT_REGIONS, OPT_REGION_RECORDS, OPT_REGION_BLOCKS, OPT_TRACE, OPT_SANITIZE, OPT_SANITIZE_WARN, OPT_SANITIZER, OPT_SANITIZE_N,
    OPT_BRIEF, OPT_COMPLETION,
    OPT_NO_ADVICE, OPT_FAIL_IF_SLOWER, OPT_SAVE, OPT_SWEEP, OPT_AT, OPT_MIN_EFFECT, OPT_WATCH, OPT_SIDE,
    /* Triton (.py) inputs */
    OPT_PYTHON, OPT_NO_AUTOTUNE,
    OPT_HTML, OPT_CSV,
    OPT_APP_RUNS, OPT_APP_RANGE, OPT_APP_STEPS, OPT_APP_TOP, OPT_APP_PREPARE,
};

/* --timeout's upper bound, seconds: a harness silent for an hour has hung. */
#define MAX_TIMEOUT_S 3600
/* ncu's own output: one block, so that flags added elsewhere merge cleanly. */
enum { OPT_NCU_REPORT = 1000, OPT_METRIC_NAMES, OPT_METRICS };

static const struct option long_options[] = {
    {"ncu-report", required_argument, NULL, OPT_NCU_REPORT},
    {"metric-names", no_argument, NULL, OPT_METRIC_NAMES},
    {"metrics", required_argument, NULL, OPT_METRICS},
    {"fn", required_argument, NULL, OPT_FN},
    {"arch", required_argument, NULL, OPT_ARCH},
    {"nvcc-flag", required_argument, NULL, OPT_NVCC_FLAG},
    {"nvcc", required_argument, NULL, OPT_NVCC},
    {"block", required_argument, NULL, OPT_BLOCK},
    {"n", required_argument, NULL, OPT_N},
    {"grid", required_argument, NULL, OPT_GRID},
    {"smem", required_argument, NULL, OPT_SMEM},
    {"buf", required_argument, NULL, OPT_BUF},
    {"arg", required_argument, NULL, OPT_ARG},
    {"call", required_argument, NULL, OPT_CALL},
    {"no-run", no_argument, NULL, OPT_NO_RUN},
    {"no-autotune", no_argument, NULL, OPT_NO_AUTOTUNE},
    {"target", required_argument, NULL, OPT_TARGET},
    {"max-time", required_argument, NULL, OPT_MAX_TIME},
    {"min-runs", required_argument, NULL, OPT_MIN_RUNS},
    {"max-runs", required_argument, NULL, OPT_MAX_RUNS},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"seed", required_argument, NULL, OPT_SEED},
    {"no-check", no_argument, NULL, OPT_NO_CHECK},
    {"require-match", no_argument, NULL, OPT_REQUIRE_MATCH},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"atol", required_argument, NULL, OPT_ATOL},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"lock-clocks", no_argument, NULL, OPT_LOCK_CLOCKS},
    {"ncu", required_argument, NULL, OPT_NCU},
    {"no-ncu", no_argument, NULL, OPT_NO_NCU},
    {"ncu-set", required_argument, NULL, OPT_NCU_SET},
    {"ncu-repeats", required_argument, NULL, OPT_NCU_REPEATS},
    {"ncu-clock-control", required_argument, NULL, OPT_NCU_CLOCK},
    {"all-metrics", no_argument, NULL, OPT_ALL_METRICS},
    {"per-kernel", no_argument, NULL, OPT_PER_KERNEL},
    {"no-advice", no_argument, NULL, OPT_NO_ADVICE},
    {"regions", no_argument, NULL, OPT_REGIONS},
    {"region-records", required_argument, NULL, OPT_REGION_RECORDS},
    {"region-blocks", required_argument, NULL, OPT_REGION_BLOCKS},
    {"trace", required_argument, NULL, OPT_TRACE},
    {"sanitize", optional_argument, NULL, OPT_SANITIZE},
    {"sanitize-warn", no_argument, NULL, OPT_SANITIZE_WARN},
    {"compute-sanitizer", required_argument, NULL, OPT_SANITIZER},
    {"sanitize-n", required_argument, NULL, OPT_SANITIZE_N},
    {"fail-if-slower", required_argument, NULL, OPT_FAIL_IF_SLOWER},
    {"save", required_argument, NULL, OPT_SAVE},
    {"sweep", required_argument, NULL, OPT_SWEEP},
    {"at", required_argument, NULL, OPT_AT},
    {"min-effect", required_argument, NULL, OPT_MIN_EFFECT},
    {"watch", no_argument, NULL, OPT_WATCH},
    {"side", required_argument, NULL, OPT_SIDE},
    /* kerndiff app */
    {"runs", required_argument, NULL, OPT_APP_RUNS},
    {"no-shell", no_argument, NULL, 'N'},
    {"range", required_argument, NULL, OPT_APP_RANGE},
    {"steps", required_argument, NULL, OPT_APP_STEPS},
    {"top", required_argument, NULL, OPT_APP_TOP},
    {"prepare", required_argument, NULL, OPT_APP_PREPARE},
    {"no-color", no_argument, NULL, OPT_NO_COLOR},
    {"no-cache", no_argument, NULL, OPT_NO_CACHE},
    {"all-instructions", no_argument, NULL, OPT_ALL_INSTRUCTIONS},
    {"json", optional_argument, NULL, OPT_JSON},
    {"markdown", optional_argument, NULL, OPT_MARKDOWN},
    {"brief", no_argument, NULL, OPT_BRIEF},
    {"quiet", no_argument, NULL, 'q'},
    {"verbose", no_argument, NULL, 'v'},
    {"completion", required_argument, NULL, OPT_COMPLETION},
    /* Triton (.py) inputs */
    {"python", required_argument, NULL, OPT_PYTHON},
    {"html", required_argument, NULL, OPT_HTML},
    {"csv", required_argument, NULL, OPT_CSV},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* Completion scripts made from the option table, so that they cannot miss an option. */
void kd_print_completion(const char *shell)
{
    static const char *const commands = "list compare help";
    if (!strcmp(shell, "bash")) {
        printf("# bash completion for kerndiff (kerndiff --completion bash)\n_kerndiff() {\n"
               "    local cur=${COMP_WORDS[COMP_CWORD]}\n    if [[ $cur == -* ]]; then\n        COMPREPLY=($(compgen -W \"");
        for (const struct option *o = long_options; o->name; o++)
            printf("%s--%s", o == long_options ? "" : " ", o->name);
        printf(" -q -v -h -I -D\" -- \"$cur\"))\n    elif [[ $COMP_CWORD -eq 1 ]]; then\n"
               "        COMPREPLY=($(compgen -W \"%s\" -- \"$cur\") $(compgen -f -- \"$cur\"))\n    else\n"
               "        COMPREPLY=($(compgen -f -- \"$cur\"))\n    fi\n}\ncomplete -o filenames -F _kerndiff kerndiff\n",
               commands);
    } else if (!strcmp(shell, "zsh")) {
        printf("#compdef kerndiff\n# zsh completion for kerndiff (kerndiff --completion zsh)\nlocal -a options\noptions=(");
        for (const struct option *o = long_options; o->name; o++)
            printf("%s--%s", o == long_options ? "" : " ", o->name);
        printf(" -q -v -h -I -D)\nif [[ $PREFIX == -* ]]; then\n    compadd -- $options\nelse\n"
               "    (( CURRENT == 2 )) && compadd -- %s\n    _files\nfi\n",
               commands);
    } else {
        printf("# fish completion for kerndiff (kerndiff --completion fish)\n");
        for (const struct option *o = long_options; o->name; o++)
            printf("complete -c kerndiff -l %s%s\n", o->name, o->has_arg == required_argument ? " -r" : "");
        printf("complete -c kerndiff -s q -s v -s h\ncomplete -c kerndiff -n __fish_use_subcommand -a '%s'\n", commands);
    }
}

bool kd_options_stdout_taken(const kd_options *opts)
{
    const char *outputs[] = {opts->json_path, opts->markdown_path, opts->html_path, opts->csv_path};
    for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++)
        if (outputs[i] && strcmp(outputs[i], "-") == 0)
            return true;
    return false;
}

void kd_print_help(void)
{
    fputs(
        "usage: kerndiff [options] V1.cu V2.cu     diff two versions of a kernel\n"
        "       kerndiff [options] FILE.cu         git: HEAD against the working copy\n"
        "       kerndiff --at REF[..REF2] FILE.cu  git: a revision against the working copy,\n"
        "                                          or two revisions\n"
        "       kerndiff list FILE.cu              list the kernels of a file and their launch\n"
        "       kerndiff compare OLD.json NEW.json two saved runs (--save), v2 of each\n"
        "                                          (--side v1 for v1)\n"
        "       kerndiff app [options] CMD1 CMD2   two programs' GPU activity, kernel by kernel\n"
        "                                          (commands, or nsys SQLite exports)\n"
        "       kerndiff app --at REF CMD          the same program at a git revision and now\n"
        "\n"
        "Builds both versions with nvcc and shows what the compiler made of each: PTX and\n"
        "SASS instruction histograms, registers, spills, shared memory, barriers and the\n"
        "theoretical occupancy. With a GPU, times both (95% CI and a verdict) and\n"
        "compares their outputs. Full reference: docs/OPTIONS.md.\n"
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
        "  --python PATH         the Python with Triton, for .py files (default python3)\n"
        "  --no-autotune         an @triton.autotune kernel: its first config, untimed (default:\n"
        "                        each config timed briefly, the fastest kept)\n"
        "Launch (also `// kerndiff: KEY=VALUE` lines in each file; `# kerndiff:` in .py):\n"
        "  --n COUNT             element count (16M, 1<<24; default 1M)\n"
        "  --block EXPR          threads per block, X[,Y[,Z]] (default 256)\n"
        "  --grid EXPR           blocks (default ceil(n/threads per block))\n"
        "  --smem EXPR           dynamic shared memory bytes\n"
        "  --buf NAME=EXPR       elements of buffer NAME (e.g. C=n*n)\n"
        "  --arg NAME=VALUE      value of scalar parameter NAME\n"
        "  --call vN:K=V,...     settings for one side only (e.g. v2:block=16,16,grid=64);\n"
        "                        repeated flags for one side merge, later keys win\n"
        "Sweeps:\n"
        "  --n 1M,4M,16M         the diff at each size (also FROM..TO:xFACTOR, FROM..TO:+STEP)\n"
        "  --sweep NAME=a,b,c    the diff for each compile-time value (-D NAME=a ...)\n"
        "Timing (with a GPU):\n"
        "  --no-run              static diff only\n"
        "  --target PCT          stop when the speedup CI half-width < PCT% (1)\n"
        "  --max-time S          stop measuring after S seconds (10)\n"
        "  --min-runs N, --max-runs N   samples per side (30, 3000)\n"
        "  --timeout S           kill a harness silent for S seconds (10; at most 3600)\n"
        "  --seed N              inputs and interleaving seed (1)\n"
        "  --min-effect PCT      faster/slower only beyond this much change (0: any the CI resolves)\n"
        "  --batch auto|off|N    launches per sample for tiny kernels (auto)\n"
        "  --lock-clocks         lock the SM clock for the run (root; reset at exit)\n"
        "Counters (Nsight Compute, with a GPU):\n"
        "  --no-ncu              no counter pass\n"
        "  --ncu PATH            the ncu to run (default: ncu on PATH)\n"
        "  --ncu-set fast|full   metric set (fast)\n"
        "  --ncu-repeats N       profile each side N times; shows counter noise (1; 5 under 50us)\n"
        "  --ncu-clock-control none|base   ncu's clock policy (none: as the timing pass)\n"
        "  --ncu-report DIR      keep ncu's reports as DIR/v1.ncu-rep, DIR/v2.ncu-rep\n"
        "  --metric-names        show ncu's metric names beside the counter rows\n"
        "  --metrics A,B,...     extra raw ncu metrics to collect and compare\n"
        "  --all-metrics         unchanged metric rows too\n"
        "  --per-kernel          a pipeline's metrics kernel by kernel\n"
        "  --no-advice           no advice notes\n"
        "Verifying (compute-sanitizer, with a GPU):\n"
        "  --sanitize[=TOOLS]    each side once under compute-sanitizer before timing; TOOLS of\n"
        "                        memcheck,racecheck,initcheck,synccheck (memcheck); findings: exit 9\n"
        "  --sanitize-warn       report the findings and time anyway\n"
        "  --compute-sanitizer PATH   the compute-sanitizer to run\n"
        "  --sanitize-n COUNT    run the sanitizer on a smaller launch (n = COUNT on both sides)\n"
        "Regions (include/kerndiff/regions.h markers; Triton: Proton scopes; with a GPU):\n"
        "  --regions             time each marked region of both versions and diff them\n"
        "  --region-records N    records kept per warp, a power of two (256)\n"
        "  --region-blocks N     record one block in N (a power of two), 'all' or 'auto' (auto: up to\n"
        "                        1 in 8, keeping 2 recording blocks per SM)\n"
        "  --trace FILE.json     both versions' region timelines for ui.perfetto.dev (implies --regions)\n"
        "Workflows:\n"
        "  --watch               re-run whenever a file changes, with the trend of runs\n"
        "  --at REF, --at A..B   git mode: revisions of one file\n"
        "  --side v1|v2          compare: which side of each saved run (v2)\n"
        "Whole programs (kerndiff app, docs/APP.md):\n"
        "  --runs N              runs of each command, alternating (3)\n"
        "  -N, --no-shell        split each command into words (sh's quoting, nothing expanded)\n"
        "                        and run it directly, instead of with sh -c\n"
        "  --range NAME          only GPU work inside NVTX ranges named NAME\n"
        "  --steps N             steps per run, for per-step figures (default: the ranges)\n"
        "  --top K               kernels shown, by time (20; 0: all)\n"
        "  --at REF [--at REF2]  one command: v1 runs in a checkout of REF, v2 in the current\n"
        "                        folder (or a checkout of REF2)\n"
        "  --prepare CMD         run CMD once in each side's folder before the runs (a build)\n"
        "Saving and gating:\n"
        "  --save FILE.json      the whole result (samples, counters, environment)\n"
        "  --fail-if-slower PCT  exit 8 when v2 is significantly slower by more than PCT%\n"
        "                        (judged on the 95% CI, not the point estimate; app: the\n"
        "                        total GPU kernel time)\n"
        "Correctness:\n"
        "  --no-check            do not compare outputs\n"
        "  --rtol X, --atol X    tolerances (default per dtype)\n"
        "  --require-match       exit 6 when outputs differ\n"
        "Analysis:\n"
        "  --all-instructions    list unchanged instruction rows too\n"
        "Output:\n"
        "  --json[=FILE]         write JSON (docs/json-schema.json) to FILE or stdout;\n"
        "                        `--json FILE` works when FILE ends in .json\n"
        "  --markdown[=FILE]     write Markdown to FILE or stdout (`--markdown FILE.md`)\n"
        "  --html FILE           a self-contained HTML report with charts (samples, speedup CI,\n"
        "                        roofline, regions and a timeline of one block per side; a sweep's\n"
        "                        time and speedup against its values; app: its top kernels)\n"
        "  --csv FILE            the raw samples (side,index,round,ns,throttled), or one row per\n"
        "                        sweep point; \"-\" writes either to stdout\n"
        "  --no-color            no colour (also when NO_COLOR is set or not a terminal)\n"
        "  --brief               the verdict, correctness and what changed, nothing else\n"
        "  -q, --quiet           nothing on stderr but errors\n"
        "  -v, --verbose         every stage on stderr with its time (also KERNDIFF_TRACE=1)\n"
        "  --completion bash|zsh|fish   print a shell completion script\n"
        "  -h, --help            this text\n"
        "  --version             the version\n"
        "\n"
        "Exit status: 0 diff done, 2 usage, 3 input (missing file, kernel not found or\n"
        "ambiguous), 4 build failed (app: --prepare), 5 runtime failure (app: a command\n"
        "failed), 6 outputs differ (--require-match), 7 a required tool is missing, an\n"
        "output could not be written or memory ran out, 8 v2 slower than --fail-if-slower\n"
        "allows, 9 --sanitize found a problem.\n"
        "A file named -x.cu goes after --.\n"
        "\n"
        "Examples:\n"
        "  kerndiff examples/vector_loads/v1.cu examples/vector_loads/v2.cu\n"
        "  kerndiff --fn reduce --arch sm_80 old.cu new.cu\n"
        "  kerndiff --fn add_v1:add_v2 --json=diff.json a.cu b.cu\n"
        "  kerndiff --n 64M --arg alpha=2 --require-match old.cu new.cu\n"
        "  kerndiff list examples/matmul/v2.cu\n",
        stdout);
}

/* A number in [lo, hi]; with `percent`, a trailing % is allowed. */
static int parse_number(const char *s, double lo, double hi, bool percent, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (percent && *end == '%')
        end++;
    if (end == s || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
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

/* getopt's '?': an unknown option or a missing value. An unknown letter may sit inside an
 * argument getopt has not finished (argv[optind]), e.g. a file named -dash.cu: name that
 * argument, not its neighbour, and say how to pass such a file. */
static int unknown_option(int argc, char **argv)
{
    bool letter = optopt > 0 && optopt < 256 && optopt != 'I' && optopt != 'D';
    if (!letter) {
        const char *typed = argv[optind - 1];
        const char *names[sizeof long_options / sizeof *long_options];
        size_t n = 0;
        for (const struct option *o = long_options; o->name; o++)
            names[n++] = o->name;
        char bare[64];
        snprintf(bare, sizeof bare, "%.*s", (int)strcspn(typed + strspn(typed, "-"), "="), typed + strspn(typed, "-"));
        const char *near = strncmp(typed, "--", 2) == 0 ? kd_suggest(bare, names, n) : NULL;
        if (near && strcmp(near, bare) != 0)
            return usage_error("unknown option '%s': did you mean --%s?", typed, near);
        return usage_error("unknown option or missing value: '%s'", typed);
    }
    const char *arg = optind < argc && argv[optind][0] == '-' && strchr(argv[optind] + 1, optopt) ? argv[optind]
                                                                                               : argv[optind - 1];
    return usage_error("unknown option '-%c' in '%s' (a file whose name starts with '-' goes after '--': "
                       "kerndiff [options] -- %s OTHER.cu, or write it as ./%s)", optopt, arg, arg, arg);
}

/* --call vN:SETTINGS, merged into that side's earlier --call settings. */
static int parse_call(const char *arg, kd_options *opts)
{
    if (strncmp(arg, "v1:", 3) != 0 && strncmp(arg, "v2:", 3) != 0)
        return usage_error("--call wants v1:SETTINGS or v2:SETTINGS, got '%s'", arg);
    kd_strbuf why = {0};
    int rc = kd_call_parse(arg + 3, &opts->diff.launch.call[arg[1] - '1'], &why);
    if (rc != 0)
        usage_error("--call %s: %s", arg, kd_sb_str(&why));
    kd_sb_free(&why);
    return rc;
}

/* --metrics a,b,...: appends each name (repeated flags add up). */
static int parse_metrics(const char *arg, kd_options *opts)
{
    char *text = kd_xstrdup(arg);
    kd_strlist_push(&opts->diff.counters.extra_metrics_text, text);
    char *save = NULL;
    int names = 0;
    for (char *name = strtok_r(text, ",", &save); name; name = strtok_r(NULL, ",", &save), names++) {
        if (!kd_ncu_metric_name_ok(name) || opts->diff.counters.extra_metrics.count >= KD_NCU_MAX_EXTRA)
            return -1;
        kd_strlist_push(&opts->diff.counters.extra_metrics, name);
    }
    return names > 0 && !strstr(arg, ",,") && arg[strlen(arg) - 1] != ',' ? 0 : -1;
}

int kd_options_parse(int argc, char **argv, kd_options *opts)
{
    memset(opts, 0, sizeof *opts);
    kd_timing_options_default(&opts->diff.timing);
    opts->diff.counters.repeats = 0; /* auto: kd_ncu_auto_repeats */
    kd_regions_options_default(&opts->diff.regions);
    kd_app_options_default(&opts->app);
    opts->diff.gate.fail_if_slower_pct = -1;
    opts->diff.counters.clock_control = "none";
    opts->render.advice = true;
    const char *no_color = getenv("NO_COLOR");
    opts->render.color = isatty(STDOUT_FILENO) && !(no_color && *no_color);
    const char *nvcc_env = getenv("KERNDIFF_NVCC");
    opts->diff.frontend.nvcc = nvcc_env && *nvcc_env ? nvcc_env : NULL;

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "hqvNI:D:", long_options, NULL)) != -1) {
        switch (c) {
        case 'h': opts->command = KD_CMD_HELP; return 0;
        case 'q': opts->verbosity = KD_QUIET; break;
        case 'v': opts->verbosity = KD_VERBOSE; break;
        case OPT_BRIEF: opts->render.brief = true; break;
        case OPT_COMPLETION:
            if (strcmp(optarg, "bash") && strcmp(optarg, "zsh") && strcmp(optarg, "fish"))
                return usage_error("--completion wants bash, zsh or fish, got '%s'", optarg);
            opts->command = KD_CMD_COMPLETION;
            opts->completion_shell = optarg;
            return 0;
        case OPT_VERSION: opts->command = KD_CMD_VERSION; return 0;
        case 'I':
        case 'D':
        case OPT_NVCC_FLAG: {
            /* Checked here, before anything runs: nvcc hands some arguments to a shell. */
            kd_strbuf why = {0};
            int bad = c == 'D' ? kd_build_check_define(optarg, &why)
                               : kd_build_check_flag(c == 'I' ? "-I" : "--nvcc-flag", optarg, &why);
            if (bad)
                usage_error("%s", kd_sb_str(&why));
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
        case OPT_ARCH: opts->diff.arch = optarg; break;
        case OPT_NO_COLOR: opts->render.color = false; break;
        case OPT_NO_CACHE: opts->diff.frontend.no_cache = true; break;
        case OPT_ALL_INSTRUCTIONS: opts->render.all_rows = true; break;
        case OPT_JSON: opts->json_path = optional_output(argc, argv, ".json"); break;
        case OPT_MARKDOWN: opts->markdown_path = optional_output(argc, argv, ".md"); break;
        case OPT_HTML: opts->html_path = optarg; break;
        case OPT_CSV: opts->csv_path = optarg; break;
        case OPT_FN:
            free((char *)opts->diff.fn[0]);
            free((char *)opts->diff.fn[1]);
            opts->diff.fn[0] = opts->diff.fn[1] = NULL;
            if (parse_fn(optarg, opts) != 0)
                return usage_error("--fn wants NAME or NAME1:NAME2, got '%s'", optarg);
            break;
        case OPT_BLOCK: opts->diff.launch.block = optarg; break;
        case OPT_N: opts->diff.launch.n = optarg; break;
        case OPT_GRID: opts->diff.launch.grid = optarg; break;
        case OPT_SMEM: opts->diff.launch.smem = optarg; break;
        case OPT_BUF: kd_strlist_push(&opts->diff.launch.buffers, optarg); break;
        case OPT_ARG: kd_strlist_push(&opts->diff.launch.scalars, optarg); break;
        case OPT_CALL:
            if (parse_call(optarg, opts) != 0)
                return KD_EXIT_USAGE;
            break;
        case OPT_NO_RUN: opts->diff.no_run = true; break;
        case OPT_NO_AUTOTUNE: opts->diff.no_autotune = true; break;
        case OPT_NCU: opts->diff.counters.ncu = optarg; break;
        case OPT_NCU_REPORT: opts->diff.counters.report_dir = optarg; break;
        case OPT_METRIC_NAMES: opts->render.metric_names = true; break;
        case OPT_METRICS:
            if (parse_metrics(optarg, opts) != 0)
                return usage_error("--metrics wants ncu metric names separated by commas (letters, digits, _ and .), "
                                   "at most %d in all, got '%s'", KD_NCU_MAX_EXTRA, optarg);
            break;
        case OPT_NO_NCU: opts->diff.counters.off = true; break;
        case OPT_ALL_METRICS: opts->render.all_metrics = true; break;
        case OPT_PER_KERNEL: opts->render.per_kernel = true; break;
        case OPT_NO_ADVICE: opts->render.advice = false; break;
        case OPT_SAVE: opts->save_path = optarg; break;
        case OPT_SWEEP: opts->sweep = optarg; break;
        case OPT_AT:
            if (opts->at_second)
                return usage_error("--at is given at most twice (kerndiff app --at REF1 --at REF2 CMD)");
            *(opts->diff.at ? &opts->at_second : &opts->diff.at) = optarg;
            break;
        case OPT_WATCH: opts->watch = true; break;
        case OPT_SIDE:
            if (strcmp(optarg, "v1") && strcmp(optarg, "v2"))
                return usage_error("--side wants v1 or v2, got '%s'", optarg);
            opts->compare_side = optarg;
            break;
        case OPT_MIN_EFFECT:
            if (parse_number(optarg, 0, 100, true, &opts->diff.timing.min_effect_pct) != 0)
                return usage_error("--min-effect wants a percentage from 0 to 100, got '%s'", optarg);
            break;
        case OPT_FAIL_IF_SLOWER:
            if (parse_number(optarg, 0, 1000, true, &opts->diff.gate.fail_if_slower_pct) != 0)
                return usage_error("--fail-if-slower wants a percentage (e.g. 2 or 2%%), got '%s'", optarg);
            break;
        case OPT_NCU_SET:
            if (strcmp(optarg, "fast") && strcmp(optarg, "full"))
                return usage_error("--ncu-set wants fast or full, got '%s'", optarg);
            opts->diff.counters.full = !strcmp(optarg, "full");
            break;
        case OPT_NCU_CLOCK:
            if (strcmp(optarg, "none") && strcmp(optarg, "base"))
                return usage_error("--ncu-clock-control wants none or base, got '%s'", optarg);
            opts->diff.counters.clock_control = optarg;
            break;
        case OPT_REGIONS: opts->diff.regions_on = true; break;
        case OPT_SANITIZE:
            opts->diff.sanitize.tools = optarg ? kd_san_tools_parse(optarg) : 1u << KD_SAN_MEMCHECK;
            if (!opts->diff.sanitize.tools)
                return usage_error("--sanitize wants tools among memcheck,racecheck,initcheck,synccheck, got '%s'", optarg);
            break;
        case OPT_SANITIZE_WARN: opts->diff.sanitize.warn = true; break;
        case OPT_SANITIZER: opts->diff.sanitize.program = optarg; break;
        case OPT_SANITIZE_N: {
            unsigned long long count;
            char why[128];
            if (kd_parse_count(optarg, &count, why, sizeof why) != 0 || count == 0)
                return usage_error("--sanitize-n wants an element count of at least 1 (e.g. 4096, 64K), got '%s'", optarg);
            opts->diff.sanitize.n = optarg;
            break;
        }
        case OPT_TRACE: opts->diff.regions_on = true; opts->trace_path = optarg; break;
        case OPT_REGION_RECORDS: {
            double v;
            if (parse_number(optarg, 1, 1 << 20, false, &v) != 0 || v != (unsigned)v || ((unsigned)v & ((unsigned)v - 1)))
                return usage_error("--region-records wants a power of two from 1 to 1048576, got '%s'", optarg);
            opts->diff.regions.capacity = (unsigned)v;
            break;
        }
        case OPT_REGION_BLOCKS: {
            double v;
            if (strcmp(optarg, "all") == 0)
                v = 1;
            else if (strcmp(optarg, "auto") == 0)
                v = 0;
            else if (parse_number(optarg, 1, 1 << 30, false, &v) != 0 || v != (unsigned)v || ((unsigned)v & ((unsigned)v - 1)))
                return usage_error("--region-blocks wants a power of two (record one block in N), 'all' or 'auto', got '%s'",
                                   optarg);
            opts->diff.regions.block_stride = (unsigned)v;
            opts->diff.frontend.regions_every_block = v == 1;
            break;
        }
        case OPT_NCU_REPEATS: {
            double v;
            if (parse_number(optarg, 1, 100, false, &v) != 0 || v != (int)v)
                return usage_error("--ncu-repeats wants a whole number from 1 to 100, got '%s'", optarg);
            opts->diff.counters.repeats = (int)v;
            break;
        }
        /* kerndiff app */
        case 'N': opts->app.no_shell = true; break;
        case OPT_APP_RANGE: opts->app.range = optarg; break;
        case OPT_APP_PREPARE: opts->app.prepare = optarg; break;
        case OPT_APP_RUNS:
        case OPT_APP_STEPS:
        case OPT_APP_TOP: {
            double v;
            const char *name = c == OPT_APP_RUNS ? "--runs" : c == OPT_APP_STEPS ? "--steps" : "--top";
            if (parse_number(optarg, c == OPT_APP_TOP ? 0 : 1, 1e6, false, &v) != 0 || (c != OPT_APP_STEPS && v != (int)v))
                return usage_error("%s wants a %snumber up to 1000000, got '%s'", name,
                                   c == OPT_APP_STEPS ? "positive " : "whole ", optarg);
            if (c == OPT_APP_RUNS)
                opts->app.runs = (int)v;
            else if (c == OPT_APP_STEPS)
                opts->app.steps = v;
            else
                opts->app.top = (int)v;
            break;
        }
        case OPT_NO_CHECK: opts->diff.timing.check = false; break;
        case OPT_REQUIRE_MATCH: opts->diff.gate.require_match = true; break;
        case OPT_LOCK_CLOCKS: opts->diff.lock_clocks = true; break;
        case OPT_TARGET:
            if (parse_number(optarg, 0.01, 100, true, &opts->diff.timing.target_pct) != 0)
                return usage_error("--target wants a percentage from 0.01 to 100 (e.g. 1 or 0.5%%), got '%s'", optarg);
            break;
        case OPT_MAX_TIME:
            if (parse_number(optarg, 0.1, 86400, false, &opts->diff.timing.max_time_s) != 0)
                return usage_error("--max-time wants seconds (0.1 to 86400), got '%s'", optarg);
            break;
        case OPT_TIMEOUT: {
            /* The watchdog's milliseconds are scaled for slower steps (the counter pass
             * waits 50 times as long), so the bound keeps every such product in an int. */
            double v;
            if (parse_number(optarg, 0.1, MAX_TIMEOUT_S, false, &v) != 0)
                return usage_error("--timeout wants seconds from 0.1 to %d (an hour), got '%s'", MAX_TIMEOUT_S, optarg);
            opts->diff.timing.timeout_ms = (int)(v * 1000 + 0.5);
            break;
        }
        case OPT_MIN_RUNS:
        case OPT_MAX_RUNS: {
            double v;
            if (parse_number(optarg, 2, 1e7, false, &v) != 0)
                return usage_error("%s wants a number from 2 to 10000000, got '%s'",
                                   c == OPT_MIN_RUNS ? "--min-runs" : "--max-runs", optarg);
            *(c == OPT_MIN_RUNS ? &opts->diff.timing.min_runs : &opts->diff.timing.max_runs) = (int)v;
            break;
        }
        case OPT_SEED: {
            char *end;
            opts->diff.timing.seed = strtoull(optarg, &end, 0);
            if (*end || !*optarg)
                return usage_error("--seed wants a whole number, got '%s'", optarg);
            break;
        }
        case OPT_RTOL:
        case OPT_ATOL:
            if (parse_number(optarg, 0, 1e30, false,
                             c == OPT_RTOL ? &opts->diff.timing.tolerance.rtol : &opts->diff.timing.tolerance.atol) != 0)
                return usage_error("%s wants a non-negative number, got '%s'", c == OPT_RTOL ? "--rtol" : "--atol", optarg);
            opts->diff.timing.tolerance_given = true;
            break;
        case OPT_BATCH: {
            double v;
            if (strcmp(optarg, "auto") == 0)
                opts->diff.timing.batch = 0;
            else if (strcmp(optarg, "off") == 0)
                opts->diff.timing.batch = -1;
            else if (parse_number(optarg, 1, 100000, false, &v) == 0)
                opts->diff.timing.batch = (long)v;
            else
                return usage_error("--batch wants auto, off or launches per sample, got '%s'", optarg);
            break;
        }
        default:
            return unknown_option(argc, argv);
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
    if (npos == 1 && strcmp(positional[0], "help") == 0) {
        opts->command = KD_CMD_HELP;
        return 0;
    }
    if (npos > 0 && strcmp(positional[0], "list") == 0) {
        if (npos != 2)
            return usage_error("usage: kerndiff list FILE.cu");
        opts->command = KD_CMD_LIST;
        opts->diff.files[0] = positional[1];
        return 0;
    }
    if (npos > 0 && strcmp(positional[0], "app") == 0) {
        if (opts->diff.at && npos != 2)
            return usage_error("usage: kerndiff app --at REF [--at REF2] [--prepare BUILD] CMD (one command, "
                               "run at both revisions)");
        if (!opts->diff.at && npos != 3)
            return usage_error("usage: kerndiff app [options] CMD1 CMD2 (each command one argument: quote it), "
                               "or kerndiff app --at REF CMD");
        if (opts->app.prepare && !opts->diff.at)
            return usage_error("--prepare builds each side's checkout: it goes with --at REF");
        const char *at = opts->diff.at;
        if (at && strstr(at, ".."))
            return usage_error("kerndiff app takes two revisions as --at %.*s --at %s, not --at %s",
                               (int)(strstr(at, "..") - at), at, strstr(at, "..") + 2, at);
        opts->command = KD_CMD_APP;
        opts->app.at[0] = opts->diff.at;
        opts->app.at[1] = opts->at_second;
        opts->diff.files[0] = positional[1];
        opts->diff.files[1] = positional[npos - 1];
        return 0;
    }
    if (opts->at_second)
        return usage_error("--at is given once outside kerndiff app (--at A..B for two revisions)");
    if (opts->app.prepare)
        return usage_error("--prepare belongs to kerndiff app --at REF CMD");
    if (npos > 0 && strcmp(positional[0], "compare") == 0) {
        if (npos != 3)
            return usage_error("usage: kerndiff compare OLD.json NEW.json");
        if (opts->trace_path)
            return usage_error("--trace draws a run's region instances, which a saved run does not keep: pass "
                               "--trace FILE to the run that records them (kerndiff --regions --trace FILE V1 V2)");
        opts->command = KD_CMD_COMPARE;
        opts->diff.files[0] = positional[1];
        opts->diff.files[1] = positional[2];
        return 0;
    }
    if (npos == 1) { /* git mode: the committed version against the working copy */
        opts->command = KD_CMD_DIFF;
        opts->diff.git_file = positional[0];
        return 0;
    }
    if (opts->diff.at)
        return usage_error("--at compares revisions of one file: kerndiff --at REF FILE.cu");
    if (npos != 2)
        return usage_error(npos < 2 ? "need two kernel files: kerndiff [options] V1.cu V2.cu"
                                    : "need exactly two kernel files");
    opts->command = KD_CMD_DIFF;
    opts->diff.files[0] = positional[0];
    opts->diff.files[1] = positional[1];
    return 0;
}

void kd_options_free(kd_options *opts)
{
    free(opts->diff.frontend.include_dirs.items);
    free(opts->diff.frontend.defines.items);
    free(opts->diff.frontend.nvcc_flags.items);
    free(opts->diff.launch.buffers.items);
    free(opts->diff.launch.scalars.items);
    kd_call_settings_free(&opts->diff.launch.call[0]);
    kd_call_settings_free(&opts->diff.launch.call[1]);
    free((char *)opts->diff.fn[0]);
    free((char *)opts->diff.fn[1]);
    free(opts->diff.counters.extra_metrics.items);
    for (size_t i = 0; i < opts->diff.counters.extra_metrics_text.count; i++)
        free(opts->diff.counters.extra_metrics_text.items[i]);
    free(opts->diff.counters.extra_metrics_text.items);
}
