#include "kd_test.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/advice.h"
#include "ncu/metrics.h"
#include "ncu/ncu_run.h"

#define ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static void assert_close(double actual, double expected)
{
    if (fabs(actual - expected) > 1e-9 * fmax(1.0, fabs(expected)))
        fail_msg("%.17g is not %.17g", actual, expected);
}

static long index_of(const char *id)
{
    long i = kd_metric_index(id);
    if (i < 0)
        fail_msg("no metric %s", id);
    return i;
}

static const kd_metric_def *def_of(const char *id) { return &kd_metric_defs[index_of(id)]; }

static void set(kd_metric_values *v, const char *id, double value)
{
    long i = index_of(id);
    v->value[i] = value;
    v->present[i] = true;
}

static bool present(const kd_metric_values *v, const char *id) { return v->present[index_of(id)]; }

static double value(const kd_metric_values *v, const char *id)
{
    if (!present(v, id))
        fail_msg("%s is absent", id);
    return v->value[index_of(id)];
}

/* ---- a fake launch: raw ncu values by name ---- */

typedef struct raw_value {
    const char *name;
    double value;
} raw_value;

typedef struct fake_launch {
    const raw_value *values;
    size_t n;
} fake_launch;

static bool fake_get(const void *ctx, const char *name, double *out)
{
    const fake_launch *launch = ctx;
    for (size_t i = 0; i < launch->n; i++) {
        if (strcmp(launch->values[i].name, name) == 0) {
            *out = launch->values[i].value;
            return true;
        }
    }
    return false;
}

static const raw_value launch_values[] = {
    {"gpu__time_duration.sum", 5000},
    {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 100},
    {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 200},
    {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 300},
    {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", 1},
    {"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", 2},
    {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 3},
    {"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", 10},
    {"smsp__sass_thread_inst_executed_op_hmul_pred_on.sum", 20},
    {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", 30},
    {"dram__bytes_read.sum", 600},
    {"dram__bytes_write.sum", 400},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 3200},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 100},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 400},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 100},
    {"smsp__thread_inst_executed_per_inst_executed.ratio", 24},
    {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", 2.5},
    {"smsp__average_warps_issue_stalled_wait_per_issue_active.ratio", 1.25},
    {"smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio", 0.5},
};

static void evaluate(const raw_value *values, size_t n, bool full, kd_metric_values *out)
{
    const fake_launch launch = {values, n};
    const kd_raw_lookup lookup = {&launch, fake_get};
    kd_metrics_evaluate(&lookup, full, out);
}

static void evaluates_formulas(void **state)
{
    (void)state;
    kd_metric_values v;
    evaluate(launch_values, ELEMS(launch_values), true, &v);
    assert_close(value(&v, "duration"), 5000);
    assert_close(value(&v, "flops_fp32"), 900);  /* 100 + 200 + 2 * 300 */
    assert_close(value(&v, "flops_fp64"), 9);    /* 1 + 2 + 2 * 3 */
    assert_close(value(&v, "flops_fp16"), 180);  /* 2 * 10 + 2 * 20 + 4 * 30 */
    assert_close(value(&v, "dram_bytes"), 1000); /* read 600 + write 400 */
    assert_close(value(&v, "arithmetic_intensity"), 1.089); /* (900 + 9 + 180) / 1000 */
    assert_close(value(&v, "sectors_per_request_ld"), 32);  /* 3200 / 100: one sector per thread */
    assert_close(value(&v, "sectors_per_request_st"), 4);   /* 400 / 100: coalesced */
    assert_close(value(&v, "thread_activity"), 75);         /* 24 of 32 threads */
    assert_close(value(&v, "stall_long_scoreboard"), 2.5);
    assert_close(value(&v, "stall_wait"), 1.25);
    assert_close(value(&v, "stall_math_pipe"), 0.5);
    assert_false(present(&v, "l2_hit_rate")); /* no such raw value: absent, not 0 */
    assert_false(present(&v, "registers"));
}

static void fast_set_leaves_out_full_only_metrics(void **state)
{
    (void)state;
    kd_metric_values v;
    memset(&v, 0xff, sizeof v); /* evaluation starts from nothing */
    evaluate(launch_values, ELEMS(launch_values), false, &v);
    assert_false(present(&v, "thread_activity"));
    assert_false(present(&v, "stall_wait"));
    assert_false(present(&v, "stall_math_pipe"));
    assert_false(present(&v, "l2_hit_rate"));
    assert_close(value(&v, "stall_long_scoreboard"), 2.5); /* in the fast set */
    assert_close(value(&v, "flops_fp32"), 900);
}

