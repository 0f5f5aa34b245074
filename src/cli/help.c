/* The help text: --help prints it, the man page is made from it (scripts/gen-man.py) and the
 * completions take each option's description from it (cli/completion.c). The output formats'
 * options are not written here: each is a row of report/formats.c's table, listed where its
 * row's section has its place below (a line "@SECTION"), in the table's order. The commands'
 * synopses, descriptions and examples are their rows' (cmd/commands.c, cli/command.h); the exit
 * statuses are cli/exit_codes.h's table. Every line fits 80 columns: an option whose lines
 * would not is wrapped again here (a format row's text is written elsewhere). */
#include "cli/help.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "cli/exit_codes.h"
#include "cli/option_parse.h"
#include "cli/options.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char help_template[] =
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
        "  --python PATH         the Python with Triton, for .py files, or with torch, for .cu files\n"
        "                        that include torch/extension.h (default: $KERNDIFF_PYTHON, else\n"
        "                        the project's .venv, else python3)\n"
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
        "Capturing (kerndiff capture; with a GPU):\n"
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
        "  --no-launch-memcheck  time a launch kerndiff assumed without running it under\n"
        "                        memcheck first (a read past a buffer's end then goes unseen)\n"
        "Regions (include/kerndiff/regions.h markers; Triton: Proton scopes; with a GPU):\n"
        "  --regions             time each marked region of both versions and diff them\n"
        "  --region-records N    records kept per warp, a power of two (256)\n"
        "  --region-blocks N     record one block in N (a power of two), 'all' or 'auto' (auto: up to\n"
        "                        1 in 8, keeping 2 recording blocks per SM)\n"
        "@Regions\n"
        "Hot spots (CUDA C and Triton cubins, with line info; with a GPU and nvdisasm):\n"
        "  --hotspots            where inside the kernel the time moved: PC samples per source line\n"
        "  --hotspots-period N   2^N cycles between samples, 5 to 31 (implies --hotspots; CUPTI's default)\n"
        "Ranking (kerndiff rank; docs/RANK.md):\n"
        "  --top K               contenders to separate and compare pairwise (3)\n"
        "  --budget-ms MS        wall time each heat's race may take (none)\n"
        "  --max-rounds N        rounds at most for one candidate (200)\n"
        "  --heats H             race the candidates in H heats, the baseline in each (1)\n"
        "  --shard I/N           run heat I of N only; write it with --json FILE (for --merge)\n"
        "  --gpus all|0,2,3      one harness per GPU; ratios made per GPU, then combined\n"
        "  --mixed-gpus          rank on GPUs of different models\n"
        "  --jobs N              candidates built at once before the gate (the host's cores)\n"
        "  --refs REV,...        the baseline's file at each git revision, a candidate each\n"
        "  --follow-links        rank candidates that are symbolic links (refused otherwise)\n"
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
        "  --require-match       exit 6 when outputs differ, 10 when they were not compared\n"
        "Analysis:\n"
        "  --all-instructions    list unchanged instruction rows too\n"
        "Output:\n"
        "@Output\n"
        "  --force               write outputs even over an input, a source file or a file git\n"
        "                        tracks (refused otherwise: exit 2)\n"
        "  --no-color            no colour (also when NO_COLOR is set or not a terminal)\n"
        "  --brief               the verdict, correctness and what changed, nothing else\n"
        "  -q, --quiet           nothing on stderr but errors\n"
        "  -v, --verbose         every stage on stderr with its time (also KERNDIFF_TRACE=1);\n"
        "                        the report's lines whole, nothing fitted to the width\n"
        "About kerndiff:\n"
        "  -h, --help            this text (kerndiff CMD --help, kerndiff help CMD: one\n"
        "                        command's options and examples)\n"
        "  --version             the version, and where its parts and tools were found\n"
        "  --completion bash|zsh|fish   print a shell completion script\n";

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

enum { HELP_WIDTH = 80, HELP_DESCRIPTION_COLUMN = 24 };

/* Appends `text`'s words to sb from column `column`, a new line indented to `indent` before a
 * word that would pass HELP_WIDTH; ends the line. */
static void wrap_words(kd_strbuf *sb, const char *text, size_t column, size_t indent)
{
    bool first = true;
    for (const char *w = text + strspn(text, " \n"); *w; w += strspn(w, " \n")) {
        size_t len = strcspn(w, " \n");
        if (!first && column + 1 + len > HELP_WIDTH) {
            kd_sb_printf(sb, "\n%*s", (int)indent, "");
            column = indent;
        } else if (!first) {
            kd_sb_puts(sb, " ");
            column++;
        }
        kd_sb_append(sb, w, len);
        column += len;
        first = false;
        w += len;
    }
    kd_sb_puts(sb, "\n");
}

/* One option's lines (its first line "  OPTION  description" and the lines under it), as
 * they are when they fit, else its description wrapped again under the option column. */
