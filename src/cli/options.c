#include "cli/options.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/exit_codes.h"
#include "cli/outputs.h"
#include "launch/expr.h"
#include "util/suggest.h"
#include "util/text.h"
#include "workflow/sweep.h"
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
    OPT_PYTHON, OPT_NO_AUTOTUNE, OPT_RUN, OPT_CAPTURE_NTH, OPT_CAPTURE_TIMEOUT, OPT_NO_CAPTURE, OPT_CONFIG,
    OPT_HTML, OPT_CSV,
    OPT_APP_RUNS, OPT_APP_RANGE, OPT_APP_STEPS, OPT_APP_TOP, OPT_APP_PREPARE,
    OPT_FORCE,
};

/* --timeout's upper bound, seconds: a harness silent for an hour has hung. */
#define MAX_TIMEOUT_S 3600
/* ncu's own output: one block, so that flags added elsewhere merge cleanly. */
enum { OPT_NCU_REPORT = 1000, OPT_METRIC_NAMES, OPT_METRICS };

/* The one-letter options (-q -v -h -N, and -I DIR -D NAME[=VALUE] with a value). */
static const char short_options[] = "hqvNI:D:";

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
    {"run", required_argument, NULL, OPT_RUN},
    {"nth", required_argument, NULL, OPT_CAPTURE_NTH},
    {"capture-timeout", required_argument, NULL, OPT_CAPTURE_TIMEOUT},
    {"no-capture", no_argument, NULL, OPT_NO_CAPTURE},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"html", required_argument, NULL, OPT_HTML},
    {"csv", required_argument, NULL, OPT_CSV},
    {"force", no_argument, NULL, OPT_FORCE},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* The command words (the first operand), for the parse and the completions. */
static const struct {
    const char *name, *what;
} commands[] = {
    {"list", "list the kernels of a file and their launch"},
    {"compare", "diff two saved runs (--save)"},
    {"app", "two programs' GPU activity, kernel by kernel"},
    {"help", "the options"},
};

bool kd_options_stdout_taken(const kd_options *opts)
{
    const char *outputs[] = {opts->json_path, opts->markdown_path, opts->html_path, opts->csv_path};
    for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++)
        if (outputs[i] && strcmp(outputs[i], "-") == 0)
            return true;
    return false;
}

static const char help_text[] =
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
        "  --run CMD             Triton: take each side's launch from the Python program CMD (split\n"
        "                        into words, no shell; default: the .py file's own call, when it has one)\n"
        "  --nth K               Triton: the K-th launch of the kernel (default 1; the autotuner's\n"
        "                        benchmark launches are not counted)\n"
        "  --capture-timeout S   Triton: give up on a launch not seen after S seconds (120)\n"
        "  --no-capture          Triton: describe the launch (flags, annotations) even when the file\n"
        "                        launches the kernel itself\n"
        "  --config SPEC         Triton: this @triton.autotune config instead of tuning (both sides):\n"
        "                        its number (1, 2 ...) or its values, NAME=VALUE,...\n"
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
        "  --json[=FILE]         write JSON (docs/json-schema.json) to FILE or stdout (-);\n"
        "                        `--json FILE` takes the next word unless it is a source file\n"
        "  --markdown[=FILE]     write Markdown to FILE or stdout (`--markdown FILE`, -)\n"
        "  --html FILE           a self-contained HTML report with charts (samples, speedup CI,\n"
        "                        roofline, regions and a timeline of one block per side; a sweep's\n"
        "                        time and speedup against its values; app: its top kernels)\n"
        "  --csv FILE            the raw samples (side,index,round,ns,throttled), or one row per\n"
        "                        sweep point; \"-\" writes any document to stdout (one at most)\n"
        "  --force               write outputs even over an input, a source file or a file git\n"
        "                        tracks (refused otherwise: exit 2)\n"
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
        "  kerndiff list examples/matmul/v2.cu\n";

