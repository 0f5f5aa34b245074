/* body_writes.c — which pointer parameters a kernel body never writes (see body_writes.h).
 *
 * Each use of a name is placed by the tokens around it; a use that fits no read is "not
 * sure", and one such use keeps the parameter off the list. Brackets are paired here, over
 * the body alone: the scanner's pairing stops at every `;`, which a `for (;;)` header has. */
#include "source/body_writes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define NONE SIZE_MAX
#define MAX_NAMES 16

typedef struct body {
    const kd_body_token *t;
    size_t n;
    size_t *match; /* opener <-> closer of ( [ {, both ways; NONE when unpaired */
} body;

typedef enum use { USE_READ, USE_NOT_SURE } use;

typedef enum paren_kind { PAREN_GROUP, PAREN_CALL, PAREN_HEADER } paren_kind;

static bool is(const body *b, size_t i, const char *text)
{
    return i < b->n && b->t[i].len == strlen(text) && memcmp(b->t[i].text, text, b->t[i].len) == 0;
}

static bool punct(const body *b, size_t i, char c)
{
    return i < b->n && !b->t[i].word && b->t[i].len == 1 && b->t[i].text[0] == c;
}

static bool is_word(const body *b, size_t i) { return i < b->n && b->t[i].word; }

static bool word_in(const body *b, size_t i, const char *const *list)
{
    for (size_t k = 0; list[k]; k++)
        if (is(b, i, list[k]))
            return true;
    return false;
}

static const char *const statement_words[] = {"if", "while", "for", "switch", "return", "case", "else", "do", NULL};

/* Token i ends an operand, so a `*` or `&` after it is binary. */
static bool ends_value(const body *b, size_t i)
{
    if (i >= b->n)
        return false;
    if (b->t[i].word)
        return !word_in(b, i, statement_words);
    return punct(b, i, ')') || punct(b, i, ']');
}

static void pair(body *b)
{
    b->match = kd_xmalloc((b->n ? b->n : 1) * sizeof *b->match);
    size_t *stack = kd_xmalloc((b->n ? b->n : 1) * sizeof *stack), depth = 0;
    for (size_t i = 0; i < b->n; i++) {
        b->match[i] = NONE;
        if (punct(b, i, '(') || punct(b, i, '[') || punct(b, i, '{')) {
            stack[depth++] = i;
        } else if (punct(b, i, ')') || punct(b, i, ']') || punct(b, i, '}')) {
            if (depth == 0)
                continue;
            size_t open = stack[--depth];
            char want = b->t[open].text[0] == '(' ? ')' : b->t[open].text[0] == '[' ? ']' : '}';
            if (b->t[i].text[0] == want) {
                b->match[open] = i;
                b->match[i] = open;
            }
        }
    }
    free(stack);
}

/* The opener of the innermost group holding token i, or NONE. */
static size_t enclosing(const body *b, size_t i)
{
    for (size_t j = i; j-- > 0;) {
        if (punct(b, j, ')') || punct(b, j, ']') || punct(b, j, '}')) {
            if (b->match[j] == NONE)
                return NONE;
            j = b->match[j];
        } else if (punct(b, j, '(') || punct(b, j, '[') || punct(b, j, '{')) {
            return j;
        }
    }
    return NONE;
}

static paren_kind paren_of(const body *b, size_t open)
{
    if (open == 0)
        return PAREN_GROUP;
    size_t before = open - 1;
    if (word_in(b, before, statement_words))
        return PAREN_HEADER;
    if (is_word(b, before) || punct(b, before, '>') || punct(b, before, ')') || punct(b, before, ']') ||
        (!b->t[before].word && b->t[before].len > 1))
        return PAREN_CALL; /* a function, a macro, a template or cast, a string (asm operands) */
    return PAREN_GROUP;
}

/* `NAME<...>(` : the `<` of the angle that the `>` before `open` closes, or NONE. */
static size_t angle_before(const body *b, size_t open)
{
    if (open == 0 || !punct(b, open - 1, '>'))
        return NONE;
    int depth = 0;
    for (size_t j = open - 1; j-- > 0;) {
        if (punct(b, j, '>'))
            depth++;
        else if (punct(b, j, '<') && depth-- == 0)
            return j;
        else if (punct(b, j, ';') || punct(b, j, '{') || punct(b, j, '}'))
            return NONE;
    }
    return NONE;
}

