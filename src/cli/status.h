/* status.h — the process's exit status, made only here from what the engine and the
 * fan-out return: an engine call's outcome (util/outcome.h), the outputs that could not be
 * written (report/formats.h) and a comparison's gate (diff/gate.h, judged once by the
 * pipeline; app's in app/app_model.h), for a diff, `kerndiff compare`, each point of a sweep,
 * `list` and `app`. Nothing here says anything: the gate's sentence is report/gate_text.h's. */
#ifndef KD_CLI_STATUS_H
#define KD_CLI_STATUS_H

#include <stdbool.h>

#include "app/app_model.h"
#include "diff/comparison.h"
#include "util/outcome.h"

/* The KD_EXIT_* status (cli/exit_codes.h) of an engine call's outcome. */
int kd_exit_code(kd_outcome outcome);

/* Outputs that could not be written (kd_formats_write's count): KD_EXIT_TOOL, or OK for 0. */
int kd_outputs_status(int failures);

/* A comparison's exit status: the outcome's when it failed; else KD_EXIT_TOOL when an output
 * failed; else the gate's: OK when it passed, KD_EXIT_SLOWER, KD_EXIT_MISMATCH or (a gate
 * that could not be judged: nothing timed, or --require-match with no outputs compared)
 * KD_EXIT_NOT_EVALUATED, and *gate_failed set (say why with report/gate_text.h). */
int kd_comparison_status(const kd_comparison *c, kd_outcome outcome, int output_failures, bool *gate_failed);

/* `kerndiff app`'s, in the same order: the outcome, the outputs, then its gate
 * (--fail-if-slower on the total GPU kernel time: KD_EXIT_SLOWER, *gate_failed set). */
int kd_app_status(const kd_app_comparison *c, kd_outcome outcome, int output_failures, bool *gate_failed);

#endif
