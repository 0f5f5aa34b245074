/* The words of git/'s messages (git/git_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "git/git_msgs.h"

const kd_words kd_words_git[] = {
    {0, 0, NULL},
};
