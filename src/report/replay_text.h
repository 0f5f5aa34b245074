/* replay_text.h — the words of a launch replayed from a capture (`--launch FILE`, issue 30):
 * where the launch came from (the launch block), and each side against the program's own
 * result (after the correctness line). Terminal, Markdown and HTML take the same lines. */
#ifndef KD_REPORT_REPLAY_TEXT_H
#define KD_REPORT_REPLAY_TEXT_H

#include <stdbool.h>

#include "diff/comparison.h"
#include "util/strbuf.h"

/* "launch 2 of axpy(float, float const*, float*, int) (cuLaunchKernelEx), program: ./prog 3;
 * captured 2026-11-25 16:00 UTC on NVIDIA H100 80GB HBM3, 64 B of data (run.kdcap)";
 * nothing when the launch was not replayed. The program's words pass through untrusted. */
void kd_replay_origin_text(const kd_comparison *c, kd_strbuf *out);

/* Each line of the result below, with whether it is good (the program's result) or says a
 * difference or a failure: emit(line, good, ctx) for v1's, v2's, then why they could not be
 * compared, each only when there is one. */
typedef void (*kd_replay_line_fn)(const char *line, bool good, void *ctx);
void kd_replay_result_lines(const kd_comparison *c, kd_replay_line_fn emit, void *ctx);

/* The same lines joined by newlines (JSON's replay.text): one line per side checked: "v2 still computes what the program computed (2 buffers,
 * bit for bit)" or "v2 differs from the program's result at y[5] (v2 99.5, program 11)";
 * or why it could not be checked. Nothing when not replayed. *all_same: every checked side
 * is the program's result (for the colour). */
void kd_replay_result_text(const kd_comparison *c, kd_strbuf *out, bool *all_same);

#endif
