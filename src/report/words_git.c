/* The words of git/'s messages (git/git_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "git/git_msgs.h"

const kd_wording kd_wording_git[] = {
    {0, 0, NULL},
};
