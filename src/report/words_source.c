/* The words of source/'s messages (source/source_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "source/source_msgs.h"

const kd_wording kd_wording_source[] = {
    {0, 0, NULL},
};
