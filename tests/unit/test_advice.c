/* Advice that names the mechanism (issue 31 item 3): notes ranked by their share of the
 * change in warp stalls (or by their own evidence without stall rows), the share said, and
 * each note's hot line from a hot-spot diff (tests/fixtures/hotspots/synthetic: SYNTHETIC
 * sample counts over real listings). */
#include "kd_test.h"

#include <string.h>

#include "hotspots/hotspots.h"
#include "ncu/advice.h"

typedef struct fixture {
    kd_metric_values side[2];
    char **notes;
    size_t count;
} fixture;

static void both(fixture *f, const char *id, double v1, double v2)
{
    long i = kd_metric_index(id);
    assert_true(i >= 0);
    f->side[0].value[i] = v1, f->side[0].present[i] = true;
    f->side[1].value[i] = v2, f->side[1].present[i] = true;
}

static void run(fixture *f, const kd_hs_diff *hot)
{
    kd_advice_input in = {.side = {&f->side[0], &f->side[1]}};
    kd_advice_hot(&in, hot, &f->notes, &f->count);
}

static void done(fixture *f)
{
    for (size_t k = 0; k < f->count; k++)
        free(f->notes[k]);
    free(f->notes);
    memset(f, 0, sizeof *f);
}

/* The naive vs coalesced SGEMM: the loads became coalesced, DRAM traffic fell, the
 * long-scoreboard stalls went. The cause comes first, its consequence after, both with the
 * share of the stall change that global memory carries. */
static void cause_before_consequence(void **state)
{
    (void)state;
    fixture f = {0};
    both(&f, "efficiency_ld", 12.5, 82.5);
    both(&f, "dram_bytes", 1.9e9, 1e9);
    both(&f, "stall_long_scoreboard", 6.0, 1.0);
    both(&f, "stall_mio_throttle", 0.2, 0.3);
    both(&f, "stall_wait", 1.0, 1.2);
    run(&f, NULL);
    assert_int_equal(f.count, 2);
    assert_string_equal(f.notes[0], "global loads are now coalesced (bytes used/sector ld 12.5% -> 82.5%); "
                                    "94% of the change in warp stalls");
    assert_string_equal(f.notes[1], "DRAM traffic fell 1.9x (DRAM bytes 1.9 GB -> 1.0 GB); 94% of the change in warp stalls");
    done(&f);
}

/* Bank conflicts that carry most of the stall change outrank a coalescing change that carries little. */
static void ranked_by_stall_share(void **state)
{
    (void)state;
    fixture f = {0};
    both(&f, "efficiency_ld", 40, 90);
    both(&f, "bank_conflicts_ld", 3e6, 0);
    both(&f, "stall_long_scoreboard", 1.5, 1.0);
    both(&f, "stall_mio_throttle", 3.5, 0.5);
    run(&f, NULL);
    assert_int_equal(f.count, 2);
    assert_non_null(strstr(f.notes[0], "shared-memory bank conflicts vanished"));
    assert_non_null(strstr(f.notes[0], "; 86% of the change in warp stalls"));
    assert_non_null(strstr(f.notes[1], "global loads are now coalesced"));
    assert_non_null(strstr(f.notes[1], "; 14% of the change in warp stalls"));
    done(&f);
}

/* Without stall rows the evidence's own size ranks: coalescing 12.5% -> 100% before DRAM 2x,
 * though the DRAM rule runs first; no share is said. */
static void ranked_by_evidence(void **state)
{
    (void)state;
    fixture f = {0};
    both(&f, "dram_bytes", 64e6, 32e6);
    both(&f, "efficiency_ld", 12.5, 100);
    run(&f, NULL);
    assert_int_equal(f.count, 2);
    assert_string_equal(f.notes[0], "global loads are now coalesced (bytes used/sector ld 12.5% -> 100.0%)");
    assert_string_equal(f.notes[1], "DRAM traffic fell 2.0x (DRAM bytes 64.0 MB -> 32.0 MB)");
    done(&f);
}

static void load(kd_hs_profile *p, const char *v)
{
    char path[64];
    kd_hs_error err;
    snprintf(path, sizeof path, "hotspots/synthetic/%s.rec", v);
    char *rec = read_fixture(path);
    assert_int_equal(kd_hs_record_parse(rec, p, &err), 0);
    snprintf(path, sizeof path, "hotspots/synthetic/%s.sass", v);
    char *sass = read_fixture(path);
    kd_hs_attach_sass(p, sass);
    snprintf(path, sizeof path, "hotspots/synthetic/%s.cu", v);
    char *src = read_fixture(path);
    kd_hs_profile_finish(p, src);
    free(rec), free(sass), free(src);
}

/* Each note names the line that moved most among those with its instructions or its stall. */
static void hot_lines(void **state)
{
    (void)state;
    kd_hs_profile p[2];
    load(&p[0], "v1");
    load(&p[1], "v2");
    kd_hs_diff d;
    kd_hs_diff_build(&p[0], &p[1], &d);
    fixture f = {0};
    both(&f, "efficiency_ld", 12.5, 100);
    run(&f, &d);
    assert_int_equal(f.count, 1);
    assert_string_equal(f.notes[0], "global loads are now coalesced (bytes used/sector ld 12.5% -> 100.0%); "
                                    "hot line 7 -> 8 (57% -> 15% of samples)");
    done(&f);
    /* The stall rule: the top row whose dominant stall is its own. */
    both(&f, "stall_wait", 0.5, 2.0);
    run(&f, &d);
    assert_int_equal(f.count, 1);
    assert_string_equal(f.notes[0], "warps now stall mostly on wait (stall wait 0.5 -> 2.0 warps/issue); "
                                    "hot line 7 -> 8 (57% -> 15% of samples)");
    done(&f);
    /* No instruction of the mechanism among the sampled lines: no hot line. */
    both(&f, "bank_conflicts_ld", 3e6, 0);
    run(&f, &d);
    assert_int_equal(f.count, 1);
    assert_null(strstr(f.notes[0], "hot line"));
    done(&f);
    kd_hs_diff_free(&d);
    kd_hs_profile_free(&p[0]);
    kd_hs_profile_free(&p[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cause_before_consequence),
        cmocka_unit_test(ranked_by_stall_share),
        cmocka_unit_test(ranked_by_evidence),
        cmocka_unit_test(hot_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
