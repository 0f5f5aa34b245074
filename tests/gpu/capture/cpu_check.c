/* cpu_check.c — the capture mode of the injection library, checked without a GPU.
 *
 * Includes harness/capture_inject.c whole, so that its driver entry points (function
 * pointers) can be replaced by fakes over host memory: a launch is then handed to the CUPTI
 * callback as the driver would, and the raw folder it writes is read back and checked
 * against capture-raw.md. Also checks the kernel-name matching, and (given the built
 * library as argv[1]) that InitializeInjection with KERNDIFF_CAPTURE_DIR set leaves a
 * "not-found" manifest or an "unavailable" note in a process that launches nothing.
 * Run by tests/gpu/capture/cpu-check.sh. Prints "ok ..."/"FAIL ..." lines; exit 1 on a failure. */
#include "../../../harness/capture_inject.c"

#include <sys/stat.h>
#include <sys/wait.h>

static int failures, checks;

#define CHECK(cond, ...)                                                                                   \
    do {                                                                                                   \
        checks++;                                                                                          \
        if (!(cond)) {                                                                                     \
            failures++;                                                                                    \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                    \
            printf(__VA_ARGS__);                                                                           \
            printf("\n");                                                                                  \
        }                                                                                                  \
    } while (0)

/* ---- fakes: "device" memory is host memory; three allocations ------------------------------ */
static float dev_out[64], dev_in[64], dev_aux[8];
static const struct { void *base; size_t size; } fake_allocs[] = {
    {dev_out, sizeof dev_out}, {dev_in, sizeof dev_in}, {dev_aux, sizeof dev_aux}};
static int syncs;

