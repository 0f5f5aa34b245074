/* The words of workflow/'s messages (workflow/workflow_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "workflow/workflow_msgs.h"

const kd_wording kd_wording_workflow[] = {
    {KD_MSG_SWEEP_RANGE_FORM, 1, "kerndiff: --n range '{0}' wants FROM..TO:xFACTOR or FROM..TO:+STEP (e.g. 1M..64M:x4)"},
    {KD_MSG_SWEEP_RANGE_VALUE, 2, "kerndiff: --n range '{0}': {1}"},
    {KD_MSG_SWEEP_RANGE_ORDER, 1, "kerndiff: --n range '{0}': FROM must not exceed TO and a factor must be >= 2"},
    {KD_MSG_SWEEP_RANGE_TOO_MANY, 2, "kerndiff: --n range '{0}' has more than {1} points"},
    {KD_MSG_SWEEP_LIST_BAD, 3, "kerndiff: {0} '{1}': empty value or more than {2} points"},
    {KD_MSG_SWEEP_DEFINE_BAD, 1, "kerndiff: --sweep: {0}"},
    {KD_MSG_SWEEP_COUNT_BAD, 4, "kerndiff: --n: point {0} of {1}, '{2}', is not an element count (16M, 1<<24, 4096): {3}; "
                                "nothing was run"},
    {KD_MSG_SWEEP_FORM, 1, "kerndiff: --sweep wants NAME=a,b,c, got '{0}'"},
    {KD_MSG_SWEEP_POINT, 3, "kerndiff: {0} = {1}: {2}"},
    /* sweep (L1) above, watch and saved (L2b) below */
    {KD_MSG_WORKFLOW_WATCH_UNREADABLE, 0, "kerndiff: a watched file can no longer be read; stopping"},
    {0, 0, NULL},
};