void kd_print_help(void)
{
    fputs(help_text, stdout);
}

/* ---- shell completions, made from the option table, the help text and these two tables ---- */

/* What an option's value completes to: 'w' one of `words`, 'f' a file, 'd' a folder, 'c' a
 * program; an option with a value that is not listed here completes to nothing (a name, a number). */
static const struct {
    int code;
    char kind;
    const char *words;
} value_kinds[] = {
    {OPT_SIDE, 'w', "v1 v2"},
    {OPT_COMPLETION, 'w', "bash zsh fish"},
    {OPT_NCU_SET, 'w', "fast full"},
    {OPT_NCU_CLOCK, 'w', "none base"},
    {OPT_BATCH, 'w', "auto off"},
    {OPT_REGION_BLOCKS, 'w', "auto all 1 2 4 8 16"},
    {OPT_SANITIZE, 'w', "memcheck racecheck initcheck synccheck"},
    {OPT_ARCH, 'w', "sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_120"},
    {OPT_JSON, 'f', NULL}, {OPT_MARKDOWN, 'f', NULL}, {OPT_HTML, 'f', NULL}, {OPT_CSV, 'f', NULL},
    {OPT_SAVE, 'f', NULL}, {OPT_TRACE, 'f', NULL},
    {OPT_NCU_REPORT, 'd', NULL}, {'I', 'd', NULL},
    {OPT_NVCC, 'c', NULL}, {OPT_PYTHON, 'c', NULL}, {OPT_RUN, 'c', NULL}, {OPT_NCU, 'c', NULL}, {OPT_SANITIZER, 'c', NULL},
};

static char value_kind(int code, const char **words)
{
    for (size_t i = 0; i < sizeof value_kinds / sizeof *value_kinds; i++)
        if (value_kinds[i].code == code) {
            *words = value_kinds[i].words;
            return value_kinds[i].kind;
        }
    *words = NULL;
    return 0;
}

/* An option's line in the help text ("--max-time", "-q"): its description, the text after
 * the option column, up to the end of that line; "" when the help has no such line. */
static void help_description(const char *option, char *out, size_t size)
{
    size_t len = strlen(option);
    *out = '\0';
    for (const char *line = help_text; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : line + strlen(line)) {
        if (strncmp(line, "  -", 3) != 0)
            continue;
        const char *end = line + strcspn(line, "\n");
        const char *column_end = strstr(line + 2, "  ");
        if (!column_end || column_end > end)
            column_end = end;
        for (const char *p = line + 2; p + len <= column_end; p++) {
            bool starts = p == line + 2 || p[-1] == ' ' || p[-1] == ',';
            char after = p[len];
            if (starts && strncmp(p, option, len) == 0 && !(after == '-' || after == '_' || (after >= 'a' && after <= 'z') ||
                                                            (after >= 'A' && after <= 'Z') || (after >= '0' && after <= '9'))) {
                const char *d = column_end + strspn(column_end, " ");
                snprintf(out, size, "%.*s", d < end ? (int)(end - d) : 0, d);
                return;
            }
        }
    }
}

/* Text inside a single-quoted shell word: ' closes the quote, so it is written '\'' (bash,
 * zsh); fish also reads \ inside quotes, so it is written \\ and ' as \'. */
static void put_quoted(const char *text, bool fish, const char *also_escape)
{
    for (const char *p = text; *p; p++) {
        if (*p == '\'')
            fputs(fish ? "\\'" : "'\\''", stdout);
        else if (fish && *p == '\\')
            fputs("\\\\", stdout);
        else if (also_escape && strchr(also_escape, *p))
            printf("\\%c", *p);
        else
            putchar(*p);
    }
}


/* The long option whose short form is `letter` (-q is --quiet), or NULL. */
static const struct option *long_of(int letter)
{
    for (const struct option *o = long_options; o->name; o++)
        if (o->val == letter)
            return o;
    return NULL;
}

