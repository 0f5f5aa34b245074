/* inject.c — libkerndiff-inject.so, the collector of `kerndiff app`. The CUDA driver loads
 * it into any CUDA program named by CUDA_INJECTION64_PATH and calls InitializeInjection;
 * it subscribes to CUPTI's activity records (kernels, copies, memsets, runtime and driver
 * API calls), aggregates them per kernel and launch configuration, per copy kind and per
 * API call, and at exit writes one records file, $KERNDIFF_APP_RECORDS/PID.rec (format:
 * docs/APP.md). Aggregating in the process bounds its memory by the number of distinct
 * kernels, not launches, so a program making millions of launches costs a few KiB here.
 *
 * With $KERNDIFF_APP_RANGE set, only activity started inside NVTX ranges of that name is
 * kept (nvtxRangePushA/PushEx ... nvtxRangePop on any thread, and nvtxRangeStartA/StartEx
 * ... nvtxRangeEnd, which may end on another thread). The library is then also
 * the NVTX injection (NVTX_INJECTION64_PATH): it hands NVTX over to CUPTI, whose callbacks
 * tell where ranges begin and end. A range is recorded as an interval of CUPTI correlation
 * ids, which grow with every API call in the process, and every activity record carries the
 * id of the call that caused it: records can arrive long after their range closed and still
 * be placed exactly.
 *
 * Built against the toolkit's CUPTI headers; libcupti itself is dlopen'ed, found as the
 * harness finds it (harness/cupti_library.c), so the library loads (and does nothing) where
 * CUPTI is missing. Never calls exit, never prints on stdout: the program's output is its own. */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cupti.h>
#include <generated_nvtx_meta.h>

#include "capture_inject.h"
#include "cupti_library.h"

#define EXPORT __attribute__((visibility("default")))
enum { BUFFER_BYTES = 8 << 20, MAX_NESTING = 64 };

static struct {
    CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
    CUptiResult (*enable)(CUpti_ActivityKind);
    CUptiResult (*flush_all)(uint32_t);
    CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
    CUptiResult (*dropped)(CUcontext, uint32_t, size_t *);
    CUptiResult (*callback_name)(CUpti_CallbackDomain, uint32_t, const char **);
    CUptiResult (*subscribe)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
    CUptiResult (*enable_domain)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain);
} cupti;

/* One kernel at one launch configuration. */
typedef struct kernel_entry {
    char *name; /* as CUPTI gives it (mangled); kerndiff demangles */
    int32_t grid[3], block[3];
    uint16_t registers;
    int32_t static_smem, dynamic_smem;
    uint64_t count, total_ns, min_ns, max_ns;
} kernel_entry;

typedef struct totals {
    uint64_t count, bytes, ns;
} totals;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static kernel_entry *kernels; /* open addressing, `kernel_slots` a power of two */
static size_t kernel_slots, kernel_used;
static totals copies[CUPTI_ACTIVITY_MEMCPY_KIND_PTOP + 1], memsets;
static totals runtime_api[CUPTI_RUNTIME_TRACE_CBID_SIZE], driver_api[CUPTI_DRIVER_TRACE_CBID_SIZE];
static uint64_t lost_records; /* could not be stored (memory), or dropped by CUPTI */
static char *out_dir;
static pid_t owner_pid; /* the process that initialised: a forked child writes nothing */

/* --range: intervals [lo, hi] of correlation ids, in order; hi = UINT32_MAX while open. */
static const char *range_name;
static struct { uint32_t lo, hi; } *intervals;
static size_t ninterval, interval_cap;
static _Atomic uint32_t last_correlation;
static _Atomic int open_depth; /* matching ranges open, over all threads */
static _Thread_local int nest;
static _Thread_local unsigned char nest_ours[MAX_NESTING];
/* Start/end ranges of that name still open, by the id nvtxRangeStart returned: nvtxRangeEnd
 * names its range by id only, and start/end ranges need not nest. Under `lock`. */
