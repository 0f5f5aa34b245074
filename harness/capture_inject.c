/* capture_inject.c — capture mode of libkerndiff-inject.so: one launch of the user's program
 * recorded at the driver (what capture_inject.h says; folder layout: capture-raw.md).
 *
 * CUPTI callbacks on the driver's launch entry points (cuLaunchKernel, cuLaunchKernelEx and
 * their per-thread-stream forms; the runtime's <<<>>>, cudaLaunchKernel and
 * cudaLaunchKernelEx reach them). At the ENTER of the K-th launch of the named kernel the
 * launch's geometry and parameter buffer are taken, every 8-byte word of the buffer that
 * cuMemGetAddressRange resolves is a pointer into an allocation, the context is synchronized
 * and each allocation copied (before); at the EXIT of that same call, on the same thread, the
 * context is synchronized again and the allocations copied once more (after). Then the
 * manifest is written and, unless KERNDIFF_CAPTURE_CONTINUE=1, the process ends (_exit: the
 * rest of the program does not run). A program that ends without the launch leaves a
 * manifest saying so, with the kernels it did launch.
 *
 * The runtime launch callbacks are watched too, only to notice a runtime launch that reached
 * no driver callback (it would otherwise be missed silently): the manifest says so.
 *
 * CUDA graphs (issue 30): a launch made while its stream is being captured into a graph runs
 * nothing and is not counted; the graph's kernel nodes are counted when the graph runs. At
 * each instantiation (cuGraphInstantiate*) the graph's nodes are walked, child graphs
 * included, and when the named kernel is among them the graph is cloned: the clone is what the
 * executable graph runs (an executable graph is a snapshot; the driver cannot say which graph
 * an exec came from). At each cuGraphLaunch of such an exec every node of the kernel counts as
 * one launch, in cuGraphGetNodes' order. When the K-th is a node of it, the clone is cloned
 * again and rewired so that the node runs alone: every node that is neither an ancestor nor a
 * descendant of it is made to finish before it, device-to-device (or pinned host) copies of
 * each allocation its parameters reach are added between its predecessors and it ("before":
 * what the earlier nodes wrote, not what the graph started with) and between it and its
 * dependents ("after"); that graph is instantiated and launched on the program's stream at the
 * ENTER of the program's own cuGraphLaunch, and the staged copies are written out. Cases that
 * cannot be captured exactly are refused with an `error` line naming them: a node inside a child
 * graph, an exec changed after instantiation (cuGraphExec*SetParams, cuGraphNodeSetEnabled; a
 * cuGraphExecUpdate is taken as a new instantiation from its graph), a graph with conditional or memory allocation/free nodes (the driver
 * can neither clone it nor show a conditional node's body), a graph instantiated for
 * device-side launch, and any capture after a graph with conditional nodes ran (the count of
 * launches is then unknown).
 *
 * Driver entry points come from libcuda by dlsym (the process has it loaded: the driver is
 * what loaded this library); libcupti is dlopen'ed by inject.c. Never prints: errors are
 * `error` lines of the manifest. No lock is held across the launch itself (a driver lock
 * could be held by another thread waiting on ours). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "capture_inject.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>
#include <cupti.h>

enum {
    MAX_ERRORS = 8,
    ERROR_CHARS = 512,
    SEEN_SLOTS = 4096,     /* distinct CUfunctions remembered (a power of two) */
    SEEN_WRITTEN = 256,    /* of which at most this many are listed in the manifest */
    MAX_PARAMS = 8192,     /* a parameter buffer is at most 32764 bytes */
    COPY_CHUNK = 64 << 20, /* device to host copies, through one host buffer */
};
#define DEFAULT_MAX_BYTES (4ull << 30)

/* Driver entry points, by their versioned names (cuda.h maps the plain names to these). */
static struct {
    __typeof__(cuMemGetAddressRange_v2) *address_range;
    __typeof__(cuMemcpyDtoH_v2) *dtoh;
    __typeof__(cuCtxSynchronize) *ctx_sync;
    __typeof__(cuCtxGetDevice) *ctx_device;
    __typeof__(cuDeviceGetName) *device_name;
    __typeof__(cuDeviceGetAttribute) *device_attr;
    __typeof__(cuFuncGetName) *func_name;
    __typeof__(cuFuncGetParamInfo) *func_param;
    __typeof__(cuKernelGetParamInfo) *kernel_param;
    __typeof__(cuStreamIsCapturing) *stream_capturing;
    /* CUDA graphs */
    __typeof__(cuKernelGetName) *kernel_name;
    __typeof__(cuKernelGetFunction) *kernel_function;
    __typeof__(cuGraphGetNodes) *graph_nodes;
    __typeof__(cuGraphNodeGetType) *node_type;
    __typeof__(cuGraphKernelNodeGetParams_v2) *kernel_node_params;
    __typeof__(cuGraphKernelNodeGetAttribute) *kernel_node_attr;
    __typeof__(cuGraphChildGraphNodeGetGraph) *child_graph;
    __typeof__(cuGraphClone) *graph_clone;
    __typeof__(cuGraphNodeFindInClone) *find_in_clone;
    __typeof__(cuGraphGetEdges_v2) *graph_edges;
    __typeof__(cuGraphAddDependencies_v2) *add_deps;
    __typeof__(cuGraphAddMemcpyNode) *add_memcpy;
    __typeof__(cuGraphInstantiateWithFlags) *instantiate;
    __typeof__(cuGraphLaunch) *graph_launch;
    __typeof__(cuGraphExecDestroy) *exec_destroy;
    __typeof__(cuGraphExecGetFlags) *exec_flags;
    __typeof__(cuGraphDestroy) *graph_destroy;
    __typeof__(cuMemAlloc_v2) *mem_alloc;
    __typeof__(cuMemFree_v2) *mem_free;
    __typeof__(cuMemAllocHost_v2) *host_alloc;
    __typeof__(cuMemFreeHost) *host_free;
    __typeof__(cuCtxGetCurrent) *ctx_current;
} drv;

static struct {
    CUptiResult (*subscribe)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
    CUptiResult (*enable_callback)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId);
} cupti;

static char *(*demangle)(const char *, char *, size_t *, int *); /* __cxa_demangle, if any */

typedef struct seen_kernel {
    CUfunction f;
    char *name;
    int matches; /* -1 unknown yet */
    uint64_t count;
} seen_kernel;

typedef struct alloc {
    CUdeviceptr base;
    size_t size;
} alloc;

typedef struct pointer {
    size_t word, alloc, offset;
} pointer;

/* A kernel node of an instantiated graph: every one is counted in the `seen` table (a capture
 * that finds no launch K lists what ran), the named kernel's are counted as its launches. */
typedef struct graph_entry {
    CUgraphNode node; /* the named kernel's, in the exec's snapshot; NULL: another kernel, or inside a
                         child graph (counted, not captured) */
    CUfunction key;   /* the function (or CUkernel) the node launches: the `seen` table's key */
    char *name;
    int wanted;       /* the named kernel */
} graph_entry;

/* An executable graph that runs the named kernel or has conditional nodes. */
typedef struct graph_exec {
    CUgraphExec exec;
    CUgraph snapshot; /* the graph as instantiated (a clone); NULL when refused */
    graph_entry *entries;
    size_t nentries, nwanted;
    int conditional, device_launch;
    char refuse[160];     /* why its nodes cannot be captured, or "" */
    char changed_by[96];  /* the call that changed the exec after instantiation, or "" */
} graph_exec;

/* The settings, the state and the captured launch. Written under `lock`, except the launch
 * itself, written only by the capturing thread once `state` is CAPTURING. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char *dir, *want;
    uint64_t nth, max_bytes;
    int keep_going;
    pid_t owner;
    enum { WAITING, CAPTURING, DONE } state;
    uint64_t matched, graphs, runtime_only, conditional_runs;
    int changes_unwatched; /* CUPTI refused a callback of exec_changes: graph nodes are not captured */
    graph_exec *execs; /* the instantiated graphs that matter (see graph_exec) */
    size_t nexecs;
    seen_kernel seen[SEEN_SLOTS];
    size_t nseen;
    char errors[MAX_ERRORS][ERROR_CHARS];
    int nerrors;
    /* the launch */
    const char *api;
    char *kernel;
    unsigned grid[3], block[3], cluster[3], shared;
    CUstream stream;
    size_t nparam, pbytes;
    size_t (*params)[2]; /* offset, size */
    unsigned char *pbuf;
    alloc *allocs;
    size_t nalloc;
    pointer *pointers;
    size_t npointer;
    char gpu[256];
    int sm[2];
    time_t when;
} C;

