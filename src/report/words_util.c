/* The words of util/'s messages (util/util_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "util/util_msgs.h"

const kd_wording kd_wording_util[] = {
    {KD_MSG_UTIL_TRACE, 2, "[kerndiff {0:7.3f}s] {1}"},
    {KD_MSG_UTIL_ANNOUNCE, 1, "kerndiff: {0}"},
    {KD_MSG_UTIL_OUT_OF_MEMORY, 1,
     "kerndiff: out of memory (allocating {0} bytes); free some memory or make the run smaller"},
    {KD_MSG_UTIL_TMPDIR_UNSAFE, 1,
     "kerndiff: TMPDIR '{0}' holds characters a shell splits or acts on (space, $, `, ;, quotes...): nvcc runs its "
     "steps through a shell, so kerndiff uses /tmp instead; set TMPDIR to a plain folder to use it"},
    {KD_MSG_UTIL_ENV_UNKNOWN, 2,
     "kerndiff: warning: '{0}' is not a variable kerndiff reads: it has no effect (unset it; the variables kerndiff "
     "reads: {1})"},
    {KD_MSG_UTIL_ENV_UNKNOWN_NEAR, 3,
     "kerndiff: warning: '{0}' is not a variable kerndiff reads: it has no effect; did you mean '{1}'? (the "
     "variables kerndiff reads: {2})"},
    {KD_MSG_UTIL_ENV_BAD_VALUE, 3,
     "kerndiff: {0}='{1}' is not a value {0} takes ({2}; or unset it): nothing was run"},
    {KD_MSG_UTIL_OUT_OF_MEMORY_UNSIZED, 0, "kerndiff: out of memory; free some memory or make the run smaller"},
    {0, 0, NULL},
};
