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
 * template instance or overload of it). An entry that a kernel of `headers` (those of the
 * files the source includes; may be NULL) declares is added as that kernel, with its names,
 * header and line (a template once, for all its instances); any other is marked
 * from_compiled (declared through a macro). Returns the number added. */
int kd_compiled_kernels_add(kd_kernel_list *kernels, const kd_kernel_list *headers, const char *ptx);

/* How the code of `entry` in ptx uses each pointer parameter of k (static/ptxflow.h) into
 * params[].access; nothing when the entry is absent or its parameters do not line up. */
void kd_compiled_read_uses(kd_kernel *k, const char *ptx, const char *entry);

/* The scanned kernel `source` as compiled: the one entry that is `want` (its name as the
 * user gave it: "copy", "copy<float>"; a non-template's entry must have as many parameters),
 * typed from the demangled signature (typedefs resolved: `uint` is `unsigned int`, `floatX*`
 * `__nv_bfloat16*`), named from the source, with each pointer's use read from its code.
 * Returns 0; 1 when there is no such entry (none, several, a launcher, ptx NULL). */
int kd_compiled_kernel(const kd_kernel *source, const char *want, const char *ptx, kd_kernel *out);

/* Every kernel of a scanned list as compiled (kd_compiled_kernel), in place; a template gets
 * the compiled instances as its `instantiations` (those the host code launches included). */
void kd_compiled_refine(kd_kernel_list *kernels, const char *ptx);

/* The compiled instances of the scanned template kernel `tmpl` in `ptx`, in entry order,
 * each named with its template arguments ("copy<float>"), its pointers' uses read. */
void kd_compiled_instances(const kd_kernel *tmpl, const char *ptx, kd_kernel_list *out);

#endif
