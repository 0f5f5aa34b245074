/* cache.h — a content-addressed store of build artifacts under
 * $XDG_CACHE_HOME/kerndiff/builds/KEY (else ~/.cache/...), for the builds that are not
 * nvcc's: Triton's AOT compiles and .ptx/.cubin inputs (compile/foreign.h). An entry is
 * written to a staging folder and renamed, so a concurrent run never sees half of one. */
#ifndef KD_COMPILE_CACHE_H
#define KD_COMPILE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

/* The entry folder for key (malloc'd), or NULL when there is no cache location. */
char *kd_cache_entry(const char key[65]);
/* True when dir holds every one of the n named files, readable. */
bool kd_cache_complete(const char *dir, const char *const names[], size_t n);
/* Copies the n named files from build_dir into entry. A failure leaves no entry (the build
 * is still good: the cache is an optimisation). */
void kd_cache_store(const char *build_dir, const char *entry, const char *const names[], size_t n);

#endif
