/* cupti_profiler.c — see cupti_profiler.h. The sequence follows NVIDIA's range_profiling
 * sample (CUDA 13): host side (chip name → host object → metrics → config image), target side
 * (enable on the context → counter data image → set config → start/launch/stop until every
 * pass is submitted → decode), then the host object evaluates each range. */
#include "cupti_profiler.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "counters_reply.h"
#include "cupti_library.h"
#include "util/env.h"
#include "wire/locate.h"

enum { MAX_PASSES = 2000 };

#define API(name) CUptiResult (*name)(void *)
static struct {
    bool loaded;
    API(profiler_initialize);
    API(profiler_deinitialize);
    API(chip_name);
    API(availability);
    API(host_initialize);
    API(host_deinitialize);
    API(add_metrics);
    API(config_size);
    API(config_image);
    API(num_passes);
    API(evaluate);
    API(enable);
    API(disable);
    API(set_config);
    API(start);
    API(stop);
    API(decode);
    API(data_size);
    API(data_initialize);
    API(data_info);
    API(range_info);
    CUptiResult (*get_version)(uint32_t *); /* optional: which fields the loaded CUPTI knows */
} api;
#undef API

static const kd_cupti_symbol symbols[] = {
#define SYM(field, name) {offsetof(__typeof__(api), field), name}
    SYM(profiler_initialize, "cuptiProfilerInitialize"),
    SYM(profiler_deinitialize, "cuptiProfilerDeInitialize"),
    SYM(chip_name, "cuptiDeviceGetChipName"),
    SYM(availability, "cuptiProfilerGetCounterAvailability"),
    SYM(host_initialize, "cuptiProfilerHostInitialize"),
    SYM(host_deinitialize, "cuptiProfilerHostDeinitialize"),
    SYM(add_metrics, "cuptiProfilerHostConfigAddMetrics"),
    SYM(config_size, "cuptiProfilerHostGetConfigImageSize"),
    SYM(config_image, "cuptiProfilerHostGetConfigImage"),
    SYM(num_passes, "cuptiProfilerHostGetNumOfPasses"),
    SYM(evaluate, "cuptiProfilerHostEvaluateToGpuValues"),
    SYM(enable, "cuptiRangeProfilerEnable"),
    SYM(disable, "cuptiRangeProfilerDisable"),
    SYM(set_config, "cuptiRangeProfilerSetConfig"),
    SYM(start, "cuptiRangeProfilerStart"),
    SYM(stop, "cuptiRangeProfilerStop"),
    SYM(decode, "cuptiRangeProfilerDecodeData"),
    SYM(data_size, "cuptiRangeProfilerGetCounterDataSize"),
    SYM(data_initialize, "cuptiRangeProfilerCounterDataImageInitialize"),
    SYM(data_info, "cuptiRangeProfilerGetCounterDataInfo"),
    SYM(range_info, "cuptiRangeProfilerCounterDataGetRangeInfo"),
#undef SYM
};

static kd_cupti_status load(char *why, size_t why_len)
{
    if (api.loaded)
        return KD_CUPTI_OK;
    if (!kd_cupti_library()) {
        snprintf(why, why_len, "libcupti not found");
        return KD_CUPTI_UNAVAILABLE;
    }
    const char *missing = kd_cupti_resolve(&api, symbols, sizeof symbols / sizeof *symbols);
    if (missing) {
        snprintf(why, why_len, "libcupti lacks %s (the range profiler needs CUDA 12.6 or later)", missing);
        return KD_CUPTI_UNAVAILABLE;
    }
    void *f = dlsym(kd_cupti_library(), "cuptiGetVersion");
    memcpy(&api.get_version, &f, sizeof f);
    api.loaded = true;
    return KD_CUPTI_OK;
}

static const char *text_of(CUptiResult rc) { return kd_cupti_result_text((int)rc); }

/* A refusal that means "not here" (an old driver, no permission, an unsupported GPU or a
 * profiler already attached, ncu) rather than a failure of this launch. */
static kd_cupti_status classify(CUptiResult rc)
{
    switch (rc) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
        return KD_CUPTI_UNAVAILABLE;
    default:
        return KD_CUPTI_FAILED;
    }
}

