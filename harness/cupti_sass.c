/* SASS metrics around one launch (cupti_sass.h). The sequence is NVIDIA's sass_source_map
 * sample's (CUDA 12.5+): profiler initialized, the chip's name, the metric's id, set config on
 * the device, enable on the context (lazy patching), the launch, the records' count, flush
 * into buffers that size, disable, unset config. */
#include "cupti_sass.h"
#include "cupti_library.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

/* Warp-level SASS instructions executed, per instruction (the metric ncu's source view shows
 * as "Instructions Executed"). */
static const char METRIC[] = "smsp__sass_inst_executed";

#define API(name, type) CUptiResult (*name)(type *)
static struct {
    API(profiler_initialize, CUpti_Profiler_Initialize_Params);
    API(chip_name, CUpti_Device_GetChipName_Params);
    API(properties, CUpti_SassMetrics_GetProperties_Params);
    API(set_config, CUpti_SassMetricsSetConfig_Params);
    API(unset_config, CUpti_SassMetricsUnsetConfig_Params);
    API(enable, CUpti_SassMetricsEnable_Params);
    API(disable, CUpti_SassMetricsDisable_Params);
    API(data_properties, CUpti_SassMetricsGetDataProperties_Params);
    API(flush, CUpti_SassMetricsFlushData_Params);
} api;
#undef API

static int load(char *why, size_t why_len)
{
    static const kd_cupti_symbol symbols[] = {
#define SYM(field, name) {offsetof(__typeof__(api), field), name}
        SYM(profiler_initialize, "cuptiProfilerInitialize"), SYM(chip_name, "cuptiDeviceGetChipName"),
        SYM(properties, "cuptiSassMetricsGetProperties"),    SYM(set_config, "cuptiSassMetricsSetConfig"),
        SYM(unset_config, "cuptiSassMetricsUnsetConfig"),    SYM(enable, "cuptiSassMetricsEnable"),
        SYM(disable, "cuptiSassMetricsDisable"),             SYM(data_properties, "cuptiSassMetricsGetDataProperties"),
        SYM(flush, "cuptiSassMetricsFlushData"),
#undef SYM
    };
    if (!kd_cupti_library()) {
        snprintf(why, why_len, "libcupti not found");
        return -1;
    }
    const char *missing = kd_cupti_resolve(&api, symbols, sizeof symbols / sizeof *symbols);
    if (missing) {
        snprintf(why, why_len, "libcupti lacks %s (SASS metrics need CUDA 12.5 or later)", missing);
        return -1;
    }
    return 0;
}

#define CALL(fn, params, what)                                                                 \
    do {                                                                                       \
        CUptiResult rc_ = api.fn(&(params));                                                   \
        if (rc_ != CUPTI_SUCCESS) {                                                            \
            snprintf(why, why_len, "%s failed: %s (CUPTI error %d)", what, kd_cupti_result_text(rc_), (int)rc_); \
            goto done;                                                                         \
        }                                                                                      \
    } while (0)

int kd_sass_count(const kd_sass_request *r, FILE *out, size_t *records, char *why, size_t why_len)
{
    void *ctx = r->ctx;
    int device = r->device;
    *records = 0;
    if (load(why, why_len) != 0)
        return -1;
    int result = -1;
    bool configured = false, enabled = false;
    CUpti_SassMetrics_Data *data = NULL;
    CUpti_SassMetrics_InstanceValue *values = NULL;
    size_t n = 0;

    /* The range profiler may have initialized the profiler already: a second call is harmless. */
    CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    api.profiler_initialize(&init);
    CUpti_Device_GetChipName_Params chip = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = (size_t)device;
    CALL(chip_name, chip, "cuptiDeviceGetChipName");
    CUpti_SassMetrics_GetProperties_Params props = {.structSize = CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
    props.pChipName = chip.pChipName;
    props.pMetricName = METRIC;
    CALL(properties, props, "cuptiSassMetricsGetProperties");
    CUpti_SassMetrics_Config config = {.metricId = props.metric.metricId,
                                       .outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU};
    CUpti_SassMetricsSetConfig_Params set = {.structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
    set.numOfMetricConfig = 1;
    set.pConfigs = &config;
    set.deviceIndex = (uint32_t)device;
    CALL(set_config, set, "cuptiSassMetricsSetConfig");
    configured = true;
    CUpti_SassMetricsEnable_Params enable = {.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
    enable.ctx = ctx;
    enable.enableLazyPatching = 1;
    CALL(enable, enable, "cuptiSassMetricsEnable");
    enabled = true;

    int launched = r->launch(r->arg);
    if (launched != 0) {
        result = launched;
        snprintf(why, why_len, "the launch failed");
        goto done;
    }
    CUpti_SassMetricsGetDataProperties_Params dp = {.structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    dp.ctx = ctx;
    CALL(data_properties, dp, "cuptiSassMetricsGetDataProperties");
    n = dp.numOfPatchedInstructionRecords;
    size_t instances = dp.numOfInstances ? dp.numOfInstances : 1;
    if (n) {
        data = calloc(n, sizeof *data);
        values = calloc(n * instances, sizeof *values);
        if (!data || !values) {
            snprintf(why, why_len, "out of host memory for %zu SASS records", n);
            goto done;
        }
        for (size_t i = 0; i < n; i++) {
            data[i].structSize = sizeof data[i];
            data[i].pInstanceValues = &values[i * instances];
        }
        CUpti_SassMetricsFlushData_Params flush = {.structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
        flush.ctx = ctx;
        flush.numOfPatchedInstructionRecords = n;
        flush.numOfInstances = dp.numOfInstances;
        flush.pMetricsData = data;
        CALL(flush, flush, "cuptiSassMetricsFlushData");
    }
    fprintf(out, "# SASS metric %s, summed over the GPU, one launch\n", METRIC);
    for (size_t i = 0; i < n; i++) {
        uint64_t count = 0;
        for (size_t k = 0; k < instances; k++)
            count += data[i].pInstanceValues[k].value;
        /* A name with a blank would break the record's words; CUPTI's are mangled names. */
        const char *name = data[i].functionName && *data[i].functionName ? data[i].functionName : "?";
        if (strpbrk(name, " \t\n"))
            name = "?";
        fprintf(out, "exec %s 0x%" PRIx32 " %" PRIu64 "\n", name, data[i].pcOffset, count);
    }
    *records = n;
    result = 0;
done:
    if (enabled) {
        CUpti_SassMetricsDisable_Params dis = {.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
        dis.ctx = ctx;
        api.disable(&dis);
    }
    if (configured) {
        CUpti_SassMetricsUnsetConfig_Params unset = {.structSize = CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
        unset.deviceIndex = (uint32_t)device;
        api.unset_config(&unset);
    }
    free(data);
    free(values);
    return result;
}