static _Thread_local int capturing_here; /* this thread is inside the captured launch */
static _Thread_local int runtime_depth, driver_seen;
static _Thread_local int own_call; /* this thread is making the library's own driver calls */

static void add_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void add_error(const char *fmt, ...)
{
    if (C.nerrors >= MAX_ERRORS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(C.errors[C.nerrors++], ERROR_CHARS, fmt, ap);
    va_end(ap);
}

/* ---- names ---------------------------------------------------------------------------- */

/* Length of `s` without its trailing parameter list "(...)" (and a trailing " const"). */
static size_t without_params(const char *s)
{
    size_t n = strlen(s);
    if (n >= 6 && strcmp(s + n - 6, " const") == 0)
        n -= 6;
    if (n == 0 || s[n - 1] != ')')
        return strlen(s);
    int depth = 0;
    for (size_t i = n; i-- > 0;) {
        if (s[i] == ')')
            depth++;
        else if (s[i] == '(' && --depth == 0)
            return i;
    }
    return strlen(s);
}

/* Start of the name in s[0..n): after a return type, i.e. the last space outside <> and (). */
static size_t name_start(const char *s, size_t n)
{
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '<' || s[i] == '(')
            depth++;
        else if ((s[i] == '>' || s[i] == ')') && depth > 0)
            depth--;
        else if (s[i] == ' ' && depth == 0)
            start = i + 1;
    }
    return start;
}

static int equal_span(const char *want, const char *s, size_t n)
{
    return strlen(want) == n && strncmp(want, s, n) == 0;
}

int kd_capture_name_matches(const char *want, const char *mangled, const char *demangled)
{
    if (!want || !*want || !mangled)
        return 0;
    if (strcmp(want, mangled) == 0)
        return 1;
    const char *d = demangled ? demangled : mangled;
    if (strcmp(want, d) == 0)
        return 1;
    size_t end = without_params(d), start = name_start(d, end);
    if (equal_span(want, d, end) || equal_span(want, d + start, end - start) || strcmp(want, d + start) == 0)
        return 1;
    /* A plain identifier: the last component, template arguments dropped. */
    if (strpbrk(want, "<(: "))
        return 0;
    size_t last = start;
    int depth = 0;
    for (size_t i = start; i < end; i++) {
        if (d[i] == '<')
            depth++;
        else if (d[i] == '>' && depth > 0)
            depth--;
        else if (depth == 0 && d[i] == ':' && i + 1 < end && d[i + 1] == ':')
            last = i + 2;
    }
    size_t stop = last;
    while (stop < end && d[stop] != '<')
        stop++;
    return equal_span(want, d + last, stop - last);
}

static int matches(const char *mangled)
{
    char *d = NULL;
    int status = -1;
    if (demangle && mangled[0] == '_' && mangled[1] == 'Z')
        d = demangle(mangled, NULL, NULL, &status);
    int yes = kd_capture_name_matches(C.want, mangled, status == 0 ? d : NULL);
    free(d);
    return yes;
}

/* The kernel's entry in the table of kernels seen (under `lock`); NULL when full. */
static seen_kernel *seen_entry(CUfunction f, const char *symbol)
{
    size_t mask = SEEN_SLOTS - 1, i = ((uintptr_t)f >> 4) * 0x9e3779b97f4a7c15ull & mask;
    for (size_t probes = 0; probes < SEEN_SLOTS; probes++, i = (i + 1) & mask) {
        seen_kernel *s = &C.seen[i];
        if (s->f == f && s->name)
            return s;
        if (s->name)
            continue;
        if (C.nseen * 2 >= SEEN_SLOTS)
            return NULL;
        const char *name = symbol;
        if (!name && (!drv.func_name || drv.func_name(&name, f) != CUDA_SUCCESS))
            name = NULL;
        s->name = strdup(name ? name : "(unnamed)");
        if (!s->name)
            return NULL;
        s->f = f;
        s->matches = matches(s->name);
        C.nseen++;
        return s;
    }
    return NULL;
}

/* ---- files ---------------------------------------------------------------------------- */

static int path_in(char *out, size_t cap, const char *name)
{
    return snprintf(out, cap, "%s/%s", C.dir, name) < (int)cap ? 0 : -1;
}

static int write_all(int fd, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int write_file(const char *name, const void *buf, size_t n)
{
    char path[4096];
    if (path_in(path, sizeof path, name) != 0)
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    int rc = write_all(fd, buf, n);
    return close(fd) != 0 ? -1 : rc;
}

/* A host buffer for copies in chunks, big enough for the largest allocation's chunk; NULL
 * (and *fail set, an error recorded) when there is no memory for it. */
static unsigned char *chunk_buffer(const char *when, int *fail)
{
    size_t most = 0;
    for (size_t i = 0; i < C.nalloc; i++)
        most = C.allocs[i].size > most ? C.allocs[i].size : most;
    unsigned char *buf = most ? malloc(most < COPY_CHUNK ? most : COPY_CHUNK) : NULL;
    *fail = most && !buf;
    if (*fail)
        add_error("no host memory to copy the allocations (%s)", when);
    return buf;
}

/* Writes alloc-I.WHEN, allocation I's size in bytes, from device memory at `dev` (through
 * `buf`) or, when `host` is set, from that host memory; 0, or -1 with an error recorded. */
static int dump_alloc(size_t i, const char *when, CUdeviceptr dev, const unsigned char *host, unsigned char *buf)
{
    char name[64], path[4096];
    snprintf(name, sizeof name, "alloc-%zu.%s", i, when);
    int fd = path_in(path, sizeof path, name) == 0 ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
    if (fd < 0)
        return add_error("cannot write %s in the capture folder: %s", name, strerror(errno)), -1;
    for (size_t done = 0; done < C.allocs[i].size;) {
        size_t n = C.allocs[i].size - done < COPY_CHUNK ? C.allocs[i].size - done : COPY_CHUNK;
        CUresult r = host ? CUDA_SUCCESS : drv.dtoh(buf, dev + done, n);
        if (r != CUDA_SUCCESS || write_all(fd, host ? host + done : buf, n) != 0) {
            if (r != CUDA_SUCCESS)
                add_error("copying allocation %zu (%s the launch) failed: CUresult %d", i, when, (int)r);
            else
                add_error("writing %s failed: %s", name, strerror(errno));
            close(fd);
            return -1;
        }
        done += n;
    }
    if (close(fd) != 0)
        return add_error("writing %s failed: %s", name, strerror(errno)), -1;
    return 0;
}

/* Copies every allocation into alloc-I.WHEN; returns 0, or -1 with an error recorded. */
static int copy_allocations(const char *when)
{
    int fail = 0;
    unsigned char *buf = chunk_buffer(when, &fail);
    for (size_t i = 0; !fail && i < C.nalloc; i++)
        fail = dump_alloc(i, when, C.allocs[i].base, NULL, buf) != 0;
    free(buf);
    return fail ? -1 : 0;
}

/* The rest of a line, whatever the text holds. */
static void put_text(FILE *f, const char *text)
{
    for (const char *c = text; *c; c++)
        fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
    fputc('\n', f);
}

static void put_rest(FILE *f, const char *key, const char *text)
{
    fprintf(f, "%s ", key);
    put_text(f, text);
}

static void put_argv(FILE *f)
{
    FILE *in = fopen("/proc/self/cmdline", "r");
    if (!in)
        return;
    int c, open_line = 0;
    while ((c = fgetc(in)) != EOF) {
        if (!open_line) {
            fputs("argv ", f);
            open_line = 1;
        }
        if (c == 0) {
            fputc('\n', f);
            open_line = 0;
        } else {
            fputc(c == '\n' || c == '\r' ? ' ' : c, f);
        }
    }
    if (open_line)
        fputc('\n', f);
    fclose(in);
}

static void write_manifest(const char *status)
{
    char path[4096], tmp[4096];
    if (path_in(path, sizeof path, "manifest") != 0 || path_in(tmp, sizeof tmp, "manifest.tmp") != 0)
        return;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return;
    }
    int captured = strcmp(status, "not-found") != 0;
    fprintf(f, "kerndiff-capture-raw 1\nstatus %s\npid %d\ntime %lld\n", status, (int)getpid(),
            (long long)(C.when ? C.when : time(NULL)));
    put_argv(f);
    if (captured) {
        if (C.gpu[0])
            put_rest(f, "gpu", C.gpu);
        if (C.sm[0])
            fprintf(f, "sm %d %d\n", C.sm[0], C.sm[1]);
        if (C.kernel)
            put_rest(f, "kernel", C.kernel);
    }
    fprintf(f, "nth %llu\n", (unsigned long long)C.nth);
    if (captured && C.kernel) {
        fprintf(f, "api %s\ngrid %u %u %u\nblock %u %u %u\nshared %u\ncluster %u %u %u\nstream 0x%llx\n", C.api,
                C.grid[0], C.grid[1], C.grid[2], C.block[0], C.block[1], C.block[2], C.shared, C.cluster[0],
                C.cluster[1], C.cluster[2], (unsigned long long)(uintptr_t)C.stream);
        fprintf(f, "params %zu %zu\n", C.nparam, C.pbytes);
        for (size_t i = 0; i < C.nparam; i++)
            fprintf(f, "param %zu %zu %zu\n", i, C.params[i][0], C.params[i][1]);
        for (size_t i = 0; i < C.nalloc; i++)
            fprintf(f, "alloc %zu 0x%llx %zu 0 %zu\n", i, (unsigned long long)C.allocs[i].base, C.allocs[i].size,
                    C.allocs[i].size);
        for (size_t i = 0; i < C.npointer; i++)
            fprintf(f, "pointer %zu %zu %zu\n", C.pointers[i].word, C.pointers[i].alloc, C.pointers[i].offset);
    }
    /* One line per name: the same kernel can come as several handles (a CUkernel and the
     * CUfunction of each context). */
    size_t written = 0;
    for (size_t i = 0; i < SEEN_SLOTS && written < SEEN_WRITTEN; i++) {
        const char *name = C.seen[i].name;
        int before = 0;
        for (size_t j = 0; name && j < i && !before; j++)
            before = C.seen[j].name && strcmp(C.seen[j].name, name) == 0;
        if (!name || before)
            continue;
        uint64_t count = 0;
        for (size_t j = i; j < SEEN_SLOTS; j++)
            if (C.seen[j].name && strcmp(C.seen[j].name, name) == 0)
                count += C.seen[j].count;
        fprintf(f, "seen %llu ", (unsigned long long)count);
        put_text(f, name);
        written++;
    }
    if (C.graphs)
        fprintf(f, "graphs %llu\n", (unsigned long long)C.graphs);
    if (C.conditional_runs && !captured)
        fprintf(f, "error %llu CUDA graph launches had conditional nodes, whose bodies cannot be looked into: "
                   "launches of the kernel inside them are not counted\n",
                (unsigned long long)C.conditional_runs);
    if (C.runtime_only)
        fprintf(f, "error %llu runtime launches of the kernel reached no driver launch callback: not captured\n",
                (unsigned long long)C.runtime_only);
    for (int i = 0; i < C.nerrors; i++)
        put_rest(f, "error", C.errors[i]);
    fputs("end\n", f);
    if (fclose(f) == 0)
        rename(tmp, path);
    else
        unlink(tmp);
}

