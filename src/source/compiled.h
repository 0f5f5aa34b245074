/* compiled.h — kernels as the compiler made them, read from the PTX entries' demangled
 * names ("void copy<float>(float const*, float*, int)"). Two things the scanner cannot
 * know come from there: a template instance's parameter types (`const T *` is
 * `float const*` in copy<float>), and the kernels it cannot see at all (declared through a
 * macro, which it does not expand).
 *
 * A demangled type is read as the scanner reads a declared one: "float const*" is the
 * pointer `const float *` (an input buffer of float), "int" a scalar. An extern "C" entry
 * has no demangled signature: its types come from the `.entry` declaration (ptxentry.h),
 * pointers typed float. Parameter names are not in the compiled code: a kernel found only
 * there has them named by position, p0, p1, ... (`from_compiled` says so). */
#ifndef KD_SOURCE_COMPILED_H
#define KD_SOURCE_COMPILED_H

#include "source/scan.h"

/* The kernel of one demangled entry, its `signature` kept. Names, default values and
 * launch bounds come from `source` (the scanned kernel it instantiates) when given and its
 * parameter count agrees; otherwise the names are p0, p1, ... Returns 0; 1 when the entry
 * has no demangled parameter list (then *out is left empty). */
int kd_kernel_from_signature(const char *demangled, const kd_kernel *source, kd_kernel *out);

/* Adds to `kernels` every entry of `ptx` that none of them accounts for (by name, any
 * template instance or overload of it), marked from_compiled. Returns the number added. */
int kd_compiled_kernels_add(kd_kernel_list *kernels, const char *ptx);

/* The compiled instances of the scanned template kernel `tmpl` in `ptx`, in entry order,
 * each named with its template arguments ("copy<float>"). */
void kd_compiled_instances(const kd_kernel *tmpl, const char *ptx, kd_kernel_list *out);

#endif
