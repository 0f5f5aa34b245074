/* The terminal report within the terminal's width (report/fit.h). */
#include "report/fit.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/env.h"

enum { FIT_DEFAULT = 80, FIT_MIN = 40 };

int kd_fit_width(FILE *f)
{
    const char *fixed = kd_env_nonempty(KD_ENV_WIDTH);
    if (fixed) {
        char *end;
        long v = strtol(fixed, &end, 10);
        if (!*end && v >= 0 && v < 100000)
            return v == 0 ? 0 : v < FIT_MIN ? FIT_MIN : (int)v;
    }
    int fd = f ? fileno(f) : -1;
    if (fd < 0 || !isatty(fd))
        return FIT_DEFAULT;
    long width = 0;
    const char *columns = kd_env_nonempty(KD_ENV_COLUMNS);
    if (columns) {
        char *end;
        long v = strtol(columns, &end, 10);
        if (!*end && v > 0 && v < 100000)
            width = v;
    }
    struct winsize ws;
    if (!width && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        width = ws.ws_col;
    if (!width)
        width = FIT_DEFAULT;
    return width < FIT_MIN ? FIT_MIN : (int)width;
}

static bool hex_run(const char *s, size_t i, size_t n, size_t count)
{
    if (i + count > n)
        return false;
    for (size_t k = 0; k < count; k++)
        if (!isxdigit((unsigned char)s[i + k]))
            return false;
    return true;
}

/* The unit at s[i]: its length in bytes, and its columns in *cols. A unit is never cut: an
 * ANSI sequence (ESC [ ... final byte, no columns), an escape the untrusted filter wrote
 * (\xNN, \uNNNN), a UTF-8 character (one column), any other byte (one). */
static size_t unit(const char *s, size_t i, size_t n, size_t *cols)
{
    unsigned char c = (unsigned char)s[i];
    if (c == 0x1b && i + 1 < n && s[i + 1] == '[') {
        size_t j = i + 2;
        while (j < n && !((unsigned char)s[j] >= 0x40 && (unsigned char)s[j] <= 0x7e))
            j++;
        *cols = 0;
        return (j < n ? j + 1 : n) - i;
    }
    if (c == '\\' && i + 1 < n && s[i + 1] == 'x' && hex_run(s, i + 2, n, 2)) {
        *cols = 4;
        return 4;
    }
    if (c == '\\' && i + 1 < n && s[i + 1] == 'u' && hex_run(s, i + 2, n, 4)) {
        *cols = 6;
        return 6;
    }
    *cols = 1;
    size_t len = 1;
    if (c >= 0xc0)
        while (i + len < n && ((unsigned char)s[i + len] & 0xc0) == 0x80 && len < 4)
            len++;
    return len;
}

size_t kd_fit_columns(const char *text, size_t len)
{
    size_t total = 0, cols;
    for (size_t i = 0; i < len; total += cols)
        i += unit(text, i, len, &cols);
    return total;
}

void kd_fit_elide(const char *text, size_t len, size_t max, kd_strbuf *out)
{
    if (kd_fit_columns(text, len) <= max || max < 5) {
        kd_sb_append(out, text, len);
        return;
    }
    size_t keep = max - 3, head_cols = (keep + 1) / 2, tail_cols = keep - head_cols;
    /* the head: whole units while they fit */
    size_t i = 0, used = 0, cols;
    while (i < len) {
        size_t ulen = unit(text, i, len, &cols);
        if (used + cols > head_cols)
            break;
        used += cols;
        i += ulen;
    }
    size_t head_end = i;
    /* the tail: the units from the end that fit (found by walking forward) */
    size_t starts_cap = len - head_end + 1, nstarts = 0;
    size_t *starts = malloc(starts_cap * sizeof *starts), *widths = malloc(starts_cap * sizeof *widths);
    if (!starts || !widths) {
        free(starts);
        free(widths);
        kd_sb_append(out, text, len);
        return;
    }
    for (size_t j = head_end; j < len; nstarts++) {
        starts[nstarts] = j;
        j += unit(text, j, len, &widths[nstarts]);
    }
    size_t tail_start = len, tail_used = 0;
    for (size_t k = nstarts; k-- > 0;) {
        if (tail_used + widths[k] > tail_cols)
            break;
        tail_used += widths[k];
        tail_start = starts[k];
    }
    kd_sb_append(out, text, head_end);
    kd_sb_puts(out, "...");
    /* colour changes in what is left out are kept (they take no columns) */
    for (size_t k = 0; k < nstarts && starts[k] < tail_start; k++)
        if (widths[k] == 0)
            kd_sb_append(out, text + starts[k], (k + 1 < nstarts ? starts[k + 1] : len) - starts[k]);
    kd_sb_append(out, text + tail_start, len - tail_start);
    free(starts);
    free(widths);
}

/* Where a line's continuation lines start: an indented line's (four or more) two columns
 * right of its indent; else under the text after its label ("  v1:     grid" continues at
 * the column of "grid") when that is within the first third of the width; else four right
 * of its indent. */
static size_t hang_of(const char *s, size_t n, int width)
{
    /* a table's row: under its last column (after the last run of three or more spaces) */
    size_t table = 0, c = 0, k = 0, w;
    bool content = false;
    while (k < n) {
        if (s[k] == ' ') {
            size_t run = 0;
            while (k < n && s[k] == ' ')
                k++, run++, c++;
            if (content && run >= 3 && k < n)
                table = c;
            continue;
        }
        k += unit(s, k, n, &w);
        c += w;
        content = content || w;
    }
    if (table && table <= (size_t)width * 2 / 3)
        return table;
    size_t i = 0, col = 0, cols, indent = 0;
    bool in_indent = true;
    while (i < n) {
        size_t ulen = unit(s, i, n, &cols);
        if (in_indent && cols && s[i] == ' ')
            indent++;
        else if (cols)
            in_indent = false;
        if (!in_indent && indent >= 4)
            return indent + 2;
        if (!in_indent && s[i] == ':' && i + 1 < n && s[i + 1] == ' ') {
            size_t j = i + 1, at = col + 1;
            while (j < n && s[j] == ' ')
                j++, at++;
            if (at <= (size_t)width / 3 && j < n)
                return at;
            break;
        }
        col += cols;
        i += ulen;
        if (col > (size_t)width / 3)
            break;
    }
    return indent >= 4 ? indent + 2 : indent + 4;
}

/* One line (no newline) within width. */
static void fit_line(const char *s, size_t n, int width, kd_strbuf *out)
{
    if (kd_fit_columns(s, n) <= (size_t)width) {
        kd_sb_append(out, s, n);
        kd_sb_puts(out, "\n");
        return;
    }
    size_t hang = hang_of(s, n, width);
    if (hang > (size_t)width * 2 / 3)
        hang = (size_t)width * 2 / 3;
    size_t max_word = (size_t)width - hang;
    /* words wider than a continuation line elided first */
    kd_strbuf line = {0};
    for (size_t i = 0; i < n;) {
        size_t j = i;
        if (s[i] == ' ') {
            while (j < n && s[j] == ' ')
                j++;
            kd_sb_append(&line, s + i, j - i);
        } else {
            while (j < n && s[j] != ' ')
                j++;
            kd_fit_elide(s + i, j - i, max_word, &line);
        }
        i = j;
    }
    const char *t = kd_sb_str(&line);
    size_t len = line.len, at = 0;
    bool first = true;
    while (at < len) {
        size_t prefix = first ? 0 : hang, avail = (size_t)width - prefix;
        if (kd_fit_columns(t + at, len - at) <= avail) {
            kd_sb_printf(out, "%*s%.*s\n", (int)prefix, "", (int)(len - at), t + at);
            break;
        }
        /* the break: the last field boundary that fits, else the last "; " in the second
         * half, else the last space (only after something that is not a space) */
        size_t i = at, col = 0, cols, dbl = 0, semi = 0, single = 0;
        bool seen = false;
        while (i < len) {
            size_t ulen = unit(t, i, len, &cols);
            if (t[i] == ' ' && cols) {
                if (col > avail)
                    break;
                /* a field boundary is exactly two spaces (three or more align a table) */
                bool run_start = i + 1 < len && t[i + 1] == ' ' && (i + 2 >= len || t[i + 2] != ' ') &&
                                 (i == at || t[i - 1] != ' ');
                if (seen && (i == at || t[i - 1] != ' ')) {
                    single = i;
                    if (run_start)
                        dbl = i;
                    if (i > at && (t[i - 1] == ';') && col >= avail / 2)
                        semi = i;
                }
            } else if (cols) {
                seen = true;
            }
            col += cols;
            i += ulen;
        }
        size_t cut = dbl ? dbl : semi ? semi : single;
        if (!cut) { /* cannot happen (every word fits a continuation line); written as it is */
            kd_sb_printf(out, "%*s%.*s\n", (int)prefix, "", (int)(len - at), t + at);
            break;
        }
        kd_sb_printf(out, "%*s%.*s\n", (int)prefix, "", (int)(cut - at), t + at);
        at = cut;
        while (at < len && t[at] == ' ')
            at++;
        first = false;
    }
    kd_sb_free(&line);
}

void kd_fit_write(FILE *out, const char *text, size_t len, int width)
{
    if (width <= 0) {
        fwrite(text, 1, len, out);
        return;
    }
    kd_strbuf fitted = {0};
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) : len;
        if (!nl) { /* a last line without its newline stays without one */
            kd_strbuf last = {0};
            fit_line(text + i, end - i, width, &last);
            kd_sb_append(&fitted, kd_sb_str(&last), last.len ? last.len - 1 : 0);
            kd_sb_free(&last);
        } else {
            fit_line(text + i, end - i, width, &fitted);
        }
        i = end + 1;
    }
    fwrite(kd_sb_str(&fitted), 1, fitted.len, out);
    kd_sb_free(&fitted);
}

void kd_fit_render(FILE *out, bool full, void (*render)(FILE *out, const void *ctx), const void *ctx)
{
    char *text = NULL;
    size_t len = 0;
    int width = full ? 0 : kd_fit_width(out);
    FILE *mem = width ? open_memstream(&text, &len) : NULL;
    if (!mem) {
        render(out, ctx);
        return;
    }
    render(mem, ctx);
    if (fclose(mem) == 0)
        kd_fit_write(out, text, len, width);
    else
        render(out, ctx);
    free(text);
}