static void zero_requests_or_bytes_are_undefined(void **state)
{
    (void)state;
    raw_value values[ELEMS(launch_values)];
    memcpy(values, launch_values, sizeof values);
    for (size_t i = 0; i < ELEMS(values); i++)
        if (strstr(values[i].name, "requests_pipe_lsu_mem_global_op_st") || strstr(values[i].name, "dram__bytes"))
            values[i].value = 0;
    kd_metric_values v;
    evaluate(values, ELEMS(values), true, &v);
    assert_false(present(&v, "sectors_per_request_st"));
    assert_false(present(&v, "arithmetic_intensity"));
    assert_close(value(&v, "dram_bytes"), 0);
    assert_close(value(&v, "sectors_per_request_ld"), 32);

    /* One missing part of a formula makes it absent. */
    evaluate(launch_values + 1, ELEMS(launch_values) - 1, true, &v);
    assert_false(present(&v, "duration"));
    assert_close(value(&v, "flops_fp32"), 900);
    evaluate(launch_values, 2, true, &v); /* duration and fadd only */
    assert_false(present(&v, "flops_fp32"));
}

static void aggregates_three_kernels(void **state)
{
    (void)state;
    kd_metric_values k[3];
    memset(k, 0, sizeof k);
    const double duration[] = {10, 20, 70}, bytes[] = {100, 200, 300}, l2[] = {50, 80, 90}, fp32[] = {1000, 0, 5000};
    for (size_t i = 0; i < 3; i++) {
        set(&k[i], "duration", duration[i]);
        set(&k[i], "dram_bytes", bytes[i]);
        set(&k[i], "l2_hit_rate", l2[i]);
        set(&k[i], "flops_fp32", fp32[i]);
        set(&k[i], "flops_fp64", 0);
        set(&k[i], "flops_fp16", 0);
        set(&k[i], "arithmetic_intensity", fp32[i] / bytes[i]);
    }
    set(&k[0], "sectors_per_request_ld", 32); /* kernel 1 made no global loads */
    set(&k[2], "sectors_per_request_ld", 4);
    kd_metric_values side;
    kd_metrics_aggregate(k, 3, &side);
    assert_close(value(&side, "duration"), 100);  /* extensive: 10 + 20 + 70 */
    assert_close(value(&side, "dram_bytes"), 600); /* 100 + 200 + 300 */
    assert_close(value(&side, "flops_fp32"), 6000);
    /* intensive: (10 * 50 + 20 * 80 + 70 * 90) / 100 = (500 + 1600 + 6300) / 100 */
    assert_close(value(&side, "l2_hit_rate"), 84);
    /* weighted over the kernels that have it: (10 * 32 + 70 * 4) / (10 + 70) */
    assert_close(value(&side, "sectors_per_request_ld"), 7.5);
    /* recomputed, 6000 / 600, not the weighted mean of 10, 0, 16.7 (12.67) */
    assert_close(value(&side, "arithmetic_intensity"), 10);
    assert_false(present(&side, "bank_conflicts_ld"));

    kd_metrics_aggregate(k, 0, &side);
    assert_false(present(&side, "duration"));
    assert_false(present(&side, "l2_hit_rate"));

    /* Without durations an average has no weights. */
    for (size_t i = 0; i < 3; i++)
        k[i].present[index_of("duration")] = false;
    kd_metrics_aggregate(k, 3, &side);
    assert_false(present(&side, "l2_hit_rate"));
    assert_close(value(&side, "dram_bytes"), 600);
}

/* ---- deltas ---- */

typedef struct diff_case {
    const char *id;
    double v1, v2, noise;
    double delta;
    const char *symbol;
    bool changed, noisy;
} diff_case;

