/* The words of gpu/'s messages (gpu/gpu_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "gpu/gpu_msgs.h"

const kd_wording kd_wording_gpu[] = {
    {0, 0, NULL},
};
