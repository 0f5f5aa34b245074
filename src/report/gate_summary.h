/* gate_summary.h — every gate the user asked for, in the report's body: --fail-if-slower's
 * judgement (kd_gate_line), --require-match's, and for a gate that could not be judged the
 * same sentence as the exit message, with the real reason (kd_gate_not_evaluated_text). The
 * terminal, Markdown, HTML and JSON renderers show these lines, so a report never says less
 * than the exit status. */
#ifndef KD_REPORT_GATE_SUMMARY_H
#define KD_REPORT_GATE_SUMMARY_H

#include <stdbool.h>
#include "diff/comparison.h"
#include "util/strbuf.h"

/* Whether a gate was asked for at all. */
bool kd_gate_asked(const kd_comparison *c);
/* The gates' lines, one per '\n'-separated line, appended to out; nothing when none was
 * asked. Returns whether the gates are bad (one failed, or one could not be judged). */
bool kd_gate_summary(const kd_comparison *c, kd_strbuf *out);

#endif
