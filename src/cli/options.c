#include "cli/options.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/command.h"
#include "cli/exit_codes.h"
#include "cli/option_parse.h"
#include "cli/outputs.h"
#include "launch/expr.h"
#include "util/suggest.h"
#include "util/text.h"
#include "workflow/sweep.h"
#include "util/env.h"
#include "util/xalloc.h"
#include "compile/build.h"
#include "ncu/ncu_run.h"

/* The one-letter options (-q -v -h -N, and -I DIR -D NAME[=VALUE] with a value). */
const char kd_short_options[] = "hqvNI:D:o:";

extern const kd_option_group kd_opts_output, kd_opts_build, kd_opts_launch, kd_opts_replay, kd_opts_timing, kd_opts_counters,
    kd_opts_regions, kd_opts_sanitize, kd_opts_workflow, kd_opts_app, kd_opts_capture, kd_opts_rank, kd_opts_slurm, kd_opts_hotspots;
const kd_option_group *const kd_option_groups[] = {
    &kd_opts_output, &kd_opts_build, &kd_opts_launch, &kd_opts_replay, &kd_opts_timing, &kd_opts_counters,
    &kd_opts_regions, &kd_opts_sanitize, &kd_opts_workflow, &kd_opts_app, &kd_opts_capture, &kd_opts_rank,
    &kd_opts_slurm, &kd_opts_hotspots, NULL,
};

const struct option *kd_opt_long_options(void)
{
    static struct option all[160];
    if (!all[0].name) {
        kd_opts_output_prepare();
        size_t n = 0;
        for (const kd_option_group *const *g = kd_option_groups; *g; g++)
            for (const struct option *o = (*g)->options; o->name; o++) {
                if (n + 1 >= sizeof all / sizeof *all)
                    abort(); /* a table too small for the groups: a build mistake, caught by every test */
                all[n++] = *o;
            }
    }
    return all;
}

bool kd_options_stdout_taken(const kd_options *opts)
{
    for (size_t i = 0; i < KD_FORMAT_OPTIONS_MAX; i++)
        if (opts->output_path[i] && strcmp(opts->output_path[i], "-") == 0)
            return true;
    return false;
}

int kd_opt_number(const char *s, double lo, double hi, bool percent, double *out)
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

bool kd_opt_takes_word(const struct kd_command_row *rows, const char *w)
{
    return !((w[0] == '-' && w[1]) || kd_command_by_word(rows, w) || kd_outputs_source_name(w));
}

/* `--json FILE` (with a space): the next word is the file (any name: the option says the
 * format), "-" is stdout, unless the word is an option, a command, or a source file by its
 * extension: `kerndiff --json a.cu b.cu` is JSON to stdout and never a report over a.cu.
 * A word taken that the command then lacks as an operand is given back (give_back). */
void kd_opt_optional_output(kd_opt_ctx *ctx, const char **dest)
{
    int argc = ctx->argc;
    char **argv = ctx->argv;
    kd_parse_state *st = ctx->st;
    *dest = "-";
    if (optarg) {
        *dest = optarg;
        return;
    }
    if (optind >= argc)
        return;
    const char *w = argv[optind];
    if (!kd_opt_takes_word(st->rows, w))
        return;
    *dest = w;
    optind++;
    int slot = 0;
    while (slot < KD_FORMAT_OPTIONS_MAX - 1 && st->taken[slot])
        slot++;
    st->taken[slot] = w;
    st->taken_by[slot] = dest;
}

/* The row the operands name: their first word's, else the default (the diff). */
static const kd_command_row *row_of(const kd_parse_state *st, const char *const *positional, int npos)
{
    const kd_command_row *row = npos > 0 ? kd_command_by_word(st->rows, positional[0]) : NULL;
    return row ? row : kd_command_default(st->rows);
}

/* How many operands (words after the options, the command word included) the command wants:
 * while fewer are there, a word an optional output took is given back (give_back). */
static int operands_needed(const kd_options *opts, const kd_parse_state *st, const char *const *positional, int npos)
{
    const kd_command_row *row = row_of(st, positional, npos);
    if (!row)
        return npos;
    int word = npos > 0 && kd_command_has_word(row);
    return word + (row->wanted ? row->wanted(opts) : row->min_operands);
}

