/* model_text.h — the sentences for the model's codes (verdict, findings, gate, stop
 * reason): the model holds codes and numbers, and every renderer, the JSON's text fields
 * included, words them here so that they say the same thing. */
#ifndef KD_REPORT_MODEL_TEXT_H
#define KD_REPORT_MODEL_TEXT_H

#include "diff/findings.h"
#include "diff/gate.h"
#include "measure/timing.h"
#include "util/strbuf.h"

/* "v2 is 1.14x faster (214.1us -> 188.4us, 95% CI 1.12-1.16x)" */
void kd_timing_headline(const kd_timing *t, kd_strbuf *out);
/* "audited: 3 untimed launches of each side ... matched", or the failure; nothing when no
 * audit ran. */
void kd_audit_line(const kd_timing *t, kd_strbuf *out);
/* A side whose samples ran different numbers of kernels (CUPTI, every stream); nothing when
 * both ran the same count in every sample or none was counted. */
void kd_kernel_count_line(const kd_timing *t, kd_strbuf *out);
/* "--max-time", "--max-runs" ... : what ended the sampling, as the user knows it. */
const char *kd_stop_reason_text(kd_stop_reason r);
/* "register spills appeared: spill stores 0 -> 16 B, spill loads 0 -> 8 B (ptxas)" */
void kd_finding_text(const kd_finding *f, kd_strbuf *out);
/* The --fail-if-slower line: "gate --fail-if-slower 2%: passed (v2 takes ...)". */
void kd_gate_line(const kd_gate *g, kd_strbuf *out);
/* Why the gate did not pass (its result is not KD_GATE_PASSED). */
void kd_gate_reason(const kd_gate *g, kd_strbuf *out);

#endif
