#include "util/suggest.h"

#include <string.h>

/* Levenshtein distance, with a cap: longer names than this are never a typo's match. */
static size_t distance(const char *a, const char *b)
{
    enum { MAX = 64 };
    size_t n = strlen(a), m = strlen(b);
    if (n >= MAX || m >= MAX)
        return MAX;
    size_t row[MAX + 1];
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t above = row[j];
            size_t best = diagonal + (a[i - 1] != b[j - 1]);
            best = above + 1 < best ? above + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[m];
}

/* How many leading characters two names share. */
static size_t common_prefix(const char *a, const char *b)
{
    size_t n = 0;
    while (a[n] && a[n] == b[n])
        n++;
    return n;
}

const char *kd_suggest(const char *typed, const char *const *names, size_t n)
{
    const char *best = NULL;
    size_t best_distance = (size_t)-1, best_prefix = 0;
    for (size_t i = 0; i < n; i++) {
        size_t d = distance(typed, names[i]), prefix = common_prefix(typed, names[i]);
        /* At equal distance the name that begins as the typed text does wins: `nn` is
         * `n` typed twice more likely than `fn` with its first letter wrong. */
        if (d < best_distance || (d == best_distance && prefix > best_prefix)) {
            best_distance = d;
            best_prefix = prefix;
            best = names[i];
        }
    }
    size_t limit = strlen(typed) / 3;
    limit = limit > 3 ? 3 : limit < 1 ? 1 : limit;
    return best && best_distance <= limit ? best : NULL;
}