static int original_index(const kd_parse_state *st, const char *word)
{
    for (int i = 0; i < st->argc; i++)
        if (st->original[i] == word)
            return i;
    return st->argc;
}

/* `kerndiff compare --json old.json new.json`: --json took old.json, which compare needs:
 * the JSON goes to stdout and the word goes back among the operands, in its place. */
static void give_back(const kd_options *opts, kd_parse_state *st, const char **positional, int *npos)
{
    for (int k = 0; k < KD_FORMAT_OPTIONS_MAX && st->taken[k] && *npos < operands_needed(opts, st, positional, *npos);
         k++) {
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

/* The message echoes what was typed (an option, a value, a file name): escape sequences
 * and other controls in it are written out visibly, never sent to the terminal. The general
 * hint ends it unless the message names its own (a command's `kerndiff help CMD`). */
static int usage_error_v(bool general_hint, const char *fmt, va_list ap)
{
    char text[1024];
    vsnprintf(text, sizeof text, fmt, ap);
    kd_strbuf safe = {0};
    fprintf(stderr, "kerndiff: %s\n%s", kd_text_safe(text, &safe), general_hint ? "Try 'kerndiff --help'.\n" : "");
    kd_sb_free(&safe);
    return KD_EXIT_USAGE;
}

int kd_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = usage_error_v(true, fmt, ap);
    va_end(ap);
    return rc;
}

/* A refusal that already says where the command's options are listed. */
static int command_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int command_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = usage_error_v(false, fmt, ap);
    va_end(ap);
    return rc;
}

/* getopt's '?': an unknown option or a missing value. An unknown letter may sit inside an
 * argument getopt has not finished (argv[optind]), e.g. a file named -dash.cu: name that
 * argument, not its neighbour, and say how to pass such a file. */
static int unknown_option(int argc, char **argv)
{
    bool letter = optopt > 0 && optopt < 256 && optopt != 'I' && optopt != 'D';
    if (!letter) {
        const char *typed = argv[optind - 1];
        const char *names[256];
        size_t n = 0;
        for (const struct option *o = kd_opt_long_options(); o->name && n < sizeof names / sizeof *names; o++)
            names[n++] = o->name;
        char bare[64];
        snprintf(bare, sizeof bare, "%.*s", (int)strcspn(typed + strspn(typed, "-"), "="), typed + strspn(typed, "-"));
        const char *near = strncmp(typed, "--", 2) == 0 ? kd_suggest(bare, names, n) : NULL;
        if (near && strcmp(near, bare) != 0)
            return kd_usage_error("unknown option '%s': did you mean --%s?", typed, near);
        return kd_usage_error("unknown option or missing value: '%s'", typed);
    }
    const char *arg = optind < argc && argv[optind][0] == '-' && strchr(argv[optind] + 1, optopt) ? argv[optind]
                                                                                               : argv[optind - 1];
    return kd_usage_error("unknown option '-%c' in '%s' (a file whose name starts with '-' goes after '--': "
                       "kerndiff [options] -- %s OTHER.cu, or write it as ./%s)", optopt, arg, arg, arg);
}

/* The command is decided: its row checks its operands (or their count) and stores them. */
static int take_operands(kd_options *opts, const kd_parse_state *st, const kd_command_row *row,
                         const char *const *words, int n)
{
    opts->command = row->id;
    opts->row = row;
    opts->operands = words;
    opts->noperands = n;
    kd_operands in = {words, n, st};
    if (row->operands)
        return row->operands(opts, &in);
    if (n < row->min_operands || (row->max_operands >= 0 && n > row->max_operands))
        return kd_usage_error("usage: %.*s", (int)strcspn(row->help.synopsis ? row->help.synopsis : row->name, "\n"),
                              row->help.synopsis ? row->help.synopsis : row->name);
    return 0;
}