static nvtxRangeId_t *open_ids;
static size_t nopen_ids, open_ids_cap;

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static uint64_t hash_kernel(const kernel_entry *k)
{
    uint64_t h = hash_name(k->name);
    const int32_t v[] = {k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2],
                         k->registers, k->static_smem, k->dynamic_smem};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        h = (h ^ (uint32_t)v[i]) * 1099511628211ull;
    return h;
}

static int same_kernel(const kernel_entry *a, const kernel_entry *b)
{
    return strcmp(a->name, b->name) == 0 && !memcmp(a->grid, b->grid, sizeof a->grid) &&
           !memcmp(a->block, b->block, sizeof a->block) && a->registers == b->registers &&
           a->static_smem == b->static_smem && a->dynamic_smem == b->dynamic_smem;
}

static kernel_entry *slot_for(kernel_entry *table, size_t slots, const kernel_entry *key)
{
    for (size_t i = hash_kernel(key) & (slots - 1);; i = (i + 1) & (slots - 1))
        if (!table[i].name || same_kernel(&table[i], key))
            return &table[i];
}

/* Room for one more entry, the table kept at most half full. */
static int grow(void)
{
    if (kernel_used * 2 < kernel_slots)
        return 0;
    size_t slots = kernel_slots ? kernel_slots * 2 : 256;
    kernel_entry *table = calloc(slots, sizeof *table);
    if (!table)
        return -1;
    for (size_t i = 0; i < kernel_slots; i++)
        if (kernels[i].name)
            *slot_for(table, slots, &kernels[i]) = kernels[i];
    free(kernels);
    kernels = table;
    kernel_slots = slots;
    return 0;
}

static void add_kernel(const CUpti_ActivityKernel10 *r)
{
    kernel_entry key = {
        .name = (char *)(r->name ? r->name : "(unnamed)"),
        .grid = {r->gridX, r->gridY, r->gridZ}, .block = {r->blockX, r->blockY, r->blockZ},
        .registers = r->registersPerThread, .static_smem = r->staticSharedMemory,
        .dynamic_smem = r->dynamicSharedMemory,
    };
    uint64_t ns = r->end > r->start ? r->end - r->start : 0;
    if (grow() != 0) {
        lost_records++;
        return;
    }
    kernel_entry *e = slot_for(kernels, kernel_slots, &key);
    if (!e->name) {
        key.name = strdup(key.name);
        if (!key.name) {
            lost_records++;
            return;
        }
        key.min_ns = ns;
        *e = key;
        kernel_used++;
    }
    e->count++;
    e->total_ns += ns;
    if (ns < e->min_ns)
        e->min_ns = ns;
    if (ns > e->max_ns)
        e->max_ns = ns;
}

static void add(totals *t, uint64_t bytes, uint64_t start, uint64_t end)
{
    t->count++;
    t->bytes += bytes;
    t->ns += end > start ? end - start : 0;
}

/* Whether the record caused by call `correlation` belongs to the collected range. */
static int in_range(uint32_t correlation)
{
    if (!range_name)
        return 1;
    size_t lo = 0, hi = ninterval; /* the last interval starting at or before it */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (intervals[mid].lo <= correlation)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && correlation <= intervals[lo - 1].hi;
}

static void record(const CUpti_Activity *a)
{
    switch (a->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: {
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)a;
        if (in_range(k->correlationId))
            add_kernel(k);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)a;
        if (in_range(m->correlationId))
            add(&copies[m->copyKind <= CUPTI_ACTIVITY_MEMCPY_KIND_PTOP ? m->copyKind : 0], m->bytes, m->start, m->end);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)a;
        if (in_range(m->correlationId))
            add(&memsets, m->bytes, m->start, m->end);
        break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
        const CUpti_ActivityAPI *api = (const CUpti_ActivityAPI *)a;
        int runtime = a->kind == CUPTI_ACTIVITY_KIND_RUNTIME;
        size_t size = runtime ? CUPTI_RUNTIME_TRACE_CBID_SIZE : CUPTI_DRIVER_TRACE_CBID_SIZE;
        if (api->cbid < size && in_range(api->correlationId))
            add(&(runtime ? runtime_api : driver_api)[api->cbid], 0, api->start, api->end);
        break;
    }
    default:
        break;
    }
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    (void)size;
    CUpti_Activity *a = NULL;
    pthread_mutex_lock(&lock);
    while (cupti.next_record(buffer, valid, &a) == CUPTI_SUCCESS)
        record(a);
    size_t dropped = 0;
    if (cupti.dropped(ctx, stream, &dropped) == CUPTI_SUCCESS)
        lost_records += dropped;
    pthread_mutex_unlock(&lock);
    free(buffer);
}

