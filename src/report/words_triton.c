/* The words of backend/triton.c's messages (backend/triton_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "backend/triton_msgs.h"

const kd_wording kd_wording_triton[] = {
    {0, 0, NULL},
};
