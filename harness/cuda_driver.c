#include "cuda_driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* Versioned names: the driver keeps the unsuffixed symbols for old binaries' ABI. */
static const struct {
    const char *symbol;
    size_t offset;
} entry_points[] = {
#define ENTRY(field, symbol) {symbol, offsetof(kd_cuda, field)}
    ENTRY(Init, "cuInit"),
    ENTRY(DriverGetVersion, "cuDriverGetVersion"),
    ENTRY(DeviceGet, "cuDeviceGet"),
    ENTRY(DeviceGetName, "cuDeviceGetName"),
    ENTRY(DeviceGetAttribute, "cuDeviceGetAttribute"),
    ENTRY(DeviceGetPCIBusId, "cuDeviceGetPCIBusId"),
    ENTRY(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
    ENTRY(CtxSetCurrent, "cuCtxSetCurrent"),
    ENTRY(CtxSynchronize, "cuCtxSynchronize"),
    ENTRY(ModuleLoad, "cuModuleLoad"),
    ENTRY(ModuleLoadData, "cuModuleLoadData"),
    ENTRY(ModuleGetFunction, "cuModuleGetFunction"),
    ENTRY(ModuleGetGlobal, "cuModuleGetGlobal_v2"),
    ENTRY(FuncSetAttribute, "cuFuncSetAttribute"),
    ENTRY(MemAlloc, "cuMemAlloc_v2"),
    ENTRY(MemFree, "cuMemFree_v2"),
    ENTRY(MemcpyHtoD, "cuMemcpyHtoD_v2"),
    ENTRY(MemcpyDtoH, "cuMemcpyDtoH_v2"),
    ENTRY(MemcpyDtoD, "cuMemcpyDtoD_v2"),
    ENTRY(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
    ENTRY(Memcpy2DAsync, "cuMemcpy2DAsync_v2"),
    ENTRY(MemsetD8Async, "cuMemsetD8Async"),
    ENTRY(MemsetD8, "cuMemsetD8_v2"),
    ENTRY(MemsetD16, "cuMemsetD16_v2"),
    ENTRY(MemsetD32, "cuMemsetD32_v2"),
    ENTRY(MemsetD16Async, "cuMemsetD16Async"),
    ENTRY(MemsetD32Async, "cuMemsetD32Async"),
    ENTRY(MemHostAlloc, "cuMemHostAlloc"),
    ENTRY(MemFreeHost, "cuMemFreeHost"),
    ENTRY(MemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2"),
    ENTRY(StreamCreate, "cuStreamCreate"),
    ENTRY(StreamSynchronize, "cuStreamSynchronize"),
    ENTRY(EventCreate, "cuEventCreate"),
    ENTRY(EventRecord, "cuEventRecord"),
    ENTRY(EventSynchronize, "cuEventSynchronize"),
    ENTRY(EventElapsedTime, "cuEventElapsedTime"),
    ENTRY(LaunchKernel, "cuLaunchKernel"),
    ENTRY(GetErrorName, "cuGetErrorName"),
    ENTRY(GetErrorString, "cuGetErrorString"),
    ENTRY(ProfilerStart, "cuProfilerStart"),
    ENTRY(ProfilerStop, "cuProfilerStop"),
#undef ENTRY
};

int kd_cuda_load(kd_cuda *cu, char *why, size_t why_len)
{
    memset(cu, 0, sizeof *cu);
    cu->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!cu->lib) {
        snprintf(why, why_len, "no NVIDIA driver (libcuda.so.1 not found)");
        return -1;
    }
    for (size_t i = 0; i < sizeof entry_points / sizeof *entry_points; i++) {
        void *fn = dlsym(cu->lib, entry_points[i].symbol);
        if (!fn) {
            snprintf(why, why_len, "libcuda.so.1 lacks %s (driver too old?)", entry_points[i].symbol);
            return -1;
        }
        memcpy((char *)cu + entry_points[i].offset, &fn, sizeof fn);
    }
    /* a driver older than CUDA 12.0 still runs every launch without a cluster */
    void *ex = dlsym(cu->lib, "cuLaunchKernelEx");
    memcpy(&cu->LaunchKernelEx, &ex, sizeof ex);
    return 0;
}

const char *kd_cuda_describe(const kd_cuda *cu, CUresult rc, char *buf, size_t n)
{
    const char *name = NULL, *text = NULL;
    if (cu->GetErrorName)
        cu->GetErrorName(rc, &name);
    if (cu->GetErrorString)
        cu->GetErrorString(rc, &text);
    snprintf(buf, n, "%s (%d): %s", name ? name : "CUDA error", rc, text ? text : "unknown");
    return buf;
}
