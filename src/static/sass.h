/* sass.h — read `cuobjdump -sass` output: per-function instruction histogram and the
 * flagged checks (local-memory spills, global access widths, barriers). */
#ifndef KD_STATIC_SASS_H
#define KD_STATIC_SASS_H

#include <stddef.h>
#include "static/histogram.h"

typedef struct kd_sass_checks {
    long local_loads;     /* LDL */
    long local_stores;    /* STL */
    long global_loads;    /* every LDG */
    long global_loads_128;/* LDG ... .128 */
    long global_loads_64; /* LDG ... .64 */
    long global_stores;   /* every STG */
    long global_stores_128;
    long global_stores_64;
    long barriers;        /* BAR.SYNC / BAR.RED / BAR.ARV ... (every BAR) */
    long memory_barriers; /* MEMBAR */
} kd_sass_checks;

/* The disassembly of `function` (mangled name as cuobjdump prints it after "Function : ")
 * from a whole cuobjdump -sass listing (malloc'd), or NULL if absent. */
char *kd_sass_function_text(const char *listing, const char *function);

/* Histogram of one function's text. Keys are the mnemonic with its modifiers
 * (`LDG.E.128`, `FFMA`, `BAR.SYNC.DEFER_BLOCKING`), without guard predicate, operands and
 * the encoding comments; families (may be NULL) are the mnemonic alone (`LDG`).
 * Counts are added to the histograms; `checks` (may be NULL) is reset first. In a listing
 * with several `code for sm_XX` sections, kd_sass_function_text returns the first copy. */
void kd_sass_histogram(const char *function_text, kd_histogram *ops, kd_histogram *families,
                       kd_sass_checks *checks);

#endif
