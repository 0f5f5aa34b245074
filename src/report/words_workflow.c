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
    {KD_MSG_WORKFLOW_WATCH_NO_FILE, 3,
     "kerndiff: v{0}: --watch: cannot read '{1}': {2}; nothing watched (--watch re-runs when a file changes, it does "
     "not wait for one to appear): check the path, or create the file first"},
    {KD_MSG_WORKFLOW_WATCH_NO_GIT_FILE, 2,
     "kerndiff: --watch: cannot read '{0}': {1}; nothing watched (--watch re-runs when the file changes, it does not "
     "wait for it to appear): check the path, or create the file first"},
    /* compare of saved runs (L4: workflow/saved.c) */
    {KD_MSG_SAVED_CANNOT_READ, 3, "kerndiff: {0}: cannot read '{1}': {2}"},
    {KD_MSG_SAVED_NOT_A_RESULT, 3, "kerndiff: {0}: {1} is not a saved kerndiff result ({2})"},
    {KD_MSG_SAVED_IMPLAUSIBLE_SAMPLE, 5,
     "kerndiff: {0}: {1}: runtime.sides[{2}].samples_ns[{3}] is {4} ns, not a plausible kernel time (between 1 ns "
     "and one hour): the file is damaged or was not written by kerndiff"},
    {KD_MSG_SAVED_NO_KERNEL, 3,
     "kerndiff: {0}: {1}: sides[{2}].kernel is missing or empty: the file is damaged or was not written by kerndiff"},
    {KD_MSG_SAVED_NO_ROUNDS_KEPT, 1,
     "kerndiff: {0} was saved without its samples' rounds (runtime.sides[].sample_rounds): its saved verdict and "
     "interval are shown, not recomputed"},
    {KD_MSG_SAVED_NO_ROUNDS_SAMPLES, 2,
     "kerndiff: {0}: {1} was saved without its samples' rounds (runtime.sides[].sample_rounds): the interval takes "
     "each of its samples as a round of its own"},
    {KD_MSG_SAVED_INTERVAL_DIFFERS, 6,
     "kerndiff: {0}: the interval recomputed with --seed {5} ({1:.4f} to {2:.4f}) is not the one the run was saved "
     "with ({3:.4f} to {4:.4f}): give the --seed it ran with (the file does not record it)"},
    {KD_MSG_SAVED_INTERVAL_CHANGED, 6,
     "kerndiff: {0}: the interval recomputed with the run's seed {5} ({1:.4f} to {2:.4f}) is not the one it was saved "
     "with ({3:.4f} to {4:.4f}): another kerndiff decided it"},
    {0, 0, NULL},
};
