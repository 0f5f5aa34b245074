/* The CSV parser and metric model on ncu output recorded on an H200 (tests/fixtures/ncu). */
#include "kd_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/counters.h"
#include "ncu/ncu_csv.h"
#include "ncu/metrics.h"
#include "report/metric_text.h"
#include "util/fs.h"

static kd_ncu_table load(const char *name)
{
    const char *dir = getenv("KD_FIXTURES");
    char path[512];
    snprintf(path, sizeof path, "%s/ncu/%s", dir ? dir : "tests/fixtures", name);
    size_t len;
    char *text = kd_read_file(path, &len);
    assert_non_null(text);
    kd_ncu_table t;
    assert_int_equal(kd_ncu_parse_csv(text, len, &t), 0);
    free(text);
    return t;
}

typedef struct row_ref {
    const kd_ncu_table *t;
    size_t row;
} row_ref;

static bool lookup(const void *ctx, const char *metric, double *out)
{
    const row_ref *r = ctx;
    long c = kd_ncu_column(r->t, metric);
    return c >= 0 && kd_ncu_number(r->t->rows[r->row][c], out);
}

static double metric(const kd_ncu_table *t, size_t row, bool full, const char *id)
{
    row_ref ref = {t, row};
    kd_raw_lookup raw = {&ref, lookup};
    kd_metric_values v;
    kd_metrics_evaluate(&raw, full, &v);
    long i = kd_metric_index(id);
    assert_true(i >= 0);
    assert_true(v.present[i]);
    return v.value[i];
}

static void single_kernel_with_thousands_separators(void **state)
{
    (void)state;
    kd_ncu_table t = load("single/v1.csv");
    assert_int_equal(t.nrows, 1);
    assert_int_equal(t.ncolumns, 382); /* 379 recorded + 3 constructed (tests/fixtures/README.md) */
    assert_null(t.error_line);
    long name = kd_ncu_column(&t, "Kernel Name"), dur = kd_ncu_column(&t, "gpu__time_duration.sum");
    assert_string_equal(t.rows[0][name], "saxpy(const float *, const float *, float *, int)");
    assert_string_equal(t.units[dur], "ns");
    assert_string_equal(t.rows[0][dur], "58,944"); /* as ncu writes it */
    assert_true(metric(&t, 0, false, "duration") == 58944);
    /* 16M floats of x and y read (2 x 64 MiB) = 134,217,728 bytes, plus a few sectors more. */
    double read = 0;
    assert_true(kd_ncu_number(t.rows[0][kd_ncu_column(&t, "dram__bytes_read.sum")], &read));
    assert_true(read == 134226944);
    /* Coalesced 4-byte loads: 4 sectors per request. */
    assert_true(fabs(metric(&t, 0, false, "sectors_per_request_ld") - 4) < 1e-9);
    for (const char *const *m = kd_ncu_request_list(false); *m; m++)
        assert_true(kd_ncu_column(&t, *m) >= 0); /* every requested metric came back */
    kd_ncu_table_free(&t);
}

static void float4_loads_are_16_sectors_per_request_and_fully_used(void **state)
{
    (void)state;
    kd_ncu_table t = load("single/v2.csv");
    assert_true(fabs(metric(&t, 0, false, "sectors_per_request_ld") - 16) < 0.01);
    assert_true(metric(&t, 0, false, "efficiency_ld") >= 99.0);
    kd_ncu_table_free(&t);
}

static void pipeline_side_has_three_kernels(void **state)
{
    (void)state;
    kd_ncu_table t = load("pipeline/v1.csv");
    assert_int_equal(t.nrows, 3);
    long name = kd_ncu_column(&t, "Kernel Name");
    assert_string_equal(t.rows[0][name], "scale(const float *, float *, int)");
    assert_string_equal(t.rows[1][name], "shift(const float *, float *, int)");
    assert_string_equal(t.rows[2][name], "activate(const float *, float *, int)");
    kd_metric_values k[3], total;
    for (size_t r = 0; r < 3; r++) {
        row_ref ref = {&t, r};
        kd_raw_lookup raw = {&ref, lookup};
        kd_metrics_evaluate(&raw, false, &k[r]);
    }
    kd_metrics_aggregate(k, 3, &total);
    long bytes = kd_metric_index("dram_bytes"), dur = kd_metric_index("duration");
    assert_true(fabs(total.value[bytes] - (k[0].value[bytes] + k[1].value[bytes] + k[2].value[bytes])) < 1);
    assert_true(fabs(total.value[dur] - (k[0].value[dur] + k[1].value[dur] + k[2].value[dur])) < 1e-6);
    kd_ncu_table_free(&t);

    t = load("pipeline/v2.csv");
    assert_int_equal(t.nrows, 1);
    /* One pass instead of three: under half the DRAM bytes of v1's sum. */
    assert_true(metric(&t, 0, false, "dram_bytes") < 0.5 * total.value[bytes]);
    kd_ncu_table_free(&t);
}

/* ncu's duration falls 58.9 -> 44.6 us in single/: against a "slower" verdict the row is
 * marked noisy and the contradiction is recorded; with the verdict it agrees with, not. */
