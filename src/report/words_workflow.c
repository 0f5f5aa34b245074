/* The words of workflow/'s messages (workflow/workflow_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "workflow/workflow_msgs.h"

const kd_wording kd_wording_workflow[] = {
    {0, 0, NULL},
};
