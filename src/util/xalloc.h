/* xalloc.h — kerndiff's one out-of-memory policy (git's xmalloc): an allocation that fails
 * ends the command with a message and exit 7 (KD_EXIT_TOOL); the exit runs the cleanup
 * actions (util/cleanup.h: temporary folders, harness children, clocks). So callers never
 * check these results, and no function returns "out of memory" as an error of its own.
 * The harness children (harness/) are separate programs with their own replies. */
#ifndef KD_UTIL_XALLOC_H
#define KD_UTIL_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *kd_xmalloc(size_t size);
void *kd_xcalloc(size_t count, size_t size);
void *kd_xrealloc(void *p, size_t size);
/* realloc for an array of count elements of `size` bytes, the product checked. */
void *kd_xreallocarray(void *p, size_t count, size_t size);
char *kd_xstrdup(const char *s);
char *kd_xstrndup(const char *s, size_t n);
char *kd_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *kd_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* The exit status of a command that ran out of memory: the one process exit below the CLI,
 * so util/ names it itself rather than include the CLI's table; cli/exit_codes.h asserts it
 * equals KD_EXIT_TOOL (documented in docs/OPTIONS.md). */
#define KD_XALLOC_EXIT_STATUS 7

/* Ends the command: "kerndiff: out of memory (allocating N bytes)", exit
 * KD_XALLOC_EXIT_STATUS (size 0: a library's allocation, size unknown). */
_Noreturn void kd_die_oom(size_t size);

#endif
