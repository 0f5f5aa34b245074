/* launch_text.h — how a side is launched, in one compact line, shared by the terminal and
 * Markdown reports and `kerndiff list`, so a wrong launch is visible wherever it is shown.
 *
 *   grid 4096 (default)  block 256 (--block)  smem 0 (default)  n 1048576 (--n)
 *   | x: 1048576 f32 in (n)  y: 1048576 f32 out (n)  alpha = 2.5 (--arg)
 *
 * Every value carries its origin: a flag (--n, --grid, --call v2 ...), annotation,
 * default, n (a buffer of n elements, a length parameter given n) or inferred (a default
 * argument of the signature). */
#ifndef KD_REPORT_LAUNCH_TEXT_H
#define KD_REPORT_LAUNCH_TEXT_H

#include "diff/comparison.h"
#include "launch/spec.h"
#include "util/strbuf.h"

/* The geometry: grid, block, dynamic shared memory and n, with their origins. */
void kd_launch_geometry_text(const kd_launch_spec *s, kd_strbuf *out);
/* The arguments in parameter order: buffers with element count, dtype and direction;
 * scalars with their value. */
void kd_launch_args_text(const kd_launch_spec *s, kd_strbuf *out);
/* What `list` says beside scalar parameter `name` (index j) of a kernel, by the launch's own
 * rule, so that the parameter table and the launch line never disagree: " (assumed 1024:
 * sqrt(n), a side of the 2-D shape the kernel indexes)" where the launch `spec` (built: true)
 * assumed its value; " (needs --arg NAME=VALUE)" where the launch was refused for want of
 * it (built false: spec's needs_value names it); nothing otherwise (a value given, a default,
 * or a refusal for another reason, said on the launch line). */
void kd_launch_param_note(const kd_launch_spec *spec, bool built, size_t j, const char *name, kd_strbuf *out);
/* The role word `list` shows for parameter j (kd_param_role_name of `role`), except for an
 * integer named like a length that the launch took as a shape's side rather than n (N of a
 * row-wise kernel: "N = 1024 (assumed)"): "scalar", so the table says what the launch does. */
const char *kd_launch_param_role_word(const kd_launch_spec *spec, bool built, size_t j, kd_param_role role);
/* Both sides of a comparison, each line prefixed by `indent`: "v1:" and "v2:" lines (or one
 * "v1, v2:" when they are launched alike), the geometry then the arguments; a side that
 * cannot be launched says why. */
void kd_launch_block_text(const kd_comparison *c, const char *indent, kd_strbuf *out);

#endif