static int parse_words(int argc, char **argv, kd_options *opts, kd_parse_state *st)
{
    memset(opts, 0, sizeof *opts);
    opts->rows = st->rows;
    kd_timing_options_default(&opts->diff.timing);
    opts->diff.counters.repeats = 0; /* auto: kd_ncu_auto_repeats */
    kd_regions_options_default(&opts->diff.regions);
    kd_app_options_default(&opts->app);
    opts->diff.gate.fail_if_slower_pct = -1;
    opts->diff.counters.clock_control = "none";
    opts->render.advice = true;
    opts->rank.shard = -1;
    opts->rank.slurm.only_shard = -1;
    opts->render.color = isatty(STDOUT_FILENO) && !kd_env_nonempty(KD_ENV_NO_COLOR);
    opts->diff.frontend.nvcc = kd_env_nonempty(KD_ENV_NVCC);

    optind = 1;
    opterr = 0;
    int c;
    kd_opt_ctx ctx = {argc, argv, st};
    while ((c = getopt_long(argc, argv, kd_short_options, kd_opt_long_options(), NULL)) != -1) {
        if (c >= 0 && c < (int)sizeof st->seen)
            st->seen[c] = 1;
        int rc = KD_OPT_NOT_MINE;
        for (const kd_option_group *const *g = kd_option_groups; *g && rc == KD_OPT_NOT_MINE; g++)
            if ((rc = (*g)->parse(c, opts, &ctx)) != KD_OPT_NOT_MINE && c >= 0 && c < (int)sizeof st->seen)
                st->group_of[c] = *g;
        if (rc == KD_OPT_STOP) { /* --help, --version, --completion: the command is decided */
            opts->row = kd_command_by_id(st->rows, opts->command);
            return 0;
        }
        if (rc == KD_OPT_NOT_MINE)
            return unknown_option(argc, argv); /* getopt's '?' */
        if (rc != 0)
            return rc;
    }
    /* A command whose operands have no bound (rank BASE CAND...) or are a program's argv
     * (capture ... -- CMD ARGS...): every word after its word is its. */
    const kd_command_row *row = optind < argc ? kd_command_by_word(st->rows, argv[optind]) : NULL;
    if (row && (row->max_operands < 0 || (row->flags & KD_CMDF_ARGV)))
        return take_operands(opts, st, row, (const char *const *)argv + optind + 1, argc - optind - 1);
    /* GNU getopt has moved every option in front, so the rest are the files: as many as the
     * command that takes most takes (its word too). */
    const char **positional = opts->operand_words;
    int npos = 0, most = 1;
    for (const kd_command_row *r = st->rows; r->name; r++)
        if (r->max_operands + kd_command_has_word(r) > most)
            most = r->max_operands + kd_command_has_word(r);
    while (optind < argc) {
        if (npos == most || npos == (int)(sizeof opts->operand_words / sizeof *opts->operand_words))
            return kd_usage_error("too many files: '%s'", argv[optind]);
        positional[npos++] = argv[optind++];
    }
    give_back(opts, st, positional, &npos);
    row = row_of(st, positional, npos);
    if (!row)
        return kd_usage_error("need two kernel files: kerndiff [options] V1.cu V2.cu");
    int word = npos > 0 && kd_command_has_word(row);
    return take_operands(opts, st, row, positional + word, npos - word);
}

/* The first output format's option given (the table's order: report/formats.h), or 0. */
static int first_format_seen(const kd_parse_state *st)
{
    for (size_t i = 0; kd_format_option_at(i); i++)
        if (st->seen[OPT_FORMAT + (int)i])
            return OPT_FORMAT + (int)i;
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
    for (const struct option *o = kd_opt_long_options(); o->name; o++)
        if (o->val == code) {
            snprintf(name, sizeof name, "--%s", o->name);
            return name;
        }
    return "?";
}

/* An option the row does not accept: named with the one command that takes it, when one
 * does, else with the command given. */
static int refuse_option(const kd_command_row *row, const kd_parse_state *st, int code)
{
    char name[40], usage[160];
    snprintf(name, sizeof name, "%s", option_name(code));
    const char *group = st->group_of[code]->name;
    const kd_command_row *owner = NULL;
    int owners = 0;
    for (const kd_command_row *r = st->rows; r->name; r++)
        if (r != row && (r->flags & KD_CMDF_CHECKS) && kd_command_accepts(r, group, name)) {
            owner = r;
            owners++;
        }
    if (owners == 1 && kd_command_has_word(owner))
        return kd_usage_error("%s belongs to kerndiff %s%s", name, kd_command_usage(owner, usage, sizeof usage),
                              code == OPT_APP_RUNS ? " (samples of a kernel diff: --min-runs, --max-runs)" : "");
    return command_usage_error("%s is not an option of kerndiff %s (its options: kerndiff help %s)", name,
                          kd_command_usage(row, usage, sizeof usage), row->help.word ? row->help.word : row->name);
}