/* The message of an NVTX push or range start, when it is ASCII. PushA and StartA take the
 * same parameters, as do PushEx and StartEx. */
static const char *range_message(CUpti_CallbackId cbid, const CUpti_NvtxData *d)
{
    if (cbid == CUPTI_CBID_NVTX_nvtxRangePushA || cbid == CUPTI_CBID_NVTX_nvtxRangeStartA)
        return ((const nvtxRangePushA_params *)d->functionParams)->message;
    const nvtxEventAttributes_t *attr = ((const nvtxRangePushEx_params *)d->functionParams)->eventAttrib;
    return attr && attr->messageType == NVTX_MESSAGE_TYPE_ASCII ? attr->message.ascii : NULL;
}

/* A range of that name opened: the first of those open starts an interval. */
static void range_opened(void)
{
    if (atomic_fetch_add(&open_depth, 1) != 0)
        return;
    pthread_mutex_lock(&lock);
    void *grown = ninterval < interval_cap ? intervals
                                           : realloc(intervals, (interval_cap = interval_cap * 2 + 64) * sizeof *intervals);
    if (grown) {
        intervals = grown;
        intervals[ninterval].lo = atomic_load(&last_correlation) + 1;
        intervals[ninterval++].hi = UINT32_MAX;
    }
    pthread_mutex_unlock(&lock);
}

/* ... closed: the last of those open ends the interval. */
static void range_closed(void)
{
    if (atomic_fetch_sub(&open_depth, 1) != 1)
        return;
    pthread_mutex_lock(&lock);
    if (ninterval)
        intervals[ninterval - 1].hi = atomic_load(&last_correlation);
    pthread_mutex_unlock(&lock);
}

/* Remembers (add) or forgets a start/end range's id; whether it was (or is now) there. */
static int open_id(nvtxRangeId_t id, int add)
{
    int found = 0;
    pthread_mutex_lock(&lock);
    if (add) {
        void *grown = nopen_ids < open_ids_cap ? open_ids
                                               : realloc(open_ids, (open_ids_cap = open_ids_cap * 2 + 16) * sizeof *open_ids);
        if (grown) {
            open_ids = grown;
            open_ids[nopen_ids++] = id;
            found = 1;
        }
    } else {
        for (size_t i = nopen_ids; i-- > 0 && !found;)
            if (open_ids[i] == id) {
                open_ids[i] = open_ids[--nopen_ids];
                found = 1;
            }
    }
    pthread_mutex_unlock(&lock);
    return found;
}

static void range_event(CUpti_CallbackId cbid, const CUpti_NvtxData *d)
{
    if (cbid == CUPTI_CBID_NVTX_nvtxRangePushA || cbid == CUPTI_CBID_NVTX_nvtxRangePushEx) {
        const char *msg = range_message(cbid, d);
        int ours = msg && strcmp(msg, range_name) == 0;
        if (nest < MAX_NESTING)
            nest_ours[nest] = (unsigned char)ours;
        nest++;
        if (ours)
            range_opened();
    } else if (cbid == CUPTI_CBID_NVTX_nvtxRangePop && nest > 0) {
        nest--;
        if (nest < MAX_NESTING && nest_ours[nest])
            range_closed();
    } else if (cbid == CUPTI_CBID_NVTX_nvtxRangeStartA || cbid == CUPTI_CBID_NVTX_nvtxRangeStartEx) {
        /* The id is the call's return value: without it the end could not be matched. */
        const char *msg = range_message(cbid, d);
        if (msg && strcmp(msg, range_name) == 0 && d->functionReturnValue &&
            open_id(*(const nvtxRangeId_t *)d->functionReturnValue, 1))
            range_opened();
    } else if (cbid == CUPTI_CBID_NVTX_nvtxRangeEnd) {
        if (open_id(((const nvtxRangeEnd_params *)d->functionParams)->id, 0))
            range_closed();
    }
}

