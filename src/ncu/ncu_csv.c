/* csv.c — a small RFC 4180 reader for ncu's raw page, plus the "==" lines ncu mixes in.
 *
 * Records are read with a cursor over (text, len) so the input need not be NUL-terminated.
 * Every field is copied into its own allocation: the table outlives the text it came from. */
#include "ncu/ncu_csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

typedef struct cursor {
    const char *p, *end;
} cursor;

/* One record's fields while it is being read. */
typedef struct record {
    char **fields;
    size_t n, cap;
} record;

static void free_fields(char **fields, size_t n)
{
    if (!fields)
        return;
    for (size_t i = 0; i < n; i++)
        free(fields[i]);
    free(fields);
}

static bool at_end(const cursor *c) { return c->p >= c->end; }

/* A record ends at "\n", "\r\n", a "\r" that is the last byte, or the end of the text. */
static size_t line_end_length(const cursor *c)
{
    if (at_end(c))
        return 0;
    if (c->p[0] == '\n')
        return 1;
    if (c->p[0] == '\r' && (c->p + 1 == c->end || c->p[1] == '\n'))
        return c->p + 1 == c->end ? 1 : 2;
    return 0;
}

static bool at_line_end(const cursor *c) { return at_end(c) || line_end_length(c) > 0; }

static bool at_field_end(const cursor *c) { return at_line_end(c) || c->p[0] == ','; }

/* The rest of the current line, without its line ending; the cursor moves past both. */
static void take_line(cursor *c, const char **start, size_t *n)
{
    *start = c->p;
    while (!at_line_end(c))
        c->p++;
    *n = (size_t)(c->p - *start);
    c->p += line_end_length(c);
}

/* A quoted field: "" inside stands for one quote. Returns NULL when the closing quote is
 * missing or followed by something other than a separator or line end (malformed). */
static char *read_quoted_field(cursor *c)
{
    const char *start = ++c->p;
    for (;;) {
        const char *quote = memchr(c->p, '"', (size_t)(c->end - c->p));
        if (!quote)
            return NULL;
        c->p = quote + 1;
        if (c->p < c->end && c->p[0] == '"') {
            c->p++;
            continue;
        }
        break;
    }
    if (!at_field_end(c))
        return NULL;
    size_t span = (size_t)(c->p - 1 - start);
    char *field = kd_xmalloc(span + 1); /* a "" pair shrinks to one quote: never longer */
    size_t out = 0;
    for (size_t i = 0; i < span; i++) {
        field[out++] = start[i];
        if (start[i] == '"')
            i++; /* the second quote of a "" pair */
    }
    field[out] = '\0';
    return field;
}

/* ncu quotes every field, but an unquoted one costs nothing to accept. */
static char *read_bare_field(cursor *c)
{
    const char *start = c->p;
    while (!at_field_end(c))
        c->p++;
    return kd_xstrndup(start, (size_t)(c->p - start));
}

static void push_field(record *r, char *field)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 16;
        r->fields = kd_xreallocarray(r->fields, r->cap, sizeof *r->fields);
    }
    r->fields[r->n++] = field;
}

/* Reads one record into r (emptied first); the cursor ends past its line ending. Returns 0,
 * or -1 on a malformed quoted field. */
static int read_record(cursor *c, record *r)
{
    r->n = 0;
    for (;;) {
        char *field = !at_end(c) && c->p[0] == '"' ? read_quoted_field(c) : read_bare_field(c);
        if (!field)
            return -1;
        push_field(r, field);
        if (at_end(c) || c->p[0] != ',')
            break;
        c->p++;
    }
    c->p += line_end_length(c);
    return 0;
}

/* The record's fields (a record has at least one), shrunk to size and handed over; r is
 * left empty. */
static char **take_fields(record *r)
{
    char **fields = kd_xreallocarray(r->fields, r->n, sizeof *fields);
    r->fields = NULL;
    r->n = r->cap = 0;
    return fields;
}

