/* The words of the engine's messages (util/diag.h): one format per id, in the area tables of
 * report/words_<area>.c. A format is the whole line without its newline; `{N}` is value N
 * as it is (a string, an integer, a double as %g), `{N:SPEC}` a number through one printf
 * conversion (`{0:.1f}`, `{2:x}`, `{1:5.2f}`). Strings pass through report/untrusted's
 * filter when written to a terminal (kd_diag_to_stderr). */
#ifndef KD_REPORT_DIAG_TEXT_H
#define KD_REPORT_DIAG_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "util/diag.h"
#include "util/strbuf.h"

typedef struct kd_wording {
    int id;          /* 0 ends a table */
    size_t nargs;    /* how many values the format takes */
    const char *format;
} kd_wording;

/* The entry for an id, or NULL. */
const kd_wording *kd_wording_find(int id);
/* Every area's table, for tests: tables[a] is area a's (NULL-terminated by id 0), or NULL. */
const kd_wording *kd_wording_area(int area);

/* Append d's sentence to out. A message without an entry, or given another number of
 * values than its entry takes, is said as such (never a read past its values). */
void kd_diag_text(const kd_diag *d, kd_strbuf *out);
/* The sink main.c installs (kd_diag_set_sink): the sentence and a newline on stderr, through
 * the untrusted-text filter. */
void kd_diag_to_stderr(const kd_diag *d, void *ctx);
/* 0 when format's placeholders are well formed, use values below nargs only, and apply
 * number conversions to numbers only (kinds may be NULL: kinds not checked). */
int kd_wording_format_ok(const char *format, size_t nargs, const kd_diag_kind *kinds);

#endif
