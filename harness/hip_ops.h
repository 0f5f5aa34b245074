/* hip_ops.h — the device-operations table (harness/vendor.h) for HIP/ROCm, declared and not
 * built: there is no AMD GPU here to run it on. It is what `harness/hip_harness.c` would
 * define, one function per entry, each beside the HIP call it would make; the server
 * (harness/server.c) is used as it is, so the protocol, the arguments, seeding, `fill`,
 * `setup`, `check` and `buffers` need nothing new.
 *
 * How it would be built: like kerndiff-harness, with the runtime reached through dlopen
 * (libamdhip64.so: hipModuleLoad, hipModuleGetFunction, hipModuleLaunchKernel, hipMalloc,
 * hipMemcpyHtoD/DtoH/DtoD, hipMemsetD8/D16/D32, hipStreamSynchronize, hipEvent*), so the
 * binary needs no ROCm headers; a `$(BUILD)/kerndiff-hip-harness` rule beside the CUDA one
 * in the Makefile, and a backend entry that names it as its harness. What the kernel is (an
 * AMDGPU code object, `.hsaco`, from hipcc --genco) is the front end's business, not this
 * file's: `load cubin PATH ENTRY` loads any module file the runtime accepts.
 *
 * Differences from CUDA the functions must carry:
 * - the timer: rocprofiler-sdk's kernel-dispatch records where CUPTI's activity records are
 *   used (`timer=rocprof`), else hipEvents (`timer=events`, the same fallback note);
 * - the L2 flush: hipDeviceAttributeL2CacheSize, flushed by a hipMemsetD8Async of twice it
 *   (MI300's Infinity Cache, 256 MiB, sits beyond L2: flushing it too needs a larger buffer);
 * - clocks and throttling: amdsmi (not NVML) for `time`'s clock0/clock1/reasons, 0 when absent;
 * - `regions`: no kd_regions instrumentation for AMDGPU yet, so `err load` (the protocol's
 *   answer for a kernel without it);
 * - `once`: roctxRangePush/Pop in place of cuProfilerStart/Stop, for rocprofv3's range filter.
 * - the spin kernel that holds the stream: the same idea in AMDGPU code (s_memrealtime in
 *   place of %globaltimer), loaded from an embedded code object (hipModuleLoadData). */
#ifndef KD_HARNESS_HIP_OPS_H
#define KD_HARNESS_HIP_OPS_H

#include "vendor.h"

/* Memory: hipMalloc (its hipError_t worded by hipGetErrorName/hipGetErrorString into why),
 * hipFree, hipMemcpyHtoD of kd_server_seeded's bytes, hipMemcpyDtoH, hipMemsetD8. */
int kd_hip_alloc(struct kd_server *s, kd_devptr *p, size_t bytes, char *why, size_t why_size);
void kd_hip_free(struct kd_server *s, kd_devptr p);
bool kd_hip_restore(struct kd_server *s, struct kd_server_arg *a, const char *doing);
void kd_hip_download(struct kd_server *s, void *dst, kd_devptr src, size_t bytes, const char *doing);
/* hipMemcpy2D (device to host) of an audit's chunks; hipMemcpyDtoD for its rotation. */
void kd_hip_download_sample(struct kd_server *s, void *dst, kd_devptr src, const kd_audit_sample *sample,
                            const char *doing);
void kd_hip_copy(struct kd_server *s, const kd_device_copy *c, const char *doing);
void kd_hip_zero(struct kd_server *s, kd_devptr p, size_t bytes, const char *doing);
/* hipMemsetD8/D16/D32 with kd_fill_poison's pattern; 8-byte types through a host copy. */
void kd_hip_poison(struct kd_server *s, struct kd_server_arg *a);

/* hipModuleLaunchKernel with the server slot's geometry and arg_ptrs (or the launcher,
 * given the hipStream_t), then hipStreamSynchronize; a failure is `err cuda` (the kind names
 * the device API's failure whatever the vendor) and exit 3. */
void kd_hip_launch_and_wait(struct kd_server *s, int check_run);
void *kd_hip_stream_arg(struct kd_server *s);
unsigned long long kd_hip_address(struct kd_server *s, int slot, size_t k, kd_devptr p);

/* hello (hipGetDeviceProperties: name, gcnArchName's number as sm=, multiProcessorCount,
 * l2CacheSize, hipDriverGetVersion, hipDeviceGetPCIBusId), warmup, mode, time, place,
 * regions, once. */
bool kd_hip_command(struct kd_server *s, kd_words *w);
/* hipModuleLoad + hipModuleGetFunction, or dlopen of a launcher. */
bool kd_hip_load(struct kd_server *s, kd_words *w);
/* hipFuncSetAttribute(hipFuncAttributeMaxDynamicSharedMemorySize) when SMEM > 64 KiB. */
bool kd_hip_slot_ready(struct kd_server *s, int slot);
/* The L2 flush buffer. */
bool kd_hip_all_ready(struct kd_server *s);
void kd_hip_release(struct kd_server *s);

/* The table harness/hip_harness.c would hand to kd_server_run:
 *
 *   static const kd_vendor hip_vendor = {
 *       .name = "kerndiff-hip-harness",
 *       .alloc = kd_hip_alloc, .free = kd_hip_free, .restore = kd_hip_restore,
 *       .download = kd_hip_download, .download_sample = kd_hip_download_sample, .copy = kd_hip_copy,
 *       .zero = kd_hip_zero, .poison = kd_hip_poison,
 *       .launch_and_wait = kd_hip_launch_and_wait, .stream_arg = kd_hip_stream_arg,
 *       .address = kd_hip_address, .command = kd_hip_command, .load = kd_hip_load,
 *       .slot_ready = kd_hip_slot_ready, .all_ready = kd_hip_all_ready, .release = kd_hip_release,
 *   };
 */

#endif