static void duration_against_the_timing_verdict(void **state)
{
    (void)state;
    const kd_verdict verdicts[] = {KD_VERDICT_SLOWER, KD_VERDICT_FASTER, KD_VERDICT_NO_DIFFERENCE};
    const kd_verdict expected[] = {KD_VERDICT_SLOWER, KD_VERDICT_NO_DIFFERENCE, KD_VERDICT_NO_DIFFERENCE};
    long dur = kd_metric_index("duration");
    for (size_t i = 0; i < 3; i++) {
        kd_ncu_result results[2] = {{.table = load("single/v1.csv"), .kernels_per_launch = 1, .repeats = 1},
                                    {.table = load("single/v2.csv"), .kernels_per_launch = 1, .repeats = 1}};
        kd_counter_context ctx = {.sm = 90, .verdict = verdicts[i]};
        kd_counters c;
        kd_counters_build(results, false, &ctx, &c);
        assert_true(c.delta[dur].delta < 0);
        assert_int_equal(c.contradicted_verdict, expected[i]);
        assert_int_equal(c.delta[dur].noisy, expected[i] != KD_VERDICT_NO_DIFFERENCE);
        kd_counters_free(&c);
        kd_ncu_result_free(&results[0]);
        kd_ncu_result_free(&results[1]);
    }
}

/* SGEMM naive at 4096^3 (a constructed variant of single/v1.csv with its reported figures:
 * 275 ms, L1 at 92%, DRAM under 1%, 1% of peak FLOP/s) was called "memory-bound, 0% of peak
 * DRAM bandwidth": the text must name the unit that is busy. */
static void roofline_names_the_busiest_unit(void **state)
{
    (void)state;
    kd_ncu_table t = load("variants/sgemm_naive_l1.csv");
    row_ref ref = {&t, 0};
    kd_raw_lookup raw = {&ref, lookup};
    kd_counters c;
    memset(&c, 0, sizeof c);
    kd_metrics_evaluate(&raw, false, &c.side[0].total);
    c.side[1].total = c.side[0].total;
    const kd_peaks h200 = {.dram_bytes_per_s = 2 * 3201e6 * 6016 / 8, .fp32_flops_per_s = 132 * 1.98e9 * 256,
                           .fp64_flops_per_s = 132 * 1.98e9 * 128};
    for (int s = 0; s < 2; s++) {
        kd_roofline_compute(&c.side[s].total, &h200, &c.side[s].roofline);
        c.side[s].roofline_valid = true;
    }
    const kd_roofline *r = &c.side[0].roofline;
    assert_int_equal(r->busiest, KD_BUSY_L1);
    assert_int_equal(r->bound, KD_BOUND_MEMORY);
    assert_true(r->bw_fraction < 0.01 && r->compute_fraction < 0.02);
    kd_strbuf line = {0};
    kd_roofline_line(&c, &line);
    if (!strstr(kd_sb_str(&line), "v1 memory-bound (L1/shared 92% of peak), 0% of peak DRAM bandwidth, 1% of peak FLOP/s"))
        fail_msg("roofline line: %s", kd_sb_str(&line));
    kd_sb_free(&line);

    /* L1 idle as well: nothing near its peak is latency-bound, and says what was busiest. */
    long l1 = kd_metric_index("l1_throughput"), mem = kd_metric_index("mem_throughput");
    c.side[1].total.value[l1] = c.side[1].total.value[mem] = 20;
    kd_roofline_compute(&c.side[1].total, &h200, &c.side[1].roofline);
    assert_int_equal(c.side[1].roofline.bound, KD_BOUND_LATENCY);
    assert_int_equal(c.side[1].roofline.busiest, KD_BUSY_SM);
    kd_roofline_line(&c, &line);
    if (!strstr(kd_sb_str(&line), "v2 latency-bound (busiest: SM 46% of peak)"))
        fail_msg("roofline line: %s", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_ncu_table_free(&t);
}

static void repeats_and_the_full_set(void **state)
{
    (void)state;
    kd_ncu_table a = load("repeats/v1.csv"), b = load("repeats/v2.csv");
    assert_int_equal(a.nrows, 3);
    assert_int_equal(b.nrows, 3);
    for (const char *const *m = kd_ncu_request_list(true); *m; m++)
        assert_true(kd_ncu_column(&a, *m) >= 0);
    for (size_t r = 0; r < 3; r++) {
        /* The transpose without padding conflicts on every column read; the padded one
         * almost never: more than 100x fewer conflicts in every repeat. */
        double conflicts_v1 = metric(&a, r, true, "bank_conflicts_ld");
        double conflicts_v2 = metric(&b, r, true, "bank_conflicts_ld");
        assert_true(conflicts_v1 > 100 * conflicts_v2);
        assert_true(metric(&a, r, true, "stall_mio_throttle") > metric(&b, r, true, "stall_mio_throttle"));
    }
    kd_ncu_table_free(&a);
    kd_ncu_table_free(&b);
}

static void an_unknown_metric_is_dropped_without_a_word(void **state)
{
    (void)state;
    /* Recorded with --metrics gpu__time_duration.sum,kerndiff__no_such_metric.sum: ncu
     * exited 0 and wrote the known column only, which is why kerndiff checks every column. */
    kd_ncu_table t = load("missing_metric.csv");
    assert_int_equal(t.nrows, 1);
    assert_true(kd_ncu_column(&t, "gpu__time_duration.sum") >= 0);
    assert_int_equal(kd_ncu_column(&t, "kerndiff__no_such_metric.sum"), -1);
    assert_null(t.error_line);
    kd_ncu_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(single_kernel_with_thousands_separators),
        cmocka_unit_test(float4_loads_are_16_sectors_per_request_and_fully_used),
        cmocka_unit_test(pipeline_side_has_three_kernels),
        cmocka_unit_test(repeats_and_the_full_set),
        cmocka_unit_test(duration_against_the_timing_verdict),
        cmocka_unit_test(roofline_names_the_busiest_unit),
        cmocka_unit_test(an_unknown_metric_is_dropped_without_a_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