/* Skips blank lines and ncu's own "==" lines, keeping the first ==ERROR== line. */
static void skip_non_records(cursor *c, kd_ncu_table *t)
{
    static const char error_prefix[] = "==ERROR==";
    while (!at_end(c)) {
        size_t blank = line_end_length(c);
        if (blank) {
            c->p += blank;
            continue;
        }
        if (c->end - c->p < 2 || c->p[0] != '=' || c->p[1] != '=')
            return;
        const char *line;
        size_t n;
        take_line(c, &line, &n);
        size_t prefix = sizeof error_prefix - 1;
        bool is_error = n >= prefix && memcmp(line, error_prefix, prefix) == 0;
        if (is_error && !t->error_line)
            t->error_line = kd_xstrndup(line, n);
    }
}

/* Reads the next data record into r; 1 when one was read, 0 at the end, -1 on a malformed
 * record. */
static int next_record(cursor *c, kd_ncu_table *t, record *r)
{
    skip_non_records(c, t);
    if (at_end(c))
        return 0;
    return read_record(c, r) == 0 ? 1 : -1;
}

/* Returns 0, or -1 when the row's field count differs from the header's. */
static int append_row(kd_ncu_table *t, record *r, size_t *cap)
{
    if (r->n != t->ncolumns)
        return -1;
    if (t->nrows == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        t->rows = kd_xreallocarray(t->rows, *cap, sizeof *t->rows);
    }
    t->rows[t->nrows++] = take_fields(r);
    return 0;
}

/* A header without a units row (a cut-off output) still gets one unit per column. */
static void empty_units(kd_ncu_table *t)
{
    t->units = kd_xcalloc(t->ncolumns, sizeof *t->units);
    for (size_t i = 0; i < t->ncolumns; i++)
        t->units[i] = kd_xstrdup("");
}

static int parse_records(cursor *c, kd_ncu_table *out, record *r)
{
    if (next_record(c, out, r) != 1)
        return -1;
    out->ncolumns = r->n;
    out->columns = take_fields(r);

    int got = next_record(c, out, r);
    if (got < 0 || (got == 1 && r->n != out->ncolumns))
        return -1;
    if (got == 0) {
        empty_units(out);
        return 0;
    }
    out->units = take_fields(r);

    size_t cap = 0;
    while ((got = next_record(c, out, r)) == 1)
        if (append_row(out, r, &cap) != 0)
            return -1;
    return got;
}

int kd_ncu_parse_csv(const char *text, size_t len, kd_ncu_table *out)
{
    memset(out, 0, sizeof *out);
    cursor c = {text, text + len};
    record r = {0};
    int rc = parse_records(&c, out, &r);
    free_fields(r.fields, r.n);
    if (rc != 0) {
        /* Keep the ==ERROR== line: it is why a profile produced no table. */
        char *error_line = out->error_line;
        out->error_line = NULL;
        kd_ncu_table_free(out);
        out->error_line = error_line;
        return -1;
    }
    return 0;
}

void kd_ncu_table_free(kd_ncu_table *t)
{
    free_fields(t->columns, t->ncolumns);
    free_fields(t->units, t->ncolumns);
    for (size_t r = 0; r < t->nrows; r++)
        free_fields(t->rows[r], t->ncolumns);
    free(t->rows);
    free(t->error_line);
    memset(t, 0, sizeof *t);
}

long kd_ncu_column(const kd_ncu_table *t, const char *name)
{
    for (size_t i = 0; i < t->ncolumns; i++)
        if (strcmp(t->columns[i], name) == 0)
            return (long)i;
    return -1;
}

bool kd_ncu_number(const char *field, double *out)
{
    /* Long enough for any double ncu prints; strtod's own extras (hex, "inf", "nan",
     * leading blanks) are refused by the character check. */
    char digits[128];
    size_t n = 0;
    for (const char *s = field; *s; s++) {
        if (*s == ',')
            continue;
        if (!strchr("0123456789.+-eE", *s) || n + 1 >= sizeof digits)
            return false;
        digits[n++] = *s;
    }
    if (n == 0)
        return false;
    digits[n] = '\0';
    char *end;
    double v = strtod(digits, &end);
    if (*end != '\0' || !isfinite(v))
        return false;
    *out = v;
    return true;
}