#define CALL(fn, params, what)                                                                 \
    do {                                                                                       \
        CUptiResult rc_ = api.fn(&(params));                                                   \
        if (rc_ != CUPTI_SUCCESS) {                                                            \
            snprintf(why, why_len, "%s failed: %s (CUPTI error %d)", what, text_of(rc_), (int)rc_); \
            st = classify(rc_);                                                                \
            goto done;                                                                         \
        }                                                                                      \
    } while (0)

/* A host object for the chip with `metrics` added; NULL when adding failed (rc set). */
static CUpti_Profiler_Host_Object *host_with(const char *chip, const uint8_t *availability, const char **metrics,
                                             size_t n, CUptiResult *rc)
{
    CUpti_Profiler_Host_Initialize_Params hi = {.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = chip;
    hi.pCounterAvailabilityImage = availability;
    if ((*rc = api.host_initialize(&hi)) != CUPTI_SUCCESS)
        return NULL;
    CUpti_Profiler_Host_ConfigAddMetrics_Params am = {.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    am.pHostObject = hi.pHostObject;
    am.ppMetricNames = metrics;
    am.numMetrics = n;
    if ((*rc = api.add_metrics(&am)) == CUPTI_SUCCESS)
        return hi.pHostObject;
    CUpti_Profiler_Host_Deinitialize_Params d = {.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    d.pHostObject = hi.pHostObject;
    api.host_deinitialize(&d);
    return NULL;
}

static void host_free(CUpti_Profiler_Host_Object *host)
{
    if (!host)
        return;
    CUpti_Profiler_Host_Deinitialize_Params d = {.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    d.pHostObject = host;
    api.host_deinitialize(&d);
}

/* The metrics the chip does not know, each tried alone: "a,b". False when each alone is
 * accepted (the set failed for another reason). */
static bool name_unknown(const char *chip, const uint8_t *availability, const char **metrics, size_t n, char *why,
                         size_t why_len)
{
    size_t len = 0;
    why[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        CUptiResult rc;
        CUpti_Profiler_Host_Object *one = host_with(chip, availability, &metrics[i], 1, &rc);
        if (one) {
            host_free(one);
            continue;
        }
        int w = snprintf(why + len, why_len - len, "%s%s", len ? "," : "", metrics[i]);
        if (w > 0 && (size_t)w < why_len - len)
            len += (size_t)w;
    }
    return len > 0;
}

/* cuptiRangeProfilerPushRange / PopRange, looked up only for a user range (an experiment). */
static CUptiResult (*push_range)(CUpti_RangeProfiler_PushRange_Params *);
static CUptiResult (*pop_range)(CUpti_RangeProfiler_PopRange_Params *);

/* Start, one launch after its before_pass, stop, until CUPTI has every pass it needs; with
 * user_range, the launch inside a pushed range named "launch"; with prep_inside, before_pass
 * after the start (its kernels are ranges too, dropped by first_launch_range). */
static CUptiResult run_passes(CUpti_RangeProfiler_Object *obj, const kd_cupti_pass_ops *ops, bool user_range,
                              bool prep_inside, size_t *passes, const char **what)
{
    for (*passes = 0; *passes < MAX_PASSES;) {
        if (!prep_inside)
            ops->before_pass(ops->ctx, *passes);
        CUpti_RangeProfiler_Start_Params start = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
        start.pRangeProfilerObject = obj;
        CUptiResult rc = api.start(&start);
        if (rc != CUPTI_SUCCESS) {
            *what = "cuptiRangeProfilerStart";
            return rc;
        }
        if (prep_inside)
            ops->before_pass(ops->ctx, *passes);
        CUpti_RangeProfiler_PushRange_Params push = {.structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        push.pRangeProfilerObject = obj;
        push.pRangeName = "launch";
        if (user_range && (rc = push_range(&push)) != CUPTI_SUCCESS) {
            *what = "cuptiRangeProfilerPushRange";
            return rc;
        }
        ops->launch(ops->ctx);
        CUpti_RangeProfiler_PopRange_Params pop = {.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        pop.pRangeProfilerObject = obj;
        if (user_range && (rc = pop_range(&pop)) != CUPTI_SUCCESS) {
            *what = "cuptiRangeProfilerPopRange";
            return rc;
        }
        (*passes)++;
        CUpti_RangeProfiler_Stop_Params stop = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
        stop.pRangeProfilerObject = obj;
        if ((rc = api.stop(&stop)) != CUPTI_SUCCESS) {
            *what = "cuptiRangeProfilerStop";
            return rc;
        }
        if (stop.isAllPassSubmitted)
            return CUPTI_SUCCESS;
    }
    *what = "the range profiler (more passes than the limit)";
    return CUPTI_ERROR_UNKNOWN;
}

/* With the preparation inside the session, its kernels (the harness's kd_touch, kd_discard,
 * kd_stride, and whatever came before them, a memset's) are ranges: the launch's ranges are
 * those after the last of them. */
static size_t first_launch_range(const uint8_t *data, size_t size, size_t total)
{
    size_t first = 0;
    for (size_t r = 0; r < total; r++) {
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params ri = {
            .structSize = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
        ri.pCounterDataImage = data;
        ri.counterDataImageSize = size;
        ri.rangeIndex = r;
        ri.rangeDelimiter = "/";
        if (api.range_info(&ri) == CUPTI_SUCCESS && ri.rangeName &&
            (!strncmp(ri.rangeName, "kd_touch", 8) || !strncmp(ri.rangeName, "kd_discard", 10) ||
             !strncmp(ri.rangeName, "kd_stride", 9)))
            first = r + 1;
    }
    return first;
}

/* The configuration of the last metric list (its names joined by commas): a repeat of the
 * same list reuses the host object and the image instead of building them again. */
static struct config_cache {
    char *key;
    CUpti_Profiler_Host_Object *host;
    uint8_t *config;
    size_t config_size;
} cache;

/* "a,b,...," (malloc'ed; NULL when out of memory). */
static char *join_names(const char **names, size_t n)
{
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(names[i]) + 1;
    char *key = calloc(1, len), *end = key;
    for (size_t i = 0; key && i < n; i++)
        end += sprintf(end, "%s,", names[i]);
    return key;
}

static void forget_config(void)
{
    host_free(cache.host);
    free(cache.config);
    free(cache.key);
    memset(&cache, 0, sizeof cache);
}

unsigned kd_cupti_l2_prep(void)
{
    static const struct {
        const char *name;
        unsigned steps;
    } preps[] = {
        {"touch", KD_CUPTI_PREP_MEMSET | KD_CUPTI_PREP_TOUCH},
        {"memset", KD_CUPTI_PREP_MEMSET},
        {"read", KD_CUPTI_PREP_TOUCH},
        {"discard", KD_CUPTI_PREP_MEMSET | KD_CUPTI_PREP_DISCARD},
        {"clean", KD_CUPTI_PREP_MEMSET | KD_CUPTI_PREP_TOUCH | KD_CUPTI_PREP_DISCARD},
        {"none", 0},
        {"pages", KD_CUPTI_PREP_MEMSET | KD_CUPTI_PREP_TOUCH | KD_CUPTI_PREP_PAGES},
        {"limit", KD_CUPTI_PREP_MEMSET | KD_CUPTI_PREP_TOUCH | KD_CUPTI_PREP_LIMIT},
        {"reset", KD_CUPTI_PREP_MEMSET | KD_CUPTI_PREP_TOUCH | KD_CUPTI_PREP_RESET},
        {"inside", KD_CUPTI_PREP_MEMSET | KD_CUPTI_PREP_TOUCH | KD_CUPTI_PREP_INSIDE},
        {"icache", KD_CUPTI_PREP_MEMSET | KD_CUPTI_PREP_TOUCH | KD_CUPTI_PREP_ICACHE},
        {"tlb", KD_CUPTI_PREP_MEMSET | KD_CUPTI_PREP_TOUCH | KD_CUPTI_PREP_TLB},
    };
    const char *want = kd_env_nonempty(KD_ENV_COUNTER_PREP);
    for (size_t i = 0; want && i < sizeof preps / sizeof *preps; i++)
        if (!strcmp(want, preps[i].name))
            return preps[i].steps;
    return preps[0].steps;
}

/* cuptiRangeProfilerEnable's parameters as CUPTI 13.4 declares them: 13.0's headers end at
 * pRangeProfilerObject, and the larger structSize is what tells a newer CUPTI the field is set. */
struct enable_params {
    size_t structSize;
    void *pPriv;
    CUcontext ctx;
    CUpti_RangeProfiler_Object *pRangeProfilerObject;
    int cacheControlMode; /* CUpti_CacheControl_Mode: 0 none, 1 all, 2 L2 */
};

/* The loaded CUPTI's version (130500 for 13.5), 0 when it does not say. */
static unsigned cupti_version(void)
{
    uint32_t version = 0;
    return api.get_version && api.get_version(&version) == CUPTI_SUCCESS ? version : 0;
}

int kd_cupti_cache_control(void)
{
    const char *want = kd_env_nonempty(KD_ENV_CUPTI_CACHE_CONTROL);
    if (!want)
        return -1;
    if (!strcmp(want, "none"))
        return 0;
    return !strcmp(want, "l2") ? 2 : 1;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static bool initialized; /* cuptiProfilerInitialize was called (kd_cupti_prepare takes it down again) */

/* The profiler up and the configuration image for `names` built and kept (cache): the host
 * work of a profile. The counter availability image needs the context. */
static kd_cupti_status configure(void *ctx, int device, const char **names, size_t n, char *why, size_t why_len)
{
    kd_cupti_status st = load(why, why_len);
    if (st != KD_CUPTI_OK)
        return st;
    CUpti_Profiler_Host_Object *host = NULL;
    uint8_t *availability = NULL, *config = NULL;

    if (!initialized) {
        CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
        CALL(profiler_initialize, init, "cuptiProfilerInitialize");
        initialized = true;
    }
    CUpti_Device_GetChipName_Params chip = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = (size_t)device;
    CALL(chip_name, chip, "cuptiDeviceGetChipName");
    if (!chip.pChipName) { /* a configuration for no chip in particular would be used as this one's */
        snprintf(why, why_len, "cuptiDeviceGetChipName gave no name for device %d", device);
        st = KD_CUPTI_FAILED;
        goto done;
    }

    CUptiResult rc;
    char *key = join_names(names, n);
    if (!key) {
        snprintf(why, why_len, "out of host memory");
        st = KD_CUPTI_FAILED;
        goto done;
    }
    if (cache.key && !strcmp(cache.key, key)) {
        free(key);
        goto done;
    }
    forget_config();
    /* Counters another session holds are left out of the configuration (best effort). */
    CUpti_Profiler_GetCounterAvailability_Params avail = {.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    avail.ctx = ctx;
    if (api.availability(&avail) == CUPTI_SUCCESS && avail.counterAvailabilityImageSize) {
        availability = malloc(avail.counterAvailabilityImageSize);
        avail.pCounterAvailabilityImage = availability;
        if (availability && api.availability(&avail) != CUPTI_SUCCESS) {
            free(availability);
            availability = NULL;
        }
    }
    host = host_with(chip.pChipName, availability, names, n, &rc);
    if (!host) {
        free(key);
        if (name_unknown(chip.pChipName, availability, names, n, why, why_len))
            st = KD_CUPTI_UNKNOWN;
        else {
            snprintf(why, why_len, "cuptiProfilerHostConfigAddMetrics failed: %s (CUPTI error %d)", text_of(rc),
                     (int)rc);
            st = classify(rc);
        }
        goto done;
    }
    CUpti_Profiler_Host_GetConfigImageSize_Params size = {
        .structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = host;
    if ((rc = api.config_size(&size)) == CUPTI_SUCCESS) {
        config = malloc(size.configImageSize);
        CUpti_Profiler_Host_GetConfigImage_Params image = {
            .structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
        image.pHostObject = host;
        image.configImageSize = size.configImageSize;
        image.pConfigImage = config;
        rc = config ? api.config_image(&image) : CUPTI_ERROR_OUT_OF_MEMORY;
    }
    if (rc != CUPTI_SUCCESS) {
        free(key);
        snprintf(why, why_len, "building the configuration image failed: %s (CUPTI error %d)", text_of(rc), (int)rc);
        st = classify(rc);
        goto done;
    }
    cache = (struct config_cache){key, host, config, size.configImageSize};
    host = NULL;
    config = NULL;
done:
    host_free(host);
    free(availability);
    free(config);
    return st;
}

kd_cupti_status kd_cupti_prepare(const kd_cupti_request *req, double *ms, char *why, size_t why_len)
{
    double t0 = now_ms();
    kd_cupti_status st = configure(req->ctx, req->device, (const char **)req->metrics, req->n, why, why_len);
    /* The profiler down again before the timing: with it up, an H100 timed vector_loads 0.3%
     * faster than without (bench/full_diff_ab.txt). The configuration and its host object stay. */
    if (initialized) {
        CUpti_Profiler_DeInitialize_Params fini = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
        api.profiler_deinitialize(&fini);
        initialized = false;
    }
    *ms = now_ms() - t0;
    return st;
}

kd_cupti_status kd_cupti_profile(const kd_cupti_request *req, kd_cupti_result *out, char *why, size_t why_len)
{
    void *ctx = req->ctx;
    const char *const *metrics = req->metrics;
    size_t n = req->n;
    const kd_cupti_pass_ops *ops = req->ops;
    memset(out, 0, sizeof *out);
    double t0 = now_ms(), t1 = t0, t2 = t0;
    const char **names = (const char **)metrics;
    uint8_t *data = NULL;
    CUpti_RangeProfiler_Object *obj = NULL;
    CUptiResult rc;
    kd_cupti_status st = configure(ctx, req->device, names, n, why, why_len);
    if (st != KD_CUPTI_OK)
        return st;

    /* CUPTI 13.4+ resets L2 itself before each pass, and then replays the kernel itself:
     * that is what agrees with ncu (docs/COUNTERS.md). An older one: user replay, L2 flushed
     * by this harness. */
    unsigned version = cupti_version();
    int cache_mode = kd_cupti_cache_control();
    if (cache_mode < 0)
        cache_mode = version >= KD_CUPTI_CACHE_CONTROL_VERSION ? 1 : 0;
    if (cache_mode && version < KD_CUPTI_CACHE_CONTROL_VERSION) {
        snprintf(why, why_len, "%s asks for CUPTI's cache control, which needs CUPTI 13.4 or later",
                 kd_env_table()[KD_ENV_CUPTI_CACHE_CONTROL].name);
        st = KD_CUPTI_UNAVAILABLE;
        goto done;
    }
    struct enable_params enable = {.structSize = cache_mode ? CUPTI_PROFILER_STRUCT_SIZE(struct enable_params, cacheControlMode)
                                                         : CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE,
                                   .ctx = ctx, .cacheControlMode = cache_mode};
    CALL(enable, enable, "cuptiRangeProfilerEnable");
    obj = enable.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params ds = {.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    ds.pRangeProfilerObject = obj;
    ds.pMetricNames = names;
    ds.numMetrics = n;
    ds.maxNumOfRanges = KD_CUPTI_MAX_RANGES;
    ds.maxNumRangeTreeNodes = KD_CUPTI_MAX_RANGES;
    CALL(data_size, ds, "cuptiRangeProfilerGetCounterDataSize");
    data = calloc(1, ds.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params di = {
        .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    di.pRangeProfilerObject = obj;
    di.counterDataSize = ds.counterDataSize;
    di.pCounterData = data;
    CALL(data_initialize, di, "cuptiRangeProfilerCounterDataImageInitialize");

    /* With CUPTI's cache control, CUPTI replays the kernel (what agrees with ncu). Without it,
     * user replay: this harness restores the buffers and flushes L2 before every pass, and a
     * CUPTI that refuses that replays the kernel itself. KERNDIFF_CUPTI_REPLAY overrides. */
    const char *replay = kd_env_nonempty(KD_ENV_CUPTI_REPLAY);
    bool kernel_replay = replay ? !strcmp(replay, "kernel") : cache_mode != 0;
    /* user-range (an experiment, tests/gpu/counters_experiment.sh): the launch in a range of
     * its own instead of CUPTI's range per kernel; one range whatever the launch runs. */
    bool user_range = replay && !strcmp(replay, "user-range");
    if (user_range) {
        void *lib = kd_cupti_library(), *f = lib ? dlsym(lib, "cuptiRangeProfilerPushRange") : NULL;
        memcpy(&push_range, &f, sizeof f);
        f = lib ? dlsym(lib, "cuptiRangeProfilerPopRange") : NULL;
        memcpy(&pop_range, &f, sizeof f);
        user_range = push_range && pop_range;
    }
    bool prep_inside = (kd_cupti_l2_prep() & KD_CUPTI_PREP_INSIDE) != 0;
    t1 = now_ms();
    for (int attempt = 0; attempt < 2; attempt++) {
        CUpti_RangeProfiler_SetConfig_Params sc = {.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
        sc.pRangeProfilerObject = obj;
        sc.configSize = cache.config_size;
        sc.pConfig = cache.config;
        sc.counterDataImageSize = ds.counterDataSize;
        sc.pCounterDataImage = data;
        sc.range = user_range ? CUPTI_UserRange : CUPTI_AutoRange;
        sc.replayMode = kernel_replay ? CUPTI_KernelReplay : CUPTI_UserReplay;
        sc.maxRangesPerPass = KD_CUPTI_MAX_RANGES;
        sc.numNestingLevels = 1;
        sc.minNestingLevel = 1;
        sc.passIndex = 0;
        sc.targetNestingLevel = 1;
        const char *what = "cuptiRangeProfilerSetConfig";
        rc = api.set_config(&sc);
        if (rc == CUPTI_SUCCESS)
            rc = run_passes(obj, ops, user_range, prep_inside, &out->passes, &what);
        if (rc == CUPTI_SUCCESS)
            break;
        if (kernel_replay || attempt == 1) {
            snprintf(why, why_len, "%s failed: %s (CUPTI error %d)", what, text_of(rc), (int)rc);
            st = classify(rc);
            goto done;
        }
        fprintf(stderr, "kerndiff-harness: CUPTI user replay refused (%s: %s); kernel replay instead\n", what,
                text_of(rc));
        kernel_replay = true;
    }
    out->kernel_replay = kernel_replay;
    out->cupti_version = version;
    out->l2 = cache_mode ? "cupti" : kernel_replay ? "none" : "harness";
    t2 = now_ms();

    CUpti_RangeProfiler_DecodeData_Params decode = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    decode.pRangeProfilerObject = obj;
    CALL(decode, decode, "cuptiRangeProfilerDecodeData");
    CUpti_RangeProfiler_GetCounterDataInfo_Params info = {.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = data;
    info.counterDataImageSize = ds.counterDataSize;
    CALL(data_info, info, "cuptiRangeProfilerGetCounterDataInfo");
    size_t first = prep_inside ? first_launch_range(data, ds.counterDataSize, info.numTotalRanges) : 0;
    if (info.numTotalRanges <= first) {
        snprintf(why, why_len, "the range profiler recorded no kernel (%zu ranges dropped)", decode.numOfRangeDropped);
        st = KD_CUPTI_FAILED;
        goto done;
    }
    size_t launched = info.numTotalRanges - first;
    out->ranges = launched < KD_CUPTI_MAX_RANGES ? launched : KD_CUPTI_MAX_RANGES;
    out->values = calloc(out->ranges * (n ? n : 1), sizeof *out->values);
    for (size_t k = 0; k < out->ranges; k++) {
        size_t r = first + k;
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params ri = {
            .structSize = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
        ri.pCounterDataImage = data;
        ri.counterDataImageSize = ds.counterDataSize;
        ri.rangeIndex = r;
        ri.rangeDelimiter = "/";
        if (api.range_info(&ri) == CUPTI_SUCCESS && ri.rangeName)
            snprintf(out->names[k], sizeof out->names[k], "%s", ri.rangeName);
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        ev.pHostObject = cache.host;
        ev.pCounterDataImage = data;
        ev.counterDataImageSize = ds.counterDataSize;
        ev.rangeIndex = r;
        ev.ppMetricNames = names;
        ev.numMetrics = n;
        ev.pMetricValues = &out->values[k * n];
        CALL(evaluate, ev, "cuptiProfilerHostEvaluateToGpuValues");
    }
    st = KD_CUPTI_OK;
    out->setup_ms = t1 - t0;
    out->passes_ms = t2 - t1;
    out->evaluate_ms = now_ms() - t2;
    kd_counters_reply_phases(out->setup_ms, out->passes_ms, out->evaluate_ms);
done:
    if (obj) {
        CUpti_RangeProfiler_Disable_Params dis = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        dis.pRangeProfilerObject = obj;
        api.disable(&dis);
    }
    free(data);
    if (st != KD_CUPTI_OK) {
        free(out->values);
        out->values = NULL;
        out->ranges = 0;
    }
    return st;
}
