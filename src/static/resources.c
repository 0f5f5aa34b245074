/* resources.c — read the `ptxas -v` log. For each entry ptxas prints, in this order:
 *
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_90'
 *   ptxas info    : Function properties for NAME
 *       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 12 registers, used 1 barriers, 1024 bytes smem, 376 bytes cmem[0]
 *   ptxas info    : Compile time = 5.154 ms
 *
 * The parts of the `Used` line after the registers come and go with the target and the
 * kernel (sm_90 prints no cmem, kernels without shared memory no smem), so each
 * comma-separated part is read on its own. `.func` device functions get a `Function
 * properties` block of their own but no `Compiling` line, and it may land inside an entry's
 * stretch of the log, so blocks are matched by exact name. A log with several targets
 * repeats every entry; the first target's figures are returned. */
#include "static/resources.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct line_span {
    const char *start, *end;
} line_span;

static line_span line_at(const char *p)
{
    const char *nl = strchr(p, '\n');
    return (line_span){p, nl ? nl : p + strlen(p)};
}

static const char *after_line(line_span l)
{
    return *l.end ? l.end + 1 : l.end;
}

/* Where needle starts within the line, or NULL. */
static const char *find_in_line(line_span l, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = l.start; (size_t)(l.end - p) >= n; p++)
        if (memcmp(p, needle, n) == 0)
            return p;
    return NULL;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Whether the text from p to the end of the line is exactly name, give or take trailing
 * blanks (a CRLF log, or padding). */
static bool rest_of_line_is(const char *p, const char *end, const char *name)
{
    while (end > p && is_blank(end[-1]))
        end--;
    size_t n = strlen(name);
    return (size_t)(end - p) == n && memcmp(p, name, n) == 0;
}

/* The line `Compiling entry function 'NAME' for ...` for exactly this name. */
static bool is_compiling_line(line_span l, const char *name)
{
    static const char marker[] = "Compiling entry function '";
    const char *p = find_in_line(l, marker);
    if (!p)
        return false;
    p += strlen(marker);
    size_t n = strlen(name);
    return (size_t)(l.end - p) > n && memcmp(p, name, n) == 0 && p[n] == '\'';
}

static bool is_any_compiling_line(line_span l)
{
    return find_in_line(l, "Compiling entry function '") != NULL;
}

static bool is_properties_line(line_span l, const char *name)
{
    static const char marker[] = "Function properties for ";
    const char *p = find_in_line(l, marker);
    return p && rest_of_line_is(p + strlen(marker), l.end, name);
}

/* Reads a decimal count at *p, saturating instead of overflowing. */
static long read_count(const char **p, const char *end)
{
    long v = 0;
    for (; *p < end && **p >= '0' && **p <= '9'; (*p)++) {
        int digit = **p - '0';
        v = v > (LONG_MAX - digit) / 10 ? LONG_MAX : v * 10 + digit;
    }
    return v;
}

static int clamp_to_int(long v)
{
    return v > INT_MAX ? INT_MAX : (int)v;
}

/* Stores the value of one "N unit" part of a figures line into the field the unit names;
 * units this tool does not report (`bytes cumulative stack size`, `textures` ...) are
 * ignored. */
static void store_figure(kd_resources *out, long v, const char *unit, const char *end)
{
    if (rest_of_line_is(unit, end, "registers"))
        out->registers = clamp_to_int(v);
    else if (rest_of_line_is(unit, end, "barriers"))
        out->barriers = clamp_to_int(v);
    else if (rest_of_line_is(unit, end, "bytes smem"))
        out->shared_static = v;
    else if (rest_of_line_is(unit, end, "bytes cmem[0]"))
        out->constant0 = v;
    else if (rest_of_line_is(unit, end, "bytes stack frame"))
        out->stack_frame = v;
    else if (rest_of_line_is(unit, end, "bytes spill stores"))
        out->spill_stores = v;
    else if (rest_of_line_is(unit, end, "bytes spill loads"))
        out->spill_loads = v;
}