static bool angle_has(const body *b, size_t lt, size_t gt, const char *text)
{
    for (size_t j = lt + 1; j < gt; j++)
        if (is(b, j, text))
            return true;
    return false;
}

/* `static_cast<...>(` or `reinterpret_cast<...>(` at `open`, its `<` in *lt. */
static bool is_cast(const body *b, size_t open, size_t *lt)
{
    *lt = angle_before(b, open);
    return *lt != NONE && *lt > 0 && (is(b, *lt - 1, "static_cast") || is(b, *lt - 1, "reinterpret_cast"));
}

/* A call whose result can never write the pointer it is given: a read-only load, or a cast
 * to a pointer to const. */
static bool reading_call(const body *b, size_t open)
{
    static const char *const loads[] = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv", NULL};
    size_t lt;
    if (open > 0 && word_in(b, open - 1, loads))
        return true;
    return is_cast(b, open, &lt) && angle_has(b, lt, open - 1, "const") && angle_has(b, lt, open - 1, "*");
}

/* A call that takes an element by value (so never binds it to a reference): math and
 * conversions, and casts to a value type. */
static bool value_call(const body *b, size_t open)
{
    static const char *const values[] = {
        "fabsf", "fabs", "abs", "fmaxf", "fminf", "fmax", "fmin", "max", "min", "expf", "exp", "exp2f", "__expf",
        "logf", "log", "log2f", "__logf", "sqrtf", "sqrt", "rsqrtf", "tanhf", "tanh", "erff", "powf", "__half2float",
        "__float2half", "__float2half_rn", "__bfloat162float", "__float2bfloat16", "__float2bfloat16_rn", NULL};
    size_t lt;
    if (open > 0 && word_in(b, open - 1, values))
        return true;
    return is_cast(b, open, &lt) && !angle_has(b, lt, open - 1, "&") && !angle_has(b, lt, open - 1, "*");
}

/* Tokens at j assign or step what is before them: `=` (not `==`), `op=`, `<<=`, `>>=`, `++`, `--`. */
static bool assigns_at(const body *b, size_t j)
{
    if (punct(b, j, '='))
        return !punct(b, j + 1, '=');
    if (punct(b, j, '+') || punct(b, j, '-'))
        return punct(b, j + 1, b->t[j].text[0]) || punct(b, j + 1, '=');
    static const char ops[] = "*/%&|^";
    for (const char *c = ops; *c; c++)
        if (punct(b, j, *c) && punct(b, j + 1, '=') && !punct(b, j + 2, '='))
            return true;
    return (punct(b, j, '<') || punct(b, j, '>')) && punct(b, j + 1, b->t[j].text[0]) && punct(b, j + 2, '=');
}

/* `++` or `--` just before token s. */
static bool stepped_before(const body *b, size_t s)
{
    return s >= 2 && ((punct(b, s - 1, '+') && punct(b, s - 2, '+')) || (punct(b, s - 1, '-') && punct(b, s - 2, '-')));
}

/* A `*` or `&` at j is unary (dereference, address) rather than binary. */
static bool unary_at(const body *b, size_t j)
{
    if (j > 0 && punct(b, j, '&') && punct(b, j - 1, '&'))
        return false; /* the second `&` of `&&` */
    return j == 0 || !ends_value(b, j - 1);
}

/* An element or a dereference spanning tokens [s, e]: read, or not sure. */
static use lvalue_use(const body *b, size_t s, size_t e)
{
    while (s > 0 && punct(b, s - 1, '(') && b->match[s - 1] == e + 1 && paren_of(b, s - 1) == PAREN_GROUP) {
        s--;
        e++;
    }
    if (assigns_at(b, e + 1) || stepped_before(b, s))
        return USE_NOT_SURE;
    if (s > 0 && (punct(b, s - 1, '&') || punct(b, s - 1, '*')) && unary_at(b, s - 1)) {
        size_t open = enclosing(b, s - 1);
        bool address_read = punct(b, s - 1, '&') && open != NONE && punct(b, open, '(') && reading_call(b, open) &&
                            s - 1 == open + 1;
        return address_read ? USE_READ : USE_NOT_SURE;
    }
    bool whole_argument = s > 0 && (punct(b, s - 1, '(') || punct(b, s - 1, ',')) &&
                          (punct(b, e + 1, ')') || punct(b, e + 1, ','));
    if (whole_argument) {
        size_t open = enclosing(b, s);
        if (open != NONE && punct(b, open, '(') && paren_of(b, open) == PAREN_CALL && !value_call(b, open))
            return USE_NOT_SURE; /* a function may take it by reference */
    }
    return USE_READ;
}

