/* sanitizer_text.h — the sanitizer findings of both sides as lines, shared by the terminal
 * and Markdown renderers. */
#ifndef KD_REPORT_SANITIZER_TEXT_H
#define KD_REPORT_SANITIZER_TEXT_H

#include "diff/comparison.h"
#include "util/strbuf.h"

/* "compute-sanitizer (memcheck, racecheck)" */
void kd_sanitizer_heading(const kd_comparison *c, kd_strbuf *out);
/* Calls line() once per finding ("v2 memcheck: thread ... wrote ...") or per clean side
 * ("v1: clean"). */
void kd_sanitizer_lines(const kd_comparison *c, void (*line)(const char *text, void *ctx), void *ctx);

/* What re-running a faulted side under memcheck found ("v2, under compute-sanitizer memcheck:
 * thread ... wrote ..."), or how to get that (no compute-sanitizer); nothing when neither. */
void kd_fault_explained_text(const kd_comparison *c, kd_strbuf *out);

#endif
