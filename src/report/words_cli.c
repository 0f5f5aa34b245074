/* The words of cli/'s messages (cli/cli_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "cli/cli_msgs.h"

const kd_wording kd_wording_cli[] = {
    {0, 0, NULL},
};
