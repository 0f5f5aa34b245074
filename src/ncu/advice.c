/* advice.c — rules that turn large counter changes into one-line notes. Each rule reads the
 * aggregated values of both sides and names the metric and both values it rests on. */
#include "ncu/advice.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/xalloc.h"

typedef struct note_list {
    char ***notes;
    size_t *count;
} note_list;

static void add_note(note_list *out, const char *text)
{
    *out->notes = kd_xreallocarray(*out->notes, *out->count + 1, sizeof **out->notes);
    (*out->notes)[(*out->count)++] = kd_xstrdup(text);
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
} ratio_rule;

static const ratio_rule ratio_rules[] = {
    {"bank_conflicts_ld", "shared-memory bank conflicts", 10},
    {"bank_conflicts_st", "shared-memory bank conflicts", 10},
    {"dram_bytes", "DRAM traffic", 1.5},
};

/* Beyond this factor "fell 250.0x" reads better as orders of magnitude. */
#define ORDERS_OF_MAGNITUDE 100

static void apply_ratio_rule(const kd_advice_input *in, const ratio_rule *rule, note_list *out)
{
    double v[2];
    if (!both(in, rule->id, v) || v[0] == v[1])
        return;
    char change[160], what[64] = "appeared", note[256];
    if (v[1] == 0) {
        snprintf(what, sizeof what, "vanished");
    } else if (v[0] != 0) {
        double factor = fmax(v[0], v[1]) / fmin(v[0], v[1]);
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
    add_note(out, note);
}

/* The share of each fetched 32-byte sector that the accesses use: 100% is coalesced at any
 * access width (sectors per request are 4 for floats but 16 for float4, both perfect).
 * Between 50% and 80% is left alone so a wobble does not flip the note. */
#define COALESCED_MIN 80
#define UNCOALESCED_MAX 50

static const struct {
    const char *id, *accesses;
} coalescing_rules[] = {
    {"efficiency_ld", "global loads"},
    {"efficiency_st", "global stores"},
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
    add_note(out, note);
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
    add_note(out, note);
}

static void spill_rule(const kd_advice_input *in, note_list *out)
{
    if (in->spill_bytes[0] != 0 || in->spill_bytes[1] <= 0)
        return;
    char note[256];
    snprintf(note, sizeof note, "registers now spill (%ld bytes) — local memory traffic (ptxas spill bytes 0 -> %ld)",
             in->spill_bytes[1], in->spill_bytes[1]);
    add_note(out, note);
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
    add_note(out, note);
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
    add_note(out, note);
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
    add_note(out, note);
}

void kd_advice(const kd_advice_input *in, char ***notes, size_t *count)
{
    static void (*const rules[])(const kd_advice_input *, note_list *) = {
        occupancy_limiter_rule, spill_rule, tensor_idle_rule, l2_hit_rate_rule, stall_rule,
    };
    note_list out = {notes, count};
    for (size_t r = 0; r < sizeof ratio_rules / sizeof ratio_rules[0]; r++)
        apply_ratio_rule(in, &ratio_rules[r], &out);
    for (size_t r = 0; r < sizeof coalescing_rules / sizeof coalescing_rules[0]; r++)
        apply_coalescing_rule(in, r, &out);
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
        rules[r](in, &out);
}