static void diff_symbols_and_thresholds(void **state)
{
    (void)state;
    const diff_case cases[] = {
        /* percentages (pp), higher better: 1pp small, 5pp large */
        {"achieved_occupancy", 50, 50.5, 0, 0.5, "~", false, false},
        {"achieved_occupancy", 50, 51, 0, 1, "+", true, false}, /* the boundary is "changed" */
        {"achieved_occupancy", 50, 53, 0, 3, "+", true, false},
        {"achieved_occupancy", 50, 55, 0, 5, "++", true, false},
        {"achieved_occupancy", 50, 60, 0, 10, "++", true, false},
        {"achieved_occupancy", 50, 47, 0, -3, "-", true, false},
        {"achieved_occupancy", 50, 44, 0, -6, "--", true, false},
        /* a pct metric whose relative change would be 100% is still 10pp */
        {"l1_hit_rate", 10, 20, 0, 10, "++", true, false},
        /* quantities (relative %), lower better: 2% small, 10% large */
        {"duration", 100, 101, 0, 1, "~", false, false},
        {"duration", 100, 102, 0, 2, "-", true, false},
        {"duration", 100, 104, 0, 4, "-", true, false},
        {"duration", 100, 120, 0, 20, "--", true, false},
        {"duration", 100, 95, 0, -5, "+", true, false},
        {"duration", 100, 85, 0, -15, "++", true, false},
        {"duration", -100, -95, 0, 5, "-", true, false}, /* relative to |v1| */
        /* higher better quantity */
        {"ipc", 2, 2.5, 0, 25, "++", true, false},
        {"ipc", 2, 1.9, 0, -5, "-", true, false},
        /* neutral: no judgement */
        {"sm_clock", 1.98e9, 1.49e9, 0, (1.49e9 - 1.98e9) * 100 / 1.98e9, "*", true, false},
        {"sm_clock", 1.98e9, 1.97e9, 0, (1.97e9 - 1.98e9) * 100 / 1.98e9, "~", false, false},
        {"tensor_pipe", 10, 40, 0, 30, "*", true, false},
        /* noise */
        {"duration", 100, 102.5, 3, 2.5, "-", true, true},
        {"duration", 100, 103, 3, 3, "-", true, true}, /* |delta| <= noise */
        {"duration", 100, 105, 3, 5, "-", true, false},
        {"achieved_occupancy", 50, 52, 2.5, 2, "+", true, true},
        /* from zero */
        {"bank_conflicts_ld", 0, 0, 0, 0, "~", false, false},
        {"bank_conflicts_ld", 0, 5, 0, INFINITY, "--", true, false},
        {"ipc", 0, 1, 0, INFINITY, "++", true, false},
        {"bank_conflicts_ld", 5, 0, 0, -100, "++", true, false},
    };
    for (size_t i = 0; i < ELEMS(cases); i++) {
        const diff_case *c = &cases[i];
        kd_metric_delta d;
        kd_metric_diff(def_of(c->id), c->v1, c->v2, c->noise, &d);
        if (!d.comparable || d.v1 != c->v1 || d.v2 != c->v2 || strcmp(d.symbol, c->symbol) != 0 ||
            d.changed != c->changed || d.noisy != c->noisy ||
            (isinf(c->delta) ? d.delta != c->delta : fabs(d.delta - c->delta) > 1e-9))
            fail_msg("case %zu (%s %g -> %g): delta %g symbol %s changed %d noisy %d", i, c->id, c->v1, c->v2, d.delta,
                     d.symbol, d.changed, d.noisy);
    }
}

static void diff_without_a_side_is_not_comparable(void **state)
{
    (void)state;
    kd_metric_delta d;
    kd_metric_diff(def_of("duration"), NAN, 100, 0, &d);
    assert_false(d.comparable);
    assert_false(d.changed);
    assert_string_equal(d.symbol, "");
    kd_metric_diff(def_of("duration"), 100, NAN, 0, &d);
    assert_false(d.comparable);
}

/* ---- roofline ---- */

static const kd_peaks peaks = {.dram_bytes_per_s = 1e12, .fp32_flops_per_s = 1e13, .fp64_flops_per_s = 5e12,
                               .tensor_flops_per_s = 1e14};

/* One millisecond of work with the given DRAM bytes and FLOPs. */
static kd_metric_values one_ms(double bytes, double fp32, double fp64, double fp16, double tensor_pct)
{
    kd_metric_values v;
    memset(&v, 0, sizeof v);
    set(&v, "duration", 1e6);
    set(&v, "dram_bytes", bytes);
    set(&v, "flops_fp32", fp32);
    set(&v, "flops_fp64", fp64);
    set(&v, "flops_fp16", fp16);
    set(&v, "tensor_pipe", tensor_pct);
    return v;
}

