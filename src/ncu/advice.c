/* advice.c — rules that turn large counter changes into one-line notes. Each rule reads the
 * aggregated values of both sides and names the metric and both values it rests on. */
#include "ncu/advice.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* ---- mechanisms: what carries a change, for ranking and for the hot line ---- */

/* A mechanism's stall rows (its share of the change in stalls) and the SASS families of its
 * instructions (its hot line); rank breaks ties: a cause (0) before what follows from it (2). */
typedef struct mechanism {
    const char *const *stalls;
    const char *const *families;
    int rank;
} mechanism;

static const char *const global_stalls[] = {"stall_long_scoreboard", "stall_lg_throttle", NULL};
static const char *const shared_stalls[] = {"stall_mio_throttle", "stall_short_scoreboard", NULL};
static const char *const math_stalls[] = {"stall_math_pipe", NULL};
static const char *const global_loads[] = {"LDG", NULL};
static const char *const global_stores[] = {"STG", "RED", "ATOM", NULL};
static const char *const global_access[] = {"LDG", "STG", "RED", "ATOM", NULL};
static const char *const shared_loads[] = {"LDS", "LDSM", NULL};
static const char *const shared_stores[] = {"STS", NULL};
static const char *const local_access[] = {"LDL", "STL", NULL};
static const char *const tensor_ops[] = {"HMMA", "HGMMA", "IMMA", "IGMMA", "DMMA", "QGMMA", NULL};

static const mechanism coalescing_ld = {global_stalls, global_loads, 0}, coalescing_st = {global_stalls, global_stores, 0},
                       conflicts_ld = {shared_stalls, shared_loads, 0}, conflicts_st = {shared_stalls, shared_stores, 0},
                       dram_traffic = {global_stalls, global_access, 2}, l2_hits = {global_stalls, global_access, 2},
                       spills = {global_stalls, local_access, 0}, tensor_use = {math_stalls, tensor_ops, 1},
                       occupancy = {NULL, NULL, 1};

typedef struct candidate {
    char *text;
    double score;
    bool by_stalls;       /* score is a share of the change in stalls (said in the note) */
    const mechanism *m;   /* NULL: the stall rule (its stall row is `stall`) */
    const char *stall;
    size_t order;         /* the rule order, for ties */
} candidate;

typedef struct note_list {
    char ***notes;
    size_t *count;
    const kd_advice_input *in;
    const kd_hs_diff *hotspots;
    candidate *cand;
    size_t ncand;
} note_list;

/* Both sides' value of a metric, 0 when either lacks it; *present says whether both have it. */
static double delta_of(const kd_advice_input *in, const char *id, bool *present)
{
    long i = kd_metric_index(id);
    *present = i >= 0 && in->side[0]->present[i] && in->side[1]->present[i];
    return *present ? in->side[1]->value[i] - in->side[0]->value[i] : 0;
}

/* The part of the change in warp stalls (warps per issue, summed over every stall row both
 * sides have) that the given rows carry; -1 when there is no stall row or no change. */
static double stall_share(const kd_advice_input *in, const char *const *stalls, const char *one)
{
    static const char prefix[] = "stall_";
    double total = 0, mine = 0;
    for (size_t i = 0; i < kd_metric_def_count; i++) {
        const char *id = kd_metric_defs[i].id;
        bool present;
        double d = strncmp(id, prefix, sizeof prefix - 1) == 0 ? delta_of(in, id, &present) : 0;
        total += fabs(d);
        for (size_t k = 0; stalls && stalls[k]; k++)
            if (!strcmp(stalls[k], id))
                mine += d;
        if (one && !strcmp(one, id))
            mine += d;
    }
    return total > 0 && (stalls || one) ? fmin(1, fabs(mine) / total) : -1;
}

/* score_alone: the mechanism's weight from its own evidence (0..1), used without stall rows. */
static void add_note(note_list *out, const char *text, const mechanism *m, double score_alone)
{
    candidate c = {.text = kd_xstrdup(text), .m = m, .score = score_alone, .order = out->ncand};
    double share = m ? stall_share(out->in, m->stalls, NULL) : -1;
    if (share >= 0)
        c.score = share, c.by_stalls = true;
    out->cand = kd_xreallocarray(out->cand, out->ncand + 1, sizeof *out->cand);
    out->cand[out->ncand++] = c;
}

static bool in_list(const char *const *list, const char *s)
{
    for (size_t k = 0; s && list && list[k]; k++)
        if (!strcmp(list[k], s))
            return true;
    return false;
}

/* The row of the hot-spot diff that changed most among those with the mechanism's
 * instructions, or (the stall rule) whose dominant stall is its stall. */
