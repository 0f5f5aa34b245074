#include "gpu/nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/env.h"

typedef void *nvml_device;
enum { NVML_SUCCESS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_CLOCK_ID_APP_DEFAULT = 2 };

struct kd_nvml {
    void *lib;
    nvml_device dev;
    int (*shutdown)(void);
    int (*clock_info)(nvml_device, int, unsigned *);
    int (*max_clock_info)(nvml_device, int, unsigned *);
    int (*clock)(nvml_device, int, int, unsigned *);
    int (*reasons)(nvml_device, unsigned long long *);
    int (*bus_width)(nvml_device, unsigned *);
    int (*lock)(nvml_device, unsigned, unsigned);
    int (*reset)(nvml_device);
    const char *(*error_string)(int);
};

#define LOAD(n, field, symbol) ((n)->field = (__typeof__((n)->field))dlsym((n)->lib, symbol))

kd_nvml *kd_nvml_open(const char *pci, char *why, size_t why_len)
{
    const char *path = kd_env(KD_ENV_NVML_LIBRARY);
    if (!path || !*path)
        path = "libnvidia-ml.so.1";
    /* Checked, not kd_xcalloc: the harness opens NVML too, and carries on without it. */
    kd_nvml *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(why, why_len, "out of memory");
        return NULL;
    }
    n->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!n->lib) {
        snprintf(why, why_len, "NVML not available (%s not found)", path);
        free(n);
        return NULL;
    }
    int (*init)(void) = (int (*)(void))dlsym(n->lib, "nvmlInit_v2");
    int (*by_index)(unsigned, nvml_device *) =
        (int (*)(unsigned, nvml_device *))dlsym(n->lib, "nvmlDeviceGetHandleByIndex_v2");
    int (*by_pci)(const char *, nvml_device *) =
        (int (*)(const char *, nvml_device *))dlsym(n->lib, "nvmlDeviceGetHandleByPciBusId_v2");
    LOAD(n, shutdown, "nvmlShutdown");
    LOAD(n, clock_info, "nvmlDeviceGetClockInfo");
    LOAD(n, max_clock_info, "nvmlDeviceGetMaxClockInfo");
    LOAD(n, clock, "nvmlDeviceGetClock");
    LOAD(n, reasons, "nvmlDeviceGetCurrentClocksEventReasons");
    LOAD(n, bus_width, "nvmlDeviceGetMemoryBusWidth");
    LOAD(n, lock, "nvmlDeviceSetGpuLockedClocks");
    LOAD(n, reset, "nvmlDeviceResetGpuLockedClocks");
    LOAD(n, error_string, "nvmlErrorString");
    int rc = -1;
    if (!init || !by_index || !n->shutdown || !n->clock_info)
        snprintf(why, why_len, "%s lacks the NVML entry points kerndiff uses", path);
    else if ((rc = init()) != NVML_SUCCESS)
        snprintf(why, why_len, "nvmlInit failed (NVML error %d)", rc);
    else if ((rc = pci && by_pci ? by_pci(pci, &n->dev) : by_index(0, &n->dev)) != NVML_SUCCESS) {
        snprintf(why, why_len, "NVML cannot open the GPU (NVML error %d)", rc);
        n->shutdown();
    }
    if (rc != NVML_SUCCESS) {
        dlclose(n->lib);
        free(n);
        return NULL;
    }
    return n;
}

void kd_nvml_close(kd_nvml *n)
{
    if (!n)
        return;
    n->shutdown();
    dlclose(n->lib);
    free(n);
}

static int ok(int rc) { return rc == NVML_SUCCESS ? 0 : -1; }

int kd_nvml_sm_clock(kd_nvml *n, unsigned *mhz) { return ok(n->clock_info(n->dev, NVML_CLOCK_SM, mhz)); }

int kd_nvml_max_sm_clock(kd_nvml *n, unsigned *mhz)
{
    return n->max_clock_info ? ok(n->max_clock_info(n->dev, NVML_CLOCK_SM, mhz)) : -1;
}

int kd_nvml_default_sm_clock(kd_nvml *n, unsigned *mhz)
{
    return n->clock ? ok(n->clock(n->dev, NVML_CLOCK_SM, NVML_CLOCK_ID_APP_DEFAULT, mhz)) : -1;
}

int kd_nvml_clock_reasons(kd_nvml *n, unsigned long long *reasons)
{
    return n->reasons ? ok(n->reasons(n->dev, reasons)) : -1;
}

int kd_nvml_memory(kd_nvml *n, unsigned *max_mem_mhz, unsigned *bus_width_bits)
{
    if (!n->max_clock_info || !n->bus_width)
        return -1;
    return ok(n->max_clock_info(n->dev, NVML_CLOCK_MEM, max_mem_mhz)) == 0 &&
                   ok(n->bus_width(n->dev, bus_width_bits)) == 0
               ? 0
               : -1;
}

int kd_nvml_lock_clocks(kd_nvml *n, unsigned mhz) { return n->lock ? ok(n->lock(n->dev, mhz, mhz)) : -1; }

int kd_nvml_reset_clocks(kd_nvml *n) { return n->reset ? ok(n->reset(n->dev)) : -1; }

void kd_nvml_reason_names(unsigned long long reasons, char *buf, size_t n)
{
    static const struct {
        unsigned long long bit;
        const char *name;
    } names[] = {
        {KD_REASON_GPU_IDLE, "idle"},           {KD_REASON_APP_CLOCKS, "app-clocks"},
        {KD_REASON_SW_POWER_CAP, "sw-power-cap"}, {KD_REASON_HW_SLOWDOWN, "hw-slowdown"},
        {KD_REASON_SYNC_BOOST, "sync-boost"},   {KD_REASON_SW_THERMAL, "sw-thermal"},
        {KD_REASON_HW_THERMAL, "hw-thermal"},   {KD_REASON_HW_POWER_BRAKE, "hw-power-brake"},
    };
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof *names && used < n; i++)
        if (reasons & names[i].bit)
            used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? "," : "", names[i].name);
    if (!used)
        snprintf(buf, n, "none");
}
