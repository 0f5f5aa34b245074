/* csv.h — read `ncu --csv --page raw` output (from `ncu -i REPORT --csv --page raw`).
 *
 * Shape (Nsight Compute 2025.3, seen on H100/H200): row 1 is the header, row 2 the units,
 * then one row per profiled launch. Every field is double-quoted; numbers may carry
 * thousands separators ("3,812,805.33"); about 200 always-present columns
 * (device__attribute_*, launch__*, "ID", "Kernel Name" ...) come first, then the requested
 * metrics in alphabetical order. Lines starting with "==" (==PROF==, ==WARNING==,
 * ==ERROR==) are ncu's own and are skipped, but an ==ERROR== line is remembered. */
#ifndef KD_NCU_CSV_H
#define KD_NCU_CSV_H

#include <stdbool.h>
#include <stddef.h>

typedef struct kd_ncu_table {
    char **columns;      /* header names */
    char **units;        /* unit of each column ("" when none) */
    size_t ncolumns;
    char ***rows;        /* rows[r][c]: the field text, unquoted */
    size_t nrows;
    char *error_line;    /* the first "==ERROR==" line seen, or NULL */
} kd_ncu_table;

/* Parses text (need not be NUL-terminated). Returns 0, or -1 when there is no header row.
 * Rows with a different field count from the header are an error, and so is a malformed
 * quoted field (no closing quote, text after it). Lines end with "\n" or "\r\n"; blank
 * lines are skipped. A header with no units row gets "" units.
 * On -1, *out is empty except error_line, kept because it says why (ERR_NVGPUCTRPERM prints
 * no table at all): call kd_ncu_table_free either way. */
int kd_ncu_parse_csv(const char *text, size_t len, kd_ncu_table *out);
void kd_ncu_table_free(kd_ncu_table *t);

/* The index of column `name`, or -1. */
long kd_ncu_column(const kd_ncu_table *t, const char *name);

/* Parses a numeric field: thousands separators removed, "" or "n/a" → false; so is anything
 * but a finite decimal number. *out is only written on success. */
bool kd_ncu_number(const char *field, double *out);

#endif
