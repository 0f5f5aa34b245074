/* The words of backend/'s messages (backend/backend_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "backend/backend_msgs.h"

const kd_wording kd_wording_backend[] = {
    {0, 0, NULL},
};
