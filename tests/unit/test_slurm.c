/* rank --slurm and --merge (issue 32 item 3): the SBATCH OPTIONS splitter, the words a shard
 * runs (made by cli/opts_slurm.h: test_slurm_options), the fixed batch script (run here as Slurm would, with SLURM_ARRAY_TASK_ID), a
 * submission through a fake `sbatch` in PATH (its argument vector recorded), a re-run of one
 * shard, and the merge of a folder with a done, an invalid and a missing shard, their states
 * from a fake `sacct`, and the words that name them with their re-run command. */
#include "kd_test.h"
#include "kd_test_dir.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rank/merge.h"
#include "rank/slurm.h"
#include "report/slurm_text.h"
#include "util/fs.h"
#include "util/spawn.h"
#include "util/xalloc.h"

KD_TEST_DIR("slurm")

static void free_words(kd_strlist *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i]);
    free(l->items);
    *l = (kd_strlist){0};
}

static void split_like_sh_without_expanding(void **state)
{
    (void)state;
    kd_strlist w = {0};
    size_t at = 99;
    assert_int_equal(kd_slurm_split_words("  -p gpu --comment 'a b'\t\"x\\\"y\" c\\ d $HOME;rm -rf ~ \"\" ''", &w, &at), 0);
    const char *want[] = {"-p", "gpu", "--comment", "a b", "x\"y", "c d", "$HOME;rm", "-rf", "~", "", ""};
    assert_int_equal(w.count, sizeof want / sizeof *want);
    for (size_t i = 0; i < w.count; i++)
        assert_string_equal(w.items[i], want[i]);
    free_words(&w);
    assert_int_equal(kd_slurm_split_words("-p 'gpu", &w, &at), -1);
    assert_int_equal(at, 3);
    assert_int_equal(w.count, 0);
    assert_int_equal(kd_slurm_split_words("-p gpu\\", &w, &at), -1);
    assert_int_equal(at, 6);
    assert_int_equal(kd_slurm_split_words("--x=\"a$b\\$c\"", &w, &at), 0);
    assert_string_equal(w.items[0], "--x=a$b$c");
    free_words(&w);
    assert_int_equal(kd_slurm_split_words("", &w, &at), 0);
    assert_int_equal(w.count, 0);
}

static void gpus_asked_or_not(void **state)
{
    (void)state;
    kd_strlist w = {0};
    kd_slurm_split_words("-p gpu -t 10", &w, NULL);
    assert_false(kd_slurm_words_ask_gpus(&w));
    free_words(&w);
    kd_slurm_split_words("-p gpu --gres=gpu:a100:1", &w, NULL);
    assert_true(kd_slurm_words_ask_gpus(&w));
    free_words(&w);
    kd_slurm_split_words("--gpus-per-task 1", &w, NULL);
    assert_true(kd_slurm_words_ask_gpus(&w));
    free_words(&w);
}

/* A program in dir/bin, first in PATH. */
static void fake(const char *name, const char *body)
{
    char *bin = kd_path_join(dir, "bin");
    kd_mkdir_p(bin);
    char *path = kd_path_join(bin, name);
    char *text = kd_xasprintf("#!/bin/sh\n%s\n", body);
    assert_int_equal(kd_write_file(path, text, strlen(text)), 0);
    assert_int_equal(chmod(path, 0755), 0);
    static int pathed;
    if (!pathed++) {
        char *p = kd_xasprintf("%s:%s", bin, getenv("PATH"));
        setenv("PATH", p, 1);
        free(p);
    }
    free(text);
    free(path);
    free(bin);
}

/* The NUL-separated words the fake sbatch recorded. */
static size_t recorded(const char *file, const char **words, size_t max)
{
    size_t len = 0;
    static char *text;
    free(text);
    text = kd_read_file(file, &len);
    assert_non_null(text);
    size_t n = 0;
    for (size_t i = 0; i < len && n < max; i += strlen(text + i) + 1)
        words[n++] = text + i;
    return n;
}

