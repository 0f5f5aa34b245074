#include "gpu/probe.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/env.h"

/* The few driver entry points we need, declared here so no CUDA header is required. */
typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_count_fn)(int *);
typedef int (*cu_get_fn)(int *, int);
typedef int (*cu_attr_fn)(int *, int, int);
typedef int (*cu_name_fn)(char *, int, int);
typedef int (*cu_version_fn)(int *);

enum { CU_ATTR_CC_MAJOR = 75, CU_ATTR_CC_MINOR = 76 };

void kd_gpu_probe(kd_gpu_info *info)
{
    memset(info, 0, sizeof *info);
    const char *forced = kd_env(KD_ENV_NO_GPU);
    if (forced && *forced && strcmp(forced, "0") != 0) {
        snprintf(info->reason, sizeof info->reason, "KERNDIFF_NO_GPU is set");
        return;
    }
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(info->reason, sizeof info->reason, "no NVIDIA driver (libcuda.so.1 not found)");
        return;
    }
    cu_init_fn cu_init = (cu_init_fn)dlsym(lib, "cuInit");
    cu_count_fn cu_count = (cu_count_fn)dlsym(lib, "cuDeviceGetCount");
    cu_get_fn cu_get = (cu_get_fn)dlsym(lib, "cuDeviceGet");
    cu_attr_fn cu_attr = (cu_attr_fn)dlsym(lib, "cuDeviceGetAttribute");
    cu_name_fn cu_name = (cu_name_fn)dlsym(lib, "cuDeviceGetName");
    cu_version_fn cu_version = (cu_version_fn)dlsym(lib, "cuDriverGetVersion");
    int count = 0, dev = 0, major = 0, minor = 0, rc;
    if (!cu_init || !cu_count || !cu_get || !cu_attr || !cu_name || !cu_version) {
        snprintf(info->reason, sizeof info->reason, "libcuda.so.1 lacks the driver API entry points");
    } else if ((rc = cu_init(0)) != 0) {
        snprintf(info->reason, sizeof info->reason, "cuInit failed (CUDA error %d)", rc);
    } else if (cu_count(&count) != 0 || count == 0) {
        snprintf(info->reason, sizeof info->reason, "the driver sees no GPU");
    } else if (cu_get(&dev, 0) != 0 || cu_attr(&major, CU_ATTR_CC_MAJOR, dev) != 0 ||
               cu_attr(&minor, CU_ATTR_CC_MINOR, dev) != 0) {
        snprintf(info->reason, sizeof info->reason, "cannot read the GPU's compute capability");
    } else {
        info->present = true;
        info->sm = major * 10 + minor;
        cu_name(info->name, sizeof info->name, dev);
        cu_version(&info->driver_version);
    }
    dlclose(lib);
}
