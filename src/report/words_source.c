/* The words of source/'s messages (source/source_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "source/source_msgs.h"

const kd_wording kd_wording_source[] = {
    {KD_MSG_SOURCE_NO_KERNEL_NAMED, 4, "kerndiff: {0}: no kernel named '{1}' in {2}; kernels there: {3}"},
    {KD_MSG_SOURCE_NO_KERNEL_NAMED_NEAR, 5,
     "kerndiff: {0}: no kernel named '{1}' in {2} (did you mean {3}?); kernels there: {4}"},
    {KD_MSG_SOURCE_NO_CUDA_KERNEL, 2, "kerndiff: {0}: no __global__ kernel found in {1}"},
    {KD_MSG_SOURCE_NO_TRITON_KERNEL, 2, "kerndiff: {0}: no @triton.jit kernel found in {1}"},
    {KD_MSG_SOURCE_NO_PTX_ENTRY, 2, "kerndiff: {0}: no .entry kernel found in {1}"},
    {KD_MSG_SOURCE_NO_CUBIN_FUNCTION, 2, "kerndiff: {0}: no kernel function found in {1}"},
    {KD_MSG_SOURCE_SEVERAL_KERNELS, 1, "kerndiff: both files define several kernels; choose one with --fn NAME: {0}"},
    {KD_MSG_SOURCE_NO_COMMON_KERNEL, 2,
     "kerndiff: no kernel is common to both files; use --fn NAME1:NAME2\n  v1 has: {0}\n  v2 has: {1}"},
    {0, 0, NULL},
};
