/* cuda_driver.h — the CUDA driver API entry points the harness uses, loaded with dlopen so
 * the harness builds without CUDA headers. Types are declared here by their ABI. */
#ifndef KD_HARNESS_CUDA_DRIVER_H
#define KD_HARNESS_CUDA_DRIVER_H

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

enum {
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
    CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
    CU_MEMHOSTALLOC_PORTABLE = 0x01,
    CU_MEMHOSTALLOC_DEVICEMAP = 0x02,
    CU_STREAM_NON_BLOCKING = 0x1,
    CU_EVENT_DEFAULT = 0x0,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
};

/* cuMemcpy2D's description (CUDA_MEMCPY2D of cuda.h): `audit` reads back its sampled chunks
 * with one of them. Memory types: CU_MEMORYTYPE_HOST 1, CU_MEMORYTYPE_DEVICE 2. */
typedef struct CUDA_MEMCPY2D {
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    void *srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    void *dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
} CUDA_MEMCPY2D;
enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2 };

/* cuLaunchKernelEx's configuration (CUlaunchConfig, CUlaunchAttribute of cuda.h, CUDA 12+):
 * an attribute is its id, padding to 8 bytes, and a 64-byte union of values. */
typedef struct CUlaunchAttribute {
    int id;
    char pad[4];
    union {
        unsigned long long align; /* the union holds pointers in cuda.h */
        char bytes[64];
        struct {
            unsigned x, y, z;
        } clusterDim;
    } value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig {
    unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
    CUstream hStream;
    CUlaunchAttribute *attrs;
    unsigned numAttrs;
} CUlaunchConfig;

/* cuda.h's sizes and places on every 64-bit target (checked against CUDA 13's header). */
_Static_assert(sizeof(CUlaunchAttribute) == 72 && offsetof(CUlaunchAttribute, value) == 8, "CUlaunchAttribute ABI");
_Static_assert(sizeof(CUlaunchConfig) == 56 && offsetof(CUlaunchConfig, hStream) == 32 &&
                   offsetof(CUlaunchConfig, attrs) == 40 && offsetof(CUlaunchConfig, numAttrs) == 48,
               "CUlaunchConfig ABI");

typedef struct kd_cuda {
    void *lib;
    CUresult (*Init)(unsigned);
    CUresult (*DriverGetVersion)(int *);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DeviceGetName)(char *, int, CUdevice);
    CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
    CUresult (*DeviceGetPCIBusId)(char *, int, CUdevice);
    CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*CtxSynchronize)(void);
    CUresult (*ModuleLoad)(CUmodule *, const char *);
    CUresult (*ModuleLoadData)(CUmodule *, const void *);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*ModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *);
    CUresult (*FuncSetAttribute)(CUfunction, int, int);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*MemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
    CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
    CUresult (*Memcpy2DAsync)(const CUDA_MEMCPY2D *, CUstream);
    CUresult (*MemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
    CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*MemsetD16)(CUdeviceptr, unsigned short, size_t);
    CUresult (*MemsetD32)(CUdeviceptr, unsigned int, size_t);
    CUresult (*MemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
    CUresult (*MemsetD32Async)(CUdeviceptr, unsigned int, size_t, CUstream);
    CUresult (*MemHostAlloc)(void **, size_t, unsigned);
    CUresult (*MemFreeHost)(void *);
    CUresult (*MemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*StreamSynchronize)(CUstream);
    CUresult (*EventCreate)(CUevent *, unsigned);
    CUresult (*EventRecord)(CUevent, CUstream);
    CUresult (*EventSynchronize)(CUevent);
    CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void **, void **);
    /* Optional (CUDA 12.0+): NULL when the driver lacks it; only a cluster launch needs it. */
    CUresult (*LaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **, void **);
    CUresult (*GetErrorName)(CUresult, const char **);
    CUresult (*GetErrorString)(CUresult, const char **);
    CUresult (*ProfilerStart)(void);
    CUresult (*ProfilerStop)(void);
} kd_cuda;

/* Loads libcuda.so.1 and every entry point (the optional ones when it has them). 0, or -1 with the reason in why. */
int kd_cuda_load(kd_cuda *cu, char *why, size_t why_len);
/* "CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory access was encountered" into buf. */
const char *kd_cuda_describe(const kd_cuda *cu, CUresult rc, char *buf, size_t n);

#endif
