/* conformance — plays the transcript of docs/PROTOCOL.md against one harness program and
 * checks every reply against the spec. CI runs it on the simulated harness
 * (tests/e2e/run.sh); tests/gpu/run.sh runs it on the CUDA harness with a copy kernel,
 * where the outputs must also be the seeded inputs, bit for bit. Without a cubin (the
 * simulated harness) each child is started with the argument copy=N, which makes the
 * simulated kernel the same copy (harness/sim_harness.c), so the data is checked there too;
 * the CUDA harness ignores its arguments.
 *
 *   conformance HARNESS [CUBIN ENTRY]
 *
 * ENTRY must be `extern "C" __global__ void ENTRY(const float *in, float *out, int n)` with
 * out[i] = in[i] for i < n. Prints one line per check; exit status 0 when all pass. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/dtype.h"
#include "util/fs.h"
#include "wire/child.h"

enum { N = 4096, SCRATCH = 4096, TIMEOUT_MS = 60000 };

static int failures;
static kd_child child;

static void check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) {
        failures++;
        printf("     | last reply: %s\n", child.line ? child.line : "(none)");
    }
}

/* Sends a command and checks the reply: `ok WORD` (or `err KIND` when want_err names it),
 * then every key listed (NULL-terminated) present. */
static void expect(const char *want, const char *const keys[], const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void expect(const char *want, const char *const keys[], const char *fmt, ...)
{
    char cmd[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    kd_reply_status st = kd_child_call(&child, TIMEOUT_MS, "%s", cmd);
    char what[700];
    bool is_err = strncmp(want, "err ", 4) == 0;
    snprintf(what, sizeof what, "%s -> %s", cmd, want);
    bool ok = st == (is_err ? KD_REPLY_ERR : KD_REPLY_OK) && child.words.count >= 2 &&
              strcmp(child.words.word[1], want + (is_err ? 4 : 3)) == 0;
    for (size_t i = 0; ok && keys && keys[i]; i++)
        ok = kd_proto_value(&child.words, 2, keys[i]) != NULL;
    check(ok, what);
}

static const char *value(const char *key)
{
    const char *v = kd_proto_value(&child.words, 2, key);
    return v ? v : "";
}

/* The slot's first input is seeded with seed + golden * 1 (docs/PROTOCOL.md, Inputs). */
static void check_outputs(const char *path, bool data)
{
    size_t len = 0;
    char *bytes = kd_read_file(path, &len);
    check(bytes && len == 2 * N * sizeof(float), "check wrote two runs of every output");
    if (bytes && data && len == 2 * N * sizeof(float)) {
        float *want = malloc(N * sizeof *want);
        kd_fill_random(KD_DT_F32, want, N, 7 + 0x9E3779B97F4A7C15ull * 1);
        check(memcmp(bytes, want, N * sizeof *want) == 0, "seeded run: the copy of input 0 is kd_fill_random(seed_0)");
        check(memcmp(bytes + N * sizeof *want, want, N * sizeof *want) == 0,
              "poisoned run: every element written again");
        free(want);
    }
    free(bytes);
}

/* Starts a fresh child whose (simulated) kernel copies `copy` elements. */
static bool restart(const char *harness, const char *copy)
{
    kd_child_stop(&child);
    const char *harness_argv[] = {harness, copy, NULL};
    kd_strbuf why = {0};
    int rc = kd_child_start(&child, "conformance", harness_argv, &why);
    if (rc != 0)
        check(0, kd_sb_str(&why));
    kd_sb_free(&why);
    return rc == 0;
}

static bool write_floats(const char *path, size_t n, float first, float step)
{
    FILE *f = fopen(path, "wb");
    for (size_t i = 0; f && i < n; i++) {
        float v = first + step * (float)i;
        fwrite(&v, sizeof v, 1, f);
    }
    return f && fclose(f) == 0;
}

/* fill I PATH (docs/PROTOCOL.md): a buffer's seed contents from a file (a captured launch's
 * data), exactly the buffer's size, in every restore; refused for a shared buffer, a
 * scalar, a file of another size, a missing file, after setup. */
static void fill_transcript(const char *harness, const char *cubin, const char *entry, const char *dir)
{
    char in_path[96], inout_path[96], short_path[96], out_path[96];
    snprintf(in_path, sizeof in_path, "%s/captured_in", dir);
    snprintf(inout_path, sizeof inout_path, "%s/captured_inout", dir);
    snprintf(short_path, sizeof short_path, "%s/captured_short", dir);
    snprintf(out_path, sizeof out_path, "%s/fill_outputs", dir);
    check(write_floats(in_path, N, 1.0f, 0.5f) && write_floats(inout_path, N, -3.0f, -0.25f) &&
              write_floats(short_path, N - 1, 0.0f, 1.0f),
          "fill: the captured files are written");
    float *in = calloc(N, sizeof *in), *inout = calloc(N, sizeof *inout);
    for (size_t i = 0; i < N; i++) {
        in[i] = 1.0f + 0.5f * (float)i;
        inout[i] = -3.0f - 0.25f * (float)i;
    }

    /* in and out, two slots: the copy of a filled input, restored for each check */
    if (restart(harness, "copy=all")) {
        expect("ok hello", NULL, "hello 2");
        expect("ok load", NULL, "load cubin %s %s", cubin, entry);
        expect("ok arg", NULL, "arg 0 buffer f32 1 %d in", N);
        expect("ok arg", NULL, "arg 1 buffer f32 1 %d out", N);
        expect("ok arg", NULL, "arg 2 scalar i32 %d", N);
        expect("ok geometry", NULL, "geometry %d 1 1 256 1 1 0", N / 256);
        expect("err load", NULL, "fill 0 %s", short_path);
        expect("err load", NULL, "fill 0 %s/missing", dir);
        expect("err load", NULL, "fill 0 %s", dir); /* a folder */
        expect("err protocol", NULL, "fill 2 %s", in_path);
        expect("err protocol", NULL, "fill 9 %s", in_path);
        expect("err protocol", NULL, "fill 0");
        expect("ok fill", (const char *const[]){"bytes", NULL}, "fill 0 %s", in_path);
        check(atoll(value("bytes")) == N * (long long)sizeof(float), "fill: bytes = the buffer's size");
        expect("ok side", NULL, "side 1");
        expect("ok load", NULL, "load cubin %s %s", cubin, entry);
        expect("ok arg", NULL, "arg 0 buffer f32 1 %d in share=0", N);
        expect("err protocol", NULL, "fill 0 %s", in_path);
        expect("ok arg", NULL, "arg 1 buffer f32 1 %d out", N);
        expect("ok arg", NULL, "arg 2 scalar i32 %d", N);
        expect("ok geometry", NULL, "geometry %d 1 1 256 1 1 0", N / 256);
        expect("ok seed", NULL, "seed 7");
        expect("ok setup", (const char *const[]){"bytes", NULL}, "setup");
        expect("err protocol", NULL, "fill 0 %s", in_path);
        for (int round = 0; round < 2; round++) {
            expect("ok side", NULL, "side %d", round);
            expect("ok check", (const char *const[]){"bytes", "overrun", NULL}, "check %s", out_path);
            check(value("overrun") && strcmp(value("overrun"), "-") == 0,
                  "check: overrun=- for a copy that stays within its buffers (the bounds guard is intact)");
            size_t len = 0;
            char *bytes = kd_read_file(out_path, &len);
            bool sized = bytes && len == 2 * N * sizeof(float);
            check(sized && memcmp(bytes, in, N * sizeof *in) == 0,
                  round ? "fill, slot 1 (shared input): the seeded run copies the file's bytes"
                        : "fill: the seeded run copies the file's bytes, not kd_fill_random's");
            check(sized && memcmp(bytes + N * sizeof *in, in, N * sizeof *in) == 0,
                  round ? "fill, slot 1: the poisoned run too" : "fill: the poisoned run too (restored again)");
            free(bytes);
            expect("ok place", NULL, "place %d", 99 + round);
        }
        expect("ok quit", NULL, "quit");
    }

    /* an inout buffer filled: the half the kernel leaves alone keeps the file's bytes in
       both runs (restored, never poisoned) */
    char copy_half[32];
    snprintf(copy_half, sizeof copy_half, "copy=%d", N / 2);
    if (restart(harness, copy_half)) {
        expect("ok hello", NULL, "hello 2");
        expect("ok load", NULL, "load cubin %s %s", cubin, entry);
        expect("ok arg", NULL, "arg 0 buffer f32 1 %d in", N);
        expect("ok arg", NULL, "arg 1 buffer f32 1 %d inout", N);
        expect("ok arg", NULL, "arg 2 scalar i32 %d", N / 2);
        expect("ok geometry", NULL, "geometry %d 1 1 256 1 1 0", N / 256);
        expect("ok fill", NULL, "fill 1 %s", inout_path);
        expect("ok seed", NULL, "seed 7");
        expect("ok setup", NULL, "setup");
        expect("ok check", NULL, "check %s", out_path);
        size_t len = 0;
        char *bytes = kd_read_file(out_path, &len);
        float *seeded = malloc(N * sizeof *seeded);
        kd_fill_random(KD_DT_F32, seeded, N, 7 + 0x9E3779B97F4A7C15ull * 1);
        const size_t half = N / 2 * sizeof(float), run = N * sizeof(float);
        bool sized = bytes && len == 2 * run;
        for (int r = 0; r < 2; r++) {
            check(sized && memcmp(bytes + r * run, seeded, half) == 0,
                  r ? "fill inout, poisoned run: the written half is the copy of the random input"
                    : "fill inout, seeded run: the written half is the copy of the random input");
            check(sized && memcmp(bytes + r * run + half, (char *)inout + half, half) == 0,
                  r ? "fill inout, poisoned run: the half not written keeps the file's bytes"
                    : "fill inout, seeded run: the half not written keeps the file's bytes");
        }
        free(seeded);
        free(bytes);
        expect("ok quit", NULL, "quit");
    }
    kd_child_stop(&child);
    unlink(in_path);
    unlink(inout_path);
    unlink(short_path);
    unlink(out_path);
    free(in);
    free(inout);
}

/* The 8-byte word at byte `word` of a `param` reply's bytes=HEX. */
static unsigned long long param_word(const char *hex, size_t word)
{
    unsigned long long v = 0;
    if (strlen(hex) < 2 * (word + 8))
        return 0;
    for (int b = 7; b >= 0; b--) {
        char pair[3] = {hex[2 * (word + (size_t)b)], hex[2 * (word + (size_t)b) + 1], '\0'};
        v = v << 8 | strtoul(pair, NULL, 16);
    }
    return v;
}

/* Buffer argument `arg`'s address in a `buffers` reply's list=I:0xADDR:BYTES,... */
static unsigned long long listed_address(const char *list, unsigned arg)
{
    char key[16];
    snprintf(key, sizeof key, "%u:", arg);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, key, strlen(key)) == 0)
            return strtoull(p + strlen(key), NULL, 16);
    return 0;
}