static void submit_through_sbatch_then_rerun_one(void **state)
{
    (void)state;
    char *rec = kd_path_join(dir, "sbatch.args");
    char *body = kd_xasprintf("printf '%%s\\0' \"$@\" > '%s'; echo 4242", rec);
    fake("sbatch", body);
    free(body);
    char *shards = kd_path_join(dir, "shards");
    kd_slurm_options o = {.sbatch = "-p 'gpu nodes' -t 5", .shards = 3, .only_shard = -1, .dir = shards};
    char *argv[] = {"kerndiff", "--fn", "rank", "--slurm", "-p 'gpu nodes' -t 5", "--shards", "3", "--seed", "7",
                    "--slurm-dir", shards, "rank", "base.cu", "c1.cu"};
    /* the shards' words, as cli/opts_slurm.h makes them from the parsed request */
    kd_strlist words = {0};
    const char *shard_words[] = {"--fn=rank", "--seed=7", "--", "base.cu", "c1.cu"};
    for (size_t i = 0; i < sizeof shard_words / sizeof *shard_words; i++)
        kd_strlist_push(&words, shard_words[i]);
    kd_slurm_submit_request r = {.o = &o, .words = &words, .argc = (int)(sizeof argv / sizeof *argv), .argv = argv};
    kd_slurm_job job;
    kd_slurm_error e = {0};
    assert_int_equal(kd_slurm_submit(&r, &job, &e), KD_OK);
    assert_string_equal(job.id, "4242");
    assert_int_equal(job.shards, 3);
    const char *w[64];
    size_t n = recorded(rec, w, 64);
    char *log = kd_xasprintf("--output=%s/shard-%%a.log", job.dir);
    char *script = kd_path_join(job.dir, KD_SLURM_SCRIPT);
    char *self = realpath("/proc/self/exe", NULL);
    char *cwd_here = getcwd(NULL, 0);
    const char *want[] = {"--job-name=kerndiff-rank", "--gres=gpu:1", "-p", "gpu nodes", "-t", "5", "--parsable",
                          log, "--array=0-2", script, "3", job.dir, cwd_here, self, "--fn=rank", "--seed=7", "--",
                          "base.cu", "c1.cu"};
    assert_int_equal(n, sizeof want / sizeof *want);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(w[i], want[i]);
    free(cwd_here);

    /* The script, run as Slurm runs task 1 (from another folder), enters the rank's folder and
     * execs kerndiff with the shard's options in front of the words it was given. */
    char *args = kd_path_join(dir, "args"); /* a program that prints its folder and its words */
    const char *args_text = "#!/bin/sh\nprintf '%s|' \"$(pwd)\" \"$@\"\n";
    assert_int_equal(kd_write_file(args, args_text, strlen(args_text)), 0);
    assert_int_equal(chmod(args, 0755), 0);
    char *cmd = kd_xasprintf("cd / && SLURM_ARRAY_TASK_ID=1 '%s' 3 '%s' '%s' '%s' --n=5 -- 'a b'", script, job.dir,
                             dir, args);
    free(args);
    const char *sh[] = {"sh", "-c", cmd, NULL};
    kd_spawn_result res;
    assert_int_equal(kd_spawn(sh, NULL, 10000, &res), 0);
    char *real_dir = realpath(dir, NULL);
    char *expect = kd_xasprintf("%s|rank|--shard|1/3|--json=%s/shard-1.json|--n=5|--|a b|", real_dir, job.dir);
    free(real_dir);
    assert_string_equal(kd_sb_str(&res.out), expect);
    kd_spawn_result_free(&res);
    free(expect);
    free(cmd);

    /* --json without --wait: the submission as data */
    char *doc = kd_path_join(dir, "submitted.json");
    assert_int_equal(kd_slurm_submitted_json(&job, doc), 0);
    json_error_t jerr;
    json_t *root = json_load_file(doc, 0, &jerr);
    assert_string_equal(json_string_value(json_object_get(root, "job")), "4242");
    assert_string_equal(json_string_value(json_array_get(json_object_get(root, "tasks"), 2)), "4242_2");
    assert_true(json_is_null(json_object_get(root, "only_shard")));
    assert_string_equal(json_string_value(json_array_get(json_object_get(root, "merge_command"), 3)), job.dir);
    json_decref(root);
    free(doc);

    kd_slurm_manifest m;
    assert_int_equal(kd_slurm_manifest_read(job.dir, &m, &e), KD_OK);
    assert_int_equal(m.shards, 3);
    assert_string_equal(m.jobs[0], "4242_0");
    assert_string_equal(m.jobs[2], "4242_2");
    assert_string_equal(m.sbatch, "-p 'gpu nodes' -t 5");
    assert_string_equal(m.self, self);
    assert_int_equal(m.shard_command.count, 5);
    assert_string_equal(m.shard_command.items[0], "--fn=rank");
    assert_int_equal(kd_slurm_operands_at(&m.shard_command), 3);
    kd_slurm_manifest_free(&m);

    /* Shard 1 again, alone: a new job for task 1, the others' kept. */
    body = kd_xasprintf("printf '%%s\\0' \"$@\" > '%s'; echo '4300;cluster'", rec);
    fake("sbatch", body);
    free(body);
    o.only_shard = 1;
    kd_slurm_job again;
    kd_slurm_submit_request rerun = {.o = &o, .argc = r.argc, .argv = argv}; /* the manifest's words */
    assert_int_equal(kd_slurm_submit(&rerun, &again, &e), KD_OK);
    assert_string_equal(again.id, "4300");
    n = recorded(rec, w, 64);
    bool array1 = false;
    for (size_t i = 0; i < n; i++)
        array1 |= !strcmp(w[i], "--array=1");
    assert_true(array1);
    assert_string_equal(w[n - 1], "c1.cu");
    assert_string_equal(w[n - 5], "--fn=rank");
    assert_int_equal(kd_slurm_manifest_read(job.dir, &m, &e), KD_OK);
    assert_string_equal(m.jobs[0], "4242_0");
    assert_string_equal(m.jobs[1], "4300_1");
    kd_slurm_manifest_free(&m);

    /* Out of range: refused before sbatch. */
    o.only_shard = 3;
    kd_slurm_job bad;
    assert_int_equal(kd_slurm_submit(&rerun, &bad, &e), KD_FAIL_USAGE);
    assert_int_equal(e.kind, KD_SLURM_ERR_SHARD);
    assert_int_equal(e.count, 3);
    kd_slurm_error_free(&e);
    /* A new rank into the same folder: refused (its shards would mix). */
    o.only_shard = -1;
    assert_int_equal(kd_slurm_submit(&r, &bad, &e), KD_FAIL_USAGE);
    assert_int_equal(e.kind, KD_SLURM_ERR_DIR_USED);
    kd_slurm_error_free(&e);
    /* ... or a folder with a file of a name a rank writes (someone's job.sh) */
    char *theirs = kd_path_join(dir, "theirs");
    char *their_script = kd_path_join(theirs, KD_SLURM_SCRIPT);
    kd_mkdir_p(theirs);
    assert_int_equal(kd_write_file(their_script, "mine\n", 5), 0);
    o.dir = theirs;
    assert_int_equal(kd_slurm_submit(&r, &bad, &e), KD_FAIL_USAGE);
    assert_int_equal(e.kind, KD_SLURM_ERR_DIR_USED);
    kd_slurm_error_free(&e);
    size_t theirs_len;
    char *kept = kd_read_file(their_script, &theirs_len);
    assert_string_equal(kept, "mine\n");
    free(kept);
    free(their_script);
    free(theirs);
    /* A folder with a % has it doubled in the logs' pattern (sbatch's %% is a %); one with a
     * backslash is refused (sbatch would replace no pattern in it). */
    char *pct = kd_path_join(dir, "50%a");
    o.dir = pct;
    fake("sbatch", body = kd_xasprintf("printf '%%s\\0' \"$@\" > '%s'; echo 4400", rec));
    free(body);
    kd_slurm_job pjob;
    assert_int_equal(kd_slurm_submit(&r, &pjob, &e), KD_OK);
    n = recorded(rec, w, 64);
    char *plog = kd_xasprintf("--output=%s/50%%%%a/shard-%%a.log", dir);
    bool escaped = false;
    for (size_t i = 0; i < n; i++)
        escaped |= !strcmp(w[i], plog);
    assert_true(escaped);
    kd_slurm_job_free(&pjob);
    free(plog);
    free(pct);
    char *bs = kd_path_join(dir, "a\\b");
    o.dir = bs;
    assert_int_equal(kd_slurm_submit(&r, &bad, &e), KD_FAIL_USAGE);
    assert_int_equal(e.kind, KD_SLURM_ERR_DIR);
    kd_slurm_error_free(&e);
    free(bs);
    o.dir = shards;
    /* A refused submission says what sbatch said, and leaves no manifest. */
    fake("sbatch", "echo 'sbatch: error: invalid partition specified: gpu nodes' >&2; exit 1");
    char *other = kd_path_join(dir, "other");
    o.dir = other;
    assert_int_equal(kd_slurm_submit(&r, &bad, &e), KD_FAIL_RUNTIME);
    assert_int_equal(e.kind, KD_SLURM_ERR_PROGRAM);
    assert_non_null(strstr(e.output, "invalid partition"));
    kd_slurm_error_free(&e);
    kd_slurm_manifest bad_m;
    assert_int_equal(kd_slurm_manifest_read(other, &bad_m, &e), KD_FAIL_INPUT);
    kd_slurm_error_free(&e);
    free(other);
    /* ... and a folder it made for itself (no --slurm-dir) is removed */
    char *cwd = getcwd(NULL, 0);
    assert_int_equal(chdir(dir), 0);
    o.dir = NULL;
    assert_int_equal(kd_slurm_submit(&r, &bad, &e), KD_FAIL_RUNTIME);
    kd_slurm_error_free(&e);
    kd_spawn_result ls;
    const char *find[] = {"sh", "-c", "ls -d kerndiff-rank-* 2>/dev/null | wc -l", NULL};
    assert_int_equal(kd_spawn(find, NULL, 10000, &ls), 0);
    assert_string_equal(kd_sb_str(&ls.out), "0\n");
    kd_spawn_result_free(&ls);
    assert_int_equal(chdir(cwd), 0);
    free(cwd);
    /* An unclosed quote: refused, nothing run. */
    o.sbatch = "-p 'gpu";
    assert_int_equal(kd_slurm_submit(&r, &bad, &e), KD_FAIL_USAGE);
    assert_int_equal(e.kind, KD_SLURM_ERR_QUOTE);
    kd_slurm_error_free(&e);

    kd_slurm_job_free(&job);
    kd_slurm_job_free(&again);
    free(words.items);
    free(self);
    free(script);
    free(log);
    free(shards);
    free(rec);
}

