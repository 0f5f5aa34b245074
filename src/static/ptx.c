/* ptx.c — a small PTX reader. It is a statement scanner, not a PTX parser: it knows
 * comments, strings, braces, labels, directives and `;`-terminated instructions, which is
 * all it takes to find entries and count opcodes in what nvcc emits. */
#include "static/ptx.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

typedef struct entry_span {
    const char *name;
    size_t name_len;
    const char *params;     /* between the parentheses of the declaration; NULL: none */
    size_t params_len;
    const char *body;
    size_t body_len;
} entry_span;

/* PTX identifiers: [a-zA-Z_$%][a-zA-Z0-9_$]*; `%` only ever starts one. */
static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '%';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool starts_comment(const char *p)
{
    return p[0] == '/' && (p[1] == '/' || p[1] == '*');
}

/* p is at a comment opener; returns the first character after the comment. An unterminated
 * block comment runs to the end of the text. */
static const char *skip_comment(const char *p)
{
    if (p[1] == '/') {
        const char *nl = strchr(p, '\n');
        return nl ? nl + 1 : p + strlen(p);
    }
    const char *close = strstr(p + 2, "*/");
    return close ? close + 2 : p + strlen(p);
}

/* p is at an opening quote; returns the character after the closing one. */
static const char *skip_string(const char *p)
{
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1])
            p++;
    return *p ? p + 1 : p;
}

static const char *skip_trivia(const char *p)
{
    for (;;) {
        while (is_space(*p))
            p++;
        if (!starts_comment(p))
            return p;
        p = skip_comment(p);
    }
}

static const char *skip_ident(const char *p)
{
    while (is_ident_char(*p))
        p++;
    return p;
}

/* Past the `;` that ends the statement at p (instructions may span lines: `call.uni` puts
 * each argument on its own line), or at the end of the text. */
static const char *skip_statement(const char *p)
{
    while (*p && *p != ';') {
        if (starts_comment(p))
            p = skip_comment(p);
        else if (*p == '"')
            p = skip_string(p);
        else
            p++;
    }
    return *p ? p + 1 : p;
}

/* Directives end at `;` (`.reg .b32 %r<9>;`) or, for those that take none (`.loc 1 8 5`,
 * `.maxntid 256, 1, 1`), at the end of the line. */
static const char *skip_directive(const char *p)
{
    while (*p && *p != ';' && *p != '\n') {
        if (*p == '"')
            p = skip_string(p);
        else if (starts_comment(p))
            return p;
        else
            p++;
    }
    return *p ? p + 1 : p;
}

/* Opcodes are dotted words whose parts may carry `::` qualifiers (`ld.shared::cta.u32`). */
static const char *skip_opcode(const char *p)
{
    for (;;) {
        if (is_ident_char(*p) || *p == '.')
            p++;
        else if (p[0] == ':' && p[1] == ':' && is_ident_char(p[2]))
            p += 2;
        else
            return p;
    }
}

/* The `@%p1` / `@!%p1` guard in front of an opcode (the grammar allows blanks inside). */
static const char *skip_guard(const char *p)
{
    p = skip_trivia(p + 1);
    if (*p == '!')
        p = skip_trivia(p + 1);
    return skip_trivia(skip_ident(p));
}

static bool is_keyword_at(const char *text, const char *p, const char *keyword)
{
    size_t n = strlen(keyword);
    return strncmp(p, keyword, n) == 0 && !is_ident_char(p[n]) &&
           (p == text || !(is_ident_char(p[-1]) || p[-1] == '.'));
}

/* Next `.entry` keyword at or after p, outside comments and strings; NULL if none. */
static const char *find_entry_keyword(const char *text, const char *p)
{
    while (*p) {
        if (starts_comment(p))
            p = skip_comment(p);
        else if (*p == '"')
            p = skip_string(p);
        else if (*p == '.' && is_keyword_at(text, p, ".entry"))
            return p + strlen(".entry");
        else
            p++;
    }
    return NULL;
}

/* p is just past an opening brace; returns the matching closing brace, or NULL if the text
 * ends first. */
static const char *find_matching_brace(const char *p)
{
    int depth = 1;
    while (*p) {
        if (starts_comment(p)) {
            p = skip_comment(p);
            continue;
        }
        if (*p == '"') {
            p = skip_string(p);
            continue;
        }
        if (*p == '{')
            depth++;
        else if (*p == '}' && --depth == 0)
            return p;
        p++;
    }
    return NULL;
}

/* The `{` that opens the body after an entry's name and parameter list (performance
 * directives such as `.maxntid` may come between), or NULL for a bodiless declaration. */
static const char *find_body_open(const char *p)
{
    while (*p && *p != '{' && *p != ';') {
        if (starts_comment(p))
            p = skip_comment(p);
        else if (*p == '"')
            p = skip_string(p);
        else
            p++;
    }
    return *p == '{' ? p : NULL;
}

/* Finds the next entry that has a complete body, starting at p; returns where scanning
 * should continue, or NULL when there are no more. */
static const char *next_entry(const char *text, const char *p, entry_span *e)
{
    while ((p = find_entry_keyword(text, p)) != NULL) {
        p = skip_trivia(p);
        e->name = p;
        p = skip_ident(p);
        e->name_len = (size_t)(p - e->name);
        if (e->name_len == 0)
            continue;
        const char *open = find_body_open(p);
        if (!open)
            continue;
        /* The parameter list, when the name is followed by one (an entry may take none). */
        const char *paren = skip_trivia(p);
        const char *close_paren = *paren == '(' ? memchr(paren, ')', (size_t)(open - paren)) : NULL;
        e->params = close_paren ? paren + 1 : NULL;
        e->params_len = close_paren ? (size_t)(close_paren - paren - 1) : 0;
        const char *close = find_matching_brace(open + 1);
        if (!close)
            return NULL;
        e->body = open + 1;
        e->body_len = (size_t)(close - e->body);
        return close + 1;
    }
    return NULL;
}

