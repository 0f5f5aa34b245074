/* The words of launch/'s messages (launch/launch_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "launch/launch_msgs.h"

const kd_wording kd_wording_launch[] = {
    {0, 0, NULL},
};
