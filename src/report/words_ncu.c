/* The words of ncu/'s messages (ncu/ncu_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "ncu/ncu_msgs.h"

const kd_wording kd_wording_ncu[] = {
    {0, 0, NULL},
};
