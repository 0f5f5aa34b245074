/* The words of diff/'s messages (diff/diff_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "diff/diff_msgs.h"

const kd_wording kd_wording_diff[] = {
    /* diff/pipeline.c (R27) */
    {KD_MSG_DIFF_ARCH_WANTS_SM, 1, "kerndiff: --arch wants sm_XX (e.g. sm_90), got '{0}'"},
    {KD_MSG_DIFF_CANNOT_READ_AGAIN, 2, "kerndiff: {0}: cannot read {1} again"},
    {KD_MSG_DIFF_SIDE_SAYS, 2, "kerndiff: {0}: {1}"},
    {KD_MSG_DIFF_STATIC_FAILED, 3, "kerndiff: {0} ({1}): {2}"},
    {KD_MSG_DIFF_GIT_NO_FILE, 2,
     "kerndiff: cannot read '{0}': {1} (one file means git mode: its committed version against the working copy; two "
     "files are compared with each other; kerndiff --help)"},
    {KD_MSG_DIFF_NO_TMPDIR, 0, "kerndiff: cannot create a private temporary folder"},
    {KD_MSG_DIFF_SAYS, 1, "kerndiff: {0}"},
    /* as report/kernels_text.c's line in the report, for the exit status's reason */
    {KD_MSG_DIFF_NEEDS_ONE_KERNEL, 1, "kerndiff: timing needs one kernel: --fn NAME ({0})"},
    /* the same with kernels_text.c's needs clause (kd_kernels_needs_clause) */
    {KD_MSG_DIFF_NEEDS_ONE_KERNEL_ARGS, 3,
     "kerndiff: timing needs one kernel: --fn NAME ({0}), and {1} (no value given or in the file for {2})"},
    {KD_MSG_DIFF_NEEDS_ONE_KERNEL_EACH, 3,
     "kerndiff: timing needs one kernel: --fn NAME ({0}), and the values the chosen kernel's launch needs: {1} (no "
     "value given or in the file for {2})"},
    {KD_MSG_DIFF_TEMPLATE_NOT_INSTANTIATED, 3,
     "kerndiff: {0} ({1}): template kernel '{2}' has no compiled instance, not compared (the others are); "
     "instantiate it (template __global__ void {2}<...>(...);) to compare it"},
    {KD_MSG_DIFF_LIST_NOT_PREPARED, 1, "the front end could not prepare the launch of '{0}'"},
    {KD_MSG_DIFF_PASS_NOT_RUN, 2, "kerndiff: {0}: not run: nothing is measured this run ({1}); static diff only"},
    {KD_MSG_DIFF_PASS_NOT_RUN_BARE, 1, "kerndiff: {0}: not run: nothing is measured this run; static diff only"},
    {0, 0, NULL},
};
