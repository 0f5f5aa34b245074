/* The words of ncu/'s messages (ncu/ncu_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "ncu/ncu_msgs.h"

const kd_wording kd_wording_ncu[] = {
    {KD_MSG_NCU_CUPTI_FALLBACK, 1, "counters: the CUPTI profiler is not available ({0}): ncu collects them"},
    {0, 0, NULL},
};