/* ---- the launch ----------------------------------------------------------------------- */

typedef struct launch {
    const char *api;
    CUfunction f;
    unsigned grid[3], block[3], cluster[3], shared;
    CUstream stream;
    void **args, **extra;
} launch;

/* Parameter i's offset and size. The handle may be a CUkernel (cuLibrary) cast to
 * CUfunction: the query that answers for parameter 0 is kept for the others, so the two
 * kinds of handle are never mixed past the first question; "index out of range" (invalid
 * value) for parameter 0 is a kernel without parameters, not another kind of handle. */
static int param_info(CUfunction f, size_t i, size_t *off, size_t *size)
{
    static _Thread_local int use_kernel;
    if (i == 0) {
        CUresult r = drv.func_param ? drv.func_param(f, 0, off, size) : CUDA_ERROR_NOT_SUPPORTED;
        use_kernel = 0;
        if (r == CUDA_SUCCESS)
            return 0;
        if (r == CUDA_ERROR_INVALID_VALUE || !drv.kernel_param)
            return -1;
        use_kernel = 1;
    }
    if (use_kernel)
        return drv.kernel_param((CUkernel)(void *)f, i, off, size) == CUDA_SUCCESS ? 0 : -1;
    return drv.func_param && drv.func_param(f, i, off, size) == CUDA_SUCCESS ? 0 : -1;
}

/* The parameter buffer: from the driver's per-parameter layout and the argument pointers,
 * or as given whole through `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER). */
