/* gate_text.h — a gate that could not be judged, in words: the gates named as the user gave
 * them, and the real reason (the note that says why nothing was timed, or why the outputs
 * were not compared), never a guess. cli/status.c says it when a gate fails closed. */
#ifndef KD_REPORT_GATE_TEXT_H
#define KD_REPORT_GATE_TEXT_H

#include "diff/model.h"
#include "util/strbuf.h"

/* "gate --require-match: NOT EVALUATED, no outputs were compared: runtime measurement
 * skipped: KERNDIFF_NO_GPU is set; static diff only". Nothing when every gate asked for was
 * evaluated. */
void kd_gate_not_evaluated_text(const kd_comparison *c, kd_strbuf *out);

#endif