/* A replayed launch (docs/PROTOCOL.md `arg I bytes`, `patch`): the copy kernel's three
 * parameters as the program passed them (two pointer words and n), the two allocations they
 * point into as buffer arguments 3 and 4 after them (the kernel has 3 parameters: it never
 * reads kernelParams[3..]), the input filled with captured bytes; the pointer words follow
 * the buffers through setup and place, and the copy's output is the file's bytes. */
static void replay_transcript(const char *harness, const char *cubin, const char *entry, const char *dir)
{
    char in_path[96], out_path[96];
    snprintf(in_path, sizeof in_path, "%s/replay_in", dir);
    snprintf(out_path, sizeof out_path, "%s/replay_outputs", dir);
    check(write_floats(in_path, N, 2.0f, 0.125f), "replay: the captured input is written");
    if (!restart(harness, "copy=all"))
        return;
    char n_hex[9];
    unsigned n = N;
    snprintf(n_hex, sizeof n_hex, "%02x%02x%02x%02x", n & 0xff, n >> 8 & 0xff, n >> 16 & 0xff, n >> 24 & 0xff);
    expect("ok hello", NULL, "hello 2");
    expect("ok load", NULL, "load cubin %s %s", cubin, entry);
    expect("err protocol", NULL, "arg 0 bytes 123");          /* an odd digit count */
    expect("err protocol", NULL, "arg 0 bytes 00zz");         /* not hex */
    expect("err protocol", NULL, "arg 0 bytes");              /* no bytes */
    expect("ok arg", NULL, "arg 0 bytes 0000000000000000");  /* in (patched below) */
    expect("ok arg", NULL, "arg 1 bytes ffffffffffffffff");  /* out (patched below) */
    expect("ok arg", NULL, "arg 2 bytes %s", n_hex);
    expect("err protocol", NULL, "patch 0 0 3 0");            /* buffer 3 not given yet */
    expect("ok arg", NULL, "arg 3 buffer u8 1 %d in", N * 4);
    expect("ok arg", NULL, "arg 4 buffer u8 1 %d inout", N * 4);
    expect("ok fill", NULL, "fill 3 %s", in_path);
    expect("err protocol", NULL, "patch 0 1 3 0");            /* the word runs past the parameter */
    expect("err protocol", NULL, "patch 2 0 3 0");            /* a 4-byte parameter holds no pointer word */
    expect("err protocol", NULL, "patch 0 0 2 0");            /* argument 2 is no buffer */
    expect("err protocol", NULL, "patch 0 0 3 %d", N * 4 + 1); /* past the end of the buffer */
    expect("err protocol", NULL, "patch 0 0 3");
    expect("ok patch", NULL, "patch 0 0 3 0");
    expect("ok patch", NULL, "patch 1 0 4 %d", N * 4);        /* one past the end: legal, then replaced */
    expect("ok arg", NULL, "arg 1 bytes ffffffffffffffff");   /* a new arg 1 drops its patch */
    expect("ok param", (const char *const[]){"bytes", NULL}, "param 1");
    check(strcmp(value("bytes"), "ffffffffffffffff") == 0, "replay: a new `arg I` drops the patches into it");
    expect("ok patch", NULL, "patch 1 0 4 0");
    expect("err protocol", NULL, "param 3");                  /* a buffer, not bytes */
    expect("ok geometry", NULL, "geometry %d 1 1 256 1 1 0", N / 256);
    expect("ok seed", NULL, "seed 7");
    expect("ok setup", NULL, "setup");
    expect("err protocol", NULL, "patch 0 0 3 0");            /* after setup */
    for (int round = 0; round < 2; round++) {
        expect("ok buffers", (const char *const[]){"list", NULL}, "buffers");
        char *list = strdup(value("list"));
        expect("ok param", NULL, "param 0");
        unsigned long long in_word = param_word(value("bytes"), 0);
        expect("ok param", NULL, "param 1");
        unsigned long long out_word = param_word(value("bytes"), 0);
        check(in_word && in_word == listed_address(list, 3),
              round ? "replay: after place, parameter 0's word is buffer 3's new address"
                    : "replay: parameter 0's word is buffer 3's address");
        check(out_word && out_word == listed_address(list, 4),
              round ? "replay: after place, parameter 1's word is buffer 4's new address"
                    : "replay: parameter 1's word is buffer 4's address");
        free(list);
        expect("ok param", NULL, "param 2");
        check(strcmp(value("bytes"), n_hex) == 0, "replay: a parameter without patches passes as given");
        expect("ok check", (const char *const[]){"bytes", NULL}, "check %s", out_path);
        size_t len = 0;
        char *bytes = kd_read_file(out_path, &len);
        char *want = kd_read_file(in_path, &(size_t){0});
        check(bytes && want && len == 2 * N * sizeof(float) && memcmp(bytes, want, N * sizeof(float)) == 0 &&
                  memcmp(bytes + N * sizeof(float), want, N * sizeof(float)) == 0,
              round ? "replay: after place, the copy through the patched pointers is the captured input, twice"
                    : "replay: the copy through the patched pointers is the captured input, in both check runs");
        free(bytes);
        free(want);
        expect("ok place", NULL, "place %d", 4096 + round);
    }
    expect("ok quit", NULL, "quit");
    kd_child_stop(&child);
    unlink(in_path);
    unlink(out_path);
}

