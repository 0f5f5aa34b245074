/* cupti_library.h — libcupti, opened once with dlopen (the harness runs without it): the
 * KERNDIFF_CUPTI_LIBRARY override, then the loader's libcupti.so.13 / libcupti.so, then the
 * toolkit's own folders. Every CUPTI user in the harness (the timer, the range profiler, PC
 * sampling) and the injection library (harness/inject.c) share this one search and handle. */
#ifndef KD_HARNESS_CUPTI_LIBRARY_H
#define KD_HARNESS_CUPTI_LIBRARY_H

/* The handle, or NULL when no libcupti loads (asked once, thread-safe; the answer is kept). */
void *kd_cupti_library(void);

#endif