/* A heat with no candidate, as a shard writes it (rank/heat_json.c). */
static void heat_file(const char *path, unsigned heat, unsigned long long seed)
{
    /* the rank's set: one candidate (by its name, no file), in the heat it falls in */
    char name[] = "cand.cu";
    kd_rank_member member = {.path = name};
    kd_rank_entry entry = {.name = name, .path = name, .gate = KD_RANK_UNTIMED, .stat = {-1, -1, -1}};
    kd_rank_heat h = {.heat = heat, .heats = 3, .seed = seed, .family = 1, .baseline = "base.cu",
                      .members = &member, .nmembers = 1, .entries = &entry,
                      .count = kd_rank_heat_of(seed, name, 3) == heat};
    assert_int_equal(kd_rank_heat_write(&h, path), 0);
}

static void wait_polls_squeue(void **state)
{
    (void)state;
    /* the job in the queue twice, one failed query between, then gone */
    char *count = kd_path_join(dir, "squeue.count");
    char *body = kd_xasprintf("n=$(cat '%s' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '%s'; "
                              "[ $n -eq 2 ] && { echo 'slurm_load_jobs error: Socket timed out' >&2; exit 1; }; "
                              "[ $n -le 3 ] && echo '77_0 RUNNING'; exit 0", count, count);
    fake("squeue", body);
    free(body);
    kd_slurm_error e = {0};
    assert_int_equal(kd_slurm_wait("77", 10, &e), KD_OK);
    size_t len;
    char *n = kd_read_file(count, &len);
    assert_string_equal(n, "4\n");
    free(n);
    /* a controller that never answers: the wait ends, saying what squeue said */
    fake("squeue", "echo 'slurm_load_jobs error: Unable to contact slurm controller' >&2; exit 1");
    assert_int_equal(kd_slurm_wait("77", 10, &e), KD_FAIL_RUNTIME);
    assert_int_equal(e.kind, KD_SLURM_ERR_PROGRAM);
    assert_non_null(strstr(e.output, "Unable to contact"));
    kd_slurm_error_free(&e);
    /* a job the controller forgot has ended */
    fake("squeue", "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1");
    assert_int_equal(kd_slurm_wait("77", 10, &e), KD_OK);
    free(count);
}

