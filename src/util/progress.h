/* trace.h — what kerndiff is doing, on stderr, at the level the user chose:
 *   quiet (-q):    nothing but errors;
 *   normal:        a one-line status that rewrites itself (stage, samples, the CI's width,
 *                  which ncu pass), only when stderr is a terminal, erased before the report;
 *   verbose (-v):  every stage as its own line with the time since start (KERNDIFF_TRACE=1
 *                  means the same). */
#ifndef KD_UTIL_TRACE_H
#define KD_UTIL_TRACE_H

typedef enum kd_verbosity { KD_QUIET = -1, KD_NORMAL = 0, KD_VERBOSE = 1 } kd_verbosity;

void kd_trace_set(kd_verbosity level);
/* A stage: a line when verbose, the status line when normal on a terminal. */
void kd_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Progress within a stage (samples, CI width): the status line only. */
void kd_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A result worth seeing before the run ends (the verdict, before the counter pass): a line,
 * unless quiet or stderr is not a terminal (and not verbose). */
void kd_announce(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Erases the status line (before anything else is printed). */
void kd_status_clear(void);

/* Seconds on a monotonic clock (CLOCK_MONOTONIC): for spans, not dates. */
double kd_clock_s(void);

/* Where the status line is drawn: `text` after `seconds` since the start, redrawn in place;
 * text NULL: erase it. The top layer installs report/'s (report/stderr_text.h's
 * kd_status_to_stderr); none installed: no status line. */
typedef void (*kd_status_sink)(double seconds, const char *text);
void kd_trace_set_status_sink(kd_status_sink sink);

#endif
