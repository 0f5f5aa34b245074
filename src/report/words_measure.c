/* The words of measure/'s messages (measure/measure_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "measure/measure_msgs.h"

const kd_wording kd_wording_measure[] = {
    {KD_MSG_MEASURE_SPARE_NOT_READY, 1, "kerndiff: the harness for {0} started ahead for this point was not ready (it had exited or did not answer): a new one was started"},
    {KD_MSG_MEASURE_KEPT_NOT_READY, 1, "kerndiff: the harness for {0} kept from the previous point was not ready (it had exited or did not answer): a new one was started"},
    {0, 0, NULL},
};