/* An inout buffer (docs/PROTOCOL.md): compared, seeded like an output (k = 1000), never
 * poisoned. The copy kernel given n = N/2 writes the first half of it; the second half must
 * hold its seeded contents after both runs, where an `out` buffer's would hold the poison. */
static void inout_transcript(const char *harness, const char *cubin, const char *entry, const char *path, bool data)
{
    char copy_half[32];
    snprintf(copy_half, sizeof copy_half, "copy=%d", N / 2);
    if (!restart(harness, copy_half))
        return;
    expect("ok hello", NULL, "hello 2");
    expect("ok load", NULL, "load cubin %s %s", cubin, entry);
    expect("ok arg", NULL, "arg 0 buffer f32 1 %d in", N);
    expect("err protocol", NULL, "arg 1 buffer f32 1 %d sideways", N);
    expect("ok arg", NULL, "arg 1 buffer f32 1 %d inout", N);
    expect("ok arg", NULL, "arg 2 scalar i32 %d", N / 2);
    expect("ok geometry", NULL, "geometry %d 1 1 256 1 1 0", N / 256);
    expect("ok seed", NULL, "seed 7");
    expect("ok setup", (const char *const[]){"bytes", NULL}, "setup");
    expect("ok check", (const char *const[]){"bytes", NULL}, "check %s", path);
    check(atoll(value("bytes")) == 2 * N * (long long)sizeof(float), "check: an inout buffer is compared (2 x its bytes)");
    size_t len = 0;
    char *bytes = kd_read_file(path, &len);
    check(bytes && len == 2 * N * sizeof(float), "check wrote two runs of the inout buffer");
    if (bytes && data && len == 2 * N * sizeof(float)) {
        float *in = malloc(N * sizeof *in), *seeded = malloc(N * sizeof *seeded);
        kd_fill_random(KD_DT_F32, in, N, 7 + 0x9E3779B97F4A7C15ull * 1);
        kd_fill_random(KD_DT_F32, seeded, N, 7 + 0x9E3779B97F4A7C15ull * 1001);
        const size_t half = N / 2 * sizeof(float), run = N * sizeof(float);
        for (int r = 0; r < 2; r++) {
            check(memcmp(bytes + r * run, in, half) == 0, r ? "inout, poisoned run: the written half is the copy"
                                                            : "inout, seeded run: the written half is the copy");
            check(memcmp(bytes + r * run + half, (char *)seeded + half, half) == 0,
                  r ? "inout, poisoned run: the half not written keeps its seeded contents (k = 1000), not the poison"
                    : "inout, seeded run: the half not written keeps its seeded contents (k = 1000)");
        }
        free(in);
        free(seeded);
    }
    free(bytes);
    expect("ok quit", NULL, "quit");
    kd_child_stop(&child);
}

