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
/* Both sides of a comparison, each line prefixed by `indent`: "v1:" and "v2:" lines (or one
 * "v1, v2:" when they are launched alike), the geometry then the arguments; a side that
 * cannot be launched says why. */
void kd_launch_block_text(const kd_comparison *c, const char *indent, kd_strbuf *out);

#endif
