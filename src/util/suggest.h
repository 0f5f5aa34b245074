/* suggest.h — "did you mean ...?": the closest of a list of names to a mistyped one. */
#ifndef KD_UTIL_SUGGEST_H
#define KD_UTIL_SUGGEST_H

#include <stddef.h>

/* The name among names[0..n) closest to `typed` by edit distance, if it is close enough
 * to be a likely typo (at most a third of its length, and at most 3); else NULL. Of names
 * at the same distance, the one sharing the longest beginning with `typed` (then the first). */
const char *kd_suggest(const char *typed, const char *const *names, size_t n);

#endif
