/* nvml.h — the few NVML calls kerndiff needs, loaded at run time (dlopen) so nothing is
 * required at build time and machines without a driver still run kerndiff.
 * $KERNDIFF_NVML_LIBRARY names another library (the tests' fake NVML). */
#ifndef KD_GPU_NVML_H
#define KD_GPU_NVML_H

#include <stdbool.h>
#include <stddef.h>

typedef struct kd_nvml kd_nvml;

/* Opens the device with PCI bus id `pci` (as cuDeviceGetPCIBusId gives it), or index 0 when
 * pci is NULL. NULL with the reason in why[] when NVML is missing or refuses. */
kd_nvml *kd_nvml_open(const char *pci, char *why, size_t why_len);
void kd_nvml_close(kd_nvml *n);

int kd_nvml_sm_clock(kd_nvml *n, unsigned *mhz);          /* current SM clock */
int kd_nvml_max_sm_clock(kd_nvml *n, unsigned *mhz);      /* highest SM clock */
int kd_nvml_default_sm_clock(kd_nvml *n, unsigned *mhz);  /* default applications clock */
int kd_nvml_clock_reasons(kd_nvml *n, unsigned long long *reasons); /* clocks event reasons */
/* Peak DRAM bandwidth inputs: max memory clock (MHz) and bus width (bits). */
int kd_nvml_memory(kd_nvml *n, unsigned *max_mem_mhz, unsigned *bus_width_bits);

/* Locks the GPU clock to [mhz, mhz]; needs root. kd_nvml_reset_clocks undoes it. */
int kd_nvml_lock_clocks(kd_nvml *n, unsigned mhz);
int kd_nvml_reset_clocks(kd_nvml *n);

/* Clock event reason bits (nvmlClocksEventReason*), from FACTS.md. */
enum {
    KD_REASON_GPU_IDLE = 0x1,
    KD_REASON_APP_CLOCKS = 0x2,
    KD_REASON_SW_POWER_CAP = 0x4,
    KD_REASON_HW_SLOWDOWN = 0x8,
    KD_REASON_SYNC_BOOST = 0x10,
    KD_REASON_SW_THERMAL = 0x20,
    KD_REASON_HW_THERMAL = 0x40,
    KD_REASON_HW_POWER_BRAKE = 0x80,
};
/* Reasons that mean the GPU ran below the clock it would otherwise have run at. */
#define KD_REASONS_THROTTLE                                                                  \
    (KD_REASON_SW_POWER_CAP | KD_REASON_HW_SLOWDOWN | KD_REASON_SW_THERMAL |                \
     KD_REASON_HW_THERMAL | KD_REASON_HW_POWER_BRAKE)

/* "sw-power-cap,hw-thermal" for the set bits (into buf). */
void kd_nvml_reason_names(unsigned long long reasons, char *buf, size_t n);

#endif
