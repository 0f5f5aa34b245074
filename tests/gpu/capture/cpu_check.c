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

/* The named kernel's entry of an exec (every kernel node is listed, for the `seen` table). */
static const graph_entry *wanted_entry(const graph_exec *x)
{
    for (size_t i = 0; i < x->nentries; i++)
        if (x->entries[i].wanted)
            return &x->entries[i];
    return NULL;
}

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

/* ---- CUDA graphs: a fake driver graph over host memory ------------------------------------ */
enum { FG_NODES = 256, FG_EDGES = 1024, FG_KERNEL = 0, FG_COPY = 1, FG_CHILD = 2, FG_COND = 3, EXEC_BASE = 1000 };
static struct fnode {
    int graph, type, origin; /* origin: the node this one was cloned from (index + 1), or 0 */
    CUfunction f;
    unsigned grid;
    unsigned char argbuf[48];
    void *args[5];
    void *dst;
    const void *src;
    size_t n;
} fnodes[FG_NODES];
static struct { int from, to, graph; } fedges[FG_EDGES];
static int nfnodes, nfedges, nfgraphs, fail_dev_alloc, dev_allocs, host_allocs, launched_graphs;

#define NODE(i) ((CUgraphNode)(uintptr_t)((i) + 1))
#define NODE_INDEX(h) ((int)(uintptr_t)(h) - 1)
#define GRAPH(g) ((CUgraph)(uintptr_t)(g))
#define GRAPH_ID(h) ((int)(uintptr_t)(h))

static void fake_point_args(struct fnode *k)
{
    for (int i = 0; i < 5; i++)
        k->args[i] = k->argbuf + layout[i][0];
}

static int fake_kernel_node(int graph, CUfunction f, void **args)
{
    struct fnode *k = &fnodes[nfnodes];
    *k = (struct fnode){.graph = graph, .type = FG_KERNEL, .f = f, .grid = 8};
    for (int i = 0; i < 5; i++)
        memcpy(k->argbuf + layout[i][0], args[i], layout[i][1]);
    fake_point_args(k);
    return nfnodes++;
}

static int fake_copy_node(int graph, void *dst, const void *src, size_t n)
{
    fnodes[nfnodes] = (struct fnode){.graph = graph, .type = FG_COPY, .dst = dst, .src = src, .n = n};
    return nfnodes++;
}

static void fake_edge(int graph, int from, int to)
{
    fedges[nfedges].graph = graph;
    fedges[nfedges].from = from;
    fedges[nfedges++].to = to;
}

