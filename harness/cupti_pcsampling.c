/* PC sampling around one launch, written as a hot-spot record (docs/HOTSPOTS.md). */
#include "cupti_pcsampling.h"
#include "cupti_library.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_pcsampling.h>
#include <cupti_result.h>

/* PCs per GetData call, and the most stall reasons CUPTI may list (about 25 on Hopper, each
 * twice: with and without _not_issued). */
enum { PCS_PER_FETCH = 1024, MAX_REASONS = 128 };

typedef struct pcs_entry {
    char *function;
    uint64_t offset;
    uint64_t count[MAX_REASONS]; /* by position in kd_pcs.reason_index */
} pcs_entry;

struct kd_pcs {
    void *lib;
    CUcontext ctx;
    CUptiResult (*enable)(CUpti_PCSamplingEnableParams *);
    CUptiResult (*disable)(CUpti_PCSamplingDisableParams *);
    CUptiResult (*start)(CUpti_PCSamplingStartParams *);
    CUptiResult (*stop)(CUpti_PCSamplingStopParams *);
    CUptiResult (*get_data)(CUpti_PCSamplingGetDataParams *);
    CUptiResult (*set_config)(CUpti_PCSamplingConfigurationInfoParams *);
    CUptiResult (*num_reasons)(CUpti_PCSamplingGetNumStallReasonsParams *);
    CUptiResult (*get_reasons)(CUpti_PCSamplingGetStallReasonsParams *);
    CUptiResult (*result_string)(CUptiResult, const char **);
    unsigned period;
    size_t reason_count;
    uint32_t *reason_index;
    char **reason_name;
    CUpti_PCSamplingData config_buffer; /* the buffer CUPTI fills at disable */
    CUpti_PCSamplingData fetch_buffer;  /* the one GetData fills */
    pcs_entry *entry;
    size_t entry_count;
    uint64_t total, dropped;
};

static void say(char *why, size_t why_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t why_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_len, fmt, ap);
    va_end(ap);
}

static const char *result_text(const kd_pcs *p, CUptiResult rc)
{
    const char *s = NULL;
    if (p->result_string && p->result_string(rc, &s) == CUPTI_SUCCESS && s)
        return s;
    return "unknown CUPTI error";
}

static int alloc_buffer(CUpti_PCSamplingData *b, size_t reasons)
{
    memset(b, 0, sizeof *b);
    b->size = sizeof *b;
    b->collectNumPcs = PCS_PER_FETCH;
    b->pPcData = calloc(PCS_PER_FETCH, sizeof *b->pPcData);
    if (!b->pPcData)
        return -1;
    for (size_t i = 0; i < PCS_PER_FETCH; i++) {
        b->pPcData[i].size = sizeof b->pPcData[i];
        b->pPcData[i].stallReason = calloc(reasons ? reasons : 1, sizeof *b->pPcData[i].stallReason);
        if (!b->pPcData[i].stallReason)
            return -1;
    }
    return 0;
}

static void free_buffer(CUpti_PCSamplingData *b)
{
    for (size_t i = 0; b->pPcData && i < PCS_PER_FETCH; i++)
        free(b->pPcData[i].stallReason);
    free(b->pPcData);
    b->pPcData = NULL;
}

static void free_pcs(kd_pcs *p)
{
    for (size_t k = 0; k < p->reason_count; k++)
        free(p->reason_name ? p->reason_name[k] : NULL);
    for (size_t k = 0; k < p->entry_count; k++)
        free(p->entry[k].function);
    free(p->reason_name), free(p->reason_index), free(p->entry);
    free_buffer(&p->config_buffer), free_buffer(&p->fetch_buffer);
    free(p);
}

#define LOAD(field, symbol)                                                                                          \
    do {                                                                                                             \
        *(void **)&p->field = dlsym(p->lib, symbol);                                                                 \
        if (!p->field) {                                                                                             \
            say(why, why_len, "libcupti lacks %s (PC sampling needs CUDA 11.3 or later's CUPTI)", symbol);           \
            free_pcs(p);                                                                                             \
            return NULL;                                                                                             \
        }                                                                                                            \
    } while (0)

