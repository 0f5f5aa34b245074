/* A formatted message through the untrusted-text filter (report/stderr_text.h). */
#include "report/stderr_text.h"

#include <stdarg.h>
#include <stdlib.h>

#include "report/untrusted.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

void kd_untrusted_fprintf(FILE *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *formatted = kd_xvasprintf(fmt, ap);
    va_end(ap);
    kd_strbuf text = {0};
    kd_sb_puts(&text, formatted);
    free(formatted);
    kd_untrusted_fix(&text);
    fputs(kd_sb_str(&text), out);
    kd_sb_free(&text);
}

void kd_status_to_stderr(double seconds, const char *text)
{
    if (!text) {
        fputs("\r\033[K", stderr);
    } else {
        kd_strbuf line = {0};
        kd_sb_puts(&line, text);
        kd_untrusted_fix(&line);
        fprintf(stderr, "\r\033[K[kerndiff %.1fs] %s", seconds, kd_sb_str(&line));
        kd_sb_free(&line);
    }
    fflush(stderr);
}