/* Counts the comma-separated samples of the last `time` reply, all positive. */
static int positive_samples(void)
{
    const char *samples = value("samples");
    int n = *samples ? 1 : 0;
    for (const char *p = samples; *p; p++)
        n += *p == ',';
    for (const char *p = samples; *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p))
        if (!(atof(p) > 0))
            return -1;
    return n;
}

/* One slot of the copy kernel over n elements (in, out, n), seeded with 7. */
static void describe_copy(const char *cubin, const char *entry, int n, const char *cluster)
{
    expect("ok load", NULL, "load cubin %s %s", cubin, entry);
    expect("ok arg", NULL, "arg 0 buffer f32 1 %d in", n);
    expect("ok arg", NULL, "arg 1 buffer f32 1 %d out", n);
    expect("ok arg", NULL, "arg 2 scalar i32 %d", n);
    expect("ok geometry", NULL, "geometry %d 1 1 256 1 1 0%s", n / 256, cluster);
    expect("ok seed", NULL, "seed 7");
}

/* The seeded run of `check` copied input 0 (kd_fill_random(seed_0) of n elements). */
/* An audit's file: the copy of input 0's seeded contents, rotated left as `audit` rotates
 * argument 0 for SEED (docs/PROTOCOL.md). */
static void check_audit(const char *path, unsigned long long seed, bool data, const char *what)
{
    size_t len = 0;
    char *bytes = kd_read_file(path, &len);
    bool ok = bytes && len == N * sizeof(float);
    if (ok && data) {
        float *run = malloc(N * sizeof *run), *want = malloc(N * sizeof *want);
        kd_fill_random(KD_DT_F32, run, N, 7 + 0x9E3779B97F4A7C15ull * 1);
        size_t r = kd_audit_rotation(seed, 0, N);
        for (size_t i = 0; i < N; i++)
            want[i] = run[(i + r) % N];
        ok = r > 0 && memcmp(bytes, want, N * sizeof *want) == 0;
        free(run);
        free(want);
    }
    check(ok, what);
    free(bytes);
}