static CUresult CUDAAPI fake_func_name(const char **name, CUfunction f)
{
    *name = f == (CUfunction)(uintptr_t)0x1230 ? "_Z6kernelIfEvPT_i" : "_Z5otherv";
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_graph_nodes(CUgraph g, CUgraphNode *out, size_t *n)
{
    size_t k = 0;
    for (int i = 0; i < nfnodes; i++)
        if (fnodes[i].graph == GRAPH_ID(g)) {
            if (out && k < *n)
                out[k] = NODE(i);
            k++;
        }
    *n = k;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_node_type(CUgraphNode node, CUgraphNodeType *type)
{
    static const CUgraphNodeType types[] = {CU_GRAPH_NODE_TYPE_KERNEL, CU_GRAPH_NODE_TYPE_MEMCPY,
                                             CU_GRAPH_NODE_TYPE_GRAPH, CU_GRAPH_NODE_TYPE_CONDITIONAL};
    *type = types[fnodes[NODE_INDEX(node)].type];
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_kernel_node_params(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS *p)
{
    struct fnode *k = &fnodes[NODE_INDEX(node)];
    if (k->type != FG_KERNEL)
        return CUDA_ERROR_INVALID_VALUE;
    *p = (CUDA_KERNEL_NODE_PARAMS){.func = k->f, .gridDimX = k->grid, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 128,
                                   .blockDimY = 1, .blockDimZ = 1, .sharedMemBytes = 256, .kernelParams = k->args};
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_no_attr(CUgraphNode node, CUkernelNodeAttrID attr, CUkernelNodeAttrValue *v)
{
    (void)node, (void)attr, (void)v;
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* A child graph node: its graph's id is kept in `n`. */
static CUresult CUDAAPI fake_child(CUgraphNode node, CUgraph *g)
{
    if (fnodes[NODE_INDEX(node)].type != FG_CHILD)
        return CUDA_ERROR_INVALID_VALUE;
    *g = GRAPH(fnodes[NODE_INDEX(node)].n);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_clone(CUgraph *out, CUgraph g)
{
    int id = ++nfgraphs, first = nfnodes, n = nfnodes, ne = nfedges;
    for (int i = 0; i < n; i++)
        if (fnodes[i].graph == GRAPH_ID(g)) {
            fnodes[nfnodes] = fnodes[i];
            fnodes[nfnodes].graph = id;
            fnodes[nfnodes].origin = i + 1;
            if (fnodes[nfnodes].type == FG_KERNEL)
                fake_point_args(&fnodes[nfnodes]);
            nfnodes++;
        }
    for (int e = 0; e < ne; e++)
        if (fedges[e].graph == GRAPH_ID(g)) {
            int from = -1, to = -1;
            for (int i = first; i < nfnodes; i++) {
                if (fnodes[i].origin == fedges[e].from + 1)
                    from = i;
                if (fnodes[i].origin == fedges[e].to + 1)
                    to = i;
            }
            fake_edge(id, from, to);
        }
    *out = GRAPH(id);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_find_in_clone(CUgraphNode *out, CUgraphNode orig, CUgraph clone)
{
    for (int i = 0; i < nfnodes; i++)
        if (fnodes[i].graph == GRAPH_ID(clone) && fnodes[i].origin == NODE_INDEX(orig) + 1) {
            *out = NODE(i);
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_NOT_FOUND;
}

static CUresult CUDAAPI fake_edges(CUgraph g, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *data, size_t *n)
{
    size_t k = 0;
    for (int e = 0; e < nfedges; e++)
        if (fedges[e].graph == GRAPH_ID(g)) {
            if (from && k < *n) {
                from[k] = NODE(fedges[e].from);
                to[k] = NODE(fedges[e].to);
                if (data)
                    memset(&data[k], 0, sizeof *data);
            }
            k++;
        }
    *n = k;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_add_deps(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                                      const CUgraphEdgeData *data, size_t n)
{
    (void)data;
    for (size_t i = 0; i < n; i++)
        fake_edge(GRAPH_ID(g), NODE_INDEX(from[i]), NODE_INDEX(to[i]));
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_add_memcpy(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                        const CUDA_MEMCPY3D *cp, CUcontext ctx)
{
    (void)ctx;
    if (cp->srcMemoryType != CU_MEMORYTYPE_DEVICE || cp->Height != 1 || cp->Depth != 1)
        return CUDA_ERROR_INVALID_VALUE;
    void *dst = cp->dstMemoryType == CU_MEMORYTYPE_DEVICE ? (void *)(uintptr_t)cp->dstDevice : cp->dstHost;
    int id = fake_copy_node(GRAPH_ID(g), dst, (const void *)(uintptr_t)cp->srcDevice, cp->WidthInBytes);
    for (size_t i = 0; i < ndeps; i++)
        fake_edge(GRAPH_ID(g), NODE_INDEX(deps[i]), id);
    *out = NODE(id);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_instantiate(CUgraphExec *e, CUgraph g, unsigned long long flags)
{
    (void)flags;
    *e = (CUgraphExec)(uintptr_t)(GRAPH_ID(g) + EXEC_BASE);
    return CUDA_SUCCESS;
}

/* The graph's nodes in a topological order: among the ready ones the highest index first (the
 * copy nodes the library adds come last, so a node beside the captured one that were not made
 * to finish before the "before" copies would run between them and the node), or with
 * `lowest_first` the lowest (so a dependent of the node that were not made to wait for the
 * "after" copies would run before them). */
static int lowest_first;
static CUresult CUDAAPI fake_launch(CUgraphExec e, CUstream s)
{
    (void)s;
    int g = (int)(uintptr_t)e - EXEC_BASE, done[FG_NODES] = {0}, progress = 1;
    launched_graphs++;
    while (progress) {
        progress = 0;
        for (int o = 0; o < nfnodes && !progress; o++) {
            int i = lowest_first ? o : nfnodes - 1 - o;
            if (fnodes[i].graph != g || done[i])
                continue;
            int ready = 1;
            for (int k = 0; k < nfedges; k++)
                if (fedges[k].graph == g && fedges[k].to == i && !done[fedges[k].from])
                    ready = 0;
            if (!ready)
                continue;
            struct fnode *x = &fnodes[i];
            if (x->type == FG_COPY) {
                memcpy(x->dst, x->src, x->n);
            } else if (x->f == (CUfunction)(uintptr_t)0x1230) { /* out[i] = scale * in[i]; s.p[0] = 99 */
                float *out, *in, *sp;
                int n;
                double scale;
                memcpy(&out, x->argbuf, 8);
                memcpy(&in, x->argbuf + 8, 8);
                memcpy(&n, x->argbuf + 16, 4);
                memcpy(&scale, x->argbuf + 40, 8);
                memcpy(&sp, x->argbuf + 24, 8);
                for (int j = 0; j < n; j++)
                    out[j] = (float)(scale * in[j]);
                sp[0] = 99.0f;
            }
            done[i] = progress = 1;
        }
    }
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_exec_destroy(CUgraphExec e)
{
    (void)e;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_graph_destroy(CUgraph g)
{
    for (int i = 0; i < nfnodes; i++)
        if (fnodes[i].graph == GRAPH_ID(g))
            fnodes[i].graph = -1;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_mem_alloc(CUdeviceptr *p, size_t n)
{
    if (fail_dev_alloc)
        return CUDA_ERROR_OUT_OF_MEMORY;
    dev_allocs++;
    *p = (CUdeviceptr)(uintptr_t)malloc(n);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_mem_free(CUdeviceptr p)
{
    free((void *)(uintptr_t)p);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_host_alloc(void **p, size_t n)
{
    host_allocs++;
    *p = malloc(n);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_host_free(void *p)
{
    free(p);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_ctx_current(CUcontext *c)
{
    *c = (CUcontext)(uintptr_t)1;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_capturing(CUstream s, CUstreamCaptureStatus *status)
{
    *status = s == (CUstream)(uintptr_t)0x5 ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}

static void fake_driver(const char *dir, const char *want, uint64_t nth)
{
    memset(&C, 0, sizeof C);
    C.dir = (char *)dir;
    C.want = (char *)want;
    C.nth = nth;
    C.max_bytes = DEFAULT_MAX_BYTES;
    C.keep_going = 1;
    C.owner = getpid();
    drv.address_range = fake_range;
    drv.dtoh = fake_dtoh;
    drv.ctx_sync = fake_sync;
    drv.func_param = fake_param;
    drv.func_name = fake_func_name;
    drv.stream_capturing = fake_capturing;
    drv.graph_nodes = fake_graph_nodes;
    drv.node_type = fake_node_type;
    drv.kernel_node_params = fake_kernel_node_params;
    drv.kernel_node_attr = fake_no_attr;
    drv.child_graph = fake_child;
    drv.graph_clone = fake_clone;
    drv.find_in_clone = fake_find_in_clone;
    drv.graph_edges = fake_edges;
    drv.add_deps = fake_add_deps;
    drv.add_memcpy = fake_add_memcpy;
    drv.instantiate = fake_instantiate;
    drv.graph_launch = fake_launch;
    drv.exec_destroy = fake_exec_destroy;
    drv.graph_destroy = fake_graph_destroy;
    drv.mem_alloc = fake_mem_alloc;
    drv.mem_free = fake_mem_free;
    drv.host_alloc = fake_host_alloc;
    drv.host_free = fake_host_free;
    drv.ctx_current = fake_ctx_current;
    nfnodes = nfedges = nfgraphs = dev_allocs = host_allocs = launched_graphs = 0;
}

static float upload[64], overwrite[64], five[2] = {5.0f, 5.0f};

/* The user's graph (id 1): upload -> kernel -> overwrite, an unrelated copy beside them into
 * dev_aux[0..1], and another kernel after the overwrite. */
static CUgraph user_graph(void)
{
    float *out = dev_out, *in = dev_in + 4;
    int n = 60;
    struct { float *p; int k; } s = {dev_aux + 2, 7};
    double scale = 2.0;
    void *args[] = {&out, &in, &n, &s, &scale};
    for (int i = 0; i < 64; i++) {
        dev_in[i] = 0.0f; /* what the buffer holds before the graph */
        dev_out[i] = -1.0f;
        upload[i] = (float)(i + 100);
        overwrite[i] = -7.0f;
    }
    memset(dev_aux, 0, sizeof dev_aux);
    nfgraphs = 1;
    int k = fake_kernel_node(1, (CUfunction)(uintptr_t)0x1230, args);
    int up = fake_copy_node(1, dev_in, upload, sizeof dev_in);
    int ow = fake_copy_node(1, dev_in, overwrite, sizeof dev_in);
    int beside = fake_copy_node(1, dev_aux, five, sizeof five); /* after the upload, beside the kernel */
    int other = fake_kernel_node(1, (CUfunction)(uintptr_t)0x4560, args);
    fake_edge(1, up, beside);
    fake_edge(1, up, k);
    fake_edge(1, k, ow);
    fake_edge(1, ow, other);
    return GRAPH(1);
}

static void driver_call(CUpti_CallbackId id, int site, const void *params, const char *name)
{
    CUresult ok = CUDA_SUCCESS;
    CUpti_CallbackData d = {.callbackSite = site, .functionParams = params, .functionReturnValue = &ok,
                            .functionName = name};
    on_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, id, &d);
}

/* The program's cuGraphLaunch: the callback's ENTER, then (the driver) the user's graph runs. */
static void program_graph_launch(CUgraphExec e)
{
    cuGraphLaunch_params lp = {.hGraph = e, .hStream = NULL};
    driver_call(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_API_ENTER, &lp, "cuGraphLaunch");
    fake_launch(e, NULL);
    driver_call(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_API_EXIT, &lp, "cuGraphLaunch");
}

static CUgraphExec program_instantiate(CUgraph g, unsigned long long flags)
{
    CUgraphExec e = NULL;
    fake_instantiate(&e, g, flags);
    cuGraphInstantiateWithFlags_params ip = {.phGraphExec = &e, .hGraph = g, .flags = flags};
    driver_call(CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags, CUPTI_API_EXIT, &ip, "cuGraphInstantiateWithFlags");
    return e;
}

/* A launch of the named kernel straight into a stream being captured (0x5: runs nothing, not
 * counted), and one outside a graph (counted). */
static void direct_launches(void)
{
    float *out = dev_out, *in = dev_in;
    int n = 0;
    struct { float *p; int k; } s = {NULL, 0};
    double scale = 1.0;
    void *args[] = {&out, &in, &n, &s, &scale};
    cuLaunchKernel_params lk = {.f = (CUfunction)(uintptr_t)0x1230, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
                                .blockDimX = 1, .blockDimY = 1, .blockDimZ = 1, .kernelParams = args,
                                .hStream = (CUstream)(uintptr_t)0x5};
    for (int i = 0; i < 2; i++) {
        driver_call(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, &lk, "cuLaunchKernel");
        driver_call(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, &lk, "cuLaunchKernel");
        lk.hStream = NULL;
    }
}

static int blob_floats(const char *dir, const char *name, const float *want, size_t count, size_t *len)
{
    char *b = slurp(dir, name, len);
    int same = b && *len == count * sizeof(float) && memcmp(b, want, *len) == 0;
    free(b);
    return same;
}

/* Capture of the graph's kernel node at its second run (K = 3: a direct launch, then one node
 * per graph run): before/after are taken around the node, not the graph. */
static void check_graph(const char *dir, int host_stage)
{
    fake_driver(dir, "kernel<float>", 3);
    fail_dev_alloc = host_stage;
    lowest_first = host_stage;
    CUgraph g = user_graph();
    direct_launches();
    CHECK(C.matched == 1, "a launch into a capturing stream is not counted, one outside is (matched %llu)",
          (unsigned long long)C.matched);
    CUgraphExec e = program_instantiate(g, 0);
    CHECK(C.nexecs == 1 && C.execs[0].nwanted == 1 && C.execs[0].snapshot, "the exec is remembered with one node");
    program_graph_launch(e); /* launch 2 of the kernel: not captured */
    CHECK(C.state == WAITING && C.matched == 2, "the first graph run is launch 2 (matched %llu)",
          (unsigned long long)C.matched);
    /* the program sets the input back to zeros and the output to -1 between its graph runs */
    for (int i = 0; i < 64; i++) {
        dev_in[i] = 0.0f;
        dev_out[i] = -1.0f;
    }
    memset(dev_aux, 0, sizeof dev_aux);
    int graphs_before = launched_graphs;
    program_graph_launch(e);
    CHECK(C.state == DONE, "the second graph run's node is captured (K=3)");
    CHECK(launched_graphs == graphs_before + 2, "the rewired copy and the program's own graph ran (%d)",
          launched_graphs - graphs_before);
    CHECK(host_stage ? host_allocs == 6 && dev_allocs == 0 : dev_allocs == 6 && host_allocs == 0,
          "staging in %s memory (device %d, host %d)", host_stage ? "pinned host" : "device", dev_allocs, host_allocs);
    char *m = slurp(dir, "manifest", NULL);
    CHECK(m != NULL, "%s/manifest written", dir);
    if (!m)
        return;
    const char *expect[] = {"\nstatus captured\n", "\nkernel _Z6kernelIfEvPT_i\n", "\nnth 3\n", "\napi cuGraphLaunch\n",
                            "\ngrid 8 1 1\n", "\nblock 128 1 1\n", "\nshared 256\n", "\ncluster 0 0 0\n",
                            "\nparams 5 48\n", "\npointer 0 0 0\n", "\npointer 8 1 16\n", "\npointer 24 2 8\n",
                            "\nseen 3 _Z6kernelIfEvPT_i\n", "\ngraphs 2\n", "\nend\n"};
    for (size_t i = 0; i < sizeof expect / sizeof *expect; i++)
        CHECK(strstr(m, expect[i]), "graph manifest holds '%s':\n%s", expect[i], m);
    CHECK(!strstr(m, "\nerror"), "no error line in:\n%s", m);
    free(m);
    float minus1[64], doubled[64];
    for (int i = 0; i < 64; i++) {
        minus1[i] = -1.0f;
        doubled[i] = i < 60 ? (float)(2.0 * upload[i + 4]) : -1.0f;
    }
    size_t len = 0;
    CHECK(blob_floats(dir, "alloc-1.before", upload, 64, &len),
          "alloc-1.before = what the upload node wrote (not the zeros before the graph) (%zu bytes)", len);
    CHECK(blob_floats(dir, "alloc-1.after", upload, 64, &len),
          "alloc-1.after = the upload still (not the overwrite node's -7) (%zu bytes)", len);
    CHECK(blob_floats(dir, "alloc-0.before", minus1, 64, &len), "alloc-0.before = the output before the node");
    CHECK(blob_floats(dir, "alloc-0.after", doubled, 64, &len), "alloc-0.after = the node's result");
    char *aux = slurp(dir, "alloc-2.before", &len);
    CHECK(aux && len == sizeof dev_aux && ((float *)aux)[0] == 5.0f && ((float *)aux)[2] == 0.0f,
          "alloc-2.before: the copy beside the node ran before it (5), the node not yet (0)");
    free(aux);
    aux = slurp(dir, "alloc-2.after", &len);
    CHECK(aux && len == sizeof dev_aux && ((float *)aux)[2] == 99.0f, "alloc-2.after: the node's write to the struct's pointee");
    free(aux);
    CHECK(dev_in[0] == -7.0f, "the program's own graph ran after the capture (KERNDIFF_CAPTURE_CONTINUE)");
    fail_dev_alloc = 0;
}

/* Cases refused with a reason: an exec changed after instantiation (but one then updated from a
 * graph is captured); a graph instantiated for device-side launch; the node inside a child graph
 * (counted, refused); a launch after a graph with a conditional node ran. */
static void check_graph_refused(const char *dir_changed, const char *dir_device, const char *dir_update)
{
    char sub[4200];
    /* the user's graph as the child of an outer graph (id 2): K=2 is its kernel's second run */
    snprintf(sub, sizeof sub, "%s/child", dir_update);
    mkdir(sub, 0700);
    fake_driver(sub, "kernel<float>", 2);
    user_graph();
    nfgraphs = 2;
    fnodes[nfnodes] = (struct fnode){.graph = 2, .type = FG_CHILD, .n = 1};
    nfnodes++;
    CUgraphExec ce = program_instantiate(GRAPH(2), 0);
    CHECK(C.nexecs == 1 && C.execs[0].nwanted == 1 && !wanted_entry(&C.execs[0])->node,
          "a kernel inside a child graph is listed as not capturable");
    program_graph_launch(ce);
    CHECK(C.state == WAITING && C.matched == 1, "the child graph's kernel node counts as a launch");
    program_graph_launch(ce);
    char *cm = slurp(sub, "manifest", NULL);
    CHECK(cm && strstr(cm, "\nstatus error\n") && strstr(cm, "inside a child graph node") && strstr(cm, "launch 2 of kernel"),
          "the K-th launch inside a child graph is refused, naming it:\n%s", cm ? cm : "(no manifest)");
    free(cm);
    /* a graph with a conditional node ran: the next K-th launch, even a direct one, is refused */
    snprintf(sub, sizeof sub, "%s/conditional", dir_update);
    mkdir(sub, 0700);
    fake_driver(sub, "kernel<float>", 1);
    nfgraphs = 3;
    fnodes[nfnodes] = (struct fnode){.graph = 3, .type = FG_COND};
    nfnodes++;
    program_graph_launch(program_instantiate(GRAPH(3), 0));
    CHECK(C.conditional_runs == 1 && C.state == WAITING, "a conditional graph's run is counted, not a launch");
    direct_launches();
    cm = slurp(sub, "manifest", NULL);
    CHECK(cm && strstr(cm, "\nstatus error\n") && strstr(cm, "conditional nodes") && strstr(cm, "K-th is unknown"),
          "a launch after a conditional graph ran is refused:\n%s", cm ? cm : "(no manifest)");
    free(cm);

    fake_driver(dir_changed, "kernel<float>", 1);
    CUgraphExec e = program_instantiate(user_graph(), 0);
    cuGraphExecKernelNodeSetParams_params sp = {.hGraphExec = e};
    driver_call(CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2, CUPTI_API_EXIT, &sp,
                "cuGraphExecKernelNodeSetParams_v2");
    program_graph_launch(e);
    char *m = slurp(dir_changed, "manifest", NULL);
    CHECK(m && strstr(m, "\nstatus error\n") &&
              strstr(m, "changed after its instantiation (cuGraphExecKernelNodeSetParams_v2)") &&
              !strstr(m, "\nkernel "),
          "a changed exec is refused, the call named:\n%s", m ? m : "(no manifest)");
    free(m);
    char path[4200];
    snprintf(path, sizeof path, "%s/alloc-0.before", dir_changed);
    CHECK(access(path, F_OK) != 0, "a refused graph capture writes no blob");

    /* changed, then updated from a graph (cuGraphExecUpdate): the exec runs that graph, captured */
    fake_driver(dir_update, "kernel<float>", 1);
    e = program_instantiate(user_graph(), 0);
    driver_call(CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2, CUPTI_API_EXIT, &sp,
                "cuGraphExecKernelNodeSetParams_v2");
    CHECK(C.execs[0].changed_by[0], "the change is noted");
    cuGraphExecUpdate_v2_params up = {.hGraphExec = e, .hGraph = GRAPH(1)};
    driver_call(CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2, CUPTI_API_EXIT, &up, "cuGraphExecUpdate_v2");
    CHECK(C.nexecs == 1 && !C.execs[0].changed_by[0] && C.execs[0].nwanted == 1,
          "after cuGraphExecUpdate the exec is taken as instantiated from the graph");
    program_graph_launch(e);
    m = slurp(dir_update, "manifest", NULL);
    CHECK(m && strstr(m, "\nstatus captured\n") && strstr(m, "\napi cuGraphLaunch\n"),
          "an updated exec is captured:\n%s", m ? m : "(no manifest)");
    free(m);
    /* a node disabled stays disabled through an update: still refused */
    char dir_disabled[4200];
    snprintf(dir_disabled, sizeof dir_disabled, "%s/disabled", dir_update);
    mkdir(dir_disabled, 0700);
    fake_driver(dir_disabled, "kernel<float>", 1);
    e = program_instantiate(user_graph(), 0);
    cuGraphNodeSetEnabled_params en = {.hGraphExec = e};
    driver_call(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled, CUPTI_API_EXIT, &en, "cuGraphNodeSetEnabled");
    up.hGraphExec = e;
    driver_call(CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2, CUPTI_API_EXIT, &up, "cuGraphExecUpdate_v2");
    program_graph_launch(e);
    m = slurp(dir_disabled, "manifest", NULL);
    CHECK(m && strstr(m, "\nstatus error\n") && strstr(m, "(cuGraphNodeSetEnabled)"),
          "a node disabled before cuGraphExecUpdate still refuses the capture:\n%s", m ? m : "(no manifest)");
    free(m);

    fake_driver(dir_device, "kernel<float>", 5);
    program_instantiate(user_graph(), CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
    m = slurp(dir_device, "manifest", NULL);
    CHECK(m && strstr(m, "\nstatus error\n") && strstr(m, "CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH"),
          "a device-launch graph holding the kernel is refused at its instantiation:\n%s", m ? m : "(no manifest)");
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
    char d1[4096], d2[4096], d3[4096], d4[4096], d5[4096], d6[4096], g1[4096], g2[4096], g3[4096], g4[4096],
        g5[4096];
    const char *gname[] = {"graph-dev", "graph-host", "graph-changed", "graph-device-launch", "graph-updated"};
    char *gdir[] = {g1, g2, g3, g4, g5};
    for (int i = 0; i < 5; i++) {
        snprintf(gdir[i], 4096, "%s/%s", argv[1], gname[i]);
        mkdir(gdir[i], 0700);
    }
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
    check_graph(g1, 0);
    check_graph(g2, 1);
    check_graph_refused(g3, g4, g5);
    if (argc > 2)
        check_library(argv[2], d4);
    printf("%s: %d checks, %d failed\n", failures ? "FAIL" : "ok", checks, failures);
    return failures ? 1 : 0;
}
