/* metrics.c — the metric table and the arithmetic over it: evaluation of one launch,
 * aggregation of a side, deltas, roofline. */
#include "ncu/metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- formulas over raw values (order as in the definition's raw[]) ---- */

static bool sum_of_two(const double *raw, double *out)
{
    *out = raw[0] + raw[1];
    return true;
}

/* add, mul, fma instruction counts per thread: an FMA is two FLOPs. */
static bool flops_add_mul_fma(const double *raw, double *out)
{
    *out = raw[0] + raw[1] + 2 * raw[2];
    return true;
}

/* Half instructions here are the paired (HADD2/HMUL2/HFMA2) kind: two lanes each. */
static bool flops_half2(const double *raw, double *out)
{
    *out = 2 * raw[0] + 2 * raw[1] + 4 * raw[2];
    return true;
}

/* Sectors per request; undefined when the kernel made no requests of that kind. */
static bool per_request(const double *raw, double *out)
{
    if (raw[1] <= 0)
        return false;
    *out = raw[0] / raw[1];
    return true;
}

/* Active threads per executed warp instruction, as a percentage of a full warp. */
static bool threads_per_warp_pct(const double *raw, double *out)
{
    *out = raw[0] / 32 * 100;
    return true;
}

#define STALL(reason) "smsp__average_warps_issue_stalled_" reason "_per_issue_active.ratio"
#define FLOP_OPS(p) {"smsp__sass_thread_inst_executed_op_" p "add_pred_on.sum", \
                     "smsp__sass_thread_inst_executed_op_" p "mul_pred_on.sum", \
                     "smsp__sass_thread_inst_executed_op_" p "fma_pred_on.sum"}
#define SECTORS_PER_REQUEST(op) {"l1tex__t_sectors_pipe_lsu_mem_global_op_" op ".sum", \
                                 "l1tex__t_requests_pipe_lsu_mem_global_op_" op ".sum"}

/* Notes on extents: a ratio of two extensive quantities is exact only when recomputed from
 * the summed parts. arithmetic_intensity has no raw metric of its own and is recomputed from
 * the FLOP and DRAM-byte rows after every evaluation and aggregation. sectors_per_request_*
 * keep no sectors/requests rows, so a side's value is the duration-weighted mean of its
 * kernels' (exact for one kernel). Launch facts (registers, sizes, occupancy limits) are
 * duration-weighted too: for several kernels a rough summary, the per-kernel breakdown holds
 * the facts. */
