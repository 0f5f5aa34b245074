/* conformance — plays the transcript of docs/PROTOCOL.md against one harness program and
 * checks every reply against the spec. CI runs it on the simulated harness
 * (tests/e2e/run.sh); tests/gpu/run.sh runs it on the CUDA harness with a copy kernel,
 * where the outputs must also be the seeded inputs, bit for bit.
 *
 *   conformance HARNESS [CUBIN ENTRY]
 *
 * ENTRY must be `extern "C" __global__ void ENTRY(const float *in, float *out, int n)` with
 * out[i] = in[i]. Prints one line per check; exit status 0 when all pass. */
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

/* An inout buffer (docs/PROTOCOL.md): compared, seeded like an output (k = 1000), never
 * poisoned. The copy kernel given n = N/2 writes the first half of it; the second half must
 * hold its seeded contents after both runs, where an `out` buffer's would hold the poison. */
static void inout_transcript(const char *harness, const char *cubin, const char *entry, const char *path, bool data)
{
    kd_child_stop(&child);
    const char *harness_argv[] = {harness, NULL};
    kd_strbuf why = {0};
    if (kd_child_start(&child, "conformance", harness_argv, &why) != 0) {
        check(0, kd_sb_str(&why));
        kd_sb_free(&why);
        return;
    }
    kd_sb_free(&why);
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

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 4) {
        fprintf(stderr, "usage: conformance HARNESS [CUBIN ENTRY]\n");
        return 2;
    }
    bool data = argc == 4;
    const char *cubin = data ? argv[2] : "/nonexistent.cubin", *entry = data ? argv[3] : "kd_copy";
    const char *harness_argv[] = {argv[1], NULL};
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
    expect("ok once", NULL, "once");
    expect("err protocol", NULL, "frobnicate");
    expect("ok quit", NULL, "quit");
    inout_transcript(argv[1], cubin, entry, out_path, data);
    unlink(out_path);
    rmdir(dir);
    printf("conformance %s: %s\n", argv[1], failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
