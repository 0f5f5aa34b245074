/* symbols.h — connect a kernel's source-level name to the entry nvcc made of it.
 * PTX and SASS name entries by their mangled C++ names (`_Z5saxpyfPKfPfi`,
 * `_Z2tkIfEvPT_i`); extern "C" kernels keep their plain name. */
#ifndef KD_STATIC_SYMBOLS_H
#define KD_STATIC_SYMBOLS_H

#include <stdbool.h>
#include "util/strbuf.h"
#include "util/strlist.h"

/* The demangled name ("void tk<float>(float*, int)"), or a copy of `mangled` when it is
 * not a C++ name. A C++ name the demangler refuses (too long: a kernel with thousands of
 * parameters) gives its leading qualified name without a parameter list ("big"), so it is
 * still found by name; its types then come from the PTX declaration. Always malloc'd. */
char *kd_demangle(const char *mangled);

/* True when the demangled entry is the kernel `want`: "saxpy", "ns::saxpy" or, to pick a
 * template instance, "tk<float>". An unqualified `want` matches in any namespace. */
bool kd_symbol_matches(const char *demangled, const char *want);

/* Template arguments as one spelling, whatever the user typed: no blanks, integer suffixes
 * dropped (256u, 4ul, 8LL), casts of literals dropped and "(bool)1"/"(bool)0" as
 * true/false: "float, 256u, (bool)1" -> "float,256,true". Appended to out. */
void kd_template_args_normalize(const char *args, kd_strbuf *out);
/* Whether two template argument lists are one spelled two ways (normalised as above). */
bool kd_same_template_args(const char *a, const char *b);

/* The template arguments of a demangled entry ("float, 4"), malloc'd; NULL if none. */
char *kd_symbol_template_args(const char *demangled);

/* The parts of a demangled entry "void ns::tk<float>(float const*, int)": its name with
 * template arguments ("ns::tk<float>") and its parameter types as the demangler spells them
 * ("float const*", "int"; the list owns its strings). Returns 0; 1 when the entry has no
 * parameter list (an extern "C" name: nothing is set). */
int kd_symbol_signature(const char *demangled, char **name, kd_strlist *params);
void kd_symbol_signature_free(char **name, kd_strlist *params);

#endif
