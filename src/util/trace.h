/* trace.h — KERNDIFF_TRACE=1 prints each pipeline stage with the time since start to
 * stderr, to see where a run spends its wall time. */
#ifndef KD_UTIL_TRACE_H
#define KD_UTIL_TRACE_H

void kd_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