/* bash: the `case` arm of every option of one value kind ('w': one arm per option). */
static void bash_value_arms(char want)
{
    bool first = true;
    for (const struct option *o = long_options; o->name; o++) {
        const char *words;
        char kind = value_kind(o->val, &words);
        if (o->has_arg == no_argument || kind != want || (o->has_arg == optional_argument && !kind))
            continue;
        if (want == 'w') {
            /* A value that is optional is only the option's with '=' (--sanitize=racecheck). */
            printf("        --%s) %s{ COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return; };;\n", o->name,
                   o->has_arg == optional_argument ? "[[ $eq == 1 ]] && " : "", words);
            continue;
        }
        printf("%s", first ? "        " : "|");
        if (o->val < 256 && strchr(short_options, o->val))
            printf("-%c|", o->val);
        printf("--%s", o->name);
        first = false;
    }
    for (const char *p = short_options; *p; p++) {
        const char *words;
        if (p[1] == ':' && !long_of(*p) && value_kind(*p, &words) == want) {
            printf("%s-%c", first ? "        " : "|", *p);
            first = false;
        }
    }
    if (first)
        return;
    if (want)
        printf(") COMPREPLY=($(compgen -%c -- \"$cur\")); return;;\n", want);
    else
        printf(") return;; # a value: nothing to offer\n");
}

static void bash_completion(void)
{
    printf("# bash completion for kerndiff (kerndiff --completion bash)\n_kerndiff() {\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} eq=0\n"
           "    # bash splits OPTION=VALUE at '=': complete the value of OPTION\n"
           "    if [[ $cur == = ]]; then cur=; eq=1\n"
           "    elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; eq=1; fi\n"
           "    case $prev in\n");
    bash_value_arms('w');
    bash_value_arms('f');
    bash_value_arms('d');
    bash_value_arms('c');
    bash_value_arms(0);
    printf("    esac\n    if [[ $cur == -* ]]; then\n        COMPREPLY=($(compgen -W \"");
    for (const struct option *o = long_options; o->name; o++)
        printf("--%s ", o->name);
    for (const char *p = short_options; *p; p++)
        if (*p != ':')
            printf("-%c ", *p);
    printf("\" -- \"$cur\"))\n    elif [[ $COMP_CWORD -eq 1 ]]; then\n        COMPREPLY=($(compgen -W \"");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        printf("%s%s", i ? " " : "", commands[i].name);
    printf("\" -- \"$cur\") $(compgen -f -- \"$cur\"))\n    else\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n    fi\n}\n"
           "complete -o filenames -F _kerndiff kerndiff\n");
}

/* zsh: _arguments specs, '--opt=[description]:message:action'. */
static void zsh_action(char kind, const char *words)
{
    switch (kind) {
    case 'w': printf("value:(%s)", words); break;
    case 'f': printf("file:_files"); break;
    case 'd': printf("folder:_files -/"); break;
    case 'c': printf("program:_command_names -e"); break;
    default: printf("value: "); break;
    }
}

