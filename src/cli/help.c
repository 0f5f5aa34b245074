/* The help text: --help prints it, the man page is made from it (scripts/gen-man.py) and the
 * completions take each option's description from it (cli/completion.c). The output formats'
 * options are not written here: each is a row of report/formats.c's table, listed where its
 * row's section has its place below (a line "@SECTION"), in the table's order. */
#include <stdio.h>
#include <string.h>

#include "cli/option_parse.h"
#include "cli/options.h"
#include "util/strbuf.h"

static const char help_template[] =
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
        "       kerndiff capture --fn NAME -o FILE -- CMD ARGS...\n"
        "                                          record the kernel's launch in the program\n"
        "                                          CMD (with a GPU), for --launch FILE\n"
        "       kerndiff rank [options] BASE CAND...  many candidates (files, folders) against one\n"
        "                                          baseline: the correct ones, the fastest with confidence\n"
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
        "  --python PATH         the Python with Triton, for .py files (default:\n"
        "                        $KERNDIFF_PYTHON, else the project's .venv, else python3)\n"
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
        "  --launch FILE         replay the launch kerndiff capture recorded (geometry, parameters,\n"
        "                        the program's data) on both sides; outputs are also compared\n"
        "                        with the program's own result\n"
        "  --from CMD            capture the launch of --fn in the program CMD, then replay it\n"
        "Capturing (kerndiff capture --fn NAME [--nth K] -o FILE -- CMD ARGS...; with a GPU):\n"
        "  -o FILE               the capture file (written 0600: it holds the program's data)\n"
        "  --continue            let the program run to its end after the capture\n"
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
        "  --load single|sustained[:MS]   one launch at a time (single), or back to back as\n"
        "                        triton.testing.do_bench runs them (sustained; MS of load, 100)\n"
        "  --lock-clocks         lock the SM clock for the run (root; reset at exit)\n"
        "Counters (with a GPU):\n"
        "  --no-ncu              no counter pass\n"
        "  --counters cupti|ncu|auto   who collects them: the harness (CUPTI range profiler) or\n"
        "                        Nsight Compute (auto: CUPTI, else ncu with a line saying why)\n"
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
        "@Regions\n"
        "Hot spots (CUDA C and Triton cubins, with line info; with a GPU and nvdisasm):\n"
        "  --hotspots            where inside the kernel the time moved: PC samples per source line\n"
        "  --hotspots-period N   2^N cycles between samples, 5 to 31 (implies --hotspots; CUPTI's default)\n"
        "Ranking (kerndiff rank BASE CAND...; docs/RANK.md):\n"
        "  --top K               contenders to separate and compare pairwise (3)\n"
        "  --budget-ms MS        wall time each heat's race may take (none)\n"
        "  --max-rounds N        rounds at most for one candidate (200)\n"
        "  --heats H             race the candidates in H heats, the baseline in each (1)\n"
        "  --shard I/N           run heat I of N only; write it with --json FILE (for --merge)\n"
        "  --gpus all|0,2,3      one harness per GPU; ratios made per GPU, then combined\n"
        "  --mixed-gpus          rank on GPUs of different models\n"
        "  --jobs N              candidates built at once before the gate (the host's cores)\n"
        "  --refs REV,...        the baseline's file at each git revision, a candidate each\n"
        "  --slurm 'OPTIONS'     submit the rank to Slurm as one job array (sbatch OPTIONS)\n"
        "  --shards N            array tasks, one heat each (4)\n"
        "  --slurm-dir DIR       where the tasks write their heats and logs (shared by the nodes)\n"
        "  --wait                wait for the array, then merge\n"
        "  --only-shard I        with --slurm --slurm-dir DIR: submit shard I again, alone\n"
        "  --merge DIR           one report from DIR's shards\n"
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
        "@Saving\n"
        "  --fail-if-slower PCT  exit 8 when v2 is significantly slower by more than PCT%\n"
        "                        (judged on the 95% CI, not the point estimate; app: the\n"
        "                        total GPU kernel time)\n"
        "Correctness:\n"
        "  --no-check            do not compare outputs (and no audits: no verdict is\n"
        "                        checked, the report says so)\n"
        "  --rtol X, --atol X    tolerances (default per dtype; an all-zero, constant or\n"
        "                        NaN v2 never matches)\n"
        "  --audits N            the fewest untimed audit launches a side during the\n"
        "                        timing (3)\n"
        "  --allow-mismatch      exit 0 when outputs differ (by default: exit 6)\n"
        "  --require-match       exit 6 when outputs differ or were not compared\n"
        "Analysis:\n"
        "  --all-instructions    list unchanged instruction rows too\n"
        "Output:\n"
        "@Output\n"
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
        "failed), 6 outputs differ or an audit failed (--allow-mismatch: 0), 7 a\n"
        "required tool is missing, an output could not be written or memory ran out,\n"
        "8 v2 slower than --fail-if-slower allows, 9 --sanitize found a problem.\n"
        "A file named -x.cu goes after --.\n"
        "\n"
        "Examples:\n"
        "  kerndiff examples/vector_loads/v1.cu examples/vector_loads/v2.cu\n"
        "  kerndiff --fn reduce --arch sm_80 old.cu new.cu\n"
        "  kerndiff --fn add_v1:add_v2 --json=diff.json a.cu b.cu\n"
        "  kerndiff --n 64M --arg alpha=2 --require-match old.cu new.cu\n"
        "  kerndiff list examples/matmul/v2.cu\n";

/* A format option's lines: the option column (22 wide, as the lines above), its description,
 * and each further line of the description under the first. */
static void format_option_lines(kd_strbuf *sb, const kd_format_option *o)
{
    kd_sb_printf(sb, "  %-20s  ", o->usage);
    for (const char *line = o->help; *line;) {
        size_t len = strcspn(line, "\n");
        kd_sb_append(sb, line, len);
        kd_sb_puts(sb, "\n");
        line += len;
        if (*line == '\n' && *++line)
            kd_sb_printf(sb, "%24s", "");
    }
}

const char *kd_help(void)
{
    static char *text;
    if (text)
        return text;
    kd_strbuf sb = {0};
    for (const char *line = help_template; *line;) {
        size_t len = strcspn(line, "\n");
        if (line[0] != '@') {
            kd_sb_append(&sb, line, len);
            kd_sb_puts(&sb, "\n");
        } else {
            const kd_format_option *o;
            for (size_t slot = 0; (o = kd_format_option_at(slot)) != NULL; slot++)
                if (strlen(o->section) == len - 1 && strncmp(o->section, line + 1, len - 1) == 0)
                    format_option_lines(&sb, o);
        }
        line += len + (line[len] == '\n');
    }
    text = kd_sb_take(&sb);
    return text;
}

bool kd_help_has_section(const char *section)
{
    for (const char *at = strchr(help_template, '@'); at; at = strchr(at + 1, '@'))
        if ((at == help_template || at[-1] == '\n') && strncmp(at + 1, section, strlen(section)) == 0 &&
            at[1 + strlen(section)] == '\n')
            return true;
    return false;
}

void kd_print_help(void)
{
    fputs(kd_help(), stdout);
}
