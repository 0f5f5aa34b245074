/* kd-hotspots-record CUBIN KERNEL OUT [PERIOD_LOG2] — records a hot-spot record (docs/HOTSPOTS.md)
 * of tests/gpu/hotspots/vN.cu's kernel `gather(const float *a, float *out, unsigned mask,
 * unsigned stride)` with harness/cupti_pcsampling.c, for tests/gpu/hotspots.sh. PC sampling
 * is turned on before the module is loaded (CUPTI then knows the cubin for certain), one
 * launch warms up unsampled, then LAUNCHES launches are sampled as one range. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_driver.h"
#include "cupti_pcsampling.h"
#include "cupti_sass.h"

enum { ELEMENTS = 1 << 24, THREADS = 1 << 20, BLOCK = 256, STRIDE = 1024, LAUNCHES = 5 };

typedef struct job {
    kd_cuda *cu;
    CUfunction fn;
    CUdeviceptr a, out;
    unsigned mask, stride;
} job;

static CUresult launch_once(job *j)
{
    void *args[] = {&j->a, &j->out, &j->mask, &j->stride};
    CUresult rc = j->cu->LaunchKernel(j->fn, THREADS / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL, args, NULL);
    return rc ? rc : j->cu->CtxSynchronize();
}

static int launch(void *arg)
{
    for (int k = 0; k < LAUNCHES; k++)
        if (launch_once(arg) != 0)
            return 2;
    return 0;
}

static int launch_one(void *arg) { return launch_once(arg) != 0 ? 2 : 0; }

static int fail(kd_cuda *cu, CUresult rc, const char *what)
{
    char text[256];
    fprintf(stderr, "kd-hotspots-record: %s failed: %s\n", what, kd_cuda_describe(cu, rc, text, sizeof text));
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: kd-hotspots-record CUBIN KERNEL OUT [PERIOD_LOG2]\n");
        return 2;
    }
    char why[512];
    kd_cuda cu;
    if (kd_cuda_load(&cu, why, sizeof why) != 0) {
        fprintf(stderr, "kd-hotspots-record: %s\n", why);
        return 1;
    }
    CUdevice dev;
    CUcontext ctx;
    CUresult rc = cu.Init(0);
    if (!rc)
        rc = cu.DeviceGet(&dev, 0);
    if (!rc)
        rc = cu.DevicePrimaryCtxRetain(&ctx, dev);
    if (!rc)
        rc = cu.CtxSetCurrent(ctx);
    if (rc)
        return fail(&cu, rc, "starting CUDA");
    kd_pcs *pcs = kd_pcs_open(ctx, argc == 5 ? (unsigned)atoi(argv[4]) : 0, why, sizeof why);
    if (!pcs) {
        fprintf(stderr, "kd-hotspots-record: %s\n", why);
        return 1;
    }
    CUmodule mod;
    job j = {.cu = &cu, .mask = ELEMENTS - 1, .stride = STRIDE};
    if ((rc = cu.ModuleLoad(&mod, argv[1])) != 0)
        return fail(&cu, rc, "loading the cubin");
    if ((rc = cu.ModuleGetFunction(&j.fn, mod, argv[2])) != 0)
        return fail(&cu, rc, "finding the kernel");
    if ((rc = cu.MemAlloc(&j.a, (size_t)ELEMENTS * 4)) != 0 || (rc = cu.MemAlloc(&j.out, (size_t)THREADS * 4)) != 0)
        return fail(&cu, rc, "allocating the buffers");
    if ((rc = cu.MemsetD32(j.a, 0x3f800000u, ELEMENTS)) != 0)
        return fail(&cu, rc, "filling a");
    if ((rc = launch_once(&j)) != 0)
        return fail(&cu, rc, "the warm-up launch");
    int sampled = kd_pcs_sample(pcs, launch, &j, why, sizeof why);
    if (sampled != 0) {
        fprintf(stderr, "kd-hotspots-record: %s\n", sampled == 2 ? "a sampled launch failed" : why);
        return 1;
    }
    FILE *out = fopen(argv[3], "w");
    if (!out) {
        perror(argv[3]);
        return 1;
    }
    kd_pcs_totals t;
    if (kd_pcs_finish(pcs, argv[2], out, &t, why, sizeof why) != 0) {
        fprintf(stderr, "kd-hotspots-record: %s\n", why);
        return 1;
    }
    /* Then how often each instruction ran, in one more launch (the exec lines). */
    size_t executed = 0;
    if (kd_sass_count(&(kd_sass_request){ctx, 0, launch_one, &j}, out, &executed, why, sizeof why) != 0)
        fprintf(out, "# SASS metrics: %s\n", why);
    if (fclose(out) != 0) {
        perror(argv[3]);
        return 1;
    }
    printf("recorded %s: %zu PCs, %llu samples, %llu dropped; %zu instructions counted%s%s\n", argv[2], t.pcs,
           t.samples, t.dropped, executed, executed ? "" : ": ", executed ? "" : why);
    return t.samples ? 0 : 1;
}