static void zsh_completion(void)
{
    char description[160];
    printf("#compdef kerndiff\n# zsh completion for kerndiff (kerndiff --completion zsh)\n"
           "_kerndiff_first() {\n    _alternative 'commands:command:((");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        printf("%s%s\\:\"", i ? " " : "", commands[i].name);
        put_quoted(commands[i].what, false, "\"");
        printf("\"");
    }
    printf("))' 'files:file:_files'\n}\nlocal -a specs\nspecs=(\n");
    for (const struct option *o = long_options; o->name; o++) {
        char name[48];
        snprintf(name, sizeof name, "--%s", o->name);
        help_description(name, description, sizeof description);
        const char *words;
        char kind = value_kind(o->val, &words);
        printf("    '%s%s[", name, o->has_arg == required_argument ? "=" : o->has_arg == optional_argument ? "=-" : "");
        put_quoted(description, false, "[]:\\");
        printf("]");
        if (o->has_arg != no_argument) {
            printf(o->has_arg == optional_argument ? "::" : ":");
            zsh_action(kind, words);
        }
        printf("'\n");
    }
    for (const char *p = short_options; *p; p++) {
        if (*p == ':')
            continue;
        char name[4] = {'-', *p, '\0'};
        help_description(name, description, sizeof description);
        const char *words;
        char kind = value_kind(*p, &words);
        printf("    '%s%s[", name, p[1] == ':' ? "+" : "");
        put_quoted(description, false, "[]:\\");
        printf("]");
        if (p[1] == ':') {
            printf(":");
            zsh_action(kind, words);
        }
        printf("'\n");
    }
    printf(")\n_arguments -s -S : $specs '1: :_kerndiff_first' '*:file:_files'\n");
}

static void fish_completion(void)
{
    char description[160];
    printf("# fish completion for kerndiff (kerndiff --completion fish)\n");
    for (const struct option *o = long_options; o->name; o++) {
        char name[48];
        snprintf(name, sizeof name, "--%s", o->name);
        help_description(name, description, sizeof description);
        printf("complete -c kerndiff -l %s", o->name);
        if (o->val < 256 && strchr(short_options, o->val))
            printf(" -s %c", o->val);
        const char *words;
        char kind = value_kind(o->val, &words);
        /* -r: the value is the next word; -f: no files unless the value is one. */
        if (o->has_arg == required_argument)
            printf(" -r%s", kind == 'f' ? " -F" : " -f");
        else if (o->has_arg == optional_argument && kind == 'w')
            printf(" -f"); /* --sanitize=TOOLS: the words only */
        if (kind == 'w')
            printf(" -a '%s'", words);
        else if (kind == 'd')
            printf(" -a '(__fish_complete_directories)'");
        else if (kind == 'c')
            printf(" -a '(__fish_complete_command)'");
        if (*description) {
            printf(" -d '");
            put_quoted(description, true, NULL);
            printf("'");
        }
        printf("\n");
    }
    for (const char *p = short_options; *p; p++) {
        if (*p == ':' || long_of(*p))
            continue; /* written with its long form */
        char name[4] = {'-', *p, '\0'};
        help_description(name, description, sizeof description);
        const char *words;
        char kind = value_kind(*p, &words);
        printf("complete -c kerndiff -s %c%s%s -d '", *p, p[1] == ':' ? " -r -f" : "",
               kind == 'd' ? " -a '(__fish_complete_directories)'" : "");
        put_quoted(description, true, NULL);
        printf("'\n");
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        printf("complete -c kerndiff -n __fish_use_subcommand -a %s -d '", commands[i].name);
        put_quoted(commands[i].what, true, NULL);
        printf("'\n");
    }
}

void kd_print_completion(const char *shell)
{
    if (!strcmp(shell, "bash"))
        bash_completion();
    else if (!strcmp(shell, "zsh"))
        zsh_completion();
    else
        fish_completion();
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

/* What the parse remembers besides the options: the words as given (GNU getopt permutes
 * argv), the words an optional output took, and which options were given. */
typedef struct parse_state {
    char **original;           /* argv before getopt moved anything */
    int argc;
    const char **taken_by[2];  /* where an optional output stored a word it took (&opts->json_path) */
    const char *taken[2];
    unsigned char seen[1024];  /* by getopt code: options given, for the checks between them */
} parse_state;

static bool is_command_word(const char *w)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(w, commands[i].name) == 0)
            return true;
    return false;
}

/* `--json FILE` (with a space): the next word is the file (any name: the option says the
 * format), "-" is stdout, unless the word is an option, a command, or a source file by its
 * extension: `kerndiff --json a.cu b.cu` is JSON to stdout and never a report over a.cu.
 * A word taken that the command then lacks as an operand is given back (give_back). */
