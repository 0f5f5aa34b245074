/* fake_nvml.c — a stand-in libnvidia-ml for the --lock-clocks tests (KERNDIFF_NVML_LIBRARY).
 * It changes nothing: it appends each call that would touch the GPU's clocks to the file
 * named by $FAKE_NVML_LOG, so a test can check that a lock is always followed by a reset. */
#include <stdio.h>
#include <stdlib.h>

typedef void *nvmlDevice_t;
static int device;

static void log_call(const char *line)
{
    const char *path = getenv("FAKE_NVML_LOG");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "%s\n", line);
    fclose(f);
}

int nvmlInit_v2(void) { return 0; }
int nvmlShutdown(void) { return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t *d) { (void)index; *d = &device; return 0; }
int nvmlDeviceGetHandleByPciBusId_v2(const char *pci, nvmlDevice_t *d) { (void)pci; *d = &device; return 0; }
int nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned *mhz) { (void)d; *mhz = type == 1 ? 1755 : 2619; return 0; }
int nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, int type, unsigned *mhz) { (void)d; *mhz = type == 1 ? 1980 : 2619; return 0; }
int nvmlDeviceGetClock(nvmlDevice_t d, int type, int id, unsigned *mhz) { (void)d, (void)type, (void)id; *mhz = 1590; return 0; }
int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long *r) { (void)d; *r = 0; return 0; }
int nvmlDeviceGetMemoryBusWidth(nvmlDevice_t d, unsigned *bits) { (void)d; *bits = 5120; return 0; }
const char *nvmlErrorString(int rc) { (void)rc; return "fake"; }

int nvmlDeviceSetGpuLockedClocks(nvmlDevice_t d, unsigned lo, unsigned hi)
{
    (void)d;
    char line[64];
    snprintf(line, sizeof line, "lock %u %u", lo, hi);
    log_call(line);
    return 0;
}

int nvmlDeviceResetGpuLockedClocks(nvmlDevice_t d)
{
    (void)d;
    log_call("reset");
    return 0;
}
