#include "util/trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void kd_trace(const char *fmt, ...)
{
    static int enabled = -1;
    static struct timespec start;
    if (enabled < 0) {
        const char *env = getenv("KERNDIFF_TRACE");
        enabled = env && *env && *env != '0';
        clock_gettime(CLOCK_MONOTONIC, &start);
    }
    if (!enabled)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double t = (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[kerndiff %7.3fs] ", t);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
