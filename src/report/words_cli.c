/* The words of cli/'s messages (cli/cli_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "cli/cli_msgs.h"

const kd_words kd_words_cli[] = {
    {0, 0, NULL},
};
