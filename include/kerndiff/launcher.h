/* kerndiff/launcher.h — write your own launcher, for what one kernel launch cannot
 * express: a pipeline of several kernels, a library call (cuBLAS, CUTLASS...), a kernel
 * that needs a setup step.
 *
 *     #include <kerndiff/launcher.h>
 *
 *     // kerndiff: n=16M tmp=n libs=cublas
 *     KERNDIFF_LAUNCHER void run(const float *x, float *tmp, float *y, int n, cudaStream_t stream)
 *     {
 *         first<<<(n + 255) / 256, 256, 0, stream>>>(x, tmp, n);
 *         second<<<(n + 255) / 256, 256, 0, stream>>>(tmp, y, n);
 *     }
 *
 * kerndiff finds the launcher like a kernel and describes its parameters the same way:
 * one buffer per pointer (const: input, else output, sized by n or NAME=EXPR), values for
 * scalars, and the harness's stream for a cudaStream_t parameter. Everything must be
 * enqueued on that stream and nothing may synchronize the device: the timer measures from
 * the first kernel's start to the last kernel's end on it. The first call happens during
 * warm-up, so one-time set-up (a cuBLAS handle) stays out of the measurement.
 * `libs=cublas,cublasLt` in an annotation links those libraries. */
#ifndef KERNDIFF_LAUNCHER_H
#define KERNDIFF_LAUNCHER_H

#include <cuda_runtime.h>

#define KERNDIFF_LAUNCHER __host__

#endif