void kd_ptx_names_free(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

void kd_ptx_entry_names(const char *ptx, char ***names, size_t *count)
{
    *names = NULL;
    *count = 0;
    entry_span e;
    for (const char *p = ptx; (p = next_entry(ptx, p, &e)) != NULL;) {
        *names = kd_xreallocarray(*names, *count + 1, sizeof **names);
        (*names)[(*count)++] = kd_xstrndup(e.name, e.name_len);
    }
}

char *kd_ptx_entry_body(const char *ptx, const char *entry_name)
{
    size_t want = strlen(entry_name);
    entry_span e;
    for (const char *p = ptx; (p = next_entry(ptx, p, &e)) != NULL;)
        if (e.name_len == want && memcmp(e.name, entry_name, want) == 0)
            return kd_xstrndup(e.body, e.body_len);
    return NULL;
}

char *kd_ptx_entry_params(const char *ptx, const char *entry_name)
{
    size_t want = strlen(entry_name);
    entry_span e;
    for (const char *p = ptx; (p = next_entry(ptx, p, &e)) != NULL;)
        if (e.name_len == want && memcmp(e.name, entry_name, want) == 0)
            return e.params ? kd_xstrndup(e.params, e.params_len) : kd_xstrdup("");
    return NULL;
}

/* Operations that access memory; their family keeps the state space they touch. */
static bool is_memory_opcode(const char *opcode, size_t head_len)
{
    static const char *const memory_ops[] = {
        "ld", "ldu", "st", "atom", "red", "prefetch", "prefetchu", "cp", "ldmatrix", "stmatrix",
    };
    for (size_t i = 0; i < sizeof memory_ops / sizeof memory_ops[0]; i++)
        if (strlen(memory_ops[i]) == head_len && strncmp(opcode, memory_ops[i], head_len) == 0)
            return true;
    return false;
}

static bool is_state_space(const char *part, size_t len)
{
    static const char *const spaces[] = {"global", "shared", "local", "const", "param"};
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (strlen(spaces[i]) == len && strncmp(part, spaces[i], len) == 0)
            return true;
    return false;
}

/* The first state space among the dotted parts of s, without its `::cta`-style qualifier;
 * sets *len to 0 when there is none (a generic-address access). */
static const char *find_state_space(const char *s, size_t *len)
{
    while (*s) {
        size_t part = strcspn(s, ".");
        size_t base = strcspn(s, ".:");
        if (base > part)
            base = part;
        if (is_state_space(s, base)) {
            *len = base;
            return s;
        }
        s += part;
        if (*s == '.')
            s++;
    }
    *len = 0;
    return s;
}

/* `cp.async...` is its own group of instructions, unlike the old `cp`-less copies, so it
 * keeps both words. */
static size_t family_head_length(const char *opcode)
{
    size_t head = strcspn(opcode, ".");
    if (head == 2 && strncmp(opcode, "cp.async", 8) == 0 && (opcode[8] == '.' || !opcode[8]))
        return 8;
    return head;
}

void kd_ptx_family(const char *opcode, char *buf, size_t n)
{
    if (n == 0)
        return;
    size_t head = family_head_length(opcode);
    size_t space_len = 0;
    const char *space = "";
    if (is_memory_opcode(opcode, strcspn(opcode, ".")))
        space = find_state_space(opcode + head, &space_len);
    snprintf(buf, n, "%.*s%s%.*s", (int)head, opcode, space_len ? "." : "", (int)space_len,
             space);
}

static void count_family(const char *opcode, kd_histogram *families)
{
    /* A family is at most the opcode's own parts joined by one dot. */
    size_t n = strlen(opcode) + 2;
    char *family = kd_xmalloc(n);
    kd_ptx_family(opcode, family, n);
    kd_hist_add(families, family, 1);
    free(family);
}

void kd_ptx_each_instruction(const char *body, kd_ptx_instruction_fn fn, void *ctx)
{
    const char *p = body;
    while (*(p = skip_trivia(p))) {
        if (*p == '{' || *p == '}' || *p == ';') {
            p++;
            continue;
        }
        if (*p == '.') {
            p = skip_directive(p);
            continue;
        }
        if (*p == '@')
            p = skip_guard(p);
        const char *word = p;
        const char *end = skip_opcode(p);
        if (*end == ':' && end > word) {
            p = end + 1;
            continue;
        }
        p = skip_statement(end);
        if (end > word && is_alpha(*word)) {
            const char *stop = p > end && p[-1] == ';' ? p - 1 : p;
            fn(word, (size_t)(end - word), end, (size_t)(stop - end), ctx);
        }
    }
}

typedef struct histogram_pair {
    kd_histogram *opcodes, *families;
} histogram_pair;

static void count_opcode(const char *start, size_t len, const char *operands, size_t operands_len, void *ctx)
{
    (void)operands;
    (void)operands_len;
    histogram_pair *h = ctx;
    char *opcode = kd_xstrndup(start, len);
    kd_hist_add(h->opcodes, opcode, 1);
    if (h->families)
        count_family(opcode, h->families);
    free(opcode);
}

void kd_ptx_histogram(const char *body, kd_histogram *opcodes, kd_histogram *families)
{
    histogram_pair h = {opcodes, families};
    kd_ptx_each_instruction(body, count_opcode, &h);
}