static void CUPTIAPI on_callback(void *data, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *cbdata)
{
    (void)data;
    if (domain == CUPTI_CB_DOMAIN_NVTX) {
        range_event(cbid, cbdata);
        return;
    }
    const CUpti_CallbackData *d = cbdata;
    uint32_t id = d->correlationId, seen = atomic_load(&last_correlation);
    while (id > seen && !atomic_compare_exchange_weak(&last_correlation, &seen, id))
        ;
}

static void put_totals(FILE *f, const char *what, const totals *t)
{
    fprintf(f, "%s %llu %llu %llu\n", what, (unsigned long long)t->count, (unsigned long long)t->bytes,
            (unsigned long long)t->ns);
}

static void put_api(FILE *f, CUpti_CallbackDomain domain, const totals *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *name = NULL;
        if (!t[i].count)
            continue;
        if (cupti.callback_name(domain, (uint32_t)i, &name) != CUPTI_SUCCESS || !name)
            name = "(unknown)";
        fprintf(f, "api %s %llu %llu %s\n", domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : "driver",
                (unsigned long long)t[i].count, (unsigned long long)t[i].ns, name);
    }
}

/* Writes PID.rec through a temporary name, so kerndiff never reads half a file. */
static void write_records(void)
{
    char path[4096], tmp[4096];
    snprintf(path, sizeof path, "%s/%d.rec", out_dir, (int)getpid());
    snprintf(tmp, sizeof tmp, "%s/%d.rec.tmp", out_dir, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    fprintf(f, "kerndiff-records 1\npid %d\n", (int)getpid());
    if (range_name)
        fprintf(f, "ranges %zu\n", ninterval);
    for (size_t i = 0; i < kernel_slots; i++) {
        const kernel_entry *k = &kernels[i];
        if (!k->name)
            continue;
        fprintf(f, "kernel %llu %llu %llu %llu %d %d %d %d %d %d %u %d %d ", (unsigned long long)k->count,
                (unsigned long long)k->total_ns, (unsigned long long)k->min_ns, (unsigned long long)k->max_ns,
                k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2], k->registers,
                k->static_smem, k->dynamic_smem);
        for (const char *c = k->name; *c; c++) /* one line per record, whatever the name holds */
            fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
        fputc('\n', f);
    }
    for (int kind = 0; kind <= CUPTI_ACTIVITY_MEMCPY_KIND_PTOP; kind++)
        if (copies[kind].count)
            fprintf(f, "copy %d %llu %llu %llu\n", kind, (unsigned long long)copies[kind].count,
                    (unsigned long long)copies[kind].bytes, (unsigned long long)copies[kind].ns);
    if (memsets.count)
        put_totals(f, "memset", &memsets);
    put_api(f, CUPTI_CB_DOMAIN_RUNTIME_API, runtime_api, CUPTI_RUNTIME_TRACE_CBID_SIZE);
    put_api(f, CUPTI_CB_DOMAIN_DRIVER_API, driver_api, CUPTI_DRIVER_TRACE_CBID_SIZE);
    if (lost_records)
        fprintf(f, "lost %llu\n", (unsigned long long)lost_records);
    fputs("end\n", f);
    if (fclose(f) == 0)
        rename(tmp, path);
    else
        unlink(tmp);
}