/* One part of a figures line: optional "Used"/"used", the number, the unit. */
static void read_figure(kd_resources *out, const char *p, const char *end)
{
    while (p < end && is_blank(*p))
        p++;
    if ((size_t)(end - p) >= 4 && (memcmp(p, "Used", 4) == 0 || memcmp(p, "used", 4) == 0))
        p += 4;
    while (p < end && is_blank(*p))
        p++;
    if (p == end || *p < '0' || *p > '9')
        return;
    long v = read_count(&p, end);
    while (p < end && is_blank(*p))
        p++;
    store_figure(out, v, p, end);
}

/* Reads every comma-separated part of the text from p to the end of its line. */
static void read_figures(kd_resources *out, const char *p, const char *end)
{
    while (p < end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *part_end = comma ? comma : end;
        read_figure(out, p, part_end);
        p = comma ? comma + 1 : end;
    }
}

static void read_used_line(kd_resources *out, line_span l)
{
    const char *used = find_in_line(l, "Used ");
    if (used)
        read_figures(out, used, l.end);
}

/* The entry's stretch of the log runs from its `Compiling` line to the next one. */
static void read_entry_block(kd_resources *out, const char *p, const char *name)
{
    while (*p) {
        line_span l = line_at(p);
        if (is_any_compiling_line(l))
            return;
        if (is_properties_line(l, name)) {
            line_span figures = line_at(after_line(l));
            read_figures(out, figures.start, figures.end);
            p = after_line(figures);
            continue;
        }
        read_used_line(out, l);
        p = after_line(l);
    }
}

/* `cuobjdump --dump-resource-usage` (a cubin from another compiler, Triton's):
 *     Function add_kernel:
 *      REG:26 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:576 TEXTURE:0 SURFACE:0 SAMPLER:0
 * It gives no spill figures: LOCAL (bytes of local memory per thread) is reported as the
 * spill stores, since local memory in a compiler's output is spilling or a stack array
 * (the SASS checks count the LDL/STL instructions themselves). */
static int parse_cuobjdump(const char *text, const char *function, kd_resources *out)
{
    size_t flen = strlen(function);
    for (const char *p = text; (p = strstr(p, "Function ")) != NULL; p++) {
        const char *name = p + 9;
        if (strncmp(name, function, flen) != 0 || name[flen] != ':')
            continue;
        const char *figures = name + flen + 1, *eol = strchr(figures, '\n');
        eol = eol ? strchr(eol + 1, '\n') : NULL; /* the figures are on the next line */
        out->found = true;
        for (const char *q = figures; *q && (!eol || q < eol); q++) {
            if (strncmp(q, "REG:", 4) == 0 && q[4] >= '0' && q[4] <= '9')
                out->registers = atoi(q + 4);
            else if (strncmp(q, "STACK:", 6) == 0)
                out->stack_frame = atol(q + 6);
            else if (strncmp(q, "SHARED:", 7) == 0)
                out->shared_static = atol(q + 7);
            else if (strncmp(q, "LOCAL:", 6) == 0)
                out->spill_stores = atol(q + 6);
            else if (strncmp(q, "CONSTANT[0]:", 12) == 0)
                out->constant0 = atol(q + 12);
        }
        return 0;
    }
    return -1;
}

/* The figures are known only when the report said the registers: an entry whose report is
 * worded otherwise (another ptxas, a wrapper's rewording) is unknown, shown `?` and never
 * read as 0 registers, and no occupancy is computed from it. */
static int known_or_not(int rc, kd_resources *out)
{
    if (rc == 0 && out->registers >= 0 && out->registers <= 255) /* no GPU gives a thread more */
        return 0;
    *out = (kd_resources){0};
    return -1;
}

int kd_resources_parse(const char *ptxas_log, const char *function, kd_resources *out)
{
    *out = (kd_resources){0};
    out->registers = -1; /* until a figure says it */
    if (strstr(ptxas_log, "Resource usage:"))
        return known_or_not(parse_cuobjdump(ptxas_log, function, out), out);
    for (const char *p = ptxas_log; *p;) {
        line_span l = line_at(p);
        p = after_line(l);
        if (is_compiling_line(l, function)) {
            out->found = true;
            read_entry_block(out, p, function);
            return known_or_not(0, out);
        }
    }
    return known_or_not(-1, out);
}
