/* ptx.h — read the PTX that nvcc produced: entry names, one entry's body, its instruction
 * histogram. Only the chosen `.entry` is counted, never the whole module. */
#ifndef KD_STATIC_PTX_H
#define KD_STATIC_PTX_H

#include <stddef.h>
#include "static/histogram.h"

/* Names of every `.entry` in the module, in order (malloc'd array of malloc'd strings).
 * Only definitions count: a bodiless `.entry` declaration is not listed. */
void kd_ptx_entry_names(const char *ptx, char ***names, size_t *count);
void kd_ptx_names_free(char **names, size_t count);

/* The text between the braces of `.entry name(...) { ... }` (malloc'd), or NULL if absent. */
char *kd_ptx_entry_body(const char *ptx, const char *entry_name);

/* The text between the parentheses of `.entry name(...)` (malloc'd; "" when the entry
 * takes no parameters), or NULL if the entry is absent. */
char *kd_ptx_entry_params(const char *ptx, const char *entry_name);

/* Counts the instructions of an entry body. Keys are the full opcode with its modifiers and
 * without the guard predicate (`ld.global.v4.f32`, `st.shared.f32`, `bar.sync`,
 * `fma.rn.f32`); labels, braces, directives (`.reg`, `.loc`, `.shared` ...), comments and
 * `{ }` scopes are not instructions. `families` (may be NULL) gets the rolled-up view:
 * see kd_ptx_family(). */
void kd_ptx_histogram(const char *body, kd_histogram *opcodes, kd_histogram *families);

/* Calls fn for each instruction of an entry body, in order: its opcode with modifiers
 * (no guard predicate) and its operand text, up to but not including the ';'. */
typedef void (*kd_ptx_instruction_fn)(const char *opcode, size_t opcode_len, const char *operands,
                                      size_t operands_len, void *ctx);
void kd_ptx_each_instruction(const char *body, kd_ptx_instruction_fn fn, void *ctx);

/* The family an opcode rolls up to: its first component, plus the state space for memory
 * operations (`ld.global.v4.f32` -> `ld.global`, `fma.rn.f32` -> `fma`,
 * `bar.sync` -> `bar`). Writes into buf (size n). */
void kd_ptx_family(const char *opcode, char *buf, size_t n);

#endif