static void optional_output(int argc, char **argv, parse_state *st, const char **dest)
{
    *dest = "-";
    if (optarg) {
        *dest = optarg;
        return;
    }
    if (optind >= argc)
        return;
    const char *w = argv[optind];
    if ((w[0] == '-' && w[1]) || is_command_word(w) || kd_outputs_source_name(w))
        return;
    *dest = w;
    optind++;
    int slot = st->taken[0] ? 1 : 0;
    st->taken[slot] = w;
    st->taken_by[slot] = dest;
}

/* How many operands (words after the options, the command word included) the command needs. */
static int operands_needed(const kd_options *opts, const char *const *positional, int npos)
{
    if (npos == 0)
        return 1; /* git mode on the one file */
    if (!strcmp(positional[0], "compare"))
        return 3;
    if (!strcmp(positional[0], "list"))
        return 2;
    if (!strcmp(positional[0], "app"))
        return opts->diff.at ? 2 : 3;
    return npos;
}

static int original_index(const parse_state *st, const char *word)
{
    for (int i = 0; i < st->argc; i++)
        if (st->original[i] == word)
            return i;
    return st->argc;
}

/* `kerndiff compare --json old.json new.json`: --json took old.json, which compare needs:
 * the JSON goes to stdout and the word goes back among the operands, in its place. */
