/* probe.h — is there a usable GPU? Loads the CUDA driver at run time (dlopen), so kerndiff
 * starts and does its static work on machines without a driver. */
#ifndef KD_GPU_PROBE_H
#define KD_GPU_PROBE_H

#include <stdbool.h>

typedef struct kd_gpu_info {
    bool present;
    char reason[256];   /* why not present: "libcuda.so.1 not found (no NVIDIA driver)" ... */
    int sm;             /* compute capability as 90 for 9.0 */
    char name[128];
    int driver_version; /* as cuDriverGetVersion: 13000 for 13.0 */
} kd_gpu_info;

/* Probes device 0 (or $CUDA_VISIBLE_DEVICES' first). KERNDIFF_NO_GPU=1 forces "absent",
 * for tests and for static-only runs on a GPU machine. */
void kd_gpu_probe(kd_gpu_info *info);

#endif
