/* bench/capture_replay_tool.c — the capture file's own steps, timed by bench/capture_replay.sh
 * (no GPU): writing a raw capture folder as the injection library leaves one, packing it
 * (kd_capture_pack), and extracting every blob back (kd_capture_extract, what --launch does).
 *
 *   capture_replay_tool raw DIR MIB    4 allocations of MIB MiB of float data: a = sin(i/64),
 *                                      b = 0, c = sin(i/7) + 1, out = 0 before, a after
 *   capture_replay_tool pack DIR FILE
 *   capture_replay_tool extract FILE DIR
 * Prints "seconds S" (the step's wall time, CLOCK_MONOTONIC) on stdout. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/file.h"
#include "util/diag.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* kind 0: zeros, 1: sin(i/64), 2: sin(i/7) + 1 */
static int write_floats(const char *dir, const char *name, uint64_t n, int kind)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    enum { CHUNK = 1 << 16 };
    static float buf[CHUNK];
    for (uint64_t i = 0; i < n; i += CHUNK) {
        size_t m = n - i < CHUNK ? (size_t)(n - i) : CHUNK;
        for (size_t k = 0; k < m; k++)
            buf[k] = kind == 0 ? 0.0f : kind == 1 ? sinf((float)(i + k) / 64.0f) : sinf((float)(i + k) / 7.0f) + 1.0f;
        if (fwrite(buf, sizeof *buf, m, f) != m) {
            fclose(f);
            return -1;
        }
    }
    return fclose(f);
}

static int raw(const char *dir, uint64_t mib)
{
    uint64_t bytes = mib << 20, n = bytes / 4;
    const int before[4] = {1, 0, 2, 0};
    for (int a = 0; a < 4; a++) {
        char name[32];
        snprintf(name, sizeof name, "alloc-%d.before", a);
        if (write_floats(dir, name, n, before[a]) != 0)
            return -1;
    }
    if (write_floats(dir, "alloc-3.after", n, 1) != 0) /* the program's kernel copied a into out */
        return -1;
    /* scale(const float *a, const float *b, const float *c, float *out, int n): 4 pointers, n */
    unsigned char params[40] = {0};
    uint64_t base[4] = {0x7f0000000000ull, 0x7f4000000000ull, 0x7f8000000000ull, 0x7fc000000000ull};
    for (int a = 0; a < 4; a++)
        memcpy(params + 8 * a, &base[a], 8);
    uint32_t n32 = (uint32_t)n;
    memcpy(params + 32, &n32, 4);
    char path[4096];
    snprintf(path, sizeof path, "%s/params.bin", dir);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(params, 1, 36, f) != 36 || fclose(f) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/manifest", dir);
    f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "kerndiff-capture-raw 1\nstatus captured\npid 1\ntime 1764086400\nargv ./bench\ngpu bench (no GPU)\n"
               "sm 9 0\nkernel _Z5scalePKfS0_S0_Pfi\nnth 1\napi cuLaunchKernel\ngrid %" PRIu64 " 1 1\nblock 256 1 1\n"
               "shared 0\ncluster 0 0 0\nstream 0x0\nparams 5 36\nparam 0 0 8\nparam 1 8 8\nparam 2 16 8\n"
               "param 3 24 8\nparam 4 32 4\n",
            (n + 255) / 256);
    for (int a = 0; a < 4; a++)
        fprintf(f, "alloc %d 0x%" PRIx64 " %" PRIu64 " 0 %" PRIu64 "\n", a, base[a], bytes, bytes);
    for (int a = 0; a < 4; a++)
        fprintf(f, "pointer %d %d 0\n", 8 * a, a);
    fprintf(f, "seen 1 _Z5scalePKfS0_S0_Pfi\nend\n");
    return fclose(f);
}

static int extract(const char *file, const char *dir)
{
    kd_capture cap;
    kd_diag err = {0};
    if (kd_capture_open(file, &cap, &err) != 0) {
        kd_diag_say(&err);
        return -1;
    }
    int rc = 0;
    for (size_t a = 0; a < cap.nallocs && rc == 0; a++)
        for (int w = 0; w < 2 && rc == 0; w++) {
            if (!cap.allocs[a].blob[w].present)
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/a%zu.%s", dir, a, w ? "after" : "before");
            rc = kd_capture_extract(&cap, a, (kd_capture_which)w, path, &err);
            if (rc != 0)
                kd_diag_say(&err);
        }
    kd_capture_free(&cap);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s raw DIR MIB | pack DIR FILE | extract FILE DIR\n", argv[0]);
        return 2;
    }
    double t0 = now();
    int rc = -1;
    if (strcmp(argv[1], "raw") == 0) {
        rc = raw(argv[2], strtoull(argv[3], NULL, 10));
    } else if (strcmp(argv[1], "pack") == 0) {
        kd_diag err = {0};
        rc = kd_capture_pack(argv[2], argv[3], &err);
        if (rc != 0)
            kd_diag_say(&err);
    } else if (strcmp(argv[1], "extract") == 0) {
        rc = extract(argv[2], argv[3]);
    }
    if (rc != 0) {
        fprintf(stderr, "%s %s failed\n", argv[0], argv[1]);
        return 1;
    }
    printf("seconds %.3f\n", now() - t0);
    return 0;
}
