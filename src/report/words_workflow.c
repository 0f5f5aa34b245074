/* The words of workflow/'s messages (workflow/workflow_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "workflow/workflow_msgs.h"

const kd_wording kd_wording_workflow[] = {
    /* sweep (L1) above, watch and saved (L2b) below */
    {0, 0, NULL},
};
