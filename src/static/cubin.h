/* cubin.h — the functions of a .cubin as cuobjdump's resource usage lists them
 * ("Function _Z10scaled_addPKfS0_Pffi:"), and the one a user's name means. A cubin has no
 * PTX to search, and its C++ kernels are listed (source/ptxentry.h) and chosen (--fn) by
 * their demangled names, so the symbol to load and to read resources and SASS for is found
 * here. */
#ifndef KD_STATIC_CUBIN_H
#define KD_STATIC_CUBIN_H

#include "util/strlist.h"

/* The function names of `usage` (cuobjdump -res-usage output), in order: malloc'd strings
 * pushed on names (free each, then names->items). */
void kd_cubin_function_names(const char *usage, kd_strlist *names);

/* The symbol of the function that `kernel` names: itself when a function is so named,
 * else the one whose demangled name matches it (static/symbols.h kd_symbol_matches:
 * "scaled_add", "ns::k", "tk<float,4>" however its arguments are spelled), else a copy of
 * kernel. malloc'd. */
char *kd_cubin_symbol(const char *usage, const char *kernel);

#endif