static void roofline_classifies(void **state)
{
    (void)state;
    kd_roofline r;
    kd_metric_values v = one_ms(8e8, 1e9, 0, 0, 0); /* 0.8 TB/s of 1; 1 TFLOP/s of 10 */
    kd_roofline_compute(&v, &peaks, &r);
    assert_close(r.seconds, 1e-3);
    assert_close(r.bytes, 8e8);
    assert_close(r.flops, 1e9);
    assert_close(r.intensity, 1.25);
    assert_close(r.bw_fraction, 0.8);
    assert_close(r.compute_fraction, 0.1);
    assert_int_equal(r.bound, KD_BOUND_MEMORY);
    assert_close(r.headroom, 0.2);

    v = one_ms(1e8, 6e9, 0, 1e9, 0); /* FP32 + FP16 = 7 TFLOP/s of 10 */
    kd_roofline_compute(&v, &peaks, &r);
    assert_close(r.flops, 7e9);
    assert_close(r.intensity, 70);
    assert_close(r.bw_fraction, 0.1);
    assert_close(r.compute_fraction, 0.7);
    assert_int_equal(r.bound, KD_BOUND_COMPUTE);
    assert_close(r.headroom, 0.3);

    v = one_ms(1e8, 1e9, 4e9, 0, 0); /* FP64 4 TFLOP/s of 5 */
    kd_roofline_compute(&v, &peaks, &r);
    assert_close(r.compute_fraction, 0.8);
    assert_int_equal(r.bound, KD_BOUND_COMPUTE);

    v = one_ms(1e8, 1e8, 0, 0, 75); /* tensor-core FLOPs are not counted: the pipe's 75% is */
    kd_roofline_compute(&v, &peaks, &r);
    assert_close(r.compute_fraction, 0.75);
    assert_int_equal(r.bound, KD_BOUND_COMPUTE);

    v = one_ms(3e8, 2e9, 0, 0, 0);
    kd_roofline_compute(&v, &peaks, &r);
    assert_int_equal(r.bound, KD_BOUND_LATENCY);
    assert_close(r.headroom, 0.7);

    v = one_ms(7e8, 7e9, 0, 0, 0); /* a tie at 0.7 goes to memory */
    kd_roofline_compute(&v, &peaks, &r);
    assert_int_equal(r.bound, KD_BOUND_MEMORY);

    v = one_ms(5e8, 5.9e9, 0, 0, 0); /* both just under 0.6 */
    kd_roofline_compute(&v, &peaks, &r);
    assert_int_equal(r.bound, KD_BOUND_LATENCY);

    v = one_ms(1e8, 1e9, 0, 0, 0); /* DRAM 10%, but ncu's memory throughput 80%: */
    set(&v, "mem_throughput", 80);
    kd_roofline_compute(&v, &peaks, &r); /* without a breakdown, "the memory system" */
    assert_int_equal(r.bound, KD_BOUND_MEMORY);
    assert_int_equal(r.busiest, KD_BUSY_MEMORY);
    set(&v, "l2_throughput", 80); /* with one, the unit */
    set(&v, "l1_throughput", 30);
    set(&v, "dram_throughput", 10);
    kd_roofline_compute(&v, &peaks, &r);
    assert_int_equal(r.busiest, KD_BUSY_L2);
    assert_close(r.busiest_fraction, 0.8);
    assert_close(r.headroom, 0.2);
}

static void roofline_without_data(void **state)
{
    (void)state;
    kd_roofline r;
    kd_metric_values v = one_ms(0, 1e9, 0, 0, 0);
    kd_roofline_compute(&v, &peaks, &r);
    assert_close(r.intensity, 0);
    assert_close(r.bw_fraction, 0);
    assert_close(r.compute_fraction, 0.1);

    const kd_peaks unknown = {0};
    v = one_ms(8e8, 1e9, 0, 0, 0);
    kd_roofline_compute(&v, &unknown, &r);
    assert_close(r.bw_fraction, 0);
    assert_close(r.compute_fraction, 0);
    assert_int_equal(r.bound, KD_BOUND_LATENCY);
    assert_close(r.headroom, 1);

    memset(&v, 0, sizeof v);
    kd_roofline_compute(&v, &peaks, &r);
    assert_close(r.seconds, 0);
    assert_close(r.bw_fraction, 0);
    assert_int_equal(r.bound, KD_BOUND_LATENCY);

    v = one_ms(1.2e9, 0, 0, 0, 0); /* above the nominal peak: no negative headroom */
    kd_roofline_compute(&v, &peaks, &r);
    assert_close(r.bw_fraction, 1.2);
    assert_close(r.headroom, 0);
}

