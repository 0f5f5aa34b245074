/* cupti_library.h — libcupti, opened once with dlopen (the harness runs without it): the
 * KERNDIFF_CUPTI_LIBRARY override, then the loader's libcupti.so.13 / libcupti.so, then the
 * toolkit's own folders. Every CUPTI user in the harness (the timer, the range profiler, PC
 * sampling) and the injection library (harness/inject.c) share this one search and handle. */
#ifndef KD_HARNESS_CUPTI_LIBRARY_H
#define KD_HARNESS_CUPTI_LIBRARY_H

#include <stddef.h>

/* The handle, or NULL when no libcupti loads (asked once, thread-safe; the answer is kept). */
void *kd_cupti_library(void);

/* One CUPTI function a user's table of pointers wants: the field's offset and the symbol. */
typedef struct kd_cupti_symbol {
    size_t offset;
    const char *name;
} kd_cupti_symbol;

/* Fills each field of `table` (a struct of function pointers) from the library; NULL, or the
 * first name the library lacks (the table is then unusable; without a library, the first). */
const char *kd_cupti_resolve(void *table, const kd_cupti_symbol *symbols, size_t n);

/* CUPTI's words for a result code (cuptiGetResultString), or "unknown CUPTI error". */
const char *kd_cupti_result_text(int rc);

#endif
