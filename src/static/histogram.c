/* histogram.c — counts of instruction keys. A kernel has at most a few hundred distinct
 * opcodes, so a flat array searched linearly is simpler than a hash table and fast enough. */
#include "static/histogram.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static kd_hist_entry *find_entry(const kd_histogram *h, const char *key)
{
    for (size_t i = 0; i < h->count; i++)
        if (strcmp(h->items[i].key, key) == 0)
            return &h->items[i];
    return NULL;
}

static void grow_if_full(kd_histogram *h)
{
    if (h->count < h->cap)
        return;
    size_t cap = h->cap ? h->cap * 2 : 16;
    h->items = kd_xreallocarray(h->items, cap, sizeof *h->items);
    h->cap = cap;
}

void kd_hist_add(kd_histogram *h, const char *key, long n)
{
    kd_hist_entry *e = find_entry(h, key);
    if (!e) {
        grow_if_full(h);
        e = &h->items[h->count++];
        *e = (kd_hist_entry){kd_xstrdup(key), 0};
    }
    e->count += n;
    h->total += n;
}

long kd_hist_get(const kd_histogram *h, const char *key)
{
    const kd_hist_entry *e = find_entry(h, key);
    return e ? e->count : 0;
}

static int compare_keys(const void *a, const void *b)
{
    const kd_hist_entry *x = a, *y = b;
    return strcmp(x->key, y->key);
}

void kd_hist_sort(kd_histogram *h)
{
    if (h->count > 1)
        qsort(h->items, h->count, sizeof *h->items, compare_keys);
}

void kd_hist_free(kd_histogram *h)
{
    for (size_t i = 0; i < h->count; i++)
        free(h->items[i].key);
    free(h->items);
    memset(h, 0, sizeof *h);
}