static void arch_table_and_bound_names(void **state)
{
    (void)state;
    double fp32 = 0, fp64 = 0, tensor = 0;
    assert_true(kd_arch_flops_per_clock(90, &fp32, &fp64, &tensor));
    assert_close(fp32, 256);
    assert_close(fp64, 128);
    assert_close(tensor, 4096);
    /* H100 SXM5's published 989.4 TFLOPS dense FP16 at 132 SMs x 1.83 GHz */
    assert_true(fabs(132 * 1.83e9 * tensor / 989.4e12 - 1) < 0.001);
    assert_true(kd_arch_flops_per_clock(80, &fp32, &fp64, &tensor));
    assert_close(fp32, 128);
    assert_close(fp64, 64);
    assert_close(tensor, 2048);
    assert_true(kd_arch_flops_per_clock(86, &fp32, &fp64, &tensor));
    assert_close(fp64, 4);
    assert_close(tensor, 0);
    assert_false(kd_arch_flops_per_clock(75, &fp32, &fp64, &tensor));
    assert_false(kd_arch_flops_per_clock(100, &fp32, &fp64, &tensor));

    assert_string_equal(kd_bound_name(KD_BOUND_MEMORY), "memory");
    assert_string_equal(kd_bound_name(KD_BOUND_COMPUTE), "compute");
    assert_string_equal(kd_bound_name(KD_BOUND_LATENCY), "latency");
    assert_string_equal(kd_bound_short(KD_BOUND_MEMORY), "mem");
    assert_string_equal(kd_bound_short(KD_BOUND_COMPUTE), "com");
    assert_string_equal(kd_bound_short(KD_BOUND_LATENCY), "lat");
}

/* ---- the table and the request lists ---- */

static size_t list_length(const char *const *list)
{
    size_t n = 0;
    while (list[n])
        n++;
    return n;
}

static bool listed(const char *const *list, const char *name)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], name) == 0)
            return true;
    return false;
}

static void table_is_consistent(void **state)
{
    (void)state;
    assert_true(kd_metric_def_count <= 64);
    assert_int_equal(kd_metric_def_count, 45);
    size_t full_only = 0;
    for (size_t i = 0; i < kd_metric_def_count; i++) {
        assert_int_equal(kd_metric_index(kd_metric_defs[i].id), (long)i); /* ids are unique */
        full_only += kd_metric_defs[i].full_set_only;
    }
    assert_int_equal(full_only, 8); /* thread activity and 7 of 9 stall reasons */
    assert_int_equal(kd_metric_index("duration"), 0);
    assert_int_equal(kd_metric_index("no_such_metric"), -1);
    assert_string_equal(def_of("stall_math_pipe")->raw[0],
                        "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio");
    assert_int_equal(def_of("tensor_pipe")->group, KD_GROUP_TENSOR);
    assert_int_equal(def_of("dram_bytes")->extent, KD_EXTENSIVE);
    assert_int_equal(def_of("l2_hit_rate")->extent, KD_INTENSIVE);
}

static void request_lists_are_sorted_and_nested(void **state)
{
    (void)state;
    const char *const *fast = kd_ncu_request_list(false);
    const char *const *full = kd_ncu_request_list(true);
    assert_ptr_equal(kd_ncu_request_list(true), full); /* built once */
    size_t nfast = list_length(fast), nfull = list_length(full);
    for (size_t i = 1; i < nfull; i++)
        if (strcmp(full[i - 1], full[i]) >= 0) /* strictly: sorted and without duplicates */
            fail_msg("%s before %s", full[i - 1], full[i]);
    for (size_t i = 1; i < nfast; i++)
        assert_true(strcmp(fast[i - 1], fast[i]) < 0);
    for (size_t i = 0; i < nfast; i++)
        assert_true(listed(full, fast[i]));
    /* Every raw name of every definition, in the fast list exactly when in the fast set. */
    for (size_t i = 0; i < kd_metric_def_count; i++)
        for (size_t r = 0; r < KD_MAX_RAW && kd_metric_defs[i].raw[r]; r++) {
            assert_true(listed(full, kd_metric_defs[i].raw[r]));
            assert_int_equal(listed(fast, kd_metric_defs[i].raw[r]), !kd_metric_defs[i].full_set_only);
        }
    assert_int_equal(nfull, nfast + 8);
    assert_true(listed(full, "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio"));
    assert_false(listed(fast, "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio"));
    assert_true(listed(fast, "dram__bytes_write.sum"));
}