static void merge_names_the_shards_without_a_result(void **state)
{
    (void)state;
    /* the folder the previous test made: shards 0, 2 of job 4242, 1 of 4300 */
    char *shards = kd_path_join(dir, "shards");
    fake("sacct", "echo '4242_0|COMPLETED'; echo '4300_1|FAILED'; echo '4242_2|CANCELLED by 0'");
    char *f0 = kd_path_join(shards, "shard-0.json"), *f1 = kd_path_join(shards, "shard-1.json");
    heat_file(f0, 0, 7);
    assert_int_equal(kd_write_file(f1, "{\"heat\": 0,", 11), 0);
    kd_merge m;
    kd_slurm_error e = {0};
    assert_int_equal(kd_merge_read(shards, &m, &e), KD_OK);
    assert_int_equal(m.done, 1);
    assert_int_equal(m.shards[0].state, KD_SHARD_DONE);
    assert_int_equal(m.shards[1].state, KD_SHARD_INVALID);
    assert_string_equal(m.shards[1].scheduler, "FAILED");
    assert_int_equal(m.shards[2].state, KD_SHARD_MISSING);
    assert_string_equal(m.shards[2].scheduler, "CANCELLED");
    const kd_strlist *rr = &m.shards[2].rerun;
    assert_string_equal(rr->items[rr->count - 2], "--only-shard");
    assert_string_equal(rr->items[rr->count - 1], "2");
    kd_strbuf text = {0};
    kd_slurm_merge_problems(&m, &text);
    assert_non_null(strstr(kd_sb_str(&text), "shard 2 of 3 (Slurm task 4242_2: CANCELLED): no result"));
    assert_non_null(strstr(kd_sb_str(&text), "shard 1 of 3 (Slurm task 4300_1: FAILED): its result"));
    /* every path absolute: kerndiff's program and the folder; the shard's words are the manifest's */
    char *self = realpath("/proc/self/exe", NULL), *abs_shards = realpath(shards, NULL);
    char *rerun_line = kd_xasprintf("re-run it alone: %s rank --slurm '-p '\\''gpu nodes'\\'' -t 5' --slurm-dir %s "
                              "--only-shard 2\n", self, abs_shards);
    assert_non_null(strstr(kd_sb_str(&text), rerun_line));
    free(rerun_line);
    free(self);
    free(abs_shards);
    assert_non_null(strstr(kd_sb_str(&text), "--only-shard 2\n"));
    assert_non_null(strstr(kd_sb_str(&text), "1 of 3 shards have a result"));
    assert_non_null(strstr(kd_sb_str(&text), "the task left no log: it never ran"));
    kd_sb_free(&text);
    /* the same as JSON, for an agent */
    char *doc = kd_path_join(dir, "missing.json");
    assert_int_equal(kd_slurm_merge_json(&m, doc), 0);
    json_error_t jerr;
    json_t *root = json_load_file(doc, 0, &jerr);
    assert_non_null(root);
    assert_false(json_is_true(json_object_get(root, "complete")));
    assert_int_equal(json_integer_value(json_object_get(root, "done")), 1);
    json_t *miss = json_object_get(root, "missing");
    assert_int_equal(json_array_size(miss), 2);
    json_t *two = json_array_get(miss, 1);
    assert_int_equal(json_integer_value(json_object_get(two, "shard")), 2);
    assert_string_equal(json_string_value(json_object_get(two, "state")), "missing");
    assert_string_equal(json_string_value(json_object_get(two, "slurm_state")), "CANCELLED");
    assert_string_equal(json_string_value(json_object_get(json_array_get(miss, 0), "state")), "invalid");
    const char *line = json_string_value(json_object_get(two, "rerun_command"));
    assert_non_null(line);
    assert_non_null(strstr(line, "--only-shard 2"));
    assert_int_equal(json_array_size(json_object_get(two, "rerun")), m.shards[2].rerun.count);
    json_decref(root);
    free(doc);
    kd_merge_free(&m);

    /* No accounting: the controller's records, pending tasks as one record of a range. */
    fake("sacct", "echo 'Slurm accounting storage is disabled' >&2; exit 1");
    fake("scontrol", "[ \"$4\" = 4300 ] && echo 'JobId=4301 ArrayJobId=4300 ArrayTaskId=1 JobState=TIMEOUT Reason=x'; "
                     "[ \"$4\" = 4242 ] && echo 'JobId=4242 ArrayJobId=4242 ArrayTaskId=0,2-3%2 JobState=PENDING Reason=y'; "
                     "exit 0");
    char *log2 = kd_path_join(shards, "shard-2.log");
    assert_int_equal(kd_write_file(log2, "", 0), 0);
    assert_int_equal(kd_merge_read(shards, &m, &e), KD_OK);
    assert_string_equal(m.shards[1].scheduler, "TIMEOUT");
    assert_string_equal(m.shards[2].scheduler, "PENDING");
    assert_true(kd_shard_in_queue(&m.shards[2]));
    assert_true(m.shards[2].ran);
    kd_slurm_merge_problems(&m, &text);
    assert_non_null(strstr(kd_sb_str(&text), "shard 2 of 3 (Slurm task 4242_2: PENDING): still in the queue"));
    assert_null(strstr(kd_sb_str(&text), "--only-shard 2\n"));
    kd_sb_free(&text);
    kd_merge_free(&m);
    free(log2);

    /* A heat of another shard in shard 1's place is not taken, nor one of another seed; a
     * right one is, and the heats come in shard order. */
    heat_file(f1, 0, 7);
    assert_int_equal(kd_merge_read(shards, &m, &e), KD_OK);
    assert_int_equal(m.shards[1].state, KD_SHARD_INVALID);
    assert_non_null(strstr(m.shards[1].detail, "heat 0 of 3"));
    assert_null(kd_merge_heats(&m));
    kd_merge_free(&m);
    heat_file(f1, 1, 8);
    assert_int_equal(kd_merge_read(shards, &m, &e), KD_OK);
    assert_int_equal(m.shards[1].state, KD_SHARD_INVALID);
    assert_non_null(strstr(m.shards[1].detail, "seed 8"));
    kd_merge_free(&m);
    heat_file(f1, 1, 7);
    char *f2 = kd_path_join(shards, "shard-2.json");
    heat_file(f2, 2, 7);
    assert_int_equal(kd_merge_read(shards, &m, &e), KD_OK);
    assert_int_equal(m.done, 3);
    kd_slurm_merge_problems(&m, &text);
    assert_int_equal(text.len, 0);
    kd_rank_heat **heats = kd_merge_heats(&m);
    assert_non_null(heats);
    assert_int_equal(heats[2]->heat, 2);
    assert_string_equal(heats[0]->baseline, "base.cu");
    free(heats);
    kd_merge_free(&m);

    /* A folder that is not one. */
    assert_int_equal(kd_merge_read(dir, &m, &e), KD_FAIL_INPUT);
    assert_int_equal(e.kind, KD_SLURM_ERR_MANIFEST);
    kd_slurm_error_free(&e);
    free(f0);
    free(f1);
    free(f2);
    free(shards);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_like_sh_without_expanding),
        cmocka_unit_test(gpus_asked_or_not),
        cmocka_unit_test(submit_through_sbatch_then_rerun_one),
        cmocka_unit_test(wait_polls_squeue),
        cmocka_unit_test(merge_names_the_shards_without_a_result),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