static CUresult CUDAAPI fake_range(CUdeviceptr *base, size_t *size, CUdeviceptr p)
{
    for (size_t i = 0; i < sizeof fake_allocs / sizeof *fake_allocs; i++) {
        uintptr_t b = (uintptr_t)fake_allocs[i].base;
        if (p >= b && p < b + fake_allocs[i].size) {
            *base = b;
            *size = fake_allocs[i].size;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_NOT_FOUND;
}

static CUresult CUDAAPI fake_dtoh(void *dst, CUdeviceptr src, size_t n)
{
    memcpy(dst, (const void *)(uintptr_t)src, n);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_sync(void)
{
    syncs++;
    return CUDA_SUCCESS;
}

/* kernel(float *out, const float *in, int n, struct { float *p; int k; } s, double scale) */
static const size_t layout[][2] = {{0, 8}, {8, 8}, {16, 4}, {24, 16}, {40, 8}};

static CUresult CUDAAPI fake_param(CUfunction f, size_t i, size_t *off, size_t *size)
{
    (void)f;
    if (i >= sizeof layout / sizeof *layout)
        return CUDA_ERROR_INVALID_VALUE;
    *off = layout[i][0];
    *size = layout[i][1];
    return CUDA_SUCCESS;
}

static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

static void check_names(void)
{
    struct { const char *want, *mangled, *demangled; int yes; } cases[] = {
        {"_Z5scalePfif", "_Z5scalePfif", "scale(float*, int, float)", 1},
        {"scale(float*, int, float)", "_Z5scalePfif", "scale(float*, int, float)", 1},
        {"scale", "_Z5scalePfif", "scale(float*, int, float)", 1},
        {"scal", "_Z5scalePfif", "scale(float*, int, float)", 0},
        {"scale2", "_Z5scalePfif", "scale(float*, int, float)", 0},
        {"kernel<float>", "_Z6kernelIfEvPT_i", "void kernel<float>(float*, int)", 1},
        {"void kernel<float>(float*, int)", "_Z6kernelIfEvPT_i", "void kernel<float>(float*, int)", 1},
        {"kernel<float>(float*, int)", "_Z6kernelIfEvPT_i", "void kernel<float>(float*, int)", 1},
        {"kernel", "_Z6kernelIfEvPT_i", "void kernel<float>(float*, int)", 1},
        {"kernel<double>", "_Z6kernelIfEvPT_i", "void kernel<float>(float*, int)", 0},
        {"foo", "_ZN2ns3fooEi", "ns::foo(int)", 1},
        {"ns::foo", "_ZN2ns3fooEi", "ns::foo(int)", 1},
        {"other::foo", "_ZN2ns3fooEi", "ns::foo(int)", 0},
        {"my_kernel", "my_kernel", NULL, 1},
        {"my_kernel_2", "my_kernel", NULL, 0},
        {"", "my_kernel", NULL, 0},
        {"add<1, 2>", "x", "void add<1, 2>(int*)", 1},
        {"add", "x", "void add<1, 2>(int*)", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        CHECK(kd_capture_name_matches(cases[i].want, cases[i].mangled, cases[i].demangled) == cases[i].yes,
              "name '%s' against '%s' should %s", cases[i].want, cases[i].demangled ? cases[i].demangled : cases[i].mangled,
              cases[i].yes ? "match" : "not match");
    /* through __cxa_demangle, as the library does it */
    load_demangler();
    CHECK(demangle != NULL, "__cxa_demangle found (libstdc++.so.6)");
    C.want = "kernel<float>";
    CHECK(matches("_Z6kernelIfEvPT_i"), "the demangler-backed match of kernel<float>");
    CHECK(!matches("_Z6kernelIdEvPT_i"), "kernel<double> is not kernel<float>");
}

/* A launch handed to the callback as the driver would: ENTER, the "kernel" runs, EXIT. */
static void check_launch(const char *dir, int ex)
{
    memset(&C, 0, sizeof C);
    C.dir = (char *)dir;
    C.want = "kernel<float>";
    C.nth = 2;
    C.max_bytes = DEFAULT_MAX_BYTES;
    C.keep_going = 1;
    C.owner = getpid();
    syncs = 0;
    drv.address_range = fake_range;
    drv.dtoh = fake_dtoh;
    drv.ctx_sync = fake_sync;
    drv.func_param = fake_param;
    for (int i = 0; i < 64; i++) {
        dev_in[i] = (float)i;
        dev_out[i] = -1.0f;
    }
    float *out = dev_out, *in = dev_in + 4; /* inside the allocation: offset 16 */
    int n = 60;
    struct { float *p; int k; } s = {dev_aux + 2, 7};
    double scale = 2.0;
    void *args[] = {&out, &in, &n, &s, &scale};
    CUlaunchAttribute attr = {.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION};
    attr.value.clusterDim.x = 2;
    attr.value.clusterDim.y = 1;
    attr.value.clusterDim.z = 1;
    CUlaunchConfig cfg = {.gridDimX = 8, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 128, .blockDimY = 1,
                          .blockDimZ = 1, .sharedMemBytes = 256, .attrs = &attr, .numAttrs = 1};
    CUfunction f = (CUfunction)(uintptr_t)0x1230, other = (CUfunction)(uintptr_t)0x4560,
               same = (CUfunction)(uintptr_t)0x7890; /* the same kernel through another handle */
    cuLaunchKernel_params lk = {.f = f, .gridDimX = 8, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 128,
                                .blockDimY = 1, .blockDimZ = 1, .sharedMemBytes = 256, .kernelParams = args};
    cuLaunchKernelEx_params lx = {.config = &cfg, .f = f, .kernelParams = args};
    cuLaunchKernel_params lo = lk;
    lo.f = other;
    CUresult ok = CUDA_SUCCESS;
    CUpti_CallbackData d = {.callbackSite = CUPTI_API_ENTER, .functionReturnValue = &ok};
    CUpti_CallbackId id = ex ? CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx : CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
    const void *params = ex ? (const void *)&lx : (const void *)&lk;

    /* another kernel, then the first launch of ours (K=2: not this one), each ENTER+EXIT */
    d.symbolName = "_Z5otherv";
    d.functionParams = &lo;
    on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &d);
    d.callbackSite = CUPTI_API_EXIT;
    on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &d);
    d.symbolName = "_Z6kernelIfEvPT_i";
    cuLaunchKernel_params ls = lk;
    ls.f = same;
    d.functionParams = &ls;
    d.callbackSite = CUPTI_API_ENTER;
    on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &d);
    d.callbackSite = CUPTI_API_EXIT;
    on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &d);
    CHECK(C.state == WAITING, "the first launch must not be captured (K=2)");
    d.functionParams = params;
    CHECK(syncs == 0, "no synchronization before the K-th launch (got %d)", syncs);

    /* the second: captured */
    d.callbackSite = CUPTI_API_ENTER;
    on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, id, &d);
    CHECK(C.state == CAPTURING, "the second launch is being captured");
    for (int i = 0; i < 60; i++) /* the "kernel" */
        dev_out[i] = (float)(scale * in[i]);
    dev_aux[2] = 99.0f;
    d.callbackSite = CUPTI_API_EXIT;
    on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, id, &d);
    CHECK(C.state == DONE, "the capture is done after EXIT");
    CHECK(syncs == 2, "synchronized before and after (got %d)", syncs);

    char *m = slurp(dir, "manifest", NULL);
    CHECK(m != NULL, "%s/manifest written", dir);
    if (!m)
        return;
    const char *expect[] = {
        "kerndiff-capture-raw 1\nstatus captured\n", "\nkernel _Z6kernelIfEvPT_i\n", "\nnth 2\n",
        ex ? "\napi cuLaunchKernelEx\n" : "\napi cuLaunchKernel\n", "\ngrid 8 1 1\n", "\nblock 128 1 1\n",
        "\nshared 256\n", ex ? "\ncluster 2 1 1\n" : "\ncluster 0 0 0\n", "\nparams 5 48\n",
        "\nparam 0 0 8\n", "\nparam 3 24 16\n", "\nparam 4 40 8\n",
        "\nalloc 0 ", "\nalloc 1 ", "\nalloc 2 ", "\npointer 0 0 0\n", "\npointer 8 1 16\n",
        "\npointer 24 2 8\n", "\nseen 2 _Z6kernelIfEvPT_i\n", "\nseen 1 _Z5otherv\n", "\nargv ", "\nend\n"};
    for (size_t i = 0; i < sizeof expect / sizeof *expect; i++)
        CHECK(strstr(m, expect[i]), "manifest (%s) holds '%s'", ex ? "Ex" : "plain", expect[i]);
    CHECK(!strstr(m, "\nerror"), "no error line in:\n%s", m);
    CHECK(!strstr(m, "\npointer 16 "), "the int n and padding are no pointer");
    CHECK(!strstr(m, "\npointer 40 "), "the double is no pointer");
    char want_alloc[128];
    snprintf(want_alloc, sizeof want_alloc, "\nalloc 1 0x%llx %zu 0 %zu\n", (unsigned long long)(uintptr_t)dev_in,
             sizeof dev_in, sizeof dev_in);
    CHECK(strstr(m, want_alloc), "alloc line '%s'", want_alloc + 1);
    size_t len = 0;
    char *p = slurp(dir, "params.bin", &len);
    CHECK(p && len == 48 && !memcmp(p, &out, 8) && !memcmp(p + 16, &n, 4) && !memcmp(p + 40, &scale, 8),
          "params.bin holds the arguments at their offsets (%zu bytes)", len);
    free(p);
    char *before = slurp(dir, "alloc-0.before", &len);
    CHECK(before && len == sizeof dev_out && ((float *)before)[3] == -1.0f, "alloc-0.before: the output before");
    free(before);
    char *after = slurp(dir, "alloc-0.after", &len);
    CHECK(after && len == sizeof dev_out && ((float *)after)[3] == 14.0f, "alloc-0.after: the kernel's result");
    free(after);
    after = slurp(dir, "alloc-2.after", &len);
    CHECK(after && len == sizeof dev_aux && ((float *)after)[2] == 99.0f, "alloc-2.after: the struct's pointee");
    free(after);
    struct stat st;
    char path[4096];
    snprintf(path, sizeof path, "%s/alloc-1.before", dir);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "blobs are mode 0600");
    free(m);
}

