/* The words of git/'s messages (git/git_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "git/git_msgs.h"

const kd_wording kd_wording_git[] = {
    {KD_MSG_GIT_CHECKOUT_NO_GIT, 3, "kerndiff: v{0}: --at {1}: {2}: install git, or give two commands"},
    {KD_MSG_GIT_CHECKOUT_FAILED, 3, "kerndiff: v{0}: --at {1}: {2}"},
    {KD_MSG_GIT_CHECKOUT_NOT_A_REPO, 2, "kerndiff: v{0}: --at {1}: the current folder is not inside a git repository"},
    {KD_MSG_GIT_CHECKOUT_ADD_FAILED, 3, "kerndiff: v{0}: --at {1}: git worktree add failed: {2}"},
    {KD_MSG_GIT_CHECKOUT_UNTRACKED, 2,
     "kerndiff: v{0}: --at {1}: cannot keep track of the checkout to remove it at exit (too many checkouts or exit "
     "actions)"},
    {KD_MSG_GIT_CHECKOUT_NO_FOLDER, 4, "kerndiff: v{0}: --at {1}: the current folder ({2}) does not exist at revision {3}"},
    {0, 0, NULL},
};