/* ncu replays a launch once per counter pass: the watchdog must cover many passes of a long
 * launch, and more for the full set than for the fast one. */
static void once_watchdog_covers_replays_of_long_launches(void **state)
{
    (void)state;
    kd_ncu_options o = {.repeats = 1, .timeout_ms = 10000, .launch_ns = 0};
    int idle = kd_ncu_once_timeout_ms(&o);
    assert_true(idle >= o.timeout_ms);
    o.launch_ns = 1e9; /* a one-second kernel */
    int fast = kd_ncu_once_timeout_ms(&o);
    assert_true(fast >= idle + 60 * 1000); /* at least 60 passes of 1 s */
    o.full = true;
    assert_true(kd_ncu_once_timeout_ms(&o) > fast);
    o.launch_ns = 1e15; /* absurd: saturates instead of overflowing */
    assert_int_equal(kd_ncu_once_timeout_ms(&o), INT_MAX);
}

/* A short kernel gets several profiled launches unless --ncu-repeats says otherwise. */
static void short_kernels_get_several_profiled_launches(void **state)
{
    (void)state;
    assert_int_equal(kd_ncu_auto_repeats(0, 6000), KD_NCU_SHORT_REPEATS);
    assert_true(KD_NCU_SHORT_REPEATS >= 3);
    assert_int_equal(kd_ncu_auto_repeats(0, 275e6), 1);
    assert_int_equal(kd_ncu_auto_repeats(0, 0), 1); /* not timed */
    assert_int_equal(kd_ncu_auto_repeats(1, 6000), 1);
    assert_int_equal(kd_ncu_auto_repeats(7, 275e6), 7);
}

static void occupancy_limiter_is_the_smallest(void **state)
{
    (void)state;
    kd_metric_values v;
    memset(&v, 0, sizeof v);
    assert_null(kd_occupancy_limiter(&v));
    set(&v, "occupancy_limit_registers", 8);
    set(&v, "occupancy_limit_shared", 32);
    set(&v, "occupancy_limit_warps", 4);
    set(&v, "occupancy_limit_blocks", 32);
    assert_string_equal(kd_occupancy_limiter(&v), "warps");
    set(&v, "occupancy_limit_registers", 2);
    assert_string_equal(kd_occupancy_limiter(&v), "registers");
    set(&v, "occupancy_limit_shared", 1);
    assert_string_equal(kd_occupancy_limiter(&v), "shared memory");
    set(&v, "occupancy_limit_blocks", 0.5);
    assert_string_equal(kd_occupancy_limiter(&v), "blocks");
    set(&v, "occupancy_limit_registers", 0.5); /* a tie: the first in the list */
    assert_string_equal(kd_occupancy_limiter(&v), "registers");
}

/* ---- advice ---- */

typedef struct advice_fixture {
    kd_metric_values side[2];
    long spill[2];
    char **notes;
    size_t count;
} advice_fixture;

static void both_sides(advice_fixture *f, const char *id, double v1, double v2)
{
    set(&f->side[0], id, v1);
    set(&f->side[1], id, v2);
}

static void run_advice(advice_fixture *f)
{
    const kd_advice_input in = {{&f->side[0], &f->side[1]}, {f->spill[0], f->spill[1]}};
    kd_advice(&in, &f->notes, &f->count);
}

static void free_notes(advice_fixture *f)
{
    for (size_t i = 0; i < f->count; i++)
        free(f->notes[i]);
    free(f->notes);
    memset(f, 0, sizeof *f);
}

/* Exactly one note, equal to `expected`; the fixture is reset for the next case. */
static void expect_note(advice_fixture *f, const char *expected)
{
    run_advice(f);
    if (f->count != 1 || strcmp(f->notes[0], expected) != 0)
        fail_msg("%zu notes, first \"%s\", expected \"%s\"", f->count, f->count ? f->notes[0] : "", expected);
    free_notes(f);
}

static void expect_no_note(advice_fixture *f)
{
    run_advice(f);
    if (f->count != 0)
        fail_msg("unexpected note \"%s\"", f->notes[0]);
    free_notes(f);
}