static void check_copy(const char *path, int n, const char *what)
{
    size_t len = 0;
    char *bytes = kd_read_file(path, &len);
    float *want = malloc((size_t)n * sizeof *want);
    kd_fill_random(KD_DT_F32, want, (size_t)n, 7 + 0x9E3779B97F4A7C15ull * 1);
    check(bytes && len == 2 * (size_t)n * sizeof(float) && memcmp(bytes, want, (size_t)n * sizeof *want) == 0, what);
    free(want);
    free(bytes);
}

/* mode sustained MS (the GPU kept busy, as triton.testing.do_bench keeps it); reset (one
 * process takes a new launch: a sweep's next point, another size); geometry with a cluster
 * (CX CY CZ, a replayed cluster launch); counters (in-process, or err counters where CUPTI's
 * profiler is missing). The data is checked after each. */
static void sustained_reset_cluster_transcript(const char *harness, const char *cubin, const char *entry,
                                               const char *dir)
{
    char out_path[96];
    snprintf(out_path, sizeof out_path, "%s/reset_outputs", dir);
    if (!restart(harness, "copy=all"))
        return;
    expect("ok hello", NULL, "hello 2");
    expect("err protocol", NULL, "mode sustained 0");
    expect("err protocol", NULL, "mode sustained 60001");
    expect("err protocol", NULL, "mode sustained");
    expect("err protocol", NULL, "mode batched x");
    expect("ok reset", (const char *const[]){"resets", NULL}, "reset"); /* before anything: harmless */
    describe_copy(cubin, entry, N, "");
    expect("err protocol", NULL, "counters gpu__time_duration.sum"); /* before setup */
    expect("err protocol", NULL, "prepare-counters gpu__time_duration.sum"); /* before setup */
    expect("ok setup", NULL, "setup");
    expect("ok warmup", NULL, "warmup 20");
    expect("ok mode", NULL, "mode sustained 20");
    expect("ok time", (const char *const[]){"clock0", "clock1", "reasons", "throttled", "samples", NULL}, "time 4");
    check(positive_samples() == 4, "mode sustained: time 4 gives four positive samples");
    expect("ok place", NULL, "place 7");
    expect("ok time", NULL, "time 2");
    check(positive_samples() == 2, "mode sustained after place: time 2 gives two positive samples");
    expect("ok mode", NULL, "mode single");

    expect("ok reset", (const char *const[]){"resets", NULL}, "reset");
    check(atoi(value("resets")) == 2, "reset: resets counts the process's resets (2)");
    expect("err protocol", NULL, "warmup 10"); /* the buffers went with the reset */
    expect("err protocol", NULL, "side 1");    /* and the slots */
    describe_copy(cubin, entry, N / 2, "");    /* another size, on the same process */
    expect("ok setup", (const char *const[]){"bytes", NULL}, "setup");
    check(atoll(value("bytes")) == N * (long long)sizeof(float), "reset then setup: bytes of the new size only");
    expect("ok check", NULL, "check %s", out_path);
    check_copy(out_path, N / 2, "reset: the new launch's check copies its own input");
    expect("ok warmup", NULL, "warmup 20");
    expect("ok time", NULL, "time 2");
    check(positive_samples() == 2, "reset: the new launch is timed (mode back to single)");

    expect("ok reset", NULL, "reset");
    expect("ok load", NULL, "load cubin %s %s", cubin, entry);
    expect("ok arg", NULL, "arg 0 buffer f32 1 %d in", N);
    expect("ok arg", NULL, "arg 1 buffer f32 1 %d out", N);
    expect("ok arg", NULL, "arg 2 scalar i32 %d", N);
    expect("err protocol", NULL, "geometry %d 1 1 256 1 1 0 3 1 1", N / 256); /* 16 blocks: no clusters of 3 */
    expect("err protocol", NULL, "geometry %d 1 1 256 1 1 0 2 0 1", N / 256); /* a 0 among non-0 */
    expect("err protocol", NULL, "geometry %d 1 1 256 1 1 0 2 1", N / 256);   /* two of three */
    expect("ok geometry", NULL, "geometry %d 1 1 256 1 1 0 0 0 0", N / 256);
    check(!*value("cluster"), "geometry ... 0 0 0: no cluster");
    expect("ok geometry", (const char *const[]){"cluster", NULL}, "geometry %d 1 1 256 1 1 0 2 1 1", N / 256);
    check(strcmp(value("cluster"), "2x1x1") == 0, "geometry ... 2 1 1: cluster=2x1x1");
    expect("ok seed", NULL, "seed 7");
    expect("ok setup", NULL, "setup");
    expect("ok check", NULL, "check %s", out_path);
    check_copy(out_path, N, "geometry in clusters: check copies every element");
    expect("ok warmup", NULL, "warmup 20");
    expect("ok time", NULL, "time 2");
    check(positive_samples() == 2, "geometry in clusters: timed");

    /* prepare-counters: ok with ms=, or the refusal `counters` would give; the counters below
       come after it, as the timing pass has them */
    kd_reply_status st = kd_child_call(&child, TIMEOUT_MS, "prepare-counters gpu__time_duration.sum,dram__bytes_read.sum");
    bool prepared = st == KD_REPLY_OK && child.words.count >= 2 && strcmp(child.words.word[1], "prepare-counters") == 0 &&
                    kd_proto_value(&child.words, 2, "ms") != NULL;
    bool prepare_refused = st == KD_REPLY_ERR && child.words.count >= 2 && strcmp(child.words.word[1], "counters") == 0;
    check(prepared || prepare_refused, "prepare-counters NAME,NAME -> ok prepare-counters ms=, or err counters");
    expect("err protocol", NULL, "prepare-counters");

    /* counters: ok with its keys, or err counters (no CUPTI profiler: an older driver, no
       permission) - never anything else */
    st = kd_child_call(&child, TIMEOUT_MS, "counters gpu__time_duration.sum,dram__bytes_read.sum");
    bool ok = st == KD_REPLY_OK && child.words.count >= 2 && strcmp(child.words.word[1], "counters") == 0;
    for (const char *const *k = (const char *const[]){"ranges", "passes", "replay", "kernels", "r0", NULL}; ok && *k; k++)
        ok = kd_proto_value(&child.words, 2, *k) != NULL;
    bool refused = st == KD_REPLY_ERR && child.words.count >= 2 && strcmp(child.words.word[1], "counters") == 0;
    check(ok || refused, "counters NAME,NAME -> ok counters ranges= passes= replay= kernels= r0=, or err counters");
    if (ok) {
        const char *r0 = value("r0");
        check(atof(r0) > 0 && strchr(r0, ','), "counters: r0 holds both values, the duration > 0");
    }
    expect("err protocol", NULL, "counters");
    expect("ok quit", NULL, "quit");
    unlink(out_path);
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 4) {
        fprintf(stderr, "usage: conformance HARNESS [CUBIN ENTRY]\n");
        return 2;
    }
    /* as in kerndiff (main.c): a child that already quit makes a write fail with EPIPE, not
       kill us (kd_child_stop says quit to a child that may have gone) */
    signal(SIGPIPE, SIG_IGN);
    /* the data is checked on both: a copy kernel on the GPU, copy= on the simulated harness */
    bool data = true, gpu = argc == 4;
    const char *cubin = gpu ? argv[2] : "/nonexistent.cubin", *entry = gpu ? argv[3] : "kd_copy";
    const char *harness_argv[] = {argv[1], "copy=all", NULL};
    kd_strbuf why = {0};
    if (kd_child_start(&child, "conformance", harness_argv, &why) != 0) {
        fprintf(stderr, "conformance: %s\n", kd_sb_str(&why));
        return 1;
    }
    char dir[] = "/tmp/kerndiff-conformance.XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char out_path[64];
    snprintf(out_path, sizeof out_path, "%s/outputs", dir);

    expect("ok hello", (const char *const[]){"version", "device", "sm", "sms", "l2", "driver", "pci", NULL}, "hello 2");
    check(strcmp(value("version"), "2") == 0, "hello: version=2");
    expect("err protocol", NULL, "warmup 10");
    expect("err protocol", NULL, "side 1");
    expect("ok load", NULL, "load cubin %s %s", cubin, entry);
    expect("ok arg", NULL, "arg 0 buffer f32 1 %d in", N);
    expect("ok arg", NULL, "arg 1 buffer f32 1 %d out", N);
    expect("ok arg", NULL, "arg 2 scalar i32 %d", N);
    expect("err protocol", NULL, "arg 64 scalar i32 1");
    expect("err protocol", NULL, "arg 3 buffer f32 1 16 out share=0");
    /* compiler workspace (a Triton cubin's trailing pointer); the copy kernel ignores it */
    expect("ok arg", NULL, "arg 3 scratch %d", SCRATCH);
    expect("err protocol", NULL, "arg 4 scratch");
    expect("ok geometry", NULL, "geometry %d 1 1 256 1 1 0", N / 256);
    expect("ok side", NULL, "side 1");
    expect("ok load", NULL, "load cubin %s %s", cubin, entry);
    expect("err protocol", NULL, "arg 1 buffer f32 1 %d out share=1", N / 2);
    expect("ok arg", NULL, "arg 0 buffer f32 1 %d in share=0", N);
    expect("ok arg", NULL, "arg 1 buffer f32 1 %d out share=1", N);
    expect("ok arg", NULL, "arg 2 scalar i32 %d", N);
    expect("ok arg", NULL, "arg 3 scratch 0");
    expect("ok geometry", NULL, "geometry %d 1 1 256 1 1 0", N / 256);
    expect("ok seed", NULL, "seed 7");
    expect("ok setup", (const char *const[]){"bytes", NULL}, "setup");
    check(atoll(value("bytes")) == 2 * N * (long long)sizeof(float) + SCRATCH,
          "setup: bytes counts each shared buffer once, and the scratch");
    expect("err protocol", NULL, "side 2");
    expect("ok side", NULL, "side 0");
    expect("ok warmup", (const char *const[]){"launches", "median_ns", "stable", "timer", "timer_note", NULL}, "warmup 50");
    expect("ok mode", NULL, "mode single");
    expect("ok time", (const char *const[]){"clock0", "clock1", "reasons", "throttled", "samples", NULL}, "time 3");
    const char *samples = value("samples");
    int commas = 0;
    for (const char *p = samples; *p; p++)
        commas += *p == ',';
    check(commas == 2 && atof(samples) > 0, "time 3: three positive samples");
    expect("err protocol", NULL, "time 0");
    expect("ok place", (const char *const[]){"moved", "pad", NULL}, "place 12345");
    expect("ok side", NULL, "side 1");
    expect("ok mode", NULL, "mode batched 2");
    expect("ok time", (const char *const[]){"samples", NULL}, "time 2");
    expect("ok mode", NULL, "mode single");
    expect("ok side", NULL, "side 0");
    expect("ok check", (const char *const[]){"bytes", NULL}, "check %s", out_path);
    check(atoll(value("bytes")) == 2 * N * (long long)sizeof(float), "check: bytes = 2 x the outputs");
    check_outputs(out_path, data);
    /* audit (issue 39): each slot on the same SEED, on the run's contents rotated by
     * kd_audit_rotation (input 0 is argument 0 in both slots: slot 1 shares it) */
    expect("err protocol", NULL, "audit x %s", out_path);
    /* the device copies the audits rotate from, made before the timing: every buffer of the
       slot (an input and an output of N floats) where the vendor can copy on the device */
    expect("ok audit-prepare", (const char *const[]){"bytes", NULL}, "audit-prepare");
    check(atoll(value("bytes")) == 2 * N * (long long)sizeof(float), "audit-prepare: bytes = the slot's buffers");
    expect("ok audit", (const char *const[]){"bytes", NULL}, "audit 424242 %s", out_path);
    check(atoll(value("bytes")) == N * (long long)sizeof(float), "audit: bytes = the outputs, once");
    check_audit(out_path, 424242, data, "audit, slot 0: the copy of the rotated input");
    expect("ok side", NULL, "side 1");
    expect("ok audit", (const char *const[]){"bytes", NULL}, "audit 424242 %s", out_path);
    check_audit(out_path, 424242, data, "audit, slot 1: the same seed, the same contents");
    expect("ok side", NULL, "side 0");
    expect("ok check", (const char *const[]){"bytes", NULL}, "check %s", out_path);
    check_outputs(out_path, data); /* the check restores the run's own contents */
    expect("ok once", NULL, "once");
    expect("err protocol", NULL, "frobnicate");
    expect("ok quit", NULL, "quit");
    inout_transcript(argv[1], cubin, entry, out_path, data);
    fill_transcript(argv[1], cubin, entry, dir);
    replay_transcript(argv[1], cubin, entry, dir);
    sustained_reset_cluster_transcript(argv[1], cubin, entry, dir);
    unlink(out_path);
    rmdir(dir);
    printf("conformance %s: %s\n", argv[1], failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