static int take_params(const launch *l)
{
    size_t off, size;
    while (C.nparam < MAX_PARAMS && param_info(l->f, C.nparam, &off, &size) == 0) {
        void *grown = realloc(C.params, (C.nparam + 1) * sizeof *C.params);
        if (!grown)
            return add_error("no memory for the parameter list"), -1;
        C.params = grown;
        C.params[C.nparam][0] = off;
        C.params[C.nparam][1] = size;
        C.nparam++;
        if (off + size > C.pbytes)
            C.pbytes = off + size;
    }
    if (!drv.func_param && !drv.kernel_param)
        return add_error("the driver has no cuFuncGetParamInfo (CUDA 12.4 or later is needed)"), -1;
    const void *given = NULL;
    size_t given_size = 0;
    for (void **e = l->extra; e && e[0] != CU_LAUNCH_PARAM_END; e += 2) {
        if (e[0] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            given = e[1];
        else if (e[0] == CU_LAUNCH_PARAM_BUFFER_SIZE && e[1])
            given_size = *(const size_t *)e[1];
    }
    if (given && given_size > C.pbytes)
        C.pbytes = given_size;
    C.pbuf = calloc(1, C.pbytes + 8);
    if (!C.pbuf)
        return add_error("no memory for the parameter buffer"), -1;
    if (l->args) {
        for (size_t i = 0; i < C.nparam; i++)
            if (l->args[i])
                memcpy(C.pbuf + C.params[i][0], l->args[i], C.params[i][1]);
    } else if (given) {
        memcpy(C.pbuf, given, given_size);
    } else if (C.nparam) {
        return add_error("the launch passed neither kernelParams nor a parameter buffer"), -1;
    }
    return 0;
}

/* Each 8-byte word that lies inside an allocation: a pointer (allocations deduplicated). */
static int find_pointers(void)
{
    for (size_t w = 0; w + 8 <= C.pbytes; w += 8) {
        uint64_t v;
        memcpy(&v, C.pbuf + w, 8);
        CUdeviceptr base = 0;
        size_t size = 0;
        if (!v || drv.address_range(&base, &size, (CUdeviceptr)v) != CUDA_SUCCESS)
            continue;
        size_t a = 0;
        while (a < C.nalloc && C.allocs[a].base != base)
            a++;
        if (a == C.nalloc) {
            void *grown = realloc(C.allocs, (C.nalloc + 1) * sizeof *C.allocs);
            if (!grown)
                return add_error("no memory for the allocation list"), -1;
            C.allocs = grown;
            C.allocs[C.nalloc++] = (alloc){base, size};
        }
        void *grown = realloc(C.pointers, (C.npointer + 1) * sizeof *C.pointers);
        if (!grown)
            return add_error("no memory for the pointer list"), -1;
        C.pointers = grown;
        C.pointers[C.npointer++] = (pointer){w, a, (size_t)(v - base)};
    }
    return 0;
}

static void take_device(void)
{
    CUdevice dev;
    if (!drv.ctx_device || drv.ctx_device(&dev) != CUDA_SUCCESS)
        return;
    if (drv.device_name)
        drv.device_name(C.gpu, (int)sizeof C.gpu, dev);
    if (drv.device_attr) {
        drv.device_attr(&C.sm[0], CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
        drv.device_attr(&C.sm[1], CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    }
}

/* Ends the capture: the manifest, then the process unless told to go on. */
static void finish(const char *status)
{
    pthread_mutex_lock(&lock);
    C.state = DONE;
    write_manifest(status);
    pthread_mutex_unlock(&lock);
    if (!C.keep_going)
        _exit(strcmp(status, "captured") == 0 ? 0 : 3);
}

/* The launch's description, parameters, pointers and allocations (not their contents);
 * params.bin written. 0, or -1 with an error recorded. */
static int record_launch(const launch *l, const char *symbol)
{
    C.api = l->api;
    C.when = time(NULL);
    memcpy(C.grid, l->grid, sizeof C.grid);
    memcpy(C.block, l->block, sizeof C.block);
    memcpy(C.cluster, l->cluster, sizeof C.cluster);
    C.shared = l->shared;
    C.stream = l->stream;
    C.kernel = strdup(symbol);
    take_device();
    if (!drv.address_range || !drv.dtoh || !drv.ctx_sync)
        return add_error("libcuda lacks cuMemGetAddressRange, cuMemcpyDtoH or cuCtxSynchronize"), -1;
    if (take_params(l) != 0 || find_pointers() != 0)
        return -1;
    uint64_t total = 0;
    for (size_t i = 0; i < C.nalloc; i++)
        total += C.allocs[i].size;
    if (total > C.max_bytes)
        return add_error("allocations reached by kernel %s total %llu bytes, over the cap of %llu bytes (raise "
                         "KERNDIFF_CAPTURE_MAX_BYTES)",
                         symbol, (unsigned long long)total, (unsigned long long)C.max_bytes),
               -1;
    if (write_file("params.bin", C.pbuf, C.pbytes) != 0)
        return add_error("cannot write params.bin in the capture folder: %s", strerror(errno)), -1;
    return 0;
}

/* ENTER of the launch that is captured (state CAPTURING, this thread): all but "after". */
static int capture_before(const launch *l, const char *symbol)
{
    if (record_launch(l, symbol) != 0)
        return -1;
    CUresult r = drv.ctx_sync();
    if (r != CUDA_SUCCESS)
        return add_error("synchronizing before the launch failed: CUresult %d (an earlier kernel faulted?)", (int)r), -1;
    return copy_allocations("before");
}

static void capture_after(CUresult launched)
{
    capturing_here = 0;
    if (launched != CUDA_SUCCESS) {
        add_error("the program's launch itself failed: CUresult %d", (int)launched);
        finish("error");
        return;
    }
    CUresult r = drv.ctx_sync();
    if (r != CUDA_SUCCESS) {
        add_error("the captured launch did not complete: CUresult %d", (int)r);
        finish("error");
        return;
    }
    finish(copy_allocations("after") == 0 ? "captured" : "error");
}

/* Whether the launch only records a node of a graph being built (stream capture): it runs
 * nothing now, and synchronizing the context would break the program's capture. */
static int into_graph(CUstream stream, const char *api)
{
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    if (!stream && strstr(api, "_ptsz"))
        stream = CU_STREAM_PER_THREAD;
    return drv.stream_capturing && drv.stream_capturing(stream, &status) == CUDA_SUCCESS &&
           status != CU_STREAM_CAPTURE_STATUS_NONE;
}

/* Whether this process may write the capture: the program may be several processes that
 * all inherit the environment (a launcher and its workers); the first to reach its K-th
 * launch creates `claimed` and the others leave the folder alone. */
static int claim(void)
{
    char path[4096];
    if (path_in(path, sizeof path, "claimed") != 0)
        return 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return 0;
    close(fd);
    return 1;
}

static int claimed(void)
{
    char path[4096];
    return path_in(path, sizeof path, "claimed") == 0 && access(path, F_OK) == 0;
}

/* ---- CUDA graphs ---------------------------------------------------------------------- */

/* The K-th launch was found after graphs with conditional nodes ran: the launches inside their
 * bodies were not counted, so this may not be the K-th. Refused (state CAPTURING). */
static void refuse_uncounted(const char *symbol, uint64_t runs)
{
    add_error("before launch %llu of kernel %s was reached the program ran %llu CUDA graphs with conditional "
              "nodes, whose bodies cannot be looked into: which launch is the K-th is unknown, so none is captured",
              (unsigned long long)C.nth, symbol, (unsigned long long)runs);
    finish("error");
}

/* A kernel node's function: the CUfunction, else the CUkernel (cast, as param_info takes it). */
static CUfunction node_function(const CUDA_KERNEL_NODE_PARAMS *p)
{
    return p->func ? p->func : (CUfunction)(void *)p->kern;
}

static const char *node_name(const CUDA_KERNEL_NODE_PARAMS *p)
{
    const char *name = NULL;
    if (p->func && drv.func_name && drv.func_name(&name, p->func) == CUDA_SUCCESS && name)
        return name;
    if (p->kern && drv.kernel_name && drv.kernel_name(&name, p->kern) == CUDA_SUCCESS && name)
        return name;
    return NULL;
}

/* A graph's nodes (malloc'ed, *n of them), or NULL (*n = 0 for an empty graph). */
static CUgraphNode *graph_nodes(CUgraph g, size_t *n)
{
    *n = 0;
    if (drv.graph_nodes(g, NULL, n) != CUDA_SUCCESS || *n == 0)
        return NULL;
    CUgraphNode *nodes = malloc(*n * sizeof *nodes);
    if (nodes && drv.graph_nodes(g, nodes, n) == CUDA_SUCCESS)
        return nodes;
    free(nodes);
    *n = 0;
    return NULL;
}

static void set_refuse(graph_exec *x, const char *why)
{
    if (!x->refuse[0])
        snprintf(x->refuse, sizeof x->refuse, "%s", why);
}

/* Walks graph g (top: the instantiated graph itself, else a child graph) for the named
 * kernel's nodes, conditional nodes and what forbids cloning. */
static void walk_graph(CUgraph g, int top, graph_exec *x, int depth)
{
    size_t n = 0;
    CUgraphNode *nodes = graph_nodes(g, &n);
    for (size_t i = 0; i < n; i++) {
        CUgraphNodeType type;
        if (drv.node_type(nodes[i], &type) != CUDA_SUCCESS)
            continue;
        if (type == CU_GRAPH_NODE_TYPE_KERNEL) {
            /* a kernel node the device may update (cudaGraphKernelNodeUpdatesApply) runs with
             * parameters the host never sees */
            CUkernelNodeAttrValue v;
            memset(&v, 0, sizeof v);
            if (drv.kernel_node_attr &&
                drv.kernel_node_attr(nodes[i], CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &v) == CUDA_SUCCESS &&
                v.deviceUpdatableKernelNode.deviceUpdatable)
                set_refuse(x, "the graph has kernel nodes that the device may update");
            CUDA_KERNEL_NODE_PARAMS p = {0};
            const char *name = drv.kernel_node_params(nodes[i], &p) == CUDA_SUCCESS ? node_name(&p) : NULL;
            if (!name)
                continue;
            int wanted = matches(name);
            graph_entry *grown = realloc(x->entries, (x->nentries + 1) * sizeof *grown);
            char *copy = strdup(name);
            if (!grown || !copy) {
                free(copy);
                if (grown)
                    x->entries = grown;
                set_refuse(x, "no memory to list the graph's nodes");
                continue;
            }
            x->entries = grown;
            x->entries[x->nentries++] = (graph_entry){top && wanted ? nodes[i] : NULL, node_function(&p), copy, wanted};
            x->nwanted += wanted;
        } else if (type == CU_GRAPH_NODE_TYPE_GRAPH) {
            CUgraph child = NULL;
            if (depth < 64 && drv.child_graph(nodes[i], &child) == CUDA_SUCCESS)
                walk_graph(child, 0, x, depth + 1);
        } else if (type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
            x->conditional = 1;
            set_refuse(x, "the graph has conditional nodes (the driver can neither clone such a graph nor show "
                          "a conditional node's body)");
        } else if (type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || type == CU_GRAPH_NODE_TYPE_MEM_FREE) {
            set_refuse(x, "the graph has memory allocation or free nodes (the driver cannot clone such a graph)");
        }
    }
    free(nodes);
}

/* Whether the driver has every graph call this needs (CUDA 12.3 or later). */
static int graphs_ok(void)
{
    return drv.graph_nodes && drv.node_type && drv.kernel_node_params && drv.child_graph && drv.graph_clone &&
           drv.find_in_clone && drv.graph_edges && drv.add_deps && drv.add_memcpy && drv.instantiate &&
           drv.graph_launch && drv.exec_destroy && drv.graph_destroy && drv.mem_alloc && drv.mem_free &&
           drv.host_alloc && drv.host_free && drv.ctx_current;
}

static const char *first_wanted(const graph_exec *x)
{
    for (size_t i = 0; i < x->nentries; i++)
        if (x->entries[i].wanted)
            return x->entries[i].name;
    return "?";
}

static void free_exec(graph_exec *x)
{
    for (size_t i = 0; i < x->nentries; i++)
        free(x->entries[i].name);
    free(x->entries);
    if (x->snapshot && drv.graph_destroy)
        drv.graph_destroy(x->snapshot);
    memset(x, 0, sizeof *x);
}

/* The entry of exec e (under `lock`), or NULL. */
static graph_exec *find_exec(CUgraphExec e)
{
    for (size_t i = 0; i < C.nexecs; i++)
        if (C.execs[i].exec == e)
            return &C.execs[i];
    return NULL;
}

/* Once the state is no longer WAITING the table is left alone: a capturing thread holds an
 * entry of it. */
static void forget_exec(CUgraphExec e)
{
    pthread_mutex_lock(&lock);
    graph_exec *x = C.state == WAITING ? find_exec(e) : NULL, gone = {0};
    if (x) {
        gone = *x;
        *x = C.execs[--C.nexecs];
    }
    pthread_mutex_unlock(&lock);
    free_exec(&gone);
}

/* EXIT of a successful cuGraphInstantiate* (or cuGraphExecUpdate): exec e runs graph g as it
 * is now; `still_changed`: a change that outlives it (a node disabled), or NULL. */
static void on_instantiated(CUgraphExec e, CUgraph g, unsigned long long flags, const char *still_changed)
{
    forget_exec(e); /* a handle the driver reuses */
    pthread_mutex_lock(&lock);
    int waiting = C.state == WAITING;
    pthread_mutex_unlock(&lock);
    if (!waiting || !graphs_ok())
        return;
    graph_exec x = {.exec = e, .device_launch = (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) != 0};
    if (still_changed)
        snprintf(x.changed_by, sizeof x.changed_by, "%s", still_changed);
    walk_graph(g, 1, &x, 0);
    if (!x.nentries && !x.conditional) { /* no kernel to count */
        free_exec(&x);
        return;
    }
    if (!x.refuse[0] && x.nwanted) {
        CUresult r = drv.graph_clone(&x.snapshot, g);
        for (size_t i = 0; r == CUDA_SUCCESS && i < x.nentries; i++)
            if (x.entries[i].node)
                r = drv.find_in_clone(&x.entries[i].node, x.entries[i].node, x.snapshot);
        if (r != CUDA_SUCCESS) {
            char why[96];
            snprintf(why, sizeof why, "cloning the graph at its instantiation failed: CUresult %d", (int)r);
            set_refuse(&x, why);
        }
    }
    pthread_mutex_lock(&lock);
    int refuse_now = C.state == WAITING && x.device_launch && x.nwanted;
    graph_exec *grown = C.state == WAITING && !refuse_now ? realloc(C.execs, (C.nexecs + 1) * sizeof *grown) : NULL;
    if (grown) {
        C.execs = grown;
        C.execs[C.nexecs++] = x;
    } else if (C.state == WAITING && !refuse_now) {
        add_error("no memory to remember an instantiated CUDA graph: its kernel nodes are not counted");
    }
    if (refuse_now)
        C.state = claim() ? CAPTURING : DONE;
    int capturing = refuse_now && C.state == CAPTURING;
    pthread_mutex_unlock(&lock);
    if (capturing)
        add_error("kernel %s is a node of a CUDA graph instantiated for device-side launch "
                  "(CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH): launches of it from the device can be neither "
                  "seen nor counted, so none is captured",
                  first_wanted(&x));
    if (!grown)
        free_exec(&x);
    if (capturing)
        finish("error");
}

/* Staging memory for one allocation's copy: device memory, else pinned host memory. */
typedef struct stage {
    CUdeviceptr dev;
    void *host;
} stage;

static void free_stages(stage *st, size_t n)
{
    for (size_t i = 0; st && i < n; i++) {
        if (st[i].dev)
            drv.mem_free(st[i].dev);
        if (st[i].host)
            drv.host_free(st[i].host);
    }
    free(st);
}

/* Where add_copies puts its memcpy nodes: graph g (context ctx), each node depending on
 * deps[0..ndeps), appended to list *out (*nout entries). */
typedef struct {
    CUgraph g;
    CUcontext ctx;
    const CUgraphNode *deps;
    size_t ndeps;
    CUgraphNode **out;
    size_t *nout;
} copy_nodes;

/* Appends to j's list one memcpy node per chunk copying allocation `a` into its stage `to`,
 * each depending on j's deps. */
static CUresult add_copies(const copy_nodes *j, size_t a, const stage *to)
{
    CUgraphNode **out = j->out;
    size_t *nout = j->nout;
    for (size_t done = 0; done < C.allocs[a].size;) {
        size_t n = C.allocs[a].size - done < COPY_CHUNK ? C.allocs[a].size - done : COPY_CHUNK;
        CUDA_MEMCPY3D cp = {.srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = C.allocs[a].base + done,
                            .srcPitch = n, .srcHeight = 1, .dstPitch = n, .dstHeight = 1,
                            .WidthInBytes = n, .Height = 1, .Depth = 1};
        if (to->dev) {
            cp.dstMemoryType = CU_MEMORYTYPE_DEVICE;
            cp.dstDevice = to->dev + done;
        } else {
            cp.dstMemoryType = CU_MEMORYTYPE_HOST;
            cp.dstHost = (unsigned char *)to->host + done;
        }
        CUgraphNode *grown = realloc(*out, (*nout + 1) * sizeof *grown);
        if (!grown)
            return CUDA_ERROR_OUT_OF_MEMORY;
        *out = grown;
        CUresult r = drv.add_memcpy(&grown[*nout], j->g, j->deps, j->ndeps, &cp, j->ctx);
        if (r != CUDA_SUCCESS)
            return r;
        (*nout)++;
        done += n;
    }
    return CUDA_SUCCESS;
}

static int by_handle(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (const CUgraphNode *)a, y = (uintptr_t) * (const CUgraphNode *)b;
    return x < y ? -1 : x > y;
}

/* Index of node v in the sorted array, or n. */
static size_t node_index(const CUgraphNode *sorted, size_t n, CUgraphNode v)
{
    const CUgraphNode *hit = bsearch(&v, sorted, n, sizeof v, by_handle);
    return hit ? (size_t)(hit - sorted) : n;
}

/* The edge list reach() walks: E edges from[i] -> to[i] (node indices), the marks it sets and
 * its work queue (room for every node). */
typedef struct {
    const size_t *from, *to;
    size_t E;
    unsigned char *mark;
    size_t *queue;
} edge_walk;

/* Marks in w->mark (bit `bit`) every node reachable from node `start` over w's edges
 * from[i] -> to[i]; pass the lists swapped to walk them backwards. */
static void reach(const edge_walk *w, size_t start, unsigned bit)
{
    const size_t *from = w->from, *to = w->to;
    size_t E = w->E, *queue = w->queue;
    unsigned char *mark = w->mark;
    size_t head = 0, tail = 0;
    queue[tail++] = start;
    while (head < tail) {
        size_t v = queue[head++];
        for (size_t e = 0; e < E; e++)
            if (from[e] == v && !(mark[to[e]] & bit)) {
                mark[to[e]] |= bit;
                queue[tail++] = to[e];
            }
    }
}

/* The graph surgery and run (see the top of the file): `g` is a clone of the exec's snapshot
 * and `target` the node in it; stages st[2 * i] (before) and st[2 * i + 1] (after). */
static CUresult isolate_and_copy(CUgraph g, CUgraphNode target, const stage *st, CUcontext ctx, CUgraphExec *exec)
{
    size_t n = 0, E = 0;
    CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
    CUgraphNode *nodes = graph_nodes(g, &n), *efrom = NULL, *eto = NULL, *deps = NULL, *before = NULL, *after = NULL;
    CUgraphEdgeData *edata = NULL;
    size_t *ifrom = NULL, *ito = NULL, *queue = NULL, ndeps = 0, nbefore = 0, nafter = 0;
    unsigned char *mark = NULL;
    if (!nodes)
        return CUDA_ERROR_INVALID_VALUE;
    qsort(nodes, n, sizeof *nodes, by_handle);
    size_t t = node_index(nodes, n, target);
    if (t == n) {
        r = CUDA_ERROR_NOT_FOUND;
        goto out;
    }
    if ((r = drv.graph_edges(g, NULL, NULL, NULL, &E)) != CUDA_SUCCESS && r != CUDA_ERROR_LOSSY_QUERY)
        goto out;
    r = CUDA_ERROR_OUT_OF_MEMORY;
    efrom = malloc((E + 1) * sizeof *efrom);
    eto = malloc((E + 1) * sizeof *eto);
    edata = calloc(E + 1, sizeof *edata);
    ifrom = malloc((E + 1) * sizeof *ifrom);
    ito = malloc((E + 1) * sizeof *ito);
    queue = malloc((n + 1) * sizeof *queue);
    mark = calloc(n, 1);
    deps = malloc((n + 1) * sizeof *deps);
    if (!efrom || !eto || !edata || !ifrom || !ito || !queue || !mark || !deps)
        goto out;
    if (E && (r = drv.graph_edges(g, efrom, eto, edata, &E)) != CUDA_SUCCESS)
        goto out;
    for (size_t e = 0; e < E; e++) {
        ifrom[e] = node_index(nodes, n, efrom[e]);
        ito[e] = node_index(nodes, n, eto[e]);
        if (ifrom[e] == n || ito[e] == n) {
            r = CUDA_ERROR_INVALID_VALUE;
            goto out;
        }
    }
    reach(&(edge_walk){.from = ito, .to = ifrom, .E = E, .mark = mark, .queue = queue}, t, 1); /* ancestors */
    reach(&(edge_walk){.from = ifrom, .to = ito, .E = E, .mark = mark, .queue = queue}, t, 2); /* descendants */
    /* "before" waits for the target's predecessors and for every node running beside it (the
     * last of each such chain), so nothing else runs between the copies and the node. */
    for (size_t v = 0; v < n; v++) {
        int pred = 0, beside = v != t && !mark[v], beside_after = 0;
        for (size_t e = 0; e < E; e++) {
            if (ifrom[e] == v && ito[e] == t)
                pred = 1;
            if (beside && ifrom[e] == v && ito[e] != t && !mark[ito[e]])
                beside_after = 1;
        }
        if (pred || (beside && !beside_after))
            deps[ndeps++] = nodes[v];
    }
    for (size_t a = 0; a < C.nalloc; a++)
        if ((r = add_copies(&(copy_nodes){.g = g, .ctx = ctx, .deps = deps, .ndeps = ndeps, .out = &before,
                                          .nout = &nbefore},
                            a, &st[2 * a])) != CUDA_SUCCESS)
            goto out;
    for (size_t b = 0; b < nbefore; b++)
        if ((r = drv.add_deps(g, &before[b], &target, NULL, 1)) != CUDA_SUCCESS)
            goto out;
    for (size_t a = 0; a < C.nalloc; a++)
        if ((r = add_copies(&(copy_nodes){.g = g, .ctx = ctx, .deps = &target, .ndeps = 1, .out = &after,
                                          .nout = &nafter},
                            a, &st[2 * a + 1])) != CUDA_SUCCESS)
            goto out;
    /* the target's dependents wait for "after" (the successors as the edges list them) */
    for (size_t e = 0; e < E; e++)
        if (ifrom[e] == t)
            for (size_t c = 0; c < nafter; c++)
                if ((r = drv.add_deps(g, &after[c], &eto[e], NULL, 1)) != CUDA_SUCCESS)
                    goto out;
    r = drv.instantiate(exec, g, 0);
out:
    free(nodes);
    free(efrom);
    free(eto);
    free(edata);
    free(ifrom);
    free(ito);
    free(queue);
    free(mark);
    free(deps);
    free(before);
    free(after);
    return r;
}

/* Runs exec x's snapshot once, with node `node` isolated and its allocations copied before
 * and after it, on the program's stream; writes alloc-I.before/after. 0, or -1 with an error. */
static int run_with_copies(const graph_exec *x, CUgraphNode node, CUstream stream)
{
    CUgraph g = NULL;
    CUgraphExec e = NULL;
    CUgraphNode target = NULL;
    CUcontext ctx = NULL;
    stage *st = calloc(2 * C.nalloc + 1, sizeof *st);
    int rc = -1, fail = 0;
    unsigned char *buf = NULL;
    if (!st)
        return add_error("no memory for the graph's copies"), -1;
    for (size_t i = 0; i < 2 * C.nalloc; i++) {
        size_t size = C.allocs[i / 2].size;
        if (size && drv.mem_alloc(&st[i].dev, size) != CUDA_SUCCESS &&
            drv.host_alloc(&st[i].host, size) != CUDA_SUCCESS) {
            st[i].dev = 0;
            add_error("no device or pinned host memory for a copy of allocation %zu (%zu bytes) inside the graph",
                      i / 2, size);
            goto out;
        }
    }
    own_call = 1;
    CUresult r = drv.ctx_current(&ctx);
    const char *step = "cuCtxGetCurrent";
    if (r == CUDA_SUCCESS && (step = "cuGraphClone", r = drv.graph_clone(&g, x->snapshot)) == CUDA_SUCCESS &&
        (step = "cuGraphNodeFindInClone", r = drv.find_in_clone(&target, node, g)) == CUDA_SUCCESS &&
        (step = "adding the copy nodes and instantiating", r = isolate_and_copy(g, target, st, ctx, &e)) == CUDA_SUCCESS &&
        (step = "cuCtxSynchronize before the graph", r = drv.ctx_sync()) == CUDA_SUCCESS &&
        (step = "cuGraphLaunch", r = drv.graph_launch(e, stream)) == CUDA_SUCCESS)
        step = "running the graph", r = drv.ctx_sync();
    own_call = 0;
    if (r != CUDA_SUCCESS) {
        add_error("capturing the graph's kernel node failed at %s: CUresult %d", step, (int)r);
        goto out;
    }
    buf = chunk_buffer("in the graph", &fail);
    for (size_t i = 0; !fail && i < 2 * C.nalloc; i++)
        fail = dump_alloc(i / 2, i % 2 ? "after" : "before", st[i].dev, st[i].host, buf) != 0;
    rc = fail ? -1 : 0;
out:
    own_call = 1;
    if (e)
        drv.exec_destroy(e);
    if (g)
        drv.graph_destroy(g);
    free_stages(st, 2 * C.nalloc);
    own_call = 0;
    free(buf);
    return rc;
}

/* The K-th launch is node `hit` of exec x launched on `stream` (state CAPTURING, this thread):
 * captured, or refused saying why. */
static void capture_graph_node(const graph_exec *x, const graph_entry *hit, CUstream stream, const char *api,
                               uint64_t conditional_runs)
{
    char why[256] = "";
    if (x->refuse[0])
        snprintf(why, sizeof why, "%s", x->refuse);
    else if (!hit->node)
        snprintf(why, sizeof why, "the node is inside a child graph node");
    else if (C.changes_unwatched)
        snprintf(why, sizeof why, "CUPTI refused to report the calls that change an executable graph");
    else if (x->changed_by[0])
        snprintf(why, sizeof why, "the executable graph was changed after its instantiation (%s)", x->changed_by);
    if (!why[0] && conditional_runs) {
        refuse_uncounted(hit->name, conditional_runs);
        return;
    }
    if (why[0]) {
        add_error("launch %llu of kernel %s is a kernel node of a CUDA graph that cannot be captured exactly: %s",
                  (unsigned long long)C.nth, hit->name, why);
        finish("error");
        return;
    }
    CUDA_KERNEL_NODE_PARAMS p = {0};
    CUresult r = drv.kernel_node_params(hit->node, &p);
    if (r != CUDA_SUCCESS) {
        add_error("reading the graph's kernel node failed: CUresult %d", (int)r);
        finish("error");
        return;
    }
    /* a node made from a CUkernel: its function in the current context, whose parameter layout
     * cuFuncGetParamInfo gives (else the CUkernel itself, as param_info takes one) */
    CUfunction f = NULL;
    if (!p.func && p.kern && drv.kernel_function && drv.kernel_function(&f, p.kern) == CUDA_SUCCESS && f)
        p.func = f;
    launch l = {.api = api, .f = node_function(&p), .grid = {p.gridDimX, p.gridDimY, p.gridDimZ},
                .block = {p.blockDimX, p.blockDimY, p.blockDimZ}, .shared = p.sharedMemBytes,
                .stream = stream, .args = p.kernelParams, .extra = p.extra};
    CUkernelNodeAttrValue v;
    memset(&v, 0, sizeof v);
    if (drv.kernel_node_attr && drv.kernel_node_attr(hit->node, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &v) == CUDA_SUCCESS) {
        l.cluster[0] = v.clusterDim.x;
        l.cluster[1] = v.clusterDim.y;
        l.cluster[2] = v.clusterDim.z;
    }
    /* the driver may answer 1x1x1 for a node launched without clusters: the same launch */
    if (l.cluster[0] <= 1 && l.cluster[1] <= 1 && l.cluster[2] <= 1)
        memset(l.cluster, 0, sizeof l.cluster);
    if (!stream && strstr(api, "_ptsz"))
        l.stream = CU_STREAM_PER_THREAD;
    finish(record_launch(&l, hit->name) == 0 && run_with_copies(x, hit->node, l.stream) == 0 ? "captured" : "error");
}

/* ENTER of the program's cuGraphLaunch of exec e on `stream`. */
static void on_graph_launch(CUgraphExec e, CUstream stream, const char *api)
{
    pthread_mutex_lock(&lock);
    if (C.state != WAITING || into_graph(stream, api)) { /* a child graph node of a graph being built */
        pthread_mutex_unlock(&lock);
        return;
    }
    C.graphs++;
    graph_exec *x = find_exec(e);
    const graph_entry *hit = NULL;
    uint64_t before_this = C.conditional_runs;
    if (x && x->conditional)
        C.conditional_runs++;
    for (size_t i = 0; x && !hit && i < x->nentries; i++) {
        seen_kernel *s = seen_entry(x->entries[i].key, x->entries[i].name);
        if (s)
            s->count++;
        if (x->entries[i].wanted && ++C.matched == C.nth)
            hit = &x->entries[i];
    }
    if (hit)
        C.state = claim() ? CAPTURING : DONE;
    int capturing = hit && C.state == CAPTURING;
    pthread_mutex_unlock(&lock);
    /* x stays valid: exec table changes only while WAITING, and the state is no longer that */
    if (capturing)
        capture_graph_node(x, hit, stream, api, before_this);
}

/* A call that changes an executable graph after its instantiation, returned `r`. */
static void on_exec_changed(CUgraphExec e, const char *call, CUresult r)
{
    if (r != CUDA_SUCCESS)
        return;
    pthread_mutex_lock(&lock);
    graph_exec *x = C.state == WAITING ? find_exec(e) : NULL;
    /* the first change is named, but a disabled node before all: it outlives cuGraphExecUpdate */
    if (x && (!x->changed_by[0] || (call && strncmp(call, "cuGraphNodeSetEnabled", 21) == 0)))
        snprintf(x->changed_by, sizeof x->changed_by, "%s", call ? call : "a cuGraphExec* call");
    pthread_mutex_unlock(&lock);
}

static void on_launch_enter(const launch *l, const char *symbol)
{
    pthread_mutex_lock(&lock);
    if (C.state != WAITING) {
        pthread_mutex_unlock(&lock);
        return;
    }
    seen_kernel *s = seen_entry(l->f, symbol);
    int is_it = 0;
    int named;
    if (s) {
        named = s->matches;
        symbol = s->name;
    } else {
        const char *name = symbol;
        if (!name && drv.func_name && drv.func_name(&name, l->f) != CUDA_SUCCESS)
            name = NULL;
        named = name && matches(name);
        symbol = name;
    }
    /* Into a graph being built: runs nothing; the node is counted when the graph runs (every
     * kernel's nodes are, for the seen table, so every kernel's launch is asked). */
    int runs = !into_graph(l->stream, l->api);
    if (s && runs)
        s->count++;
    if (named && runs)
        is_it = ++C.matched == C.nth;
    if (is_it)
        C.state = claim() ? CAPTURING : DONE;
    uint64_t conditional_runs = C.conditional_runs;
    pthread_mutex_unlock(&lock);
    is_it = is_it && C.state == CAPTURING;
    if (!is_it)
        return;
    if (conditional_runs) {
        refuse_uncounted(symbol ? symbol : "(unnamed)", conditional_runs);
        return;
    }
    capturing_here = 1;
    if (capture_before(l, symbol ? symbol : "(unnamed)") != 0) {
        capturing_here = 0;
        finish("error");
    }
}

static void take_cluster(const CUlaunchConfig *cfg, unsigned cluster[3])
{
    for (unsigned i = 0; cfg->attrs && i < cfg->numAttrs; i++)
        if (cfg->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            cluster[0] = cfg->attrs[i].value.clusterDim.x;
            cluster[1] = cfg->attrs[i].value.clusterDim.y;
            cluster[2] = cfg->attrs[i].value.clusterDim.z;
        }
}

/* The calls that change an executable graph after its instantiation (each takes the exec first;
 * cuGraphExecUpdate is handled as a new instantiation). */
static const CUpti_CallbackId exec_changes[] = {
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2,
    CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecHostNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventRecordNodeSetEvent,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventWaitNodeSetEvent,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresSignalNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresWaitNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecBatchMemOpNodeSetParams,
};
#define N_EXEC_CHANGES (sizeof exec_changes / sizeof *exec_changes)

/* A graph call (instantiate, launch, change, destroy): handled, 1; another call, 0. */
static int on_graph_call(CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    int enter = d->callbackSite == CUPTI_API_ENTER;
    CUresult r = d->functionReturnValue ? *(const CUresult *)d->functionReturnValue : CUDA_SUCCESS;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz: {
        const cuGraphLaunch_params *p = d->functionParams; /* the _ptsz form has the same layout */
        if (enter)
            on_graph_launch(p->hGraph, p->hStream,
                            cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ? "cuGraphLaunch" : "cuGraphLaunch_ptsz");
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2: {
        const cuGraphInstantiate_v2_params *p = d->functionParams;
        if (!enter && r == CUDA_SUCCESS && p->phGraphExec)
            on_instantiated(*p->phGraphExec, p->hGraph, 0, NULL);
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags: {
        const cuGraphInstantiateWithFlags_params *p = d->functionParams;
        if (!enter && r == CUDA_SUCCESS && p->phGraphExec)
            on_instantiated(*p->phGraphExec, p->hGraph, p->flags, NULL);
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz: {
        const cuGraphInstantiateWithParams_params *p = d->functionParams;
        if (!enter && r == CUDA_SUCCESS && p->phGraphExec)
            on_instantiated(*p->phGraphExec, p->hGraph, p->instantiateParams ? p->instantiateParams->flags : 0,
                            NULL);
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2: {
        /* a successful update makes the exec run hGraph's node parameters: as a new
         * instantiation, but a node disabled before stays so (the update sets parameters) */
        const cuGraphExecUpdate_v2_params *p = d->functionParams; /* both forms begin alike */
        cuuint64_t flags = 0;
        char disabled[sizeof ((graph_exec *)0)->changed_by] = "";
        if (!enter && r == CUDA_SUCCESS) {
            if (drv.exec_flags)
                drv.exec_flags(p->hGraphExec, &flags);
            pthread_mutex_lock(&lock);
            graph_exec *x = C.state == WAITING ? find_exec(p->hGraphExec) : NULL;
            if (x && strncmp(x->changed_by, "cuGraphNodeSetEnabled", 21) == 0)
                snprintf(disabled, sizeof disabled, "%s", x->changed_by);
            pthread_mutex_unlock(&lock);
            on_instantiated(p->hGraphExec, p->hGraph, flags, disabled[0] ? disabled : NULL);
        }
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy:
        if (enter)
            forget_exec(((const cuGraphExecDestroy_params *)d->functionParams)->hGraphExec);
        return 1;
    default:
        for (size_t i = 0; i < N_EXEC_CHANGES; i++)
            if (cbid == exec_changes[i]) {
                if (!enter) /* every such call's parameters begin with the exec */
                    on_exec_changed(*(const CUgraphExec *)d->functionParams, d->functionName, r);
                return 1;
            }
        return 0;
    }
}

static void on_driver(CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    if (on_graph_call(cbid, d))
        return;
    if (d->callbackSite == CUPTI_API_EXIT) {
        if (capturing_here)
            capture_after(d->functionReturnValue ? *(const CUresult *)d->functionReturnValue : CUDA_SUCCESS);
        return;
    }
    driver_seen = 1;
    launch l = {0};
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) {
        const cuLaunchKernel_params *p = d->functionParams;
        l = (launch){.api = cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ? "cuLaunchKernel" : "cuLaunchKernel_ptsz",
                     .f = p->f,
                     .grid = {p->gridDimX, p->gridDimY, p->gridDimZ},
                     .block = {p->blockDimX, p->blockDimY, p->blockDimZ},
                     .shared = p->sharedMemBytes,
                     .stream = p->hStream,
                     .args = p->kernelParams,
                     .extra = p->extra};
    } else {
        const cuLaunchKernelEx_params *p = d->functionParams;
        if (!p->config)
            return;
        l = (launch){.api = cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ? "cuLaunchKernelEx" : "cuLaunchKernelEx_ptsz",
                     .f = p->f,
                     .grid = {p->config->gridDimX, p->config->gridDimY, p->config->gridDimZ},
                     .block = {p->config->blockDimX, p->config->blockDimY, p->config->blockDimZ},
                     .shared = p->config->sharedMemBytes,
                     .stream = p->config->hStream,
                     .args = p->kernelParams,
                     .extra = p->extra};
        take_cluster(p->config, l.cluster);
    }
    on_launch_enter(&l, d->symbolName);
}

/* A runtime launch: remembers whether a driver launch callback came inside it. */
static void on_runtime(const CUpti_CallbackData *d)
{
    if (d->callbackSite == CUPTI_API_ENTER) {
        if (runtime_depth++ == 0)
            driver_seen = 0;
        return;
    }
    if (runtime_depth > 0 && --runtime_depth == 0 && !driver_seen && d->symbolName) {
        pthread_mutex_lock(&lock);
        if (C.state == WAITING && matches(d->symbolName))
            C.runtime_only++;
        pthread_mutex_unlock(&lock);
    }
}

static void CUPTIAPI on_callback(void *data, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *cbdata)
{
    (void)data;
    if (own_call) /* the library's own graph calls */
        return;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
        on_driver(cbid, cbdata);
    else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        on_runtime(cbdata);
}

static void at_exit(void)
{
    if (getpid() != C.owner)
        return;
    pthread_mutex_lock(&lock);
    int waiting = C.state == WAITING;
    C.state = DONE;
    if (waiting && !claimed()) /* another process of the program captured it */
        write_manifest("not-found");
    pthread_mutex_unlock(&lock);
}

/* ---- start ---------------------------------------------------------------------------- */

static void unavailable(const char *dir, const char *why)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/unavailable", dir) >= (int)sizeof path)
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    char line[600];
    int n = snprintf(line, sizeof line, "%s\n", why);
    if (write_all(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) != 0) {
        /* nothing more to say: the missing manifest tells kerndiff capture the rest */
    }
    close(fd);
}

#define LOAD(lib, field, symbol) memcpy(&(field), &(void *){dlsym(lib, symbol)}, sizeof(void *))

/* The C++ runtime's demangler: the program's own if it has one, else libstdc++'s. */
static void load_demangler(void)
{
    LOAD(RTLD_DEFAULT, demangle, "__cxa_demangle");
    if (!demangle) {
        void *cxx = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
        if (cxx)
            LOAD(cxx, demangle, "__cxa_demangle");
    }
}

static uint64_t env_number(const char *name, uint64_t fallback)
{
    const char *v = getenv(name);
    char *end = NULL;
    if (!v || !*v)
        return fallback;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    return errno || *end || n == 0 ? fallback : (uint64_t)n;
}

int kd_capture_start(const char *dir, void *cupti_lib)
{
    if (!cupti_lib)
        return unavailable(dir, "libcupti not found (set KERNDIFF_CUPTI_LIBRARY)"), 1;
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!cuda)
        cuda = dlopen("libcuda.so.1", RTLD_NOW);
    if (!cuda) {
        char why[512];
        const char *err = dlerror();
        snprintf(why, sizeof why, "libcuda.so.1 could not be opened: %s", err ? err : "?");
        return unavailable(dir, why), 1;
    }
    LOAD(cuda, drv.address_range, "cuMemGetAddressRange_v2");
    LOAD(cuda, drv.dtoh, "cuMemcpyDtoH_v2");
    LOAD(cuda, drv.ctx_sync, "cuCtxSynchronize");
    LOAD(cuda, drv.ctx_device, "cuCtxGetDevice");
    LOAD(cuda, drv.device_name, "cuDeviceGetName");
    LOAD(cuda, drv.device_attr, "cuDeviceGetAttribute");
    LOAD(cuda, drv.func_name, "cuFuncGetName");
    LOAD(cuda, drv.func_param, "cuFuncGetParamInfo");
    LOAD(cuda, drv.kernel_param, "cuKernelGetParamInfo");
    LOAD(cuda, drv.stream_capturing, "cuStreamIsCapturing");
    LOAD(cuda, drv.kernel_name, "cuKernelGetName");
    LOAD(cuda, drv.kernel_function, "cuKernelGetFunction");
    LOAD(cuda, drv.graph_nodes, "cuGraphGetNodes");
    LOAD(cuda, drv.node_type, "cuGraphNodeGetType");
    LOAD(cuda, drv.kernel_node_params, "cuGraphKernelNodeGetParams_v2");
    LOAD(cuda, drv.kernel_node_attr, "cuGraphKernelNodeGetAttribute");
    LOAD(cuda, drv.child_graph, "cuGraphChildGraphNodeGetGraph");
    LOAD(cuda, drv.graph_clone, "cuGraphClone");
    LOAD(cuda, drv.find_in_clone, "cuGraphNodeFindInClone");
    LOAD(cuda, drv.graph_edges, "cuGraphGetEdges_v2");
    LOAD(cuda, drv.add_deps, "cuGraphAddDependencies_v2");
    LOAD(cuda, drv.add_memcpy, "cuGraphAddMemcpyNode");
    LOAD(cuda, drv.instantiate, "cuGraphInstantiateWithFlags");
    LOAD(cuda, drv.graph_launch, "cuGraphLaunch");
    LOAD(cuda, drv.exec_destroy, "cuGraphExecDestroy");
    LOAD(cuda, drv.exec_flags, "cuGraphExecGetFlags");
    LOAD(cuda, drv.graph_destroy, "cuGraphDestroy");
    LOAD(cuda, drv.mem_alloc, "cuMemAlloc_v2");
    LOAD(cuda, drv.mem_free, "cuMemFree_v2");
    LOAD(cuda, drv.host_alloc, "cuMemAllocHost_v2");
    LOAD(cuda, drv.host_free, "cuMemFreeHost");
    LOAD(cuda, drv.ctx_current, "cuCtxGetCurrent");
    LOAD(cupti_lib, cupti.subscribe, "cuptiSubscribe");
    LOAD(cupti_lib, cupti.enable_callback, "cuptiEnableCallback");
    load_demangler();
    if (!cupti.subscribe || !cupti.enable_callback)
        return unavailable(dir, "libcupti lacks the callback API"), 1;
    const char *want = getenv("KERNDIFF_CAPTURE_FN");
    C.dir = strdup(dir);
    C.want = strdup(want ? want : "");
    C.nth = env_number("KERNDIFF_CAPTURE_NTH", 1);
    C.max_bytes = env_number("KERNDIFF_CAPTURE_MAX_BYTES", DEFAULT_MAX_BYTES);
    const char *go_on = getenv("KERNDIFF_CAPTURE_CONTINUE");
    C.keep_going = go_on && strcmp(go_on, "1") == 0;
    if (!C.dir || !C.want)
        return unavailable(dir, "out of memory"), 1;
    if (!*C.want)
        add_error("KERNDIFF_CAPTURE_FN is not set: no kernel to capture");
    CUpti_SubscriberHandle sub;
    if (cupti.subscribe(&sub, on_callback, NULL) != CUPTI_SUCCESS)
        return unavailable(dir, "CUPTI refused the callback subscription (another profiler in the process?)"), 1;
    const CUpti_CallbackId driver_ids[] = {
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,   CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate, CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2,
        CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags, CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams,
        CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz, CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy,
    };
    const CUpti_CallbackId runtime_ids[] = {
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,  CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
        CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,   CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
    };
    for (size_t i = 0; i < sizeof driver_ids / sizeof *driver_ids; i++)
        if (cupti.enable_callback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, driver_ids[i]) != CUPTI_SUCCESS)
            return unavailable(dir, "CUPTI refused a driver launch callback"), 1;
    for (size_t i = 0; i < N_EXEC_CHANGES; i++)
        if (cupti.enable_callback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, exec_changes[i]) != CUPTI_SUCCESS)
            C.changes_unwatched = 1;
    for (size_t i = 0; i < sizeof runtime_ids / sizeof *runtime_ids; i++)
        if (cupti.enable_callback(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API, runtime_ids[i]) != CUPTI_SUCCESS)
            add_error("CUPTI refused runtime launch callback %u (only a diagnostic is lost)", (unsigned)runtime_ids[i]);
    C.owner = getpid();
    atexit(at_exit);
    return 1;
}
