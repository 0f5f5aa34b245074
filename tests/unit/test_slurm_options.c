/* The Slurm options of kerndiff rank live in kd_options (rank.slurm) beside rank's own, and
 * cli/options.c refuses both groups outside `kerndiff rank` with the one message. */
#include "kd_test.h"

#include <string.h>
#include <unistd.h>

#include "cli/exit_codes.h"
#include "cli/options.h"
#include "cli/opts_slurm.h"

/* Parses argv with stderr caught; returns the status and leaves what was said in said[]. */
static int parse_saying(kd_options *o, const char **argv, char *said, size_t said_size)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    fflush(stderr);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0);
    assert_true(dup2(fileno(tmp), STDERR_FILENO) >= 0);
    int rc = kd_options_parse(argc, (char **)argv, o);
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    rewind(tmp);
    size_t n = fread(said, 1, said_size - 1, tmp);
    said[n] = '\0';
    fclose(tmp);
    return rc;
}

static void values_land_in_kd_options(void **state)
{
    (void)state;
    char said[512];
    kd_options o;
    const char *argv[] = {"kerndiff", "rank", "--slurm", "-p gpu", "--shards", "3", "--wait", "--slurm-dir", "d",
                          "--only-shard", "2", "base.cu", "c1.cu", NULL};
    assert_int_equal(parse_saying(&o, argv, said, sizeof said), 0);
    assert_int_equal(o.command, KD_CMD_RANK);
    assert_string_equal(o.rank.slurm.sbatch, "-p gpu");
    assert_int_equal(o.rank.slurm.shards, 3);
    assert_true(o.rank.slurm.wait);
    assert_string_equal(o.rank.slurm.dir, "d");
    assert_int_equal(o.rank.slurm.only_shard, 2);
    assert_null(o.rank.slurm.merge);
    assert_int_equal(kd_opts_slurm_check(&o.rank.slurm), 0);
    kd_options_free(&o);

    /* nothing given: only_shard -1 (0 is a shard), NULLs */
    const char *plain[] = {"kerndiff", "rank", "base.cu", "c1.cu", NULL};
    assert_int_equal(parse_saying(&o, plain, said, sizeof said), 0);
    assert_int_equal(o.rank.slurm.only_shard, -1);
    assert_null(o.rank.slurm.sbatch);
    assert_null(o.rank.slurm.dir);
    assert_int_equal(o.rank.slurm.shards, 0);
    kd_options_free(&o);
}

static void checks_between_them(void **state)
{
    (void)state;
    char said[512];
    kd_options o;
    const char *merge[] = {"kerndiff", "rank", "--merge", "d", "--slurm", "-p x", NULL};
    assert_int_equal(parse_saying(&o, merge, said, sizeof said), 0);
    assert_string_equal(o.rank.slurm.merge, "d");
    fflush(stderr);
    assert_int_equal(kd_opts_slurm_check(&o.rank.slurm), KD_EXIT_USAGE);
    kd_options_free(&o);

    kd_slurm_options only = {.sbatch = "-p x", .only_shard = 0};
    assert_int_equal(kd_opts_slurm_check(&only), KD_EXIT_USAGE); /* --only-shard 0 needs --slurm-dir */
    only.dir = "d";
    assert_int_equal(kd_opts_slurm_check(&only), 0);
    kd_slurm_options wait_alone = {.wait = true, .only_shard = -1};
    assert_int_equal(kd_opts_slurm_check(&wait_alone), KD_EXIT_USAGE);
}

static void refused_outside_rank(void **state)
{
    (void)state;
    char said[512];
    kd_options o;
    const struct {
        const char *option, *value, *name;
    } cases[] = {
        {"--slurm", "-p x", "--slurm"}, {"--shards", "2", "--shards"},   {"--wait", NULL, "--wait"},
        {"--merge", "d", "--merge"},    {"--heats", "2", "--heats"},     {"--max-rounds", "9", "--max-rounds"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *argv[6] = {"kerndiff", cases[i].option};
        size_t k = 2;
        if (cases[i].value)
            argv[k++] = cases[i].value;
        argv[k++] = "a.cu";
        argv[k++] = "b.cu";
        argv[k] = NULL;
        assert_int_equal(parse_saying(&o, argv, said, sizeof said), KD_EXIT_USAGE);
        char want[96];
        snprintf(want, sizeof want, "%s belongs to kerndiff rank BASE CAND...", cases[i].name);
        if (!strstr(said, want))
            fail_msg("%s outside rank said: %s", cases[i].option, said);
        kd_options_free(&o);
    }
}

/* The shards' words come from the parsed request: every option written out whole, Slurm's,
 * the outputs, --shard, --heats and --force left out, then "--" and the operands as parsed,
 * whatever the spelling (an abbreviation, --x=V or --x V, `--` before the operands). */
static void shard_words_from_the_parsed_request(void **state)
{
    (void)state;
    char said[512];
    kd_options o;
    const char *argv[] = {"kerndiff", "rank", "--slurm", "-p x", "--shards", "3", "--wai", "--se", "7", "--json",
                          "out.json", "--markdown=r.md", "-q", "--heats=3", "--force", "--slurm-d", "d", "-I",
                          "inc", "--fn", "k", "--", "base.cu", "--wait", "cands", NULL};
    assert_int_equal(parse_saying(&o, argv, said, sizeof said), 0);
    assert_string_equal(o.rank.slurm.dir, "d");
    assert_true(o.rank.slurm.wait);
    int argc = (int)(sizeof argv / sizeof *argv) - 1;
    kd_slurm_shard_request r;
    assert_int_equal(kd_opts_slurm_shard_request(argc, (char *const *)argv, &o, &r), 0);
    const char *want[] = {"--seed=7", "-q", "-Iinc", "--fn=k", "--", "base.cu", "--wait", "cands"};
    assert_int_equal(r.words.count, sizeof want / sizeof *want);
    for (size_t i = 0; i < r.words.count; i++)
        assert_string_equal(r.words.items[i], want[i]);
    assert_true(r.heats_given);
    assert_int_equal(r.heats, 3);
    assert_int_equal(r.options, 3); /* -q aside */
    assert_string_equal(r.first, "--seed=7");
    kd_slurm_shard_request_free(&r);
    kd_options_free(&o);

    /* --json's optional FILE taken with a space: not a word of the shard */
    const char *plain[] = {"kerndiff", "--json", "sub.json", "rank", "--slurm", "", "b.cu", "c.cu", NULL};
    assert_int_equal(parse_saying(&o, plain, said, sizeof said), 0);
    assert_int_equal(kd_opts_slurm_shard_request(8, (char *const *)plain, &o, &r), 0);
    const char *want2[] = {"--", "b.cu", "c.cu"};
    assert_int_equal(r.words.count, 3);
    for (size_t i = 0; i < 3; i++)
        assert_string_equal(r.words.items[i], want2[i]);
    assert_false(r.heats_given);
    assert_int_equal(r.options, 0);
    kd_slurm_shard_request_free(&r);
    kd_options_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_land_in_kd_options),
        cmocka_unit_test(checks_between_them),
        cmocka_unit_test(refused_outside_rank),
        cmocka_unit_test(shard_words_from_the_parsed_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
