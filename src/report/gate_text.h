/* gate_text.h — a gate that could not be judged, in words: the gates named as the user gave
 * them, and the real reason (the note that says why nothing was timed, or why the outputs
 * were not compared), never a guess; and why a gate failed, for the command that ends with
 * its exit status (cli/status.c gives the status, never the sentence). */
#ifndef KD_REPORT_GATE_TEXT_H
#define KD_REPORT_GATE_TEXT_H

#include "app/app_model.h"
#include "diff/comparison.h"
#include "util/strbuf.h"

/* "gate --require-match: NOT EVALUATED, no outputs were compared: runtime measurement
 * skipped: KERNDIFF_NO_GPU is set; static diff only". Nothing when every gate asked for was
 * evaluated. */
void kd_gate_not_evaluated_text(const kd_comparison *c, kd_strbuf *out);
/* Why the comparison's gate failed: the not-evaluated sentence above, or the gate's reason
 * ("v2 is slower than v1 by ..."). Nothing when the gate passed. */
void kd_gate_failure_text(const kd_comparison *c, kd_strbuf *out);
/* Why `kerndiff app`'s gate failed: "v2's GPU kernel time is more than 5% above v1's
 * (--fail-if-slower)". Nothing when it did not. */
void kd_app_gate_failure_text(const kd_app_comparison *c, kd_strbuf *out);

#endif
