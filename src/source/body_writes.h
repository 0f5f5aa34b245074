/* body_writes.h — which pointer parameters a kernel's body never writes through, read from
 * its source (source/scan.c calls it on every kernel definition). It is what a buffer's role
 * falls back on when no compiled code says (a failed build, a template with no instance):
 * a pointer never written is an input, whatever its `const` (source/roles.h).
 *
 * The walk is conservative: a parameter is marked unwritten only when the body names it and
 * every use of its name
 * in the body is one the walk understands as a read, and so is every use of each pointer it
 * initialises or is assigned to (`float *q = p + off;` makes q's writes p's). Understood:
 * `p[i]` and `p[i].x` read as a value (not assigned, incremented, subscripted again, nor
 * passed whole to a function, which might take a reference), `*p` and `*p++` read, the
 * pointer itself moved (`p += stride`, `p++`) or tested (`if (p)`, `p != nullptr`), the
 * read-only loads `__ldg(p + i)`/`__ldg(&p[i])`, and casts to a const pointee
 * (`reinterpret_cast<const float4 *>(p)`). Anything else — an assignment through it, an
 * atomic, its address or the pointer handed to a function or a macro, a store into memory,
 * a use the walk cannot place — leaves it unmarked, and so does a preprocessor line that
 * names it (a macro body may write it). */
#ifndef KD_SOURCE_BODY_WRITES_H
#define KD_SOURCE_BODY_WRITES_H

#include <stdbool.h>
#include <stddef.h>

#include "source/scan.h"

/* One token of a body, as the scanner cut it: an identifier or number (`word`), or a
 * punctuator of one byte, a literal or `::` (not a word). */
typedef struct kd_body_token {
    const char *text;
    size_t len;
    bool word;
} kd_body_token;

/* Sets `unwritten_in_source` on each named pointer parameter of `params` that the body
 * `toks[0..n)` (the tokens between the braces) never writes nor lets escape. `directives` is
 * the text of the file's preprocessor lines (NULL: none). */
void kd_body_mark_unwritten(const kd_body_token *toks, size_t n, const char *directives, kd_param *params,
                            size_t nparams);

#endif