static const kd_hs_row *hot_row(const kd_hs_diff *d, const candidate *c)
{
    for (size_t r = 0; d && r < d->row_count; r++) {
        const kd_hs_row *row = &d->rows[r];
        for (size_t i = 0; c->m && i < row->insn_count; i++)
            for (int s = 0; s < 2; s++)
                if (row->insns[i].side[s] && in_list(c->m->families, row->insns[i].side[s]->family))
                    return row;
        for (int s = 0; c->stall && s < 2; s++) {
            const char *reason = c->stall + strlen("stall_");
            if (row->dominant[s] && !strncmp(row->dominant[s], reason, strlen(reason)))
                return row;
        }
    }
    return NULL;
}

static int by_score(const void *a, const void *b)
{
    const candidate *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    int rx = x->m ? x->m->rank : 1, ry = y->m ? y->m->rank : 1;
    if (rx != ry)
        return rx < ry ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The candidates, largest share first, each with its share and hot line, after the notes
 * already there. */
static void emit_notes(note_list *out)
{
    if (out->ncand > 1) /* qsort of no candidates: a null array, undefined for qsort */
        qsort(out->cand, out->ncand, sizeof *out->cand, by_score);
    for (size_t k = 0; k < out->ncand; k++) {
        candidate *c = &out->cand[k];
        char share[64] = "", hot[96] = "";
        if (c->by_stalls)
            snprintf(share, sizeof share, "; %.0f%% of the change in warp stalls", c->score * 100);
        const kd_hs_row *row = hot_row(out->hotspots, c);
        if (row) {
            char lines[40];
            if (row->line[0] && row->line[1] && row->line[0] != row->line[1])
                snprintf(lines, sizeof lines, "%u -> %u", row->line[0], row->line[1]);
            else
                snprintf(lines, sizeof lines, "%u", row->line[1] ? row->line[1] : row->line[0]);
            snprintf(hot, sizeof hot, "; hot line %s (%.0f%% -> %.0f%% of samples)", lines, row->share[0] * 100,
                     row->share[1] * 100);
        }
        *out->notes = kd_xreallocarray(*out->notes, *out->count + 1, sizeof **out->notes);
        (*out->notes)[(*out->count)++] = kd_xasprintf("%s%s%s", c->text, share, hot);
        free(c->text);
    }
    free(out->cand);
}

/* ---- human-readable values ---- */

/* Names for value / 1000^i, i = 0, 1, ... */
typedef struct scale {
    const char *sep;
    const char *names[6];
} scale;

static const scale count_scale = {"", {"", "k", "M", "G", "T", "P"}};
static const scale byte_scale = {" ", {"B", "kB", "MB", "GB", "TB", "PB"}};
static const scale byte_rate_scale = {" ", {"B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s"}};
static const scale hz_scale = {" ", {"Hz", "kHz", "MHz", "GHz", "THz", "PHz"}};
static const scale flop_rate_scale = {" ", {"FLOP/s", "kFLOP/s", "MFLOP/s", "GFLOP/s", "TFLOP/s", "PFLOP/s"}};
static const scale time_scale = {" ", {"ns", "us", "ms", "s", "ks", "Ms"}};

/* "3.1M", "12.4 GB/s", "96 B": integers below 1000 print exactly. */
static void format_scaled(double v, const scale *s, char *buf, size_t size)
{
    size_t i = 0;
    while (fabs(v) >= 1000 && i + 1 < sizeof s->names / sizeof s->names[0]) {
        v /= 1000;
        i++;
    }
    int decimals = i == 0 && v == floor(v) ? 0 : 1;
    snprintf(buf, size, "%.*f%s%s", decimals, v, s->sep, s->names[i]);
}

static void format_value(kd_unit unit, double v, char *buf, size_t size)
{
    static const scale *const scales[] = {
        [KD_UNIT_NS] = &time_scale,          [KD_UNIT_BYTES] = &byte_scale,
        [KD_UNIT_BYTES_PER_S] = &byte_rate_scale, [KD_UNIT_HZ] = &hz_scale,
        [KD_UNIT_COUNT] = &count_scale,      [KD_UNIT_FLOPS_PER_S] = &flop_rate_scale,
    };
    if (unit == KD_UNIT_PCT)
        snprintf(buf, size, "%.1f%%", v);
    else if (unit == KD_UNIT_RATIO)
        snprintf(buf, size, "%.1f", v);
    else if (unit == KD_UNIT_FLOP_PER_BYTE)
        snprintf(buf, size, "%.1f FLOP/B", v);
    else
        format_scaled(v, scales[unit], buf, size);
}

/* ---- reading the sides ---- */

/* Both sides' values of `id`; false when either lacks it. */
static bool both(const kd_advice_input *in, const char *id, double v[2])
{
    long i = kd_metric_index(id);
    if (i < 0 || !in->side[0]->present[i] || !in->side[1]->present[i])
        return false;
    v[0] = in->side[0]->value[i];
    v[1] = in->side[1]->value[i];
    return true;
}

static bool on_v2(const kd_advice_input *in, const char *id, double *v)
{
    long i = kd_metric_index(id);
    *v = in->side[1]->value[i];
    return in->side[1]->present[i];
}

/* "bank conflicts ld 3.1M -> 0" */
static void describe_change(const char *id, const double v[2], char *buf, size_t size)
{
    const kd_metric_def *d = &kd_metric_defs[kd_metric_index(id)];
    char a[32], b[32];
    format_value(d->unit, v[0], a, sizeof a);
    format_value(d->unit, v[1], b, sizeof b);
    snprintf(buf, size, "%s %s -> %s", d->label, a, b);
}

/* "tensor pipe 0.3%": one side's value, for a note about v2 alone */
static void describe_value(const char *id, double v, char *buf, size_t size)
{
    const kd_metric_def *d = &kd_metric_defs[kd_metric_index(id)];
    char text[32];
    format_value(d->unit, v, text, sizeof text);
    snprintf(buf, size, "%s %s", d->label, text);
}

/* ---- rules ---- */

/* A quantity that appeared, vanished, or changed by at least `factor` either way. */
typedef struct ratio_rule {
    const char *id;
    const char *subject;
    double factor;
    const mechanism *m;
} ratio_rule;

static const ratio_rule ratio_rules[] = {
    {"bank_conflicts_ld", "shared-memory bank conflicts", 10, &conflicts_ld},
    {"bank_conflicts_st", "shared-memory bank conflicts", 10, &conflicts_st},
    {"dram_bytes", "DRAM traffic", 1.5, &dram_traffic},
};

/* Beyond this factor "fell 250.0x" reads better as orders of magnitude. */
#define ORDERS_OF_MAGNITUDE 100

static void apply_ratio_rule(const kd_advice_input *in, const ratio_rule *rule, note_list *out)
{
    double v[2];
    if (!both(in, rule->id, v) || v[0] == v[1])
        return;
    char change[160], what[64] = "appeared", note[256];
    double weight = 1; /* appeared or vanished */
    if (v[1] == 0) {
        snprintf(what, sizeof what, "vanished");
    } else if (v[0] != 0) {
        double factor = fmax(v[0], v[1]) / fmin(v[0], v[1]);
        weight = fmin(1, log10(factor) / 2); /* 100x and more: 1 */
        const char *way = v[1] < v[0] ? "fell" : "rose";
        if (factor < rule->factor)
            return;
        if (factor >= ORDERS_OF_MAGNITUDE)
            snprintf(what, sizeof what, "%s by orders of magnitude", way);
        else
            snprintf(what, sizeof what, "%s %.1fx", way, factor);
    }
    describe_change(rule->id, v, change, sizeof change);
    snprintf(note, sizeof note, "%s %s (%s)", rule->subject, what, change);
    add_note(out, note, rule->m, weight);
}

/* The share of each fetched 32-byte sector that the accesses use: 100% is coalesced at any
 * access width (sectors per request are 4 for floats but 16 for float4, both perfect).
 * Between 50% and 80% is left alone so a wobble does not flip the note. */
#define COALESCED_MIN 80
#define UNCOALESCED_MAX 50

static const struct {
    const char *id, *accesses;
    const mechanism *m;
} coalescing_rules[] = {
    {"efficiency_ld", "global loads", &coalescing_ld},
    {"efficiency_st", "global stores", &coalescing_st},
};

static void apply_coalescing_rule(const kd_advice_input *in, size_t r, note_list *out)
{
    double v[2];
    if (!both(in, coalescing_rules[r].id, v))
        return;
    const char *what = v[0] >= COALESCED_MIN && v[1] <= UNCOALESCED_MAX   ? "are no longer coalesced"
                       : v[0] <= UNCOALESCED_MAX && v[1] >= COALESCED_MIN ? "are now coalesced"
                                                                           : NULL;
    if (!what)
        return;
    char change[160], note[256];
    describe_change(coalescing_rules[r].id, v, change, sizeof change);
    snprintf(note, sizeof note, "%s %s (%s)", coalescing_rules[r].accesses, what, change);
    add_note(out, note, coalescing_rules[r].m, fabs(v[1] - v[0]) / 100);
}

static void occupancy_limiter_rule(const kd_advice_input *in, note_list *out)
{
    const char *was = kd_occupancy_limiter(in->side[0]);
    const char *now = kd_occupancy_limiter(in->side[1]);
    double v[2];
    if (!was || !now || strcmp(was, now) == 0 || !both(in, "achieved_occupancy", v))
        return;
    char change[160], note[256];
    describe_change("achieved_occupancy", v, change, sizeof change);
    snprintf(note, sizeof note, "occupancy now limited by %s (was %s; %s)", now, was, change);
    add_note(out, note, &occupancy, fabs(v[1] - v[0]) / 100);
}

static void spill_rule(const kd_advice_input *in, note_list *out)
{
    if (in->spill_bytes[0] != 0 || in->spill_bytes[1] <= 0)
        return;
    char note[256];
    snprintf(note, sizeof note, "registers now spill (%ld bytes) — local memory traffic (ptxas spill bytes 0 -> %ld)",
             in->spill_bytes[1], in->spill_bytes[1]);
    add_note(out, note, &spills, 0.5);
}

/* Enough FP32/FP16 work at a high enough intensity that tensor cores would pay off. */
#define MATMUL_MIN_FLOPS 1e9
#define MATMUL_MIN_INTENSITY 10
#define TENSOR_IDLE_PCT 1

static void tensor_idle_rule(const kd_advice_input *in, note_list *out)
{
    double fp32, fp16, intensity, tensor;
    if (!on_v2(in, "flops_fp32", &fp32) || !on_v2(in, "flops_fp16", &fp16) ||
        !on_v2(in, "arithmetic_intensity", &intensity) || !on_v2(in, "tensor_pipe", &tensor))
        return;
    if (fp32 + fp16 <= MATMUL_MIN_FLOPS || intensity <= MATMUL_MIN_INTENSITY || tensor >= TENSOR_IDLE_PCT)
        return;
    char pipe[64], flops[64], ai[64], note[256];
    describe_value("tensor_pipe", tensor, pipe, sizeof pipe);
    format_value(KD_UNIT_COUNT, fp32 + fp16, flops, sizeof flops);
    describe_value("arithmetic_intensity", intensity, ai, sizeof ai);
    snprintf(note, sizeof note, "tensor pipe idle in a matmul-like kernel (%s, FP32+FP16 FLOPs %s, %s)", pipe,
             flops, ai);
    add_note(out, note, &tensor_use, 0.5);
}

#define L2_HIT_RATE_PP 10

static void l2_hit_rate_rule(const kd_advice_input *in, note_list *out)
{
    double v[2];
    if (!both(in, "l2_hit_rate", v) || fabs(v[1] - v[0]) < L2_HIT_RATE_PP)
        return;
    char change[160], note[256];
    describe_change("l2_hit_rate", v, change, sizeof change);
    snprintf(note, sizeof note, "L2 hit rate %s by %.1fpp (%s)", v[1] > v[0] ? "rose" : "fell", fabs(v[1] - v[0]),
             change);
    add_note(out, note, &l2_hits, fabs(v[1] - v[0]) / 100);
}

/* Warps per issue-active cycle: a growth of one whole warp is a new dominant stall. */
#define STALL_GROWTH_MIN 1.0

static void stall_rule(const kd_advice_input *in, note_list *out)
{
    static const char prefix[] = "stall_";
    const char *grown_most = NULL;
    double growth = 0, values[2] = {0, 0};
    for (size_t i = 0; i < kd_metric_def_count; i++) {
        const char *id = kd_metric_defs[i].id;
        double v[2];
        if (strncmp(id, prefix, sizeof prefix - 1) != 0 || !both(in, id, v) || v[1] - v[0] <= growth)
            continue;
        growth = v[1] - v[0];
        grown_most = id;
        memcpy(values, v, sizeof values);
    }
    if (!grown_most || growth < STALL_GROWTH_MIN)
        return;
    char change[160], note[256];
    describe_change(grown_most, values, change, sizeof change);
    snprintf(note, sizeof note, "warps now stall mostly on %s (%s warps/issue)", grown_most + sizeof prefix - 1,
             change);
    /* Its evidence is the stall itself: ranked by its share, which the note does not repeat. */
    add_note(out, note, NULL, fmin(1, growth / 4));
    candidate *c = &out->cand[out->ncand - 1];
    double share = stall_share(in, NULL, grown_most);
    c->score = share >= 0 ? share : c->score;
    c->stall = grown_most;
}

void kd_advice(const kd_advice_input *in, char ***notes, size_t *count) { kd_advice_hot(in, NULL, notes, count); }

void kd_advice_hot(const kd_advice_input *in, const kd_hs_diff *hotspots, char ***notes, size_t *count)
{
    static void (*const rules[])(const kd_advice_input *, note_list *) = {
        occupancy_limiter_rule, spill_rule, tensor_idle_rule, l2_hit_rate_rule, stall_rule,
    };
    note_list out = {notes, count, in, hotspots, NULL, 0};
    for (size_t r = 0; r < sizeof ratio_rules / sizeof ratio_rules[0]; r++)
        apply_ratio_rule(in, &ratio_rules[r], &out);
    for (size_t r = 0; r < sizeof coalescing_rules / sizeof coalescing_rules[0]; r++)
        apply_coalescing_rule(in, r, &out);
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
        rules[r](in, &out);
    emit_notes(&out);
}
