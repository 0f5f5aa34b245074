/* The words of diff/'s messages (diff/diff_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "diff/diff_msgs.h"

const kd_wording kd_wording_diff[] = {
    {0, 0, NULL},
};