/* The pointer itself tested: `!p`, `p == q`, `p != nullptr`, `p && ...`, `if (p)`. */
static bool tested(const body *b, size_t i)
{
    if (i > 0 && punct(b, i - 1, '!'))
        return true;
    if ((punct(b, i + 1, '=') || punct(b, i + 1, '!')) && punct(b, i + 2, '='))
        return true;
    if (i >= 2 && punct(b, i - 1, '=') && (punct(b, i - 2, '=') || punct(b, i - 2, '!')))
        return true;
    if ((punct(b, i + 1, '&') && punct(b, i + 2, '&')) || (punct(b, i + 1, '|') && punct(b, i + 2, '|')))
        return true;
    size_t open = enclosing(b, i);
    return punct(b, i + 1, ')') && open != NONE && open + 1 == i && paren_of(b, open) == PAREN_HEADER;
}

/* The pointer's value flows somewhere (`q = p + off`, `T *q = c ? p : r`): the name it is
 * stored in, as a token index in *alias; USE_NOT_SURE when it goes where the walk cannot
 * follow (a call, memory, a member, an initializer list). */
static use flows(const body *b, size_t i, size_t *alias)
{
    size_t from = i;
    for (;;) {
        size_t open = enclosing(b, from);
        if (open == NONE || punct(b, open, '{'))
            break;
        if (punct(b, open, '['))
            return USE_NOT_SURE;
        paren_kind kind = paren_of(b, open);
        if (kind == PAREN_CALL)
            return reading_call(b, open) ? USE_READ : USE_NOT_SURE;
        if (kind == PAREN_HEADER)
            break;
        from = open;
    }
    /* Back over balanced groups to the statement's start, for the nearest `=`. */
    for (size_t j = from; j-- > 0;) {
        if (punct(b, j, ')') || punct(b, j, ']') || punct(b, j, '}')) {
            if (b->match[j] == NONE || punct(b, j, '}'))
                return USE_NOT_SURE;
            j = b->match[j];
            continue;
        }
        if (punct(b, j, ';') || punct(b, j, '{') || punct(b, j, '(') || punct(b, j, ','))
            return USE_NOT_SURE;
        if (!punct(b, j, '=') || punct(b, j + 1, '='))
            continue;
        if (j == 0 || !is_word(b, j - 1))
            return USE_NOT_SURE; /* `a[i] = p`, `x += p`, `a == p` */
        size_t w = j - 1;
        if (w > 0 && (punct(b, w - 1, '.') || punct(b, w - 1, '>') || (!b->t[w - 1].word && b->t[w - 1].len > 1)))
            return USE_NOT_SURE; /* a member, `->`, `::` */
        if (w > 0 && punct(b, w - 1, '*') && unary_at(b, w - 1))
            return USE_NOT_SURE; /* `*slot = p` stores it in memory */
        *alias = w;
        return USE_READ;
    }
    return USE_NOT_SURE;
}

