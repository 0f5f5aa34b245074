/* shim.h — the generated glue between the harness and a custom launcher: a C function
 * `kerndiff_shim(void **args, void *stream)` that unpacks the argument array (the same one
 * cuLaunchKernel takes) into the launcher's parameters and reports CUDA's last error. */
#ifndef KD_BUILD_SHIM_H
#define KD_BUILD_SHIM_H

#include "source/scan.h"
#include "util/strbuf.h"

#define KD_SHIM_SYMBOL "kerndiff_shim"

/* Appends the shim's C++ source for `launcher` to out. */
void kd_shim_source(const kd_kernel *launcher, kd_strbuf *out);

#endif
