/* kernels_text.h — the sentences of a static diff of several kernels (model.h's `kernels`:
 * no --fn, the files share several kernels or template instances), for every renderer. */
#ifndef KD_REPORT_KERNELS_TEXT_H
#define KD_REPORT_KERNELS_TEXT_H

#include <stdbool.h>
#include "diff/comparison.h"
#include "launch/spec.h"
#include "util/strbuf.h"

/* "timing needs one kernel: --fn NAME (reduce0<float>, reduce0<int>, ...)", and the needs
 * clause when scalars need values ("..., and --arg alpha=VALUE (no value given or in the
 * file for alpha)"): false (nothing appended) when the comparison is not of several kernels or timing was not asked. */
bool kd_kernels_timing_text(const kd_comparison *c, kd_strbuf *out);
/* What the compared kernels' launches still need (each side's kd_launch_spec needs_value:
 * the rule the launch refuses by), gathered into `line` (launch/spec.h). */
void kd_kernels_needs(const kd_comparison *c, kd_launch_needs_line *line);
/* The clause the timing line ends with where the kernels need values: ", and --arg a=VALUE
 * (no value given or in the file for a)" when every kernel needs the same; else ", and the
 * values the chosen kernel's launch needs: ka: --arg a=VALUE; kc: --arg b=VALUE (no value
 * given or in the file for a, b)". Nothing when none needs any. */
void kd_kernels_needs_clause(const kd_launch_needs_line *line, kd_strbuf *out);
/* "only in v1 (not compared): NAME, ...": false when side s has no kernel of its own. */
bool kd_kernels_only_text(const kd_comparison *c, int s, kd_strbuf *out);
/* "3 kernels compared: copy, transposeNaive, transposeCoalesced". */
void kd_kernels_heading(const kd_comparison *c, kd_strbuf *out);

#endif
