/* The words of static/'s messages (static/static_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "static/static_msgs.h"

const kd_wording kd_wording_static[] = {
    {0, 0, NULL},
};
