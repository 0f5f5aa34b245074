/* symbols.h — connect a kernel's source-level name to the entry nvcc made of it.
 * PTX and SASS name entries by their mangled C++ names (`_Z5saxpyfPKfPfi`,
 * `_Z2tkIfEvPT_i`); extern "C" kernels keep their plain name. */
#ifndef KD_STATIC_SYMBOLS_H
#define KD_STATIC_SYMBOLS_H

#include <stdbool.h>

/* The demangled name ("void tk<float>(float*, int)"), or a copy of `mangled` when it is
 * not a C++ name. Always malloc'd. */
char *kd_demangle(const char *mangled);

/* True when the demangled entry is the kernel `want`: "saxpy", "ns::saxpy" or, to pick a
 * template instance, "tk<float>". An unqualified `want` matches in any namespace. */
bool kd_symbol_matches(const char *demangled, const char *want);

/* The template arguments of a demangled entry ("float, 4"), malloc'd; NULL if none. */
char *kd_symbol_template_args(const char *demangled);

#endif