/* The cap: allocations over KERNDIFF_CAPTURE_MAX_BYTES are refused with a reason. */
static void check_cap(const char *dir)
{
    memset(&C, 0, sizeof C);
    C.dir = (char *)dir;
    C.want = "scale";
    C.nth = 1;
    C.max_bytes = 100; /* dev_out alone is 256 bytes */
    C.keep_going = 1;
    float *out = dev_out, *in = dev_in;
    int n = 1;
    struct { float *p; int k; } s = {NULL, 0};
    double scale = 1.0;
    void *args[] = {&out, &in, &n, &s, &scale};
    cuLaunchKernel_params lk = {.f = (CUfunction)(uintptr_t)0x99, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
                                .blockDimX = 1, .blockDimY = 1, .blockDimZ = 1, .kernelParams = args};
    CUpti_CallbackData d = {.callbackSite = CUPTI_API_ENTER, .symbolName = "_Z5scalePfif", .functionParams = &lk};
    on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, &d);
    char *m = slurp(dir, "manifest", NULL);
    CHECK(m && strstr(m, "\nstatus error\n") && strstr(m, "KERNDIFF_CAPTURE_MAX_BYTES") &&
              strstr(m, "total 512 bytes, over the cap of 100 bytes"),
          "the cap refuses with a reason:\n%s", m ? m : "(no manifest)");
    CHECK(C.state == DONE, "a refused capture is done");
    free(m);
}

/* Another process of the program claimed the capture first: this one leaves the folder alone. */
static void check_claimed(const char *dir)
{
    memset(&C, 0, sizeof C);
    C.dir = (char *)dir;
    C.want = "scale";
    C.nth = 1;
    C.max_bytes = DEFAULT_MAX_BYTES;
    C.keep_going = 1;
    C.owner = getpid();
    char path[4200];
    snprintf(path, sizeof path, "%s/claimed", dir);
    close(open(path, O_WRONLY | O_CREAT, 0600));
    cuLaunchKernel_params lk = {.f = (CUfunction)(uintptr_t)0x55, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
                                .blockDimX = 1, .blockDimY = 1, .blockDimZ = 1};
    CUpti_CallbackData d = {.callbackSite = CUPTI_API_ENTER, .symbolName = "_Z5scalePfif", .functionParams = &lk};
    on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &d);
    CHECK(C.state == DONE && !capturing_here, "a claimed folder: no capture in this process");
    at_exit();
    snprintf(path, sizeof path, "%s/manifest", dir);
    CHECK(access(path, F_OK) != 0, "a claimed folder: no manifest from this process");
}

