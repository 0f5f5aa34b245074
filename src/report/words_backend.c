/* The words of backend/'s messages (backend/backend_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "backend/backend_msgs.h"

#define CUOBJDUMP_HINT "a .cubin input needs cuobjdump (install the CUDA toolkit's, or pip install nvidia-cuda-cuobjdump and put it on PATH)"

const kd_wording kd_wording_backend[] = {
    {KD_MSG_BACKEND_NEEDS_CUOBJDUMP, 1, "kerndiff: {0}: " CUOBJDUMP_HINT},
    {KD_MSG_BACKEND_NEEDS_CUOBJDUMP_NO_SIDE, 0, "kerndiff: " CUOBJDUMP_HINT},
    {KD_MSG_BACKEND_CUOBJDUMP_FAILED, 4, "kerndiff: {0}: {1} cannot read {2}: {3}"},
    {KD_MSG_BACKEND_CUOBJDUMP_FAILED_NO_SIDE, 3, "kerndiff: {0} cannot read {1}: {2}"},
    {KD_MSG_BACKEND_CANNOT_READ, 3, "kerndiff: {0}: cannot read '{1}': {2}"},
    {KD_MSG_BACKEND_CANNOT_READ_NO_SIDE, 2, "kerndiff: cannot read '{0}': {1}"},
    {KD_MSG_BACKEND_ANNOTATIONS, 3, "kerndiff: {0}: {1}: {2}"},
    {KD_MSG_BACKEND_ANNOTATIONS_NO_SIDE, 2, "kerndiff: {0}: {1}"},
    {KD_MSG_BACKEND_IS_FOLDER, 2, "kerndiff: {0}: '{1}' is a folder, not a kernel file: give a .cu file"},
    {KD_MSG_BACKEND_IS_FOLDER_NO_SIDE, 1, "kerndiff: '{0}' is a folder, not a kernel file: give a .cu file"},
    {KD_MSG_BACKEND_NO_PTXAS, 3,
     "kerndiff: {0}: cannot run {1} to assemble {2}: install the CUDA toolkit (or pass --nvcc PATH beside its ptxas)"},
    {KD_MSG_BACKEND_PTXAS_FAILED, 4, "kerndiff: {0}: ptxas -arch={1} failed on {2}:\n{3}\nFix the PTX, or check --arch."},
    {KD_MSG_BACKEND_CANNOT_WRITE, 3, "kerndiff: {0}: cannot write {1}: {2}"},
    {KD_MSG_BACKEND_NO_BUILD_FOLDER, 2, "kerndiff: {0}: cannot create a build folder: {1}"},
    {KD_MSG_BACKEND_ASSEMBLY_LEFT_NOTHING, 3,
     "kerndiff: {0}: the assembled {1} left no usable kernel.cubin/ptxas.log in {2} (rerun with --no-cache)"},
    {KD_MSG_BACKEND_BUILD_FAILED, 5, "kerndiff: {0}: build of {1} failed (nvcc -arch={2}); nvcc said:\n{3}\n{4}"},
    {KD_MSG_BACKEND_BUILD_FAILED_HINT, 5, "kerndiff: {0}: build of {1} failed (nvcc -arch={2}): {4}; nvcc said:\n{3}"},
    {KD_MSG_BACKEND_INCLUDE_ADDED, 4,
     "kerndiff: {0}: {1} includes {2}, which no -I reaches; it lies in {3}: built with -I {3} (an -I of yours comes "
     "first)"},
    {KD_MSG_BACKEND_SIDE_SAYS, 2, "kerndiff: {0}: {1}"},
    {KD_MSG_BACKEND_SAYS, 1, "kerndiff: {0}"},
    {KD_MSG_BACKEND_TORCH_NO_PYTHON, 5,
     "kerndiff: {0}: {1} includes {2}; its build needs PyTorch's headers, asked of Python, and {3} cannot be "
     "run ({4}): install Python with torch, or --python PATH of one that has it (or pass -I yourself)"},
    {KD_MSG_BACKEND_TORCH_NOT_INSTALLED, 5,
     "kerndiff: {0}: {1} includes {2}; its build needs PyTorch's headers, and {3} has no torch ({4}): install "
     "torch for {3}, or --python PATH of one that has it (or pass -I yourself)"},
    {KD_MSG_BACKEND_TORCH_QUERY_FAILED, 5,
     "kerndiff: {0}: {1} includes {2}; its build needs PyTorch's headers, and asking {3} for them failed "
     "({4}): check that {3} can import torch.utils.cpp_extension, or --python PATH of another (or pass -I "
     "yourself)"},
    {KD_MSG_BACKEND_TORCH_QUERY_SILENT, 5,
     "kerndiff: {0}: {1} includes {2}; its build needs PyTorch's headers, and asking {3} for them failed{4}: "
     "check that {3} can import torch.utils.cpp_extension, or --python PATH of another (or pass -I yourself)"},
    {KD_MSG_BACKEND_TORCH_QUERY_TIMEOUT, 5,
     "kerndiff: {0}: {1} includes {2}; its build needs PyTorch's headers, and {3} took longer than {4} s to "
     "name them: check that {3} can import torch, or --python PATH of another (or pass -I yourself)"},
    {KD_MSG_BACKEND_TORCH_UNSAFE_PATH, 5,
     "kerndiff: {0}: {1} includes {2}; torch's include folder {4} (of {3}) holds characters nvcc's shell "
     "would act on: install torch under a plain path, or --python PATH of another (or pass -I yourself)"},
    {0, 0, NULL},
};