static void advice_bank_conflicts_and_dram(void **state)
{
    (void)state;
    advice_fixture f = {0};
    both_sides(&f, "bank_conflicts_ld", 3.1e6, 0);
    expect_note(&f, "shared-memory bank conflicts vanished (bank conflicts ld 3.1M -> 0)");
    both_sides(&f, "bank_conflicts_st", 0, 4096);
    expect_note(&f, "shared-memory bank conflicts appeared (bank conflicts st 0 -> 4.1k)");
    both_sides(&f, "bank_conflicts_ld", 3.1e6, 31000);
    expect_note(&f, "shared-memory bank conflicts fell by orders of magnitude (bank conflicts ld 3.1M -> 31.0k)");
    both_sides(&f, "bank_conflicts_ld", 3e6, 3e5);
    expect_note(&f, "shared-memory bank conflicts fell 10.0x (bank conflicts ld 3.0M -> 300.0k)");
    both_sides(&f, "bank_conflicts_ld", 2.7e6, 3e5); /* 9x */
    expect_no_note(&f);
    both_sides(&f, "bank_conflicts_ld", 0, 0);
    expect_no_note(&f);

    both_sides(&f, "dram_bytes", 64e6, 32e6);
    expect_note(&f, "DRAM traffic fell 2.0x (DRAM bytes 64.0 MB -> 32.0 MB)");
    both_sides(&f, "dram_bytes", 32e6, 48e6);
    expect_note(&f, "DRAM traffic rose 1.5x (DRAM bytes 32.0 MB -> 48.0 MB)");
    both_sides(&f, "dram_bytes", 32e6, 44.8e6); /* 1.4x */
    expect_no_note(&f);
}

static void advice_coalescing(void **state)
{
    (void)state;
    advice_fixture f = {0};
    both_sides(&f, "efficiency_ld", 100, 12.5); /* 4 of 32 bytes per sector used */
    expect_note(&f, "global loads are no longer coalesced (bytes used/sector ld 100.0% -> 12.5%)");
    both_sides(&f, "efficiency_st", 12.5, 100);
    expect_note(&f, "global stores are now coalesced (bytes used/sector st 12.5% -> 100.0%)");
    both_sides(&f, "efficiency_ld", 80, 50); /* both thresholds are inclusive */
    expect_note(&f, "global loads are no longer coalesced (bytes used/sector ld 80.0% -> 50.0%)");
    both_sides(&f, "efficiency_ld", 100, 51); /* 51% is in the band left alone */
    expect_no_note(&f);
    both_sides(&f, "efficiency_st", 60, 12.5); /* 60% was not coalesced either */
    expect_no_note(&f);
    /* Wider accesses raise sectors per request without any waste: no note from them. */
    both_sides(&f, "sectors_per_request_ld", 4, 16);
    expect_no_note(&f);
}

static void advice_occupancy_limiter(void **state)
{
    (void)state;
    advice_fixture f = {0};
    both_sides(&f, "occupancy_limit_registers", 8, 2);
    both_sides(&f, "occupancy_limit_shared", 32, 32);
    both_sides(&f, "occupancy_limit_warps", 4, 4);
    both_sides(&f, "occupancy_limit_blocks", 32, 32);
    both_sides(&f, "achieved_occupancy", 62.5, 30.5);
    expect_note(&f, "occupancy now limited by registers (was warps; achieved occupancy 62.5% -> 30.5%)");

    both_sides(&f, "occupancy_limit_registers", 8, 6);
    both_sides(&f, "occupancy_limit_warps", 4, 4);
    both_sides(&f, "achieved_occupancy", 62.5, 60);
    expect_no_note(&f); /* same limiter */
}

static void advice_spills(void **state)
{
    (void)state;
    advice_fixture f = {.spill = {0, 96}};
    expect_note(&f, "registers now spill (96 bytes) — local memory traffic (ptxas spill bytes 0 -> 96)");
    f.spill[0] = 8;
    f.spill[1] = 96;
    expect_no_note(&f); /* spilled before too */
    f.spill[0] = -1;    /* unknown */
    f.spill[1] = 96;
    expect_no_note(&f);
}

static void matmul_like_v2(advice_fixture *f, double fp32, double intensity, double tensor)
{
    both_sides(f, "flops_fp32", fp32, fp32);
    both_sides(f, "flops_fp16", 3e8, 3e8);
    both_sides(f, "arithmetic_intensity", intensity, intensity);
    both_sides(f, "tensor_pipe", tensor, tensor);
}