static void option_entry(kd_strbuf *sb, const char *entry, size_t len)
{
    bool fits = true;
    for (size_t at = 0; at < len;) {
        size_t line = strcspn(entry + at, "\n");
        fits &= line <= HELP_WIDTH;
        at += line + 1;
    }
    if (fits) {
        kd_sb_append(sb, entry, len);
        return;
    }
    const char *gap = strstr(entry + 2, "  ");
    size_t option_len = gap && gap < entry + len ? (size_t)(gap - entry - 2) : len - 2;
    char *description = kd_xstrndup(entry + 2 + option_len, len - 2 - option_len);
    size_t column;
    if (option_len + 4 <= HELP_DESCRIPTION_COLUMN) {
        kd_sb_printf(sb, "  %-*.*s  ", HELP_DESCRIPTION_COLUMN - 4, (int)option_len, entry + 2);
        column = HELP_DESCRIPTION_COLUMN;
    } else {
        kd_sb_printf(sb, "  %.*s   ", (int)option_len, entry + 2);
        column = option_len + 5;
    }
    wrap_words(sb, description, column, HELP_DESCRIPTION_COLUMN);
    free(description);
}

/* The options' text with every entry made to fit (option_entry). */
static char *fitted(const char *text)
{
    kd_strbuf sb = {0};
    for (const char *line = text; *line;) {
        const char *end = line + strcspn(line, "\n");
        if (strncmp(line, "  -", 3) != 0) {
            kd_sb_append(&sb, line, (size_t)(end - line) + (*end == '\n'));
            line = end + (*end == '\n');
            continue;
        }
        /* the entry: its first line and the deeper-indented lines under it */
        const char *next = end + (*end == '\n');
        while (strncmp(next, "    ", 4) == 0)
            next += strcspn(next, "\n") + (next[strcspn(next, "\n")] == '\n');
        option_entry(&sb, line, (size_t)(next - line));
        line = next;
    }
    return kd_sb_take(&sb);
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
    text = fitted(kd_sb_str(&sb));
    kd_sb_free(&sb);
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

/* ---- the commands' help --------------------------------------------------------------- */

static const kd_exit_row exit_rows[] = {
#define KD_EXIT_ROW(name, value, summary, details) {value, summary, details},
    KD_EXIT_TABLE(KD_EXIT_ROW)
#undef KD_EXIT_ROW
};

/* "Exit status:" and one line per row of cli/exit_codes.h's table. */
static void exit_status_lines(kd_strbuf *sb)
{
    kd_sb_puts(sb, "Exit status:\n");
    for (size_t i = 0; i < sizeof exit_rows / sizeof *exit_rows; i++)
        kd_sb_printf(sb, "  %-2d  %s\n", exit_rows[i].code, exit_rows[i].summary);
}

/* Each line of `lines` ("\n"-separated), prefixed. */
static void prefixed_lines(kd_strbuf *sb, const char *first_prefix, const char *prefix, const char *lines)
{
    for (const char *line = lines; *line;) {
        size_t len = strcspn(line, "\n");
        kd_sb_printf(sb, "%s%.*s\n", line == lines ? first_prefix : prefix, (int)len, line);
        line += len + (line[len] == '\n');
    }
}

/* A section heading's name: "Timing (with a GPU):" is "Timing". */
static size_t section_name_len(const char *line)
{
    size_t len = strcspn(line, "\n");
    size_t name = strcspn(line, "(:");
    if (name > 0 && line[name - 1] == ' ')
        name--;
    return name < len ? name : len;
}

/* Whether the entry's option column names `option` ("--side", "-q"). */
static bool entry_names(const char *entry, const char *option)
{
    const char *gap = strstr(entry + 2, "  ");
    size_t column = gap ? (size_t)(gap - entry - 2) : strcspn(entry + 2, "\n");
    size_t len = strlen(option);
    for (const char *p = entry + 2; p + len <= entry + 2 + column; p++)
        if ((p == entry + 2 || p[-1] == ' ') && strncmp(p, option, len) == 0 && strchr(" ,=[", p[len] ? p[len] : ' '))
            return true;
    return false;
}

/* The part of the options' text one item of a command's list names: "Timing" (the section,
 * heading and entries) or "Workflows:--side" (the heading and that entry alone). `heading`
 * is the last heading written, so that entries of one section share it. */
static void options_item(kd_strbuf *sb, const char *item, size_t item_len, const char **heading)
{
    const char *colon = memchr(item, ':', item_len);
    size_t name_len = colon ? (size_t)(colon - item) : item_len;
    char option[48] = "";
    if (colon)
        snprintf(option, sizeof option, "%.*s", (int)(item_len - name_len - 1), colon + 1);
    const char *text = kd_help();
    for (const char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n')) {
        if (line[0] == ' ' || section_name_len(line) != name_len || strncmp(line, item, name_len) != 0)
            continue;
        const char *entry = line + strcspn(line, "\n") + 1;
        while (*entry == ' ') {
            const char *next = entry + strcspn(entry, "\n") + 1;
            while (strncmp(next, "    ", 4) == 0)
                next += strcspn(next, "\n") + 1;
            if (!*option || entry_names(entry, option)) {
                if (*heading != line)
                    kd_sb_printf(sb, "%.*s\n", (int)strcspn(line, "\n"), line);
                *heading = line;
                kd_sb_append(sb, entry, (size_t)(next - entry));
            }
            entry = next;
        }
        return;
    }
}

void kd_help_print(const kd_command_help *const *commands, size_t n)
{
    kd_strbuf sb = {0};
    bool first = true;
    for (size_t i = 0; i < n; i++)
        if (commands[i]->synopsis)
            for (const char *line = commands[i]->synopsis; *line;) {
                size_t len = strcspn(line, "\n");
                kd_sb_printf(&sb, "%s%.*s\n", first ? "usage: " : "       ", (int)len, line);
                first = false;
                line += len + (line[len] == '\n');
            }
    kd_sb_puts(&sb, "\n");
    for (size_t i = 0; i < n; i++)
        if (commands[i]->synopsis) { /* the first command's (the diff's) says what kerndiff does */
            kd_sb_printf(&sb, "%s\n\n", commands[i]->what);
            break;
        }
    kd_sb_puts(&sb, "Commands (kerndiff help CMD, or kerndiff CMD --help: its options and examples):\n");
    for (size_t i = 0; i < n; i++)
        if (commands[i]->synopsis)
            kd_sb_printf(&sb, "  %-9s %s\n", commands[i]->word, commands[i]->summary);
    kd_sb_puts(&sb, "\n");
    kd_sb_puts(&sb, kd_help());
    kd_sb_puts(&sb, "\n");
    exit_status_lines(&sb);
    kd_sb_puts(&sb, "A file named -x.cu goes after --. Full reference: docs/OPTIONS.md.\n\nExamples:\n");
    for (size_t i = 0; i < n; i++) /* each command's first */
        if (commands[i]->examples)
            kd_sb_printf(&sb, "  %.*s\n", (int)strcspn(commands[i]->examples, "\n"), commands[i]->examples);
    fputs(kd_sb_str(&sb), stdout);
    kd_sb_free(&sb);
}

void kd_help_print_command(const kd_command_help *c)
{
    kd_strbuf sb = {0};
    prefixed_lines(&sb, "usage: ", "       ", c->synopsis);
    kd_sb_printf(&sb, "\n%s\n", c->what);
    if (c->options && *c->options) {
        kd_sb_puts(&sb, "\nOptions:\n");
        const char *heading = NULL;
        for (const char *item = c->options; *item;) {
            size_t len = strcspn(item, "|");
            options_item(&sb, item, len, &heading);
            item += len + (item[len] == '|');
        }
    }
    if (c->examples) {
        kd_sb_puts(&sb, "\nExamples:\n");
        prefixed_lines(&sb, "  ", "  ", c->examples);
    }
    kd_sb_puts(&sb, "\nEvery option and the exit statuses: kerndiff --help, docs/OPTIONS.md.\n");
    fputs(kd_sb_str(&sb), stdout);
    kd_sb_free(&sb);
}

const char *kd_help_subject(int argc, char *const *argv, const struct kd_command_row *rows)
{
    const struct option *options = kd_opt_long_options();
    bool after_help = false;
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        if (strcmp(w, "--") == 0)
            break;
        if (w[0] == '-' && w[1]) {
            /* an option: skip the value it takes as the next word */
            if (w[1] != '-') {
                if (!w[2] && strchr(kd_short_options, w[1]) && strchr(kd_short_options, w[1])[1] == ':')
                    i++;
                continue;
            }
            if (strchr(w, '='))
                continue;
            for (const struct option *o = options; o->name; o++)
                if (strcmp(o->name, w + 2) == 0 && o->has_arg == required_argument)
                    i++;
            continue;
        }
        if (strcmp(w, "help") == 0 && !after_help) {
            after_help = true;
            continue;
        }
        if (after_help || kd_command_by_word(rows, w))
            return w;
        return NULL; /* a file: the diff's help is the whole help */
    }
    return NULL;
}

int kd_help_print_for(const char *subject, const kd_command_help *const *commands, size_t n)
{
    if (!subject) {
        kd_help_print(commands, n);
        return KD_EXIT_OK;
    }
    char words[160] = "";
    for (size_t i = 0; i < n; i++) {
        if (!commands[i]->synopsis)
            continue;
        if (strcmp(commands[i]->word, subject) == 0) {
            kd_help_print_command(commands[i]);
            return KD_EXIT_OK;
        }
        snprintf(words + strlen(words), sizeof words - strlen(words), "%s%s", *words ? ", " : "", commands[i]->word);
    }
    return kd_usage_error("no command '%s' to help with: the commands are %s", subject, words);
}