/* One use of a watched name at token i; an alias it flows into in *alias (else NONE). */
static use use_at(const body *b, size_t i, size_t *alias)
{
    *alias = NONE;
    if (i > 0 && (punct(b, i - 1, '.') || (punct(b, i - 1, '>') && i > 1 && punct(b, i - 2, '-')) ||
                  is(b, i - 1, "::")))
        return USE_READ; /* a member or another scope's name, not the variable */
    if (punct(b, i + 1, '[')) {
        size_t e = b->match[i + 1];
        if (e == NONE)
            return USE_NOT_SURE;
        while (punct(b, e + 1, '.') && is_word(b, e + 2))
            e += 2;
        if (punct(b, e + 1, '[') || punct(b, e + 1, '(') || (punct(b, e + 1, '-') && punct(b, e + 2, '>')))
            return USE_NOT_SURE;
        return lvalue_use(b, i, e);
    }
    if (i > 0 && punct(b, i - 1, '*')) {
        if (!unary_at(b, i - 1))
            return USE_NOT_SURE; /* `T *p` redeclared, or not a pointer at all */
        size_t e = i;
        if ((punct(b, i + 1, '+') && punct(b, i + 2, '+')) || (punct(b, i + 1, '-') && punct(b, i + 2, '-')))
            e = i + 2;
        return lvalue_use(b, i - 1, e);
    }
    if (assigns_at(b, i + 1) || stepped_before(b, i) || tested(b, i))
        return USE_READ; /* the pointer moved or compared, not the memory */
    return flows(b, i, alias);
}

typedef struct name {
    const char *text;
    size_t len;
    size_t declared; /* the token that names an alias where it is made (`T *q = p`), or NONE */
} name;

static bool word_char(char c) { return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'); }

/* `text` (len bytes) stands as a whole word in [from, to). */
static bool has_word(const char *from, const char *to, const char *text, size_t len)
{
    for (const char *s = from; s + len <= to; s++)
        if (memcmp(s, text, len) == 0 && (s == from || !word_char(s[-1])) && (s + len == to || !word_char(s[len])))
            return true;
    return false;
}

static bool body_uses(const body *b, const char *text, size_t len)
{
    for (size_t i = 0; i < b->n; i++)
        if (b->t[i].word && b->t[i].len == len && memcmp(b->t[i].text, text, len) == 0)
            return true;
    return false;
}

/* A macro the body invokes names the word in its definition: it may write it. */
static bool macro_names(const body *b, const char *directives, const char *text, size_t len)
{
    for (const char *line = directives; line && *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        const char *s = line + 1; /* past the `#` */
        while (s < end && (*s == ' ' || *s == '\t'))
            s++;
        if ((size_t)(end - s) > 6 && memcmp(s, "define", 6) == 0 && !word_char(s[6])) {
            for (s += 6; s < end && (*s == ' ' || *s == '\t'); s++)
                ;
            const char *macro = s;
            while (s < end && word_char(*s))
                s++;
            if (s > macro && body_uses(b, macro, (size_t)(s - macro)) && has_word(s, end, text, len))
                return true;
        }
        line = *end ? end + 1 : end;
    }
    return false;
}

static bool known(const name *names, size_t count, const kd_body_token *t)
{
    for (size_t k = 0; k < count; k++)
        if (names[k].len == t->len && memcmp(names[k].text, t->text, t->len) == 0)
            return true;
    return false;
}

/* `param` is read, and every use of it and of what it flows into is a read. A pointer the
 * body never names is left to its `const` (a stub's body says nothing of its buffers). */
static bool never_written(const body *b, const char *param, const char *directives)
{
    if (!body_uses(b, param, strlen(param)))
        return false;
    name names[MAX_NAMES] = {{param, strlen(param), NONE}};
    size_t count = 1;
    for (size_t k = 0; k < count; k++) {
        if (macro_names(b, directives, names[k].text, names[k].len))
            return false;
        for (size_t i = 0; i < b->n; i++) {
            if (!b->t[i].word || b->t[i].len != names[k].len || memcmp(b->t[i].text, names[k].text, names[k].len) != 0)
                continue;
            size_t alias;
            if (i == names[k].declared)
                continue;
            if (use_at(b, i, &alias) != USE_READ)
                return false;
            if (alias == NONE || known(names, count, &b->t[alias]))
                continue;
            if (count == MAX_NAMES)
                return false;
            names[count++] = (name){b->t[alias].text, b->t[alias].len, alias};
        }
    }
    return true;
}

void kd_body_mark_unwritten(const kd_body_token *toks, size_t n, const char *directives, kd_param *params,
                            size_t nparams)
{
    body b = {toks, n, NULL};
    pair(&b);
    for (size_t i = 0; i < nparams; i++)
        if (params[i].is_pointer && params[i].name[0])
            params[i].unwritten_in_source = never_written(&b, params[i].name, directives);
    free(b.match);
}
