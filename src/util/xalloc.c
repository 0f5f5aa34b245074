#include "util/xalloc.h"

#include <stdint.h>
#include <stdio.h> /* vasprintf */
#include <stdlib.h>
#include <string.h>

#include "util/util_msgs.h"

/* Said through util/diag.h like every message; the sink that words it may allocate, and an
 * allocation failing there comes back here: the second time, just the exit status. */
_Noreturn void kd_die_oom(size_t size)
{
    static volatile int dying;
    if (!dying++) {
        if (size)
            kd_say(KD_MSG_UTIL_OUT_OF_MEMORY, KD_DIAG_NO_SIDE, KD_U(size));
        else /* a library allocated and did not say how much */
            kd_say0(KD_MSG_UTIL_OUT_OF_MEMORY_UNSIZED, KD_DIAG_NO_SIDE);
    }
    exit(KD_XALLOC_EXIT_STATUS);
}

void *kd_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        kd_die_oom(size);
    return p;
}

void *kd_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        kd_die_oom(count * size);
    return p;
}

void *kd_xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        kd_die_oom(size);
    return q;
}

void *kd_xreallocarray(void *p, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        kd_die_oom(SIZE_MAX);
    return kd_xrealloc(p, count * size);
}

char *kd_xstrdup(const char *s)
{
    return kd_xstrndup(s, strlen(s));
}

char *kd_xstrndup(const char *s, size_t n)
{
    char *p = strndup(s, n);
    if (!p)
        kd_die_oom(n + 1);
    return p;
}

char *kd_xvasprintf(const char *fmt, va_list ap)
{
    char *text;
    if (vasprintf(&text, fmt, ap) < 0)
        kd_die_oom(strlen(fmt));
    return text;
}

char *kd_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = kd_xvasprintf(fmt, ap);
    va_end(ap);
    return text;
}
