/* The words of util/'s messages (util/util_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "util/util_msgs.h"

const kd_wording kd_wording_util[] = {
    {0, 0, NULL},
};