static void at_exit(void)
{
    if (getpid() != owner_pid)
        return;
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    pthread_mutex_lock(&lock);
    write_records();
    pthread_mutex_unlock(&lock);
}

/* Collection could not start: a file that says so, so that the report does not take the
 * process for one without GPU work. */
static int unavailable(const char *dir, const char *why)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%d.rec", dir, (int)getpid());
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "kerndiff-records 1\npid %d\nunavailable %s\nend\n", (int)getpid(), why);
        fclose(f);
    }
    return 1;
}

#define LOAD(lib, field, symbol) memcpy(&cupti.field, &(void *){dlsym(lib, symbol)}, sizeof(void *))

/* The NVTX injection entry: NVTX calls it at the program's first NVTX call when
 * NVTX_INJECTION64_PATH names this library; CUPTI's own entry does the work. */
EXPORT int InitializeInjectionNvtx2(void *get_export_table)
{
    void *lib = kd_cupti_library();
    int (*init)(void *) = NULL;
    if (lib)
        memcpy(&init, &(void *){dlsym(lib, "InitializeInjectionNvtx2")}, sizeof init);
    return init ? init(get_export_table) : 0;
}

/* Called by the CUDA driver at cuInit. Returns 1 (success) even when collection cannot
 * start: the program must run as it would without kerndiff; the missing file says why. */
EXPORT int InitializeInjection(void)
{
    /* `kerndiff capture`: one launch recorded instead of the whole-program collection. */
    const char *capture_dir = getenv("KERNDIFF_CAPTURE_DIR");
    if (capture_dir && *capture_dir)
        return kd_capture_start(capture_dir, kd_cupti_library());
    const char *dir = getenv("KERNDIFF_APP_RECORDS");
    if (!dir || !*dir)
        return 1;
    void *lib = kd_cupti_library();
    if (!lib)
        return unavailable(dir, "libcupti not found (set KERNDIFF_CUPTI_LIBRARY)");
    LOAD(lib, register_callbacks, "cuptiActivityRegisterCallbacks");
    LOAD(lib, enable, "cuptiActivityEnable");
    LOAD(lib, flush_all, "cuptiActivityFlushAll");
    LOAD(lib, next_record, "cuptiActivityGetNextRecord");
    LOAD(lib, dropped, "cuptiActivityGetNumDroppedRecords");
    LOAD(lib, callback_name, "cuptiGetCallbackName");
    LOAD(lib, subscribe, "cuptiSubscribe");
    LOAD(lib, enable_domain, "cuptiEnableDomain");
    if (!cupti.register_callbacks || !cupti.enable || !cupti.flush_all || !cupti.next_record || !cupti.dropped ||
        !cupti.callback_name || !cupti.subscribe || !cupti.enable_domain)
        return unavailable(dir, "libcupti lacks the activity API");
    out_dir = strdup(dir);
    const char *range = getenv("KERNDIFF_APP_RANGE");
    range_name = range && *range ? strdup(range) : NULL;
    if (!out_dir || cupti.register_callbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS)
        return unavailable(dir, "CUPTI refused the activity API (another profiler in the process?)");
    if (range_name) {
        CUpti_SubscriberHandle sub;
        if (cupti.subscribe(&sub, on_callback, NULL) != CUPTI_SUCCESS ||
            cupti.enable_domain(1, sub, CUPTI_CB_DOMAIN_NVTX) != CUPTI_SUCCESS ||
            cupti.enable_domain(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API) != CUPTI_SUCCESS ||
            cupti.enable_domain(1, sub, CUPTI_CB_DOMAIN_DRIVER_API) != CUPTI_SUCCESS)
            return unavailable(dir, "CUPTI refused the callbacks --range needs (another subscriber?)");
    }
    const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                        CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_RUNTIME,
                                        CUPTI_ACTIVITY_KIND_DRIVER};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (cupti.enable(kinds[i]) != CUPTI_SUCCESS)
            return unavailable(dir, "CUPTI refused an activity kind");
    owner_pid = getpid();
    atexit(at_exit);
    return 1;
}
