/* strbuf.h — a growable, always NUL-terminated byte string. */
#ifndef KD_UTIL_STRBUF_H
#define KD_UTIL_STRBUF_H

#include <stddef.h>

typedef struct kd_strbuf {
    char *data; /* NULL until something is appended */
    size_t len, cap;
} kd_strbuf;

/* The appends never fail (out of memory ends the command, util/xalloc.h). kd_sb_printf
 * returns -1 only when the C library cannot format the arguments (an encoding error),
 * leaving sb unchanged; otherwise 0. */
void kd_sb_append(kd_strbuf *sb, const char *bytes, size_t n);
void kd_sb_puts(kd_strbuf *sb, const char *s);
int kd_sb_printf(kd_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text ("" when empty); stays owned by sb. */
const char *kd_sb_str(const kd_strbuf *sb);
/* Hands the buffer to the caller (never NULL) and resets sb. */
char *kd_sb_take(kd_strbuf *sb);
void kd_sb_free(kd_strbuf *sb);

#endif