static void advice_tensor_idle(void **state)
{
    (void)state;
    advice_fixture f = {0};
    matmul_like_v2(&f, 4e9, 25, 0.3);
    expect_note(&f, "tensor pipe idle in a matmul-like kernel (tensor pipe 0.3%, FP32+FP16 FLOPs 4.3G, "
                    "arithmetic intensity 25.0 FLOP/B)");
    matmul_like_v2(&f, 4e9, 25, 1.5);
    expect_no_note(&f);
    matmul_like_v2(&f, 4e9, 9, 0.3);
    expect_no_note(&f);
    matmul_like_v2(&f, 6e8, 25, 0.3); /* 0.9 GFLOP in all */
    expect_no_note(&f);
}

static void advice_l2_and_stalls(void **state)
{
    (void)state;
    advice_fixture f = {0};
    both_sides(&f, "l2_hit_rate", 45, 68);
    expect_note(&f, "L2 hit rate rose by 23.0pp (L2 hit rate 45.0% -> 68.0%)");
    both_sides(&f, "l2_hit_rate", 80, 60);
    expect_note(&f, "L2 hit rate fell by 20.0pp (L2 hit rate 80.0% -> 60.0%)");
    both_sides(&f, "l2_hit_rate", 50, 60);
    expect_note(&f, "L2 hit rate rose by 10.0pp (L2 hit rate 50.0% -> 60.0%)");
    both_sides(&f, "l2_hit_rate", 45, 54.5);
    expect_no_note(&f);

    both_sides(&f, "stall_barrier", 1, 3);
    both_sides(&f, "stall_long_scoreboard", 0.8, 4.2);
    both_sides(&f, "stall_wait", 2, 1);
    both_sides(&f, "stall_not_selected", 5, 5.5); /* the most stalls, but not the growth */
    expect_note(&f, "warps now stall mostly on long_scoreboard (stall long scoreboard 0.8 -> 4.2 warps/issue)");
    both_sides(&f, "stall_math_pipe", 0.5, 1.4);
    expect_no_note(&f); /* less than one warp per issue more */
}

static void advice_appends_and_stays_quiet(void **state)
{
    (void)state;
    advice_fixture f = {0};
    /* Nothing changed: identical sides over every metric give no notes. */
    for (size_t i = 0; i < kd_metric_def_count; i++)
        both_sides(&f, kd_metric_defs[i].id, 3, 3);
    f.spill[0] = f.spill[1] = 16;
    expect_no_note(&f);

    f.notes = malloc(sizeof *f.notes);
    assert_non_null(f.notes);
    f.notes[0] = strdup("an earlier note");
    f.count = 1;
    both_sides(&f, "l2_hit_rate", 40, 80);
    both_sides(&f, "bank_conflicts_st", 100, 0);
    run_advice(&f);
    assert_int_equal(f.count, 3);
    assert_string_equal(f.notes[0], "an earlier note");
    assert_non_null(strstr(f.notes[1], "bank conflicts st 100 -> 0"));
    assert_non_null(strstr(f.notes[2], "L2 hit rate 40.0% -> 80.0%"));
    free_notes(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(evaluates_formulas),
        cmocka_unit_test(fast_set_leaves_out_full_only_metrics),
        cmocka_unit_test(zero_requests_or_bytes_are_undefined),
        cmocka_unit_test(aggregates_three_kernels),
        cmocka_unit_test(diff_symbols_and_thresholds),
        cmocka_unit_test(diff_without_a_side_is_not_comparable),
        cmocka_unit_test(roofline_classifies),
        cmocka_unit_test(roofline_without_data),
        cmocka_unit_test(arch_table_and_bound_names),
        cmocka_unit_test(table_is_consistent),
        cmocka_unit_test(request_lists_are_sorted_and_nested),
        cmocka_unit_test(once_watchdog_covers_replays_of_long_launches),
        cmocka_unit_test(short_kernels_get_several_profiled_launches),
        cmocka_unit_test(occupancy_limiter_is_the_smallest),
        cmocka_unit_test(advice_bank_conflicts_and_dram),
        cmocka_unit_test(advice_coalescing),
        cmocka_unit_test(advice_occupancy_limiter),
        cmocka_unit_test(advice_spills),
        cmocka_unit_test(advice_tensor_idle),
        cmocka_unit_test(advice_l2_and_stalls),
        cmocka_unit_test(advice_appends_and_stays_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
