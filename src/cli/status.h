/* status.h — a comparison's exit status: the engine's code, then the gate's verdict
 * (diff/gate.h, judged once by the pipeline) mapped to a KD_EXIT_* status. The one place
 * that mapping is made, for a diff, `kerndiff compare` and each point of a sweep. */
#ifndef KD_CLI_STATUS_H
#define KD_CLI_STATUS_H

#include "diff/model.h"
#include "util/strbuf.h"

/* rc when it is not KD_EXIT_OK or the gate passed; otherwise KD_EXIT_SLOWER,
 * KD_EXIT_MISMATCH or (nothing timed to judge) KD_EXIT_RUNTIME, with why in `why`. */
int kd_comparison_status(const kd_comparison *c, int rc, kd_strbuf *why);

#endif