static int configure(kd_pcs *p, char *why, size_t why_len)
{
    CUpti_PCSamplingConfigurationInfo info[7];
    memset(info, 0, sizeof info);
    size_t n = 0;
    info[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
    info[n].attributeData.stallReasonData.stallReasonCount = p->reason_count;
    info[n++].attributeData.stallReasonData.pStallReasonIndex = p->reason_index;
    info[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
    info[n++].attributeData.samplingDataBufferData.samplingDataBuffer = &p->config_buffer;
    info[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    info[n++].attributeData.collectionModeData.collectionMode = CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
    info[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
    info[n++].attributeData.enableStartStopControlData.enableStartStopControl = 1;
    info[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT;
    info[n++].attributeData.outputDataFormatData.outputDataFormat = CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
    if (p->period) {
        info[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
        info[n++].attributeData.samplingPeriodData.samplingPeriod = p->period;
    }
    CUpti_PCSamplingConfigurationInfoParams params = {.size = CUpti_PCSamplingConfigurationInfoParamsSize,
                                                      .ctx = p->ctx,
                                                      .numAttributes = n,
                                                      .pPCSamplingConfigurationInfo = info};
    CUptiResult rc = p->set_config(&params);
    if (rc != CUPTI_SUCCESS) {
        size_t bad = 0;
        while (bad < n && info[bad].attributeStatus == CUPTI_SUCCESS)
            bad++;
        say(why, why_len, "configuring PC sampling failed%s%u: %s", bad < n ? " at attribute " : "",
            bad < n ? (unsigned)info[bad].attributeType : 0u, result_text(p, rc));
        return -1;
    }
    return 0;
}

kd_pcs *kd_pcs_open(void *ctx, unsigned period_log2, char *why, size_t why_len)
{
    if (period_log2 && (period_log2 < 5 || period_log2 > 31)) {
        say(why, why_len, "the sampling period must be 5 to 31 (2^N cycles), got %u", period_log2);
        return NULL;
    }
    kd_pcs *p = calloc(1, sizeof *p);
    if (!p) {
        say(why, why_len, "out of memory");
        return NULL;
    }
    p->ctx = ctx;
    p->period = period_log2;
    p->lib = kd_cupti_library();
    if (!p->lib) {
        say(why, why_len, "libcupti not found (set KERNDIFF_CUPTI_LIBRARY to its path)");
        free(p);
        return NULL;
    }
    LOAD(enable, "cuptiPCSamplingEnable");
    LOAD(disable, "cuptiPCSamplingDisable");
    LOAD(start, "cuptiPCSamplingStart");
    LOAD(stop, "cuptiPCSamplingStop");
    LOAD(get_data, "cuptiPCSamplingGetData");
    LOAD(set_config, "cuptiPCSamplingSetConfigurationAttribute");
    LOAD(num_reasons, "cuptiPCSamplingGetNumStallReasons");
    LOAD(get_reasons, "cuptiPCSamplingGetStallReasons");
    *(void **)&p->result_string = dlsym(p->lib, "cuptiGetResultString");

    CUpti_PCSamplingEnableParams en = {.size = CUpti_PCSamplingEnableParamsSize, .ctx = p->ctx};
    CUptiResult rc = p->enable(&en);
    if (rc != CUPTI_SUCCESS) {
        say(why, why_len, "turning PC sampling on failed: %s", result_text(p, rc));
        free_pcs(p);
        return NULL;
    }
    size_t count = 0;
    CUpti_PCSamplingGetNumStallReasonsParams nr = {
        .size = CUpti_PCSamplingGetNumStallReasonsParamsSize, .ctx = p->ctx, .numStallReasons = &count};
    rc = p->num_reasons(&nr);
    if (rc == CUPTI_SUCCESS && (count == 0 || count > MAX_REASONS)) {
        say(why, why_len, "CUPTI reports %zu stall reasons (1 to %d expected)", count, MAX_REASONS);
        goto fail;
    }
    if (rc == CUPTI_SUCCESS) {
        p->reason_count = count;
        p->reason_index = calloc(count, sizeof *p->reason_index);
        p->reason_name = calloc(count, sizeof *p->reason_name);
        for (size_t k = 0; p->reason_name && k < count; k++)
            if (!(p->reason_name[k] = calloc(1, CUPTI_STALL_REASON_STRING_SIZE)))
                goto oom;
        if (!p->reason_index || !p->reason_name)
            goto oom;
        CUpti_PCSamplingGetStallReasonsParams gr = {.size = CUpti_PCSamplingGetStallReasonsParamsSize,
                                                    .ctx = p->ctx,
                                                    .numStallReasons = count,
                                                    .stallReasonIndex = p->reason_index,
                                                    .stallReasons = p->reason_name};
        rc = p->get_reasons(&gr);
    }
    if (rc != CUPTI_SUCCESS) {
        say(why, why_len, "reading the stall reasons failed: %s", result_text(p, rc));
        goto fail;
    }
    /* CUPTI lists each reason twice: X (every sample) and X_not_issued (those where no warp
     * issued, a subset). Only the first kind is asked for, so a sample counts once. */
    size_t kept = 0;
    for (size_t k = 0; k < count; k++) {
        size_t n = strlen(p->reason_name[k]), tail = strlen("_not_issued");
        if (n > tail && !strcmp(p->reason_name[k] + n - tail, "_not_issued")) {
            free(p->reason_name[k]);
            continue;
        }
        p->reason_index[kept] = p->reason_index[k];
        p->reason_name[kept++] = p->reason_name[k];
    }
    p->reason_count = count = kept;
    if (alloc_buffer(&p->config_buffer, count) != 0 || alloc_buffer(&p->fetch_buffer, count) != 0)
        goto oom;
    if (configure(p, why, why_len) != 0)
        goto fail;
    return p;
oom:
    say(why, why_len, "out of memory for the PC-sampling buffers");
fail:;
    CUpti_PCSamplingDisableParams dis = {.size = CUpti_PCSamplingDisableParamsSize, .ctx = p->ctx};
    p->disable(&dis);
    free_pcs(p);
    return NULL;
}

static size_t reason_position(const kd_pcs *p, uint32_t index)
{
    for (size_t k = 0; k < p->reason_count; k++)
        if (p->reason_index[k] == index)
            return k;
    return p->reason_count;
}

/* Moves the PCs of a filled buffer into the entries (a PC seen twice is summed). */
static int absorb(kd_pcs *p, CUpti_PCSamplingData *b)
{
    p->total += b->totalSamples;
    p->dropped += b->droppedSamples;
    for (size_t i = 0; i < b->totalNumPcs && i < b->collectNumPcs; i++) {
        const CUpti_PCSamplingPCData *pc = &b->pPcData[i];
        const char *fn = pc->functionName ? pc->functionName : "?";
        size_t e = 0;
        while (e < p->entry_count && !(p->entry[e].offset == pc->pcOffset && !strcmp(p->entry[e].function, fn)))
            e++;
        if (e == p->entry_count) {
            pcs_entry *grown = realloc(p->entry, (p->entry_count + 1) * sizeof *grown);
            if (!grown)
                return -1;
            p->entry = grown;
            memset(&p->entry[e], 0, sizeof p->entry[e]);
            if (!(p->entry[e].function = strdup(fn)))
                return -1;
            p->entry[e].offset = pc->pcOffset;
            p->entry_count++;
        }
        for (size_t r = 0; r < pc->stallReasonCount; r++) {
            size_t pos = reason_position(p, pc->stallReason[r].pcSamplingStallReasonIndex);
            if (pos < p->reason_count)
                p->entry[e].count[pos] += pc->stallReason[r].samples;
        }
    }
    /* CUPTI keeps the names it handed out; the counts are reset for the next fill. */
    b->totalNumPcs = 0;
    return 0;
}

int kd_pcs_sample(kd_pcs *p, int (*launch)(void *arg), void *arg, char *why, size_t why_len)
{
    CUpti_PCSamplingStartParams st = {.size = CUpti_PCSamplingStartParamsSize, .ctx = p->ctx};
    CUptiResult rc = p->start(&st);
    if (rc != CUPTI_SUCCESS) {
        say(why, why_len, "starting PC sampling failed: %s", result_text(p, rc));
        return -1;
    }
    int launched = launch(arg);
    CUpti_PCSamplingStopParams sp = {.size = CUpti_PCSamplingStopParamsSize, .ctx = p->ctx};
    rc = p->stop(&sp);
    if (launched != 0)
        return launched;
    if (rc != CUPTI_SUCCESS) {
        say(why, why_len, "stopping PC sampling failed: %s", result_text(p, rc));
        return -1;
    }
    /* After a stop CUPTI holds the range's PCs: fetch until it has none left. */
    for (int rounds = 0; rounds < 1 << 16; rounds++) {
        CUpti_PCSamplingGetDataParams gd = {
            .size = CUpti_PCSamplingGetDataParamsSize, .ctx = p->ctx, .pcSamplingData = &p->fetch_buffer};
        rc = p->get_data(&gd);
        if (rc != CUPTI_SUCCESS) {
            say(why, why_len, "reading the PC samples failed: %s", result_text(p, rc));
            return -1;
        }
        size_t got = p->fetch_buffer.totalNumPcs, left = p->fetch_buffer.remainingNumPcs;
        if (absorb(p, &p->fetch_buffer) != 0) {
            say(why, why_len, "out of memory for the PC samples");
            return -1;
        }
        if (left == 0 || got == 0)
            break;
    }
    return 0;
}

static uint64_t entry_samples(const kd_pcs *p, const pcs_entry *e)
{
    uint64_t sum = 0;
    for (size_t r = 0; r < p->reason_count; r++)
        sum += e->count[r];
    return sum;
}

static int write_record(const kd_pcs *p, const char *kernel, FILE *out)
{
    /* The kernel: the caller's name, else the function with most samples. */
    const char *name = kernel;
    for (size_t e = 0, top = 0; !kernel && e < p->entry_count; e++) {
        uint64_t sum = entry_samples(p, &p->entry[e]);
        if (!name || sum > top)
            top = sum, name = p->entry[e].function;
    }
    fprintf(out, "kerndiff-hotspots 1\n# written by harness/cupti_pcsampling.c (CUPTI PC sampling, kernel-serialized)\n");
    fprintf(out, "kernel %s\nperiod %u\ntotal %llu dropped %llu\n", name ? name : "?", p->period,
            (unsigned long long)p->total, (unsigned long long)p->dropped);
    for (size_t r = 0; r < p->reason_count; r++)
        fprintf(out, "reason %u %s\n", (unsigned)p->reason_index[r], p->reason_name[r]);
    for (size_t e = 0; e < p->entry_count; e++) {
        if (!entry_samples(p, &p->entry[e]))
            continue;
        fprintf(out, "pc %s 0x%llx", p->entry[e].function, (unsigned long long)p->entry[e].offset);
        for (size_t r = 0; r < p->reason_count; r++)
            if (p->entry[e].count[r])
                fprintf(out, " %u:%llu", (unsigned)p->reason_index[r], (unsigned long long)p->entry[e].count[r]);
        fputc('\n', out);
    }
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int kd_pcs_finish(kd_pcs *p, const char *kernel, FILE *out, kd_pcs_totals *totals, char *why, size_t why_len)
{
    CUpti_PCSamplingDisableParams dis = {.size = CUpti_PCSamplingDisableParamsSize, .ctx = p->ctx};
    CUptiResult rc = p->disable(&dis);
    int failed = 0;
    if (rc != CUPTI_SUCCESS) {
        say(why, why_len, "turning PC sampling off failed: %s", result_text(p, rc));
        failed = -1;
    } else if (absorb(p, &p->config_buffer) != 0) {
        say(why, why_len, "out of memory for the PC samples");
        failed = -1;
    }
    if (totals) {
        *totals = (kd_pcs_totals){0, 0, p->dropped};
        for (size_t e = 0; e < p->entry_count; e++) {
            uint64_t sum = entry_samples(p, &p->entry[e]);
            totals->pcs += sum != 0;
            totals->samples += sum;
        }
    }
    if (!failed && out && write_record(p, kernel, out) != 0) {
        say(why, why_len, "writing the record failed");
        failed = -1;
    }
    free_pcs(p);
    return failed;
}
