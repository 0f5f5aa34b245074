/* sass.c — read `cuobjdump -sass` listings. The listing is line oriented: a function starts
 * at its `Function : NAME` line, and each instruction line starts with its address written
 * as a C comment (slash-star 0120 star-slash), then the guarded instruction, then the
 * encoding as another comment; every other line (headers, `.headerflags`, the second line
 * of each encoding, the `....` trailer) is skipped. */
#include "static/sass.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static bool is_hex_digit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static const char *skip_blanks(const char *p)
{
    while (is_blank(*p))
        p++;
    return p;
}

static const char *line_end(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl : p + strlen(p);
}

static const char *next_line(const char *p)
{
    const char *end = line_end(p);
    return *end ? end + 1 : end;
}

static bool starts_with(const char *p, const char *prefix)
{
    return strncmp(p, prefix, strlen(prefix)) == 0;
}

/* The name after `Function :` when line is such a header, else NULL; *len gets its length
 * without trailing blanks. */
static const char *function_header_name(const char *line, size_t *len)
{
    const char *p = skip_blanks(line);
    if (!starts_with(p, "Function"))
        return NULL;
    p = skip_blanks(p + strlen("Function"));
    if (*p != ':')
        return NULL;
    p = skip_blanks(p + 1);
    const char *end = line_end(p);
    while (end > p && is_blank(end[-1]))
        end--;
    *len = (size_t)(end - p);
    return p;
}

/* Lines that end a function's disassembly: the next function, or the next
 * `Fatbin elf code:` / `code for sm_XX` section of a multi-architecture listing. */
static bool is_section_boundary(const char *line)
{
    size_t len;
    const char *p = skip_blanks(line);
    return function_header_name(line, &len) || starts_with(p, "code for ") ||
           starts_with(p, "Fatbin ");
}

char *kd_sass_function_text(const char *listing, const char *function)
{
    size_t want = strlen(function);
    for (const char *line = listing; *line; line = next_line(line)) {
        size_t len;
        const char *name = function_header_name(line, &len);
        if (!name || len != want || memcmp(name, function, want) != 0)
            continue;
        const char *start = next_line(line);
        const char *end = start;
        while (*end && !is_section_boundary(end))
            end = next_line(end);
        return kd_xstrndup(start, (size_t)(end - start));
    }
    return NULL;
}

/* Past the address comment that starts an instruction line, or NULL when the line has none.
 * An address is bare hex right after the opener; encoding continuation lines have a blank
 * and `0x` there instead. */
static const char *skip_address(const char *line)
{
    const char *p = skip_blanks(line);
    if (!starts_with(p, "/*"))
        return NULL;
    const char *digits = p + 2;
    for (p = digits; is_hex_digit(*p); p++)
        ;
    if (p == digits || !starts_with(p, "*/"))
        return NULL;
    return p + 2;
}

/* The mnemonic of an instruction line and its length, or NULL. Guards (`@P0`, `@!PT`) go;
 * the `{` that old architectures print around dual-issued pairs goes too. */
static const char *find_mnemonic(const char *line, size_t *len)
{
    const char *p = skip_address(line);
    if (!p)
        return NULL;
    p = skip_blanks(p);
    if (*p == '{')
        p = skip_blanks(p + 1);
    if (*p == '@') {
        while (*p && *p != '\n' && !is_blank(*p))
            p++;
        p = skip_blanks(p);
    }
    if (!is_alpha(*p))
        return NULL;
    /* `NOP;` and `ERRBAR;` carry their semicolon with no blank before it. */
    *len = strcspn(p, " \t\r\n;");
    return p;
}

/* Whether one of the dotted modifiers after the mnemonic is exactly `width` (`LDG.E.128`). */
static bool has_modifier(const char *op, const char *width)
{
    size_t n = strlen(width);
    for (const char *dot = strchr(op, '.'); dot; dot = strchr(dot + 1, '.'))
        if (strncmp(dot + 1, width, n) == 0 && (dot[1 + n] == '.' || dot[1 + n] == '\0'))
            return true;
    return false;
}

static void update_checks(kd_sass_checks *c, const char *op, const char *family)
{
    if (strcmp(family, "LDL") == 0)
        c->local_loads++;
    else if (strcmp(family, "STL") == 0)
        c->local_stores++;
    else if (strcmp(family, "LDG") == 0) {
        c->global_loads++;
        c->global_loads_128 += has_modifier(op, "128");
        c->global_loads_64 += has_modifier(op, "64");
    } else if (strcmp(family, "STG") == 0) {
        c->global_stores++;
        c->global_stores_128 += has_modifier(op, "128");
        c->global_stores_64 += has_modifier(op, "64");
    } else if (strcmp(family, "BAR") == 0)
        c->barriers++;
    else if (strcmp(family, "MEMBAR") == 0)
        c->memory_barriers++;
}

static void count_instruction(const char *mnemonic, size_t len, kd_histogram *ops,
                              kd_histogram *families, kd_sass_checks *checks)
{
    char *op = kd_xstrndup(mnemonic, len);
    char *family = kd_xstrndup(op, strcspn(op, "."));
    if (ops)
        kd_hist_add(ops, op, 1);
    if (families)
        kd_hist_add(families, family, 1);
    if (checks)
        update_checks(checks, op, family);
    free(family);
    free(op);
}

void kd_sass_histogram(const char *function_text, kd_histogram *ops, kd_histogram *families,
                       kd_sass_checks *checks)
{
    if (checks)
        memset(checks, 0, sizeof *checks);
    for (const char *line = function_text; *line; line = next_line(line)) {
        size_t len;
        const char *mnemonic = find_mnemonic(line, &len);
        if (mnemonic)
            count_instruction(mnemonic, len, ops, families, checks);
    }
}
