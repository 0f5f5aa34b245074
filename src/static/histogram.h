/* histogram.h — counts of instruction keys (PTX opcodes, SASS mnemonics). */
#ifndef KD_STATIC_HISTOGRAM_H
#define KD_STATIC_HISTOGRAM_H

#include <stddef.h>

typedef struct kd_hist_entry {
    char *key;
    long count;
} kd_hist_entry;

typedef struct kd_histogram {
    kd_hist_entry *items;
    size_t count, cap;
    long total;
} kd_histogram;

/* Adds n to key's count (creating it). */
void kd_hist_add(kd_histogram *h, const char *key, long n);
long kd_hist_get(const kd_histogram *h, const char *key);
/* Sorts entries by key so that output is stable. */
void kd_hist_sort(kd_histogram *h);
void kd_hist_free(kd_histogram *h);

#endif
