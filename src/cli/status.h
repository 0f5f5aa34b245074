/* status.h — the process's exit status, made only here from what the engine returns: an
 * engine call's outcome (util/outcome.h) and a comparison's gate (diff/gate.h, judged once
 * by the pipeline), for a diff, `kerndiff compare`, each point of a sweep, `list` and `app`. */
#ifndef KD_CLI_STATUS_H
#define KD_CLI_STATUS_H

#include "diff/model.h"
#include "util/outcome.h"
#include "util/strbuf.h"

/* The KD_EXIT_* status (cli/exit_codes.h) of an engine call's outcome. */
int kd_exit_code(kd_outcome outcome);

/* A comparison's exit status: the outcome's when it failed or the gate passed; otherwise
 * KD_EXIT_SLOWER, KD_EXIT_MISMATCH or (a gate that could not be judged: nothing timed, or
 * --require-match with no outputs compared) KD_EXIT_RUNTIME, with why in `why`. */
int kd_comparison_status(const kd_comparison *c, kd_outcome outcome, kd_strbuf *why);

#endif
