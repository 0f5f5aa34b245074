#include "app/activity.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Grows an array of `size`-byte items to hold one more. */
static void reserve(void **items, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return;
    size_t want = *cap ? *cap * 2 : 32;
    *items = kd_xreallocarray(*items, want, size);
    *cap = want;
}

/* FNV-1a over bytes, continuing from h. */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t kernel_hash(const char *name, const kd_app_config *cfg)
{
    return fnv(fnv(0xcbf29ce484222325ull, name, strlen(name) + 1), cfg, sizeof *cfg);
}

static uint64_t api_hash(const char *name, bool driver)
{
    return fnv(fnv(0xcbf29ce484222325ull, name, strlen(name) + 1), &driver, sizeof driver);
}

/* The index's slot for a kernel: the one holding its entry, else the empty one to take.
 * Open addressing, linear probing; the table is kept at most half full. */
static size_t kernel_slot(const kd_app_activity *a, const char *name, const kd_app_config *cfg)
{
    size_t mask = a->nkernel_slots - 1, at = (size_t)kernel_hash(name, cfg) & mask;
    for (size_t e; (e = a->kernel_slots[at]); at = (at + 1) & mask) {
        const kd_app_kernel *k = &a->kernels[e - 1];
        if (!strcmp(k->name, name) && !memcmp(&k->config, cfg, sizeof *cfg))
            break;
    }
    return at;
}

static size_t api_slot(const kd_app_activity *a, const char *name, bool driver)
{
    size_t mask = a->napi_slots - 1, at = (size_t)api_hash(name, driver) & mask;
    for (size_t e; (e = a->api_slots[at]); at = (at + 1) & mask)
        if (a->apis[e - 1].driver == driver && !strcmp(a->apis[e - 1].name, name))
            break;
    return at;
}

/* Doubles the kernels' index when adding one more would fill it past half. */
static void grow_kernel_index(kd_app_activity *a)
{
    if (2 * (a->nkernels + 1) <= a->nkernel_slots)
        return;
    free(a->kernel_slots);
    a->nkernel_slots = a->nkernel_slots ? 2 * a->nkernel_slots : 64;
    a->kernel_slots = kd_xcalloc(a->nkernel_slots, sizeof *a->kernel_slots);
    for (size_t i = 0; i < a->nkernels; i++)
        a->kernel_slots[kernel_slot(a, a->kernels[i].name, &a->kernels[i].config)] = i + 1;
}

static void grow_api_index(kd_app_activity *a)
{
    if (2 * (a->napis + 1) <= a->napi_slots)
        return;
    free(a->api_slots);
    a->napi_slots = a->napi_slots ? 2 * a->napi_slots : 64;
    a->api_slots = kd_xcalloc(a->napi_slots, sizeof *a->api_slots);
    for (size_t i = 0; i < a->napis; i++)
        a->api_slots[api_slot(a, a->apis[i].name, a->apis[i].driver)] = i + 1;
}

void kd_app_add_kernel(kd_app_activity *a, const char *name, const kd_app_config *cfg, const kd_app_kernel_launches *l)
{
    grow_kernel_index(a);
    size_t at = kernel_slot(a, name, cfg);
    kd_app_kernel *k;
    if (a->kernel_slots[at]) {
        k = &a->kernels[a->kernel_slots[at] - 1];
    } else {
        reserve((void **)&a->kernels, a->nkernels, &a->kernels_cap, sizeof *a->kernels);
        k = &a->kernels[a->nkernels++];
        *k = (kd_app_kernel){.name = kd_xstrdup(name), .config = *cfg, .min_ns = l->min_ns};
        a->kernel_slots[at] = a->nkernels;
    }
    k->count += l->count;
    k->total_ns += l->total_ns;
    if (l->min_ns < k->min_ns)
        k->min_ns = l->min_ns;
    if (l->max_ns > k->max_ns)
        k->max_ns = l->max_ns;
}

void kd_app_add_api(kd_app_activity *a, const char *name, bool driver, uint64_t count, uint64_t ns)
{
    grow_api_index(a);
    size_t at = api_slot(a, name, driver);
    if (a->api_slots[at]) {
        kd_app_api *p = &a->apis[a->api_slots[at] - 1];
        p->count += count;
        p->ns += ns;
        return;
    }
    reserve((void **)&a->apis, a->napis, &a->apis_cap, sizeof *a->apis);
    a->apis[a->napis++] = (kd_app_api){.name = kd_xstrdup(name), .driver = driver, .count = count, .ns = ns};
    a->api_slots[at] = a->napis;
}

void kd_app_activity_drop_index(kd_app_activity *a)
{
    free(a->kernel_slots);
    free(a->api_slots);
    a->kernel_slots = a->api_slots = NULL;
    a->nkernel_slots = a->napi_slots = 0;
}

void kd_app_activity_free(kd_app_activity *a)
{
    for (size_t i = 0; i < a->nkernels; i++)
        free(a->kernels[i].name);
    for (size_t i = 0; i < a->napis; i++)
        free(a->apis[i].name);
    free(a->kernels);
    free(a->apis);
    kd_app_activity_drop_index(a);
    memset(a, 0, sizeof *a);
}

const char *kd_app_copy_kind_name(int kind)
{
    static const char *const names[KD_COPY_KINDS] = {"unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                                     "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"};
    return kind >= 0 && kind < KD_COPY_KINDS ? names[kind] : "other";
}

static uint64_t count_calls(const kd_app_activity *a, const char *const *patterns)
{
    uint64_t by_domain[2] = {0, 0};
    for (size_t i = 0; i < a->napis; i++)
        for (const char *const *p = patterns; *p; p++)
            if (strstr(a->apis[i].name, *p)) {
                by_domain[a->apis[i].driver] += a->apis[i].count;
                break;
            }
    return by_domain[0] > by_domain[1] ? by_domain[0] : by_domain[1];
}

uint64_t kd_app_allocations(const kd_app_activity *a)
{
    static const char *const patterns[] = {"Malloc", "MemAlloc", NULL};
    return count_calls(a, patterns);
}

uint64_t kd_app_synchronisations(const kd_app_activity *a)
{
    static const char *const patterns[] = {"Synchronize", NULL};
    return count_calls(a, patterns);
}

uint64_t kd_app_kernel_ns(const kd_app_activity *a)
{
    uint64_t ns = 0;
    for (size_t i = 0; i < a->nkernels; i++)
        ns += a->kernels[i].total_ns;
    return ns;
}

uint64_t kd_app_launches(const kd_app_activity *a)
{
    uint64_t n = 0;
    for (size_t i = 0; i < a->nkernels; i++)
        n += a->kernels[i].count;
    return n;
}