const kd_metric_def kd_metric_defs[] = {
    {"duration", "duration", KD_GROUP_SOL, KD_UNIT_NS, KD_LOWER_BETTER, KD_EXTENSIVE, false,
     {"gpu__time_duration.sum"}, NULL},
    {"sm_throughput", "SM throughput", KD_GROUP_SOL, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"sm__throughput.avg.pct_of_peak_sustained_elapsed"}, NULL},
    {"mem_throughput", "memory throughput", KD_GROUP_SOL, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"}, NULL},
    /* The memory units' own throughputs: which one is busy decides what "memory-bound" means
     * (a naive SGEMM saturates L1 with DRAM idle). gpu__compute_memory_throughput is their max. */
    {"l1_throughput", "L1/shared throughput", KD_GROUP_SOL, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"l1tex__throughput.avg.pct_of_peak_sustained_elapsed"}, NULL},
    {"l2_throughput", "L2 throughput", KD_GROUP_SOL, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"lts__throughput.avg.pct_of_peak_sustained_elapsed"}, NULL},
    {"dram_throughput", "DRAM throughput", KD_GROUP_SOL, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"dram__throughput.avg.pct_of_peak_sustained_elapsed"}, NULL},
    {"dram_bytes", "DRAM bytes", KD_GROUP_SOL, KD_UNIT_BYTES, KD_LOWER_BETTER, KD_EXTENSIVE, false,
     {"dram__bytes_read.sum", "dram__bytes_write.sum"}, sum_of_two},
    {"dram_bandwidth", "DRAM bandwidth", KD_GROUP_SOL, KD_UNIT_BYTES_PER_S, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"dram__bytes.sum.per_second"}, NULL},
    {"sm_clock", "SM clock", KD_GROUP_SOL, KD_UNIT_HZ, KD_NEUTRAL, KD_INTENSIVE, false,
     {"gpc__cycles_elapsed.avg.per_second"}, NULL},

    {"flops_fp32", "FP32 FLOPs", KD_GROUP_ARITHMETIC, KD_UNIT_COUNT, KD_NEUTRAL, KD_EXTENSIVE, false,
     FLOP_OPS("f"), flops_add_mul_fma},
    {"flops_fp64", "FP64 FLOPs", KD_GROUP_ARITHMETIC, KD_UNIT_COUNT, KD_NEUTRAL, KD_EXTENSIVE, false,
     FLOP_OPS("d"), flops_add_mul_fma},
    {"flops_fp16", "FP16 FLOPs", KD_GROUP_ARITHMETIC, KD_UNIT_COUNT, KD_NEUTRAL, KD_EXTENSIVE, false,
     FLOP_OPS("h"), flops_half2},
    {"arithmetic_intensity", "arithmetic intensity", KD_GROUP_ARITHMETIC, KD_UNIT_FLOP_PER_BYTE, KD_NEUTRAL,
     KD_INTENSIVE, false, {NULL}, NULL},
    {"instructions", "instructions", KD_GROUP_ARITHMETIC, KD_UNIT_COUNT, KD_LOWER_BETTER, KD_EXTENSIVE, false,
     {"smsp__inst_executed.sum"}, NULL},
    {"ipc", "IPC", KD_GROUP_ARITHMETIC, KD_UNIT_RATIO, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"sm__inst_executed.avg.per_cycle_active"}, NULL},
    {"thread_activity", "thread activity", KD_GROUP_ARITHMETIC, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE, true,
     {"smsp__thread_inst_executed_per_inst_executed.ratio"}, threads_per_warp_pct},

    {"l1_hit_rate", "L1 hit rate", KD_GROUP_CACHE, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"l1tex__t_sector_hit_rate.pct"}, NULL},
    {"l2_hit_rate", "L2 hit rate", KD_GROUP_CACHE, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"lts__t_sector_hit_rate.pct"}, NULL},
    /* Neutral: 4 is a coalesced warp of 4-byte loads, but 16 is a coalesced warp of float4
     * loads. Whether the fetched sectors are used is what the efficiency rows below say. */
    {"sectors_per_request_ld", "sectors/request ld", KD_GROUP_CACHE, KD_UNIT_RATIO, KD_NEUTRAL,
     KD_INTENSIVE, false, SECTORS_PER_REQUEST("ld"), per_request},
    {"sectors_per_request_st", "sectors/request st", KD_GROUP_CACHE, KD_UNIT_RATIO, KD_NEUTRAL,
     KD_INTENSIVE, false, SECTORS_PER_REQUEST("st"), per_request},
    {"efficiency_ld", "bytes used/sector ld", KD_GROUP_CACHE, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"}, NULL},
    {"efficiency_st", "bytes used/sector st", KD_GROUP_CACHE, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"}, NULL},
    {"bank_conflicts_ld", "bank conflicts ld", KD_GROUP_CACHE, KD_UNIT_COUNT, KD_LOWER_BETTER, KD_EXTENSIVE, false,
     {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"}, NULL},
    {"bank_conflicts_st", "bank conflicts st", KD_GROUP_CACHE, KD_UNIT_COUNT, KD_LOWER_BETTER, KD_EXTENSIVE, false,
     {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"}, NULL},

    {"achieved_occupancy", "achieved occupancy", KD_GROUP_WARP, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE, false,
     {"sm__warps_active.avg.pct_of_peak_sustained_active"}, NULL},
    {"theoretical_occupancy", "theoretical occupancy", KD_GROUP_WARP, KD_UNIT_PCT, KD_HIGHER_BETTER, KD_INTENSIVE,
     false, {"sm__maximum_warps_per_active_cycle_pct"}, NULL},
    {"occupancy_limit_registers", "blocks/SM by registers", KD_GROUP_WARP, KD_UNIT_COUNT, KD_NEUTRAL,
     KD_INTENSIVE, false, {"launch__occupancy_limit_registers"}, NULL},
    {"occupancy_limit_shared", "blocks/SM by shared memory", KD_GROUP_WARP, KD_UNIT_COUNT, KD_NEUTRAL,
     KD_INTENSIVE, false, {"launch__occupancy_limit_shared_mem"}, NULL},
    {"occupancy_limit_warps", "blocks/SM by warps", KD_GROUP_WARP, KD_UNIT_COUNT, KD_NEUTRAL, KD_INTENSIVE, false,
     {"launch__occupancy_limit_warps"}, NULL},
    {"occupancy_limit_blocks", "blocks/SM by block limit", KD_GROUP_WARP, KD_UNIT_COUNT, KD_NEUTRAL, KD_INTENSIVE,
     false, {"launch__occupancy_limit_blocks"}, NULL},
    {"stall_long_scoreboard", "stall long scoreboard", KD_GROUP_WARP, KD_UNIT_RATIO, KD_LOWER_BETTER,
     KD_INTENSIVE, false, {STALL("long_scoreboard")}, NULL},
    {"stall_short_scoreboard", "stall short scoreboard", KD_GROUP_WARP, KD_UNIT_RATIO, KD_LOWER_BETTER,
     KD_INTENSIVE, true, {STALL("short_scoreboard")}, NULL},
    {"stall_mio_throttle", "stall MIO throttle", KD_GROUP_WARP, KD_UNIT_RATIO, KD_LOWER_BETTER, KD_INTENSIVE, true,
     {STALL("mio_throttle")}, NULL},
    {"stall_lg_throttle", "stall LG throttle", KD_GROUP_WARP, KD_UNIT_RATIO, KD_LOWER_BETTER, KD_INTENSIVE, true,
     {STALL("lg_throttle")}, NULL},
    {"stall_barrier", "stall barrier", KD_GROUP_WARP, KD_UNIT_RATIO, KD_LOWER_BETTER, KD_INTENSIVE, false,
     {STALL("barrier")}, NULL},
    {"stall_math_pipe", "stall math pipe throttle", KD_GROUP_WARP, KD_UNIT_RATIO, KD_LOWER_BETTER, KD_INTENSIVE,
     true, {STALL("math_pipe_throttle")}, NULL},
    {"stall_wait", "stall wait", KD_GROUP_WARP, KD_UNIT_RATIO, KD_LOWER_BETTER, KD_INTENSIVE, true,
     {STALL("wait")}, NULL},
    {"stall_not_selected", "stall not selected", KD_GROUP_WARP, KD_UNIT_RATIO, KD_LOWER_BETTER, KD_INTENSIVE, true,
     {STALL("not_selected")}, NULL},
    {"stall_no_instruction", "stall no instruction", KD_GROUP_WARP, KD_UNIT_RATIO, KD_LOWER_BETTER, KD_INTENSIVE,
     true, {STALL("no_instruction")}, NULL},

    {"registers", "registers/thread", KD_GROUP_LAUNCH, KD_UNIT_COUNT, KD_NEUTRAL, KD_INTENSIVE, false,
     {"launch__registers_per_thread"}, NULL},
    {"shared_static", "static shared memory/block", KD_GROUP_LAUNCH, KD_UNIT_BYTES, KD_NEUTRAL, KD_INTENSIVE, false,
     {"launch__shared_mem_per_block_static"}, NULL},
    {"shared_dynamic", "dynamic shared memory/block", KD_GROUP_LAUNCH, KD_UNIT_BYTES, KD_NEUTRAL, KD_INTENSIVE,
     false, {"launch__shared_mem_per_block_dynamic"}, NULL},
    {"grid_size", "grid size", KD_GROUP_LAUNCH, KD_UNIT_COUNT, KD_NEUTRAL, KD_INTENSIVE, false,
     {"launch__grid_size"}, NULL},
    {"block_size", "block size", KD_GROUP_LAUNCH, KD_UNIT_COUNT, KD_NEUTRAL, KD_INTENSIVE, false,
     {"launch__block_size"}, NULL},

    {"tensor_pipe", "tensor pipe", KD_GROUP_TENSOR, KD_UNIT_PCT, KD_NEUTRAL, KD_INTENSIVE, false,
     {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed"}, NULL},
};

const size_t kd_metric_def_count = sizeof kd_metric_defs / sizeof kd_metric_defs[0];

/* The slots of kd_metric_values, one per definition. */
#define VALUE_SLOTS (sizeof ((kd_metric_values *)0)->value / sizeof(double))
_Static_assert(sizeof kd_metric_defs / sizeof kd_metric_defs[0] <= VALUE_SLOTS, "one value slot per definition");

long kd_metric_index(const char *id)
{
    for (size_t i = 0; i < kd_metric_def_count; i++)
        if (strcmp(kd_metric_defs[i].id, id) == 0)
            return (long)i;
    return -1;
}

/* The value of metric `id` when present. */
static bool value_of(const kd_metric_values *v, const char *id, double *out)
{
    long i = kd_metric_index(id);
    if (i < 0 || !v->present[i])
        return false;
    *out = v->value[i];
    return true;
}

/* The value of `id`, 0 when absent: for sums where a missing part adds nothing. */
static double value_or_zero(const kd_metric_values *v, const char *id)
{
    double x;
    return value_of(v, id, &x) ? x : 0;
}

static bool in_set(const kd_metric_def *d, bool full) { return full || !d->full_set_only; }

static bool is_derived(const kd_metric_def *d) { return d->raw[0] == NULL; }

/* ---- request list ---- */

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void build_request_list(bool full, const char **list)
{
    size_t n = 0;
    for (size_t i = 0; i < kd_metric_def_count; i++) {
        const kd_metric_def *d = &kd_metric_defs[i];
        if (!in_set(d, full))
            continue;
        for (size_t r = 0; r < KD_MAX_RAW && d->raw[r]; r++)
            list[n++] = d->raw[r];
    }
    qsort(list, n, sizeof *list, compare_names);
    size_t unique = 0;
    for (size_t i = 0; i < n; i++)
        if (unique == 0 || strcmp(list[unique - 1], list[i]) != 0)
            list[unique++] = list[i];
    list[unique] = NULL;
}

const char *const *kd_ncu_request_list(bool full)
{
    static const char *lists[2][VALUE_SLOTS * KD_MAX_RAW + 1];
    static bool built[2];
    if (!built[full]) {
        build_request_list(full, lists[full]);
        built[full] = true;
    }
    return lists[full];
}

/* ---- evaluation and aggregation ---- */

/* FLOPs counted by the SASS thread-instruction counters (tensor-core work is not among them)
 * per DRAM byte; undefined without DRAM traffic. */
static void derive_arithmetic_intensity(kd_metric_values *v)
{
    long i = kd_metric_index("arithmetic_intensity");
    double fp32, fp64, fp16, bytes;
    v->present[i] = value_of(v, "flops_fp32", &fp32) && value_of(v, "flops_fp64", &fp64) &&
                    value_of(v, "flops_fp16", &fp16) && value_of(v, "dram_bytes", &bytes) && bytes > 0;
    v->value[i] = v->present[i] ? (fp32 + fp64 + fp16) / bytes : 0;
}

static bool evaluate_one(const kd_metric_def *d, const kd_raw_lookup *lookup, double *out)
{
    double raw[KD_MAX_RAW];
    for (size_t n = 0; n < KD_MAX_RAW && d->raw[n]; n++)
        if (!lookup->get(lookup->ctx, d->raw[n], &raw[n]))
            return false;
    if (!d->compute) {
        *out = raw[0];
        return true;
    }
    return d->compute(raw, out);
}

void kd_metrics_evaluate(const kd_raw_lookup *raw, bool full, kd_metric_values *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < kd_metric_def_count; i++) {
        const kd_metric_def *d = &kd_metric_defs[i];
        if (in_set(d, full) && !is_derived(d))
            out->present[i] = evaluate_one(d, raw, &out->value[i]);
    }
    derive_arithmetic_intensity(out);
}

/* Combines one metric over the kernels that have it: a sum, or the mean weighted by each
 * kernel's duration. Absent when no kernel has it (or, intensive, none has a duration). */
static void combine(size_t m, const kd_metric_values *kernels, size_t n, long duration, kd_metric_values *out)
{
    bool extensive = kd_metric_defs[m].extent == KD_EXTENSIVE;
    double sum = 0, weights = 0;
    for (size_t k = 0; k < n; k++) {
        if (!kernels[k].present[m])
            continue;
        double w = extensive ? 1 : kernels[k].present[duration] ? kernels[k].value[duration] : 0;
        sum += w * kernels[k].value[m];
        weights += w;
    }
    out->present[m] = weights > 0;
    out->value[m] = !out->present[m] ? 0 : extensive ? sum : sum / weights; /* w is 1 when extensive */
}

void kd_metrics_aggregate(const kd_metric_values *kernels, size_t n, kd_metric_values *out)
{
    memset(out, 0, sizeof *out);
    long duration = kd_metric_index("duration");
    for (size_t m = 0; m < kd_metric_def_count; m++)
        if (!is_derived(&kd_metric_defs[m]))
            combine(m, kernels, n, duration, out);
    derive_arithmetic_intensity(out);
}

const char *kd_occupancy_limiter(const kd_metric_values *v)
{
    static const struct {
        const char *id, *name;
    } limits[] = {
        {"occupancy_limit_registers", "registers"},
        {"occupancy_limit_shared", "shared memory"},
        {"occupancy_limit_warps", "warps"},
        {"occupancy_limit_blocks", "blocks"},
    };
    const char *limiter = NULL;
    double fewest = INFINITY;
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        double blocks;
        if (value_of(v, limits[i].id, &blocks) && blocks < fewest) {
            fewest = blocks;
            limiter = limits[i].name;
        }
    }
    return limiter;
}

/* ---- deltas ---- */

static double delta_of(const kd_metric_def *def, double v1, double v2)
{
    if (def->unit == KD_UNIT_PCT)
        return v2 - v1;
    if (v1 == 0)
        return v2 == 0 ? 0 : copysign(INFINITY, v2);
    return (v2 - v1) * 100 / fabs(v1);
}

static const char *symbol_of(const kd_metric_def *def, double delta, double large)
{
    if (def->better == KD_NEUTRAL)
        return "*";
    bool better = (delta > 0) == (def->better == KD_HIGHER_BETTER);
    bool strong = fabs(delta) >= large;
    return better ? (strong ? "++" : "+") : (strong ? "--" : "-");
}

void kd_metric_diff(const kd_metric_def *def, double v1, double v2, double noise, kd_metric_delta *out)
{
    bool pct = def->unit == KD_UNIT_PCT;
    double small = pct ? 1 : 2, large = pct ? 5 : 10;
    memset(out, 0, sizeof *out);
    out->v1 = v1;
    out->v2 = v2;
    out->comparable = !isnan(v1) && !isnan(v2);
    if (!out->comparable) {
        out->symbol = "";
        return;
    }
    out->delta = delta_of(def, v1, v2);
    out->changed = !(fabs(out->delta) < small);
    out->symbol = out->changed ? symbol_of(def, out->delta, large) : "~";
    out->noisy = noise > 0 && fabs(out->delta) <= noise;
}

/* ---- roofline ---- */

/* FLOP per clock per SM (an FMA counts 2), dense. FP32/FP64: CUDA C++ Programming Guide,
 * "Arithmetic Instructions" throughput table (results per clock per SM: FP32 64 on 8.0,
 * 128 on 8.6/8.9/9.0; FP64 32 on 8.0, 2 on 8.6/8.9, 64 on 9.0). FP16 tensor, dense:
 * A100 whitepaper 312 TFLOPS / (108 SMs x 1.41 GHz) = 2048; H100 whitepaper (SXM5)
 * 989.4 TFLOPS / (132 SMs x 1.83 GHz) = 4096. sm_86/sm_89 parts quote different tensor rates
 * per product (GeForce halves FP32 accumulate), so their tensor entry is 0: unknown. */
static const struct {
    int sm;
    double fp32, fp64, tensor16;
} arch_flops[] = {
    {80, 128, 64, 2048},
    {86, 256, 4, 0},
    {89, 256, 4, 0},
    {90, 256, 128, 4096},
};

bool kd_arch_flops_per_clock(int sm, double *fp32, double *fp64, double *tensor16)
{
    for (size_t i = 0; i < sizeof arch_flops / sizeof arch_flops[0]; i++) {
        if (arch_flops[i].sm == sm) {
            *fp32 = arch_flops[i].fp32;
            *fp64 = arch_flops[i].fp64;
            *tensor16 = arch_flops[i].tensor16;
            return true;
        }
    }
    return false;
}

/* achieved / peak, 0 when either is unknown. */
static double fraction(double achieved, double peak) { return peak > 0 ? achieved / peak : 0; }

/* The busiest compute pipe's fraction of its peak. Tensor-core FLOPs are not in the SASS
 * thread-instruction counters, so the tensor pipe's own utilization stands for its fraction
 * of the tensor peak. Non-tensor FP16 is counted against the FP32 peak (its real peak is
 * higher, so this overstates a half-precision kernel). */
static double compute_fraction(const kd_metric_values *v, const kd_peaks *p, double seconds)
{
    double fp32 = 0, fp64 = 0;
    if (seconds > 0) {
        fp32 = fraction((value_or_zero(v, "flops_fp32") + value_or_zero(v, "flops_fp16")) / seconds,
                        p->fp32_flops_per_s);
        fp64 = fraction(value_or_zero(v, "flops_fp64") / seconds, p->fp64_flops_per_s);
    }
    double tensor = value_or_zero(v, "tensor_pipe") / 100;
    return fmax(fp32, fmax(fp64, tensor));
}

/* The busiest unit and its fraction of peak. Memory units come first, so a tie goes to
 * memory; the unspecified memory system (ncu's max over its units) only stands in when the
 * per-unit throughputs are absent (results saved before they were collected). */
static void busiest_unit(const kd_metric_values *v, const kd_roofline *r, kd_unit_busy *unit, double *fraction)
{
    double unused;
    bool breakdown = value_of(v, "l1_throughput", &unused) || value_of(v, "l2_throughput", &unused) ||
                     value_of(v, "dram_throughput", &unused);
    const struct {
        kd_unit_busy unit;
        double fraction;
    } units[] = {
        {KD_BUSY_DRAM, fmax(r->bw_fraction, value_or_zero(v, "dram_throughput") / 100)},
        {KD_BUSY_L2, value_or_zero(v, "l2_throughput") / 100},
        {KD_BUSY_L1, value_or_zero(v, "l1_throughput") / 100},
        {KD_BUSY_MEMORY, breakdown ? 0 : value_or_zero(v, "mem_throughput") / 100},
        {KD_BUSY_SM, fmax(r->compute_fraction, value_or_zero(v, "sm_throughput") / 100)},
    };
    *unit = units[0].unit;
    *fraction = units[0].fraction;
    for (size_t i = 1; i < sizeof units / sizeof *units; i++)
        if (units[i].fraction > *fraction) {
            *unit = units[i].unit;
            *fraction = units[i].fraction;
        }
}

void kd_roofline_compute(const kd_metric_values *v, const kd_peaks *p, kd_roofline *out)
{
    memset(out, 0, sizeof *out);
    out->flops = value_or_zero(v, "flops_fp32") + value_or_zero(v, "flops_fp64") + value_or_zero(v, "flops_fp16");
    out->bytes = value_or_zero(v, "dram_bytes");
    out->seconds = value_or_zero(v, "duration") / 1e9;
    out->intensity = out->bytes > 0 ? out->flops / out->bytes : 0;
    /* bytes / seconds equals the duration-weighted mean of dram_bandwidth over the kernels. */
    out->bw_fraction = out->seconds > 0 ? fraction(out->bytes / out->seconds, p->dram_bytes_per_s) : 0;
    out->compute_fraction = compute_fraction(v, p, out->seconds);
    /* Bound by the busiest unit by ncu's speed-of-light throughputs, not by DRAM alone:
     * shared-memory or L1 traffic saturates the memory system without touching DRAM, and
     * integer or load/store instructions keep the SM busy without a floating-point op. */
    busiest_unit(v, out, &out->busiest, &out->busiest_fraction);
    if (out->busiest_fraction < 0.6)
        out->bound = KD_BOUND_LATENCY;
    else
        out->bound = out->busiest == KD_BUSY_SM ? KD_BOUND_COMPUTE : KD_BOUND_MEMORY;
    out->headroom = fmax(0, 1 - out->busiest_fraction);
}

const char *kd_busy_unit_name(kd_unit_busy u)
{
    static const char *const names[] = {"DRAM", "L2", "L1/shared", "memory system", "SM"};
    return names[u];
}

const char *kd_bound_name(kd_bound b)
{
    static const char *const names[] = {"memory", "compute", "latency"};
    return names[b];
}

const char *kd_bound_short(kd_bound b)
{
    static const char *const names[] = {"mem", "com", "lat"};
    return names[b];
}

bool kd_metric_time_derived(const kd_metric_def *def)
{
    return !strcmp(def->id, "duration") || !strcmp(def->id, "dram_bandwidth");
}