/* A program that ends without the launch: at exit, status not-found with what was seen. */
static void check_not_found(const char *dir)
{
    memset(&C, 0, sizeof C);
    C.dir = (char *)dir;
    C.want = "absent";
    C.nth = 1;
    C.max_bytes = DEFAULT_MAX_BYTES;
    C.owner = getpid();
    cuLaunchKernel_params lk = {.f = (CUfunction)(uintptr_t)0x77, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
                                .blockDimX = 1, .blockDimY = 1, .blockDimZ = 1};
    CUpti_CallbackData d = {.callbackSite = CUPTI_API_ENTER, .symbolName = "_Z5otherv", .functionParams = &lk};
    for (int i = 0; i < 3; i++)
        on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &d);
    on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, &d);
    /* a runtime launch of the named kernel that reached no driver callback */
    CUpti_CallbackData r = {.callbackSite = CUPTI_API_ENTER, .symbolName = "absent"};
    on_callback(NULL, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &r);
    r.callbackSite = CUPTI_API_EXIT;
    on_callback(NULL, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &r);
    /* and one that did: not counted */
    r.callbackSite = CUPTI_API_ENTER;
    on_callback(NULL, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &r);
    on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &d);
    r.callbackSite = CUPTI_API_EXIT;
    on_callback(NULL, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &r);
    at_exit();
    char *m = slurp(dir, "manifest", NULL);
    CHECK(m && strstr(m, "\nstatus not-found\n") && strstr(m, "\nseen 4 _Z5otherv\n") && strstr(m, "\ngraphs 1\n") &&
              strstr(m, "\nerror 1 runtime launches") && !strstr(m, "\nkernel ") && strstr(m, "\nend\n"),
          "not-found manifest:\n%s", m ? m : "(none)");
    free(m);
}

/* The real library, in a child that launches nothing: InitializeInjection in capture mode. */
static void check_library(const char *lib, const char *dir)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("KERNDIFF_CAPTURE_DIR", dir, 1);
        setenv("KERNDIFF_CAPTURE_FN", "never_launched", 1);
        setenv("KERNDIFF_CAPTURE_NTH", "3", 1);
        void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
        int (*init)(void) = NULL;
        if (h)
            memcpy(&init, &(void *){dlsym(h, "InitializeInjection")}, sizeof init);
        if (!init)
            _exit(7);
        exit(init() == 1 ? 0 : 8);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child with the library exits 0 (status %d)", status);
    char *m = slurp(dir, "manifest", NULL), *u = slurp(dir, "unavailable", NULL);
    if (m) {
        CHECK(strstr(m, "kerndiff-capture-raw 1\nstatus not-found\n") && strstr(m, "\nnth 3\n") &&
                  strstr(m, "\nargv ") && strstr(m, "\nend\n") && !strstr(m, "\nkernel "),
              "a program without the launch leaves a not-found manifest:\n%s", m);
        printf("ok library: not-found manifest (CUPTI subscribed without a GPU)\n");
    } else {
        CHECK(u && strlen(u) > 5, "without a manifest the library says why in 'unavailable'");
        if (u)
            printf("ok library: unavailable here: %s", u);
    }
    free(m);
    free(u);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cpu_check TMPDIR [LIBRARY]\n");
        return 2;
    }
    char d1[4096], d2[4096], d3[4096], d4[4096], d5[4096], d6[4096];
    snprintf(d5, sizeof d5, "%s/notfound", argv[1]);
    mkdir(d5, 0700);
    snprintf(d6, sizeof d6, "%s/claimed", argv[1]);
    mkdir(d6, 0700);
    snprintf(d1, sizeof d1, "%s/plain", argv[1]);
    snprintf(d2, sizeof d2, "%s/ex", argv[1]);
    snprintf(d3, sizeof d3, "%s/cap", argv[1]);
    snprintf(d4, sizeof d4, "%s/lib", argv[1]);
    mkdir(d1, 0700);
    mkdir(d2, 0700);
    mkdir(d3, 0700);
    mkdir(d4, 0700);
    check_names();
    check_launch(d1, 0);
    check_launch(d2, 1);
    check_cap(d3);
    check_not_found(d5);
    check_claimed(d6);
    if (argc > 2)
        check_library(argv[2], d4);
    printf("%s: %d checks, %d failed\n", failures ? "FAIL" : "ok", checks, failures);
    return failures ? 1 : 0;
}
