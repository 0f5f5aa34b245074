/* The words of app/'s messages (app/app_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "app/app_msgs.h"

const kd_wording kd_wording_app[] = {
    {0, 0, NULL},
};
