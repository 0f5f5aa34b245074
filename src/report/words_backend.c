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
    {KD_MSG_BACKEND_SIDE_SAYS, 2, "kerndiff: {0}: {1}"},
    {KD_MSG_BACKEND_SAYS, 1, "kerndiff: {0}"},
    {0, 0, NULL},
};