/* The options given against the command's row: each of a group the row accepts, each output
 * one whose format renders what the command shows (report/formats.h). */
static int check_row(const kd_command_row *row, const kd_parse_state *st)
{
    for (size_t i = 0; kd_format_option_at(i); i++) {
        const kd_format_option *o = kd_format_option_at(i);
        if (!st->seen[OPT_FORMAT + (int)i] || kd_command_renders(row, o))
            continue;
        if (!row->subjects)
            return kd_usage_error("kerndiff %s prints to the terminal only: %s would write nothing", row->name, o->name);
        char outputs[128] = "";
        for (size_t j = 0; kd_format_option_at(j); j++)
            if (kd_command_renders(row, kd_format_option_at(j)))
                snprintf(outputs + strlen(outputs), sizeof outputs - strlen(outputs), "%s%s", outputs[0] ? ", " : "",
                         kd_format_option_at(j)->name);
        return kd_usage_error("%s is not an option of kerndiff %s (its outputs: %s)", o->name, row->name, outputs);
    }
    for (int code = 0; code < (int)sizeof st->seen; code++) {
        if (!st->seen[code] || !st->group_of[code] || (code >= OPT_FORMAT && code < OPT_FORMAT_END))
            continue;
        if (!kd_command_accepts(row, st->group_of[code]->name, option_name(code)))
            return refuse_option(row, st, code);
    }
    return 0;
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
                rc = kd_usage_error("%s wants X, X,Y or X,Y,Z, got '%s'", option, text);
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
            rc = kd_usage_error("%s '%s': %s", option, text, err);
        } else if (v != floor(v) || v < 1 || v > limits[i])
            rc = kd_usage_error("%s '%s': %s is %g, but it must be a whole number from 1 to %.0f (CUDA's limits "
                             "%.0f,%.0f,%.0f%s)", option, text, i == 0 ? "x" : i == 1 ? "y" : "z", v, limits[i],
                             limits[0], limits[1], limits[2],
                             product_limit > 0 ? ", and at most 1024 threads per block in all" : "");
        else
            product *= v;
    }
    if (rc == 0 && product_limit > 0 && product > product_limit)
        rc = kd_usage_error("%s '%s' is %.0f threads per block, but CUDA allows at most %.0f", option, text, product,
                         product_limit);
    free(copy);
    return rc;
}

/* Everything asked, checked together before any of it runs: values that only make sense
 * together (--min-runs against --max-runs), options that contradict each other or would be
 * silently ignored by the command, and at most one document on stdout. */
