/* The words of check/'s messages (check/check_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "check/check_msgs.h"

const kd_wording kd_wording_check[] = {
    {0, 0, NULL},
};
