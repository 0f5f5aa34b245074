/* activity.h — the GPU activity of one run of a program (all its processes), as
 * `kerndiff app` compares it: kernels aggregated per name and launch configuration, copies
 * per kind, memsets, and CUDA API calls per name. Filled from the records files of
 * libkerndiff-inject.so (app/app_records.h) or from an nsys SQLite export (app/sqlite.h). */
#ifndef KD_APP_ACTIVITY_H
#define KD_APP_ACTIVITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CUPTI's CUpti_ActivityMemcpyKind values, which nsys's copyKind column uses too. */
enum { KD_COPY_HTOD = 1, KD_COPY_DTOH = 2, KD_COPY_DTOD = 8, KD_COPY_KINDS = 11 };

typedef struct kd_app_config {
    int grid[3], block[3];
    unsigned registers;
    int static_smem, dynamic_smem;
} kd_app_config;

typedef struct kd_app_kernel {
    char *name;           /* demangled */
    kd_app_config config;
    uint64_t count, total_ns, min_ns, max_ns;
} kd_app_kernel;

typedef struct kd_app_totals {
    uint64_t count, bytes, ns;
} kd_app_totals;

typedef struct kd_app_api {
    char *name;           /* "cudaMalloc", "cuLaunchKernel" */
    bool driver;          /* driver API (else runtime) */
    uint64_t count, ns;
} kd_app_api;

typedef struct kd_app_activity {
    kd_app_kernel *kernels;
    size_t nkernels, kernels_cap;
    kd_app_totals copies[KD_COPY_KINDS];
    kd_app_totals memsets;
    kd_app_api *apis;
    size_t napis, apis_cap;
    size_t processes;     /* processes that reported activity */
    bool has_ranges;      /* collected with --range */
    uint64_t ranges;      /* ... and the NVTX range instances seen */
    uint64_t lost;        /* records CUPTI dropped or the collector could not keep */
    size_t unavailable;   /* processes where collection could not start (CUPTI refused) */
    /* Hash indexes of kernels (name, configuration) and apis (name, domain) while they are
     * filled: a slot holds an entry's index + 1, 0 when empty. Adding stays O(1) with 200,000
     * distinct names (a linear search made `kerndiff app` quadratic: 152 s). Dropped once
     * the arrays are reordered (kd_app_activity_drop_index). */
    size_t *kernel_slots, nkernel_slots;
    size_t *api_slots, napi_slots;
} kd_app_activity;

/* Launches of one kernel at one configuration: how many, their summed, shortest and longest
 * time. */
typedef struct kd_app_kernel_launches {
    uint64_t count, total_ns, min_ns, max_ns;
} kd_app_kernel_launches;

/* Adds launches of one kernel at one configuration, merging with an equal entry. */
void kd_app_add_kernel(kd_app_activity *a, const char *name, const kd_app_config *cfg, const kd_app_kernel_launches *l);
/* Adds calls of one API function, merging by name and domain. */
void kd_app_add_api(kd_app_activity *a, const char *name, bool driver, uint64_t count, uint64_t ns);
void kd_app_activity_free(kd_app_activity *a);
/* Frees the indexes: the arrays are about to be reordered (sorted), and nothing more is added. */
void kd_app_activity_drop_index(kd_app_activity *a);

/* "HtoD", "DtoH", "DtoD", ... for a copy kind; "other" out of range. */
const char *kd_app_copy_kind_name(int kind);

/* What the totals count, from the API calls: allocations (cudaMalloc*, cuMemAlloc*) and
 * synchronisations (*Synchronize). A runtime call makes a driver call of its own, so each
 * is the larger of the runtime and the driver count, not their sum. */
uint64_t kd_app_allocations(const kd_app_activity *a);
uint64_t kd_app_synchronisations(const kd_app_activity *a);
/* Sum of kernel durations (overlapping kernels count in full), and launches. */
uint64_t kd_app_kernel_ns(const kd_app_activity *a);
uint64_t kd_app_launches(const kd_app_activity *a);

#endif