static int check_request(kd_options *opts, const kd_parse_state *st)
{
    /* Samples: both given and crossed is a contradiction; one given moves the other's default. */
    kd_timing_options *t = &opts->diff.timing;
    if (st->seen[OPT_MIN_RUNS] && st->seen[OPT_MAX_RUNS] && t->min_runs > t->max_runs)
        return kd_usage_error("--min-runs %d is more than --max-runs %d: give a minimum at most the maximum",
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
        {OPT_WATCH, OPT_SWEEP, "--watch runs one diff"},
        {OPT_LAUNCH_FILE, OPT_FROM, "--from captures the launch that --launch gives"},
        {OPT_LAUNCH_FILE, OPT_N, "--launch replays the captured launch"},
        {OPT_LAUNCH_FILE, OPT_GRID, "--launch replays the captured launch"},
        {OPT_LAUNCH_FILE, OPT_BLOCK, "--launch replays the captured launch"},
        {OPT_LAUNCH_FILE, OPT_SMEM, "--launch replays the captured launch"},
        {OPT_LAUNCH_FILE, OPT_BUF, "--launch replays the captured launch"},
        {OPT_LAUNCH_FILE, OPT_ARG, "--launch replays the captured launch"},
        {OPT_LAUNCH_FILE, OPT_CALL, "--launch replays the captured launch"},
        {OPT_FROM, OPT_N, "--from replays the captured launch"},
        {OPT_FROM, OPT_GRID, "--from replays the captured launch"},
        {OPT_FROM, OPT_BLOCK, "--from replays the captured launch"},
        {OPT_FROM, OPT_SMEM, "--from replays the captured launch"},
        {OPT_FROM, OPT_BUF, "--from replays the captured launch"},
        {OPT_FROM, OPT_ARG, "--from replays the captured launch"},
        {OPT_FROM, OPT_CALL, "--from replays the captured launch"},
        {OPT_LAUNCH_FILE, OPT_SANITIZE_N, "--launch replays the captured launch, at its own size"},
        {OPT_FROM, OPT_SANITIZE_N, "--from replays the captured launch, at its own size"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        if (st->seen[pairs[i].with] && st->seen[pairs[i].code]) {
            char first[40];
            snprintf(first, sizeof first, "%s", option_name(pairs[i].with));
            return kd_usage_error("%s and %s contradict each other (%s): drop one", first, option_name(pairs[i].code),
                               pairs[i].why);
        }
    int format_seen = first_format_seen(st);
    if (st->seen[OPT_WATCH] && format_seen)
        return kd_usage_error("--watch and %s contradict each other (--watch prints to the terminal only): drop one",
                           option_name(format_seen));
    /* (--compute-sanitizer and --sanitize-n also serve the sanitizer run that explains a fault.) */
    if (st->seen[OPT_SANITIZE_WARN] && !st->seen[OPT_SANITIZE])
        return kd_usage_error("--sanitize-warn is a setting of --sanitize, which is not given: add --sanitize, or drop "
                           "--sanitize-warn");

    /* What the command's row does not take: an option of a group it does not accept, an
     * output it has no form of. Either would be ignored. */
    int rc = check_row(opts->row, st);
    if (rc != 0)
        return rc;
    if (opts->diff.capture_from && !opts->diff.fn[0])
        return kd_usage_error("--from 'CMD' needs --fn NAME: the kernel whose launch is captured");
    if (st->seen[OPT_SWEEP] && kd_sweep_n_list(opts->diff.launch.n))
        return kd_usage_error("--n %s and --sweep are two sweeps: give one", opts->diff.launch.n);
    if (opts->watch && kd_sweep_n_list(opts->diff.launch.n))
        return kd_usage_error("--watch and --n %s contradict each other (--watch runs one diff): drop one",
                           opts->diff.launch.n);

    if (kd_outputs_one_on_stdout(opts) != 0)
        return KD_EXIT_USAGE;

    /* Launch values that hold no name are checked now, whatever runs (--no-run too). */
    const char *n = opts->diff.launch.n;
    if (n && !kd_sweep_n_list(n)) {
        unsigned long long count;
        char why[256];
        if (kd_parse_count(n, &count, why, sizeof why) != 0)
            return kd_usage_error("--n wants an element count (16M, 1<<24, 4096), got '%s': %s", n, why);
    }
    static const double block_limits[3] = {1024, 1024, 64}, grid_limits[3] = {2147483647.0, 65535, 65535};
    if (check_dims("--block", opts->diff.launch.block, block_limits, 1024) != 0 ||
        check_dims("--grid", opts->diff.launch.grid, grid_limits, 0) != 0)
        return KD_EXIT_USAGE;
    return 0;
}

int kd_options_parse(int argc, char **argv, kd_options *opts)
{
    return kd_options_parse_rows(kd_cmds, argc, argv, opts);
}

int kd_options_parse_rows(const kd_command_row *rows, int argc, char **argv, kd_options *opts)
{
    kd_parse_state st = {.argc = argc, .rows = rows};
    st.original = kd_xmalloc(((size_t)argc + 1) * sizeof *st.original);
    memcpy(st.original, argv, (size_t)argc * sizeof *argv);
    int rc = parse_words(argc, argv, opts, &st);
    if (rc == 0 && opts->row && (opts->row->flags & KD_CMDF_CHECKS))
        rc = check_request(opts, &st);
    free(st.original);
    return rc;
}

const char *kd_options_output(const kd_options *opts, const char *option)
{
    int slot = kd_format_option_slot(option);
    return slot >= 0 ? opts->output_path[slot] : NULL;
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
    for (size_t i = 0; i < opts->rank.refs.count; i++)
        free(opts->rank.refs.items[i]);
    free(opts->rank.refs.items);
}
