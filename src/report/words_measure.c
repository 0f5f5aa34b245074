/* The words of measure/'s messages (measure/measure_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "measure/measure_msgs.h"

const kd_wording kd_wording_measure[] = {
    {0, 0, NULL},
};
