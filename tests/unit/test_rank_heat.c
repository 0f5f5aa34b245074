/* A rank's heats (src/rank/rank.h): the heat file round trip (rank/heat_json.c) and the
 * report as a pure function of the heats (kd_rank_finish): the heats written and read back
 * give the same report to the last bit; failures sort last; the pairwise verdicts. */
#include "kd_test.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "rank/rank.h"
#include "util/xalloc.h"

static void fill(kd_rank_entry *e, const char *name, size_t index, double ratio, size_t rounds, uint64_t *state)
{
    e->name = kd_xstrdup(name);
    e->path = kd_xstrdup(name);
    e->index = index;
    e->gate = KD_RANK_SAME;
    e->stat = (kd_rank_static){32, 0, 0.75};
    e->ngpus = 1;
    e->gpus = kd_xcalloc(1, sizeof *e->gpus);
    kd_rank_gpu_samples *s = &e->gpus[0];
    s->n = rounds * 5;
    s->base = kd_xcalloc(s->n, sizeof *s->base);
    s->cand = kd_xcalloc(s->n, sizeof *s->cand);
    s->round = kd_xcalloc(s->n, sizeof *s->round);
    for (size_t i = 0; i < s->n; i++) {
        *state = *state * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(*state >> 11) * 0x1.0p-53 - 0.5;
        s->base[i] = 100000 * (1 + 0.01 * u);
        s->cand[i] = 100000 / ratio * (1 - 0.01 * u) + 0.123456789;
        s->round[i] = (unsigned)(i / 5);
    }
}

static void make_heats(kd_rank_heat h[2])
{
    uint64_t state = 42;
    for (unsigned k = 0; k < 2; k++) {
        h[k] = (kd_rank_heat){.heat = k, .heats = 2, .seed = 18446744073709551557ull, .family = 5,
                              .baseline = kd_xstrdup("base.cu"), .base_stat = {30, 8, 1.0}, .rounds = 12, .samples = 99};
        h[k].devices = kd_xcalloc(1, sizeof *h[k].devices);
        h[k].ndevices = 1;
        snprintf(h[k].devices[0].name, sizeof h[k].devices[0].name, "Simulated GPU");
        snprintf(h[k].stop, sizeof h[k].stop, "separated");
        h[k].entries = kd_xcalloc(3, sizeof *h[k].entries);
        h[k].nmembers = 5; /* the rank's candidate set, in every heat */
        h[k].members = kd_xcalloc(5, sizeof *h[k].members);
        for (int m = 0; m < 5; m++) {
            h[k].members[m].path = kd_xasprintf("%c.cu", 'a' + m);
            snprintf(h[k].members[m].sha256, sizeof h[k].members[m].sha256, "%064d", m);
        }
    }
    fill(&h[0].entries[h[0].count++], "a.cu", 0, 1.30, 12, &state);
    fill(&h[0].entries[h[0].count++], "b.cu", 1, 0.90, 6, &state);
    h[0].entries[1].dropped = true;
    fill(&h[1].entries[h[1].count++], "c.cu", 2, 1.29, 12, &state);
    fill(&h[1].entries[h[1].count++], "d.cu", 3, 1.10, 12, &state);
    kd_rank_entry *bad = &h[1].entries[h[1].count++];
    *bad = (kd_rank_entry){.name = kd_xstrdup("e.cu"), .path = kd_xstrdup("e.cu"), .index = 4, .gate = KD_RANK_INCORRECT,
                           .reason = kd_xstrdup("out: 3 of 4096"), .stat = {-1, -1, -1}};
}