static void give_back(const kd_options *opts, parse_state *st, const char **positional, int *npos)
{
    for (int k = 0; k < 2 && st->taken[k] && *npos < operands_needed(opts, positional, *npos); k++) {
        int at = *npos, index = original_index(st, st->taken[k]);
        while (at > 0 && original_index(st, positional[at - 1]) > index) {
            positional[at] = positional[at - 1];
            at--;
        }
        positional[at] = st->taken[k];
        (*npos)++;
        *st->taken_by[k] = "-";
    }
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

/* The message echoes what was typed (an option, a value, a file name): escape sequences
 * and other controls in it are written out visibly, never sent to the terminal. */
__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    kd_strbuf safe = {0};
    fprintf(stderr, "kerndiff: %s\nTry 'kerndiff --help'.\n", kd_text_safe(text, &safe));
    kd_sb_free(&safe);
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

static int parse_words(int argc, char **argv, kd_options *opts, parse_state *st)
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
    while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
        if (c >= 0 && c < (int)sizeof st->seen)
            st->seen[c] = 1;
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
        case OPT_RUN:
            if (strspn(optarg, " \t") == strlen(optarg))
                return usage_error("--run wants a command that launches the kernel (e.g. 'python run.py'), got '%s'", optarg);
            opts->diff.frontend.run_command = optarg;
            break;
        case OPT_NO_CAPTURE: opts->diff.frontend.no_capture = true; break;
        case OPT_CONFIG:
            if (!*optarg || strspn(optarg, " ") == strlen(optarg))
                return usage_error("--config wants a config number (1, 2 ...) or NAME=VALUE,..., got '%s'", optarg);
            opts->diff.frontend.config = optarg;
            break;
        case OPT_CAPTURE_NTH: {
            double v;
            if (parse_number(optarg, 1, 1000000, false, &v) != 0 || v != (int)v)
                return usage_error("--nth wants a whole number from 1 to 1000000, got '%s'", optarg);
            opts->diff.frontend.capture_nth = (int)v;
            break;
        }
        case OPT_CAPTURE_TIMEOUT: {
            double v;
            if (parse_number(optarg, 1, MAX_TIMEOUT_S, false, &v) != 0)
                return usage_error("--capture-timeout wants seconds from 1 to %d, got '%s'", MAX_TIMEOUT_S, optarg);
            opts->diff.frontend.capture_timeout_s = (int)(v + 0.5);
            break;
        }
        case OPT_ARCH: opts->diff.arch = optarg; break;
        case OPT_NO_COLOR: opts->render.color = false; break;
        case OPT_NO_CACHE: opts->diff.frontend.no_cache = true; break;
        case OPT_ALL_INSTRUCTIONS: opts->render.all_rows = true; break;
        case OPT_JSON: optional_output(argc, argv, st, &opts->json_path); break;
        case OPT_MARKDOWN: optional_output(argc, argv, st, &opts->markdown_path); break;
        case OPT_HTML: opts->html_path = optarg; break;
        case OPT_CSV: opts->csv_path = optarg; break;
        case OPT_FORCE: opts->force = true; break;
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
    const char *positional[5];
    int npos = 0;
    while (optind < argc) {
        if (npos == 3)
            return usage_error("too many files: '%s'", argv[optind]);
        positional[npos++] = argv[optind++];
    }
    give_back(opts, st, positional, &npos);
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

/* The first of the given options among codes[] (0 when none), for naming it. */
static int first_seen(const parse_state *st, const int *codes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (st->seen[codes[i]])
            return codes[i];
    return 0;
}

/* An option's name by its getopt code, as the user would type it. */
static const char *option_name(int code)
{
    static char name[40];
    if (code < 256) {
        snprintf(name, sizeof name, "-%c", code);
        return name;
    }
    for (const struct option *o = long_options; o->name; o++)
        if (o->val == code) {
            snprintf(name, sizeof name, "--%s", o->name);
            return name;
        }
    return "?";
}

/* A launch setting that is a constant (no n, block or scalar in it) is checked now, with
 * the range CUDA allows, so that a bad one is refused before anything is built. X[,Y[,Z]]. */
static int check_dims(const char *option, const char *text, const double limits[3], double product_limit)
{
    if (!text)
        return 0;
    char *copy = kd_xstrdup(text);
    char *parts[3] = {copy};
    int nparts = 1, depth = 0, rc = 0;
    for (char *p = copy; *p && rc == 0; p++) {
        depth += (*p == '(') - (*p == ')');
        if (*p == ',' && depth == 0) {
            if (nparts == 3)
                rc = usage_error("%s wants X, X,Y or X,Y,Z, got '%s'", option, text);
            else {
                *p = '\0';
                parts[nparts++] = p + 1;
            }
        }
    }
    double product = 1;
    const kd_vars none = {0};
    for (int i = 0; i < nparts && rc == 0; i++) {
        double v;
        char err[256];
        if (kd_expr_eval(parts[i], &none, &v, err, sizeof err) != 0) {
            if (strstr(err, "unknown name"))
                break; /* it depends on n, block or a scalar: the launch checks it (launch/spec.c) */
            rc = usage_error("%s '%s': %s", option, text, err);
        } else if (v != floor(v) || v < 1 || v > limits[i])
            rc = usage_error("%s '%s': %s is %g, but it must be a whole number from 1 to %.0f (CUDA's limits "
                             "%.0f,%.0f,%.0f%s)", option, text, i == 0 ? "x" : i == 1 ? "y" : "z", v, limits[i],
                             limits[0], limits[1], limits[2],
                             product_limit > 0 ? ", and at most 1024 threads per block in all" : "");
        else
            product *= v;
    }
    if (rc == 0 && product_limit > 0 && product > product_limit)
        rc = usage_error("%s '%s' is %.0f threads per block, but CUDA allows at most %.0f", option, text, product,
                         product_limit);
    free(copy);
    return rc;
}

/* Everything asked, checked together before any of it runs: values that only make sense
 * together (--min-runs against --max-runs), options that contradict each other or would be
 * silently ignored by the command, and at most one document on stdout. */
static int check_request(kd_options *opts, const parse_state *st)
{
    /* Samples: both given and crossed is a contradiction; one given moves the other's default. */
    kd_timing_options *t = &opts->diff.timing;
    if (st->seen[OPT_MIN_RUNS] && st->seen[OPT_MAX_RUNS] && t->min_runs > t->max_runs)
        return usage_error("--min-runs %d is more than --max-runs %d: give a minimum at most the maximum",
                           t->min_runs, t->max_runs);
    if (t->min_runs > t->max_runs)
        *(st->seen[OPT_MAX_RUNS] ? &t->min_runs : &t->max_runs) = st->seen[OPT_MAX_RUNS] ? t->max_runs : t->min_runs;

    /* Pairs where the second has no effect, or the opposite one, given the first. */
    static const struct {
        int with, code;
        const char *why;
    } pairs[] = {
        {OPT_NO_RUN, OPT_FAIL_IF_SLOWER, "--no-run times nothing, and the gate judges the timing"},
        {OPT_NO_RUN, OPT_REQUIRE_MATCH, "--no-run runs nothing, and the outputs come from running both"},
        {OPT_NO_RUN, OPT_SANITIZE, "--no-run runs nothing, and the sanitizer runs both"},
        {OPT_NO_RUN, OPT_REGIONS, "--no-run times nothing, and regions are timed"},
        {OPT_NO_RUN, OPT_TRACE, "--no-run runs nothing, and the trace records a run"},
        {OPT_NO_RUN, OPT_LOCK_CLOCKS, "--no-run times nothing"},
        {OPT_NO_CHECK, OPT_REQUIRE_MATCH, "--no-check compares no outputs"},
        {OPT_NO_CHECK, OPT_RTOL, "--no-check compares no outputs"},
        {OPT_NO_CHECK, OPT_ATOL, "--no-check compares no outputs"},
        {OPT_NO_NCU, OPT_NCU, "--no-ncu runs no counter pass"},
        {OPT_NO_NCU, OPT_NCU_SET, "--no-ncu runs no counter pass"},
        {OPT_NO_NCU, OPT_NCU_REPEATS, "--no-ncu runs no counter pass"},
        {OPT_NO_NCU, OPT_NCU_CLOCK, "--no-ncu runs no counter pass"},
        {OPT_NO_NCU, OPT_NCU_REPORT, "--no-ncu runs no counter pass"},
        {OPT_NO_NCU, OPT_METRICS, "--no-ncu runs no counter pass"},
        {OPT_NO_NCU, OPT_METRIC_NAMES, "--no-ncu runs no counter pass"},
        {OPT_WATCH, OPT_JSON, "--watch prints to the terminal only"},
        {OPT_WATCH, OPT_SAVE, "--watch prints to the terminal only"},
        {OPT_WATCH, OPT_MARKDOWN, "--watch prints to the terminal only"},
        {OPT_WATCH, OPT_HTML, "--watch prints to the terminal only"},
        {OPT_WATCH, OPT_CSV, "--watch prints to the terminal only"},
        {OPT_WATCH, OPT_TRACE, "--watch prints to the terminal only"},
        {OPT_WATCH, OPT_SWEEP, "--watch runs one diff"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        if (st->seen[pairs[i].with] && st->seen[pairs[i].code]) {
            char first[40];
            snprintf(first, sizeof first, "%s", option_name(pairs[i].with));
            return usage_error("%s and %s contradict each other (%s): drop one", first, option_name(pairs[i].code),
                               pairs[i].why);
        }
    /* (--compute-sanitizer and --sanitize-n also serve the sanitizer run that explains a fault.) */
    if (st->seen[OPT_SANITIZE_WARN] && !st->seen[OPT_SANITIZE])
        return usage_error("--sanitize-warn is a setting of --sanitize, which is not given: add --sanitize, or drop "
                           "--sanitize-warn");

    /* Options of one command given to another: they would be ignored. */
    static const int app_only[] = {OPT_APP_RUNS, OPT_APP_RANGE, OPT_APP_STEPS, OPT_APP_TOP, 'N'};
    int stray = first_seen(st, app_only, sizeof app_only / sizeof *app_only);
    if (stray && opts->command != KD_CMD_APP)
        return usage_error("%s belongs to kerndiff app%s", option_name(stray),
                           stray == OPT_APP_RUNS ? " (samples of a kernel diff: --min-runs, --max-runs)" : "");
    if (st->seen[OPT_SIDE] && opts->command != KD_CMD_COMPARE)
        return usage_error("--side picks a side of each saved run: it belongs to kerndiff compare OLD.json NEW.json");
    static const int not_for_app[] = {OPT_SAVE, OPT_CSV, OPT_TRACE, OPT_SWEEP, OPT_WATCH};
    stray = first_seen(st, not_for_app, sizeof not_for_app / sizeof *not_for_app);
    if (stray && opts->command == KD_CMD_APP)
        return usage_error("%s is not an option of kerndiff app (its outputs: --json, --markdown, --html)",
                           option_name(stray));
    static const int outputs[] = {OPT_JSON, OPT_SAVE, OPT_MARKDOWN, OPT_HTML, OPT_CSV, OPT_TRACE, OPT_NCU_REPORT};
    stray = first_seen(st, outputs, sizeof outputs / sizeof *outputs);
    if (stray && opts->command == KD_CMD_LIST)
        return usage_error("kerndiff list prints to the terminal only: %s would write nothing", option_name(stray));
    if (st->seen[OPT_SWEEP] && kd_sweep_n_list(opts->diff.launch.n))
        return usage_error("--n %s and --sweep are two sweeps: give one", opts->diff.launch.n);
    if (opts->watch && kd_sweep_n_list(opts->diff.launch.n))
        return usage_error("--watch and --n %s contradict each other (--watch runs one diff): drop one",
                           opts->diff.launch.n);

    /* One document on stdout at most: two would run into each other (the JSON no longer parses). */
    const struct {
        const char *option, *path;
    } docs[] = {{"--json", opts->json_path}, {"--save", opts->save_path}, {"--markdown", opts->markdown_path},
                {"--html", opts->html_path}, {"--csv", opts->csv_path}, {"--trace", opts->trace_path}};
    const char *on_stdout = NULL;
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        if (!docs[i].path || strcmp(docs[i].path, "-") != 0)
            continue;
        if (on_stdout)
            return usage_error("%s and %s both write to standard output (a bare %s or %s, or '-'): give one of "
                               "them a FILE", on_stdout, docs[i].option, on_stdout, docs[i].option);
        on_stdout = docs[i].option;
    }

    /* Launch values that hold no name are checked now, whatever runs (--no-run too). */
    const char *n = opts->diff.launch.n;
    if (n && !kd_sweep_n_list(n)) {
        unsigned long long count;
        char why[256];
        if (kd_parse_count(n, &count, why, sizeof why) != 0)
            return usage_error("--n wants an element count (16M, 1<<24, 4096), got '%s': %s", n, why);
    }
    static const double block_limits[3] = {1024, 1024, 64}, grid_limits[3] = {2147483647.0, 65535, 65535};
    if (check_dims("--block", opts->diff.launch.block, block_limits, 1024) != 0 ||
        check_dims("--grid", opts->diff.launch.grid, grid_limits, 0) != 0)
        return KD_EXIT_USAGE;
    return 0;
}

int kd_options_parse(int argc, char **argv, kd_options *opts)
{
    parse_state st = {.argc = argc};
    st.original = kd_xmalloc(((size_t)argc + 1) * sizeof *st.original);
    memcpy(st.original, argv, (size_t)argc * sizeof *argv);
    int rc = parse_words(argc, argv, opts, &st);
    bool runs = opts->command == KD_CMD_DIFF || opts->command == KD_CMD_COMPARE || opts->command == KD_CMD_APP ||
                opts->command == KD_CMD_LIST;
    if (rc == 0 && runs)
        rc = check_request(opts, &st);
    free(st.original);
    return rc;
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