static void heats_round_trip_to_the_same_report(void **state)
{
    (void)state;
    kd_rank_heat h[2], back[2];
    make_heats(h);
    char dir[] = "/tmp/kd_rank_heat_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[2][128];
    for (int k = 0; k < 2; k++) {
        snprintf(path[k], sizeof path[k], "%s/shard-%d.json", dir, k);
        assert_int_equal(kd_rank_heat_write(&h[k], path[k]), 0);
        char *why = NULL;
        assert_int_equal(kd_rank_heat_read(path[k], &back[k], &why), 0);
        assert_null(why);
        assert_int_equal(back[k].seed, h[k].seed);
        assert_int_equal(back[k].count, h[k].count);
        assert_string_equal(back[k].devices[0].name, "Simulated GPU");
    }
    kd_rank_opts o = {.top = 3, .confidence = 0.99};
    kd_rank_heat *a[2] = {&h[0], &h[1]}, *b[2] = {&back[1], &back[0]}; /* the merge's order does not matter */
    kd_rank_result *x = kd_rank_finish(a, 2, &o), *y = kd_rank_finish(b, 2, &o);
    assert_int_equal(x->count, 5);
    assert_int_equal(y->count, 5);
    assert_int_equal(x->timed, 4);
    for (size_t i = 0; i < x->count; i++) {
        assert_string_equal(x->rows[i].entry->name, y->rows[i].entry->name);
        assert_int_equal(x->rows[i].status, y->rows[i].status);
        assert_memory_equal(&x->rows[i].speedup, &y->rows[i].speedup, sizeof x->rows[i].speedup);
    }
    /* a (1.30x) and c (1.29x) cannot be told apart; both beat d; b slower; e failed, last */
    assert_string_equal(x->rows[0].entry->name, "a.cu");
    assert_string_equal(x->rows[1].entry->name, "c.cu");
    assert_string_equal(x->rows[2].entry->name, "d.cu");
    assert_string_equal(x->rows[3].entry->name, "b.cu");
    assert_string_equal(x->rows[4].entry->name, "e.cu");
    assert_int_equal(x->rows[0].status, KD_RANK_FASTER);
    assert_int_equal(x->rows[3].status, KD_RANK_SLOWER); /* dropped, but its interval says slower */
    assert_int_equal(x->rows[4].status, KD_RANK_INCORRECT);
    assert_string_equal(x->correction, "bonferroni");
    assert_true(fabs(x->corrected_confidence - (1 - 0.01 / 5)) < 1e-12);
    assert_int_equal(x->npairs, 3);
    assert_int_equal(x->pairs[0].verdict, KD_VERDICT_NO_DIFFERENCE); /* a vs c */
    assert_int_equal(x->pairs[1].verdict, KD_VERDICT_FASTER);        /* a vs d */
    kd_rank_result_free(x);
    kd_rank_result_free(y);
    for (int k = 0; k < 2; k++) {
        kd_rank_heat_free(&h[k]);
        kd_rank_heat_free(&back[k]);
        unlink(path[k]);
    }
    rmdir(dir);
}

static void a_file_that_is_not_a_heat_is_refused(void **state)
{
    (void)state;
    char path[] = "/tmp/kd_rank_bad_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *texts[] = {"{", "{\"kerndiff_rank\": 1}",
                           "{\"kerndiff_rank_heat\": 1, \"heat\": 3, \"heats\": 3, \"seed\": \"1\", \"candidates\": []}",
                           "{\"kerndiff_rank_heat\": 1, \"heat\": 0, \"heats\": 1, \"seed\": \"1\", \"candidates\": "
                           "[{\"name\": \"a\", \"path\": \"a\", \"gate\": \"same\", \"gpus\": [{\"base\": [1], \"cand\": [-1], "
                           "\"round\": [0]}]}]}"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        FILE *f = fopen(path, "w");
        fputs(texts[i], f);
        fclose(f);
        kd_rank_heat h;
        char *why = NULL;
        assert_int_equal(kd_rank_heat_read(path, &h, &why), -1);
        assert_non_null(why);
        free(why);
    }
    close(fd);
    unlink(path);
}

static void heats_partition_by_a_stable_hash(void **state)
{
    (void)state;
    size_t count[4] = {0};
    for (int i = 0; i < 400; i++) {
        char name[32];
        snprintf(name, sizeof name, "cands/c%03d.cu", i);
        unsigned h = kd_rank_heat_of(7, name, 4);
        assert_true(h < 4);
        assert_int_equal(h, kd_rank_heat_of(7, name, 4));
        count[h]++;
    }
    for (int k = 0; k < 4; k++)
        assert_true(count[k] > 60); /* about 100 each */
    assert_int_equal(kd_rank_heat_of(7, "x", 1), 0);
    for (int s = 0; s < KD_RANK_STATUS_COUNT; s++)
        assert_int_equal(kd_rank_status_parse(kd_rank_status_name((kd_rank_status)s)), s);
    assert_int_equal(kd_rank_status_parse("nope"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(heats_round_trip_to_the_same_report),
        cmocka_unit_test(a_file_that_is_not_a_heat_is_refused),
        cmocka_unit_test(heats_partition_by_a_stable_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
