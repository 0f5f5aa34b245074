/* geometry.c — launch geometry read from a kernel file's code (see geometry.h).
 *
 * CUDA C++ is read as tokens (comments, literals and preprocessor lines dropped; `#define
 * NAME VALUE` kept as an integer constant when VALUE evaluates), then each __global__
 * definition's parameter list and body are walked. No C++ is parsed: the patterns are the
 * few ways kernels size shared memory and index their buffers, and anything else leaves
 * the setting to the user or to the generic default. */
#include "source/geometry.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "launch/expr.h"
#include "source/scan.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- tokens (source/scan.h's, the one C++ tokenizer) -------------------------------------- */

typedef struct tok {
    const char *s;
    size_t len;
    bool ident, number;
} tok;

typedef struct constant {
    char *name;
    double value;
} constant;

typedef struct reader {
    tok *t;
    size_t n;
    constant *consts; /* #define NAME INT and const/constexpr NAME = INT */
    size_t nconsts;
} reader;

static bool is(const tok *t, const char *s) { return t->len == strlen(s) && memcmp(t->s, s, t->len) == 0; }

static bool at(const reader *r, size_t i, const char *s) { return i < r->n && is(&r->t[i], s); }

static char *tok_str(const tok *t) { return kd_xstrndup(t->s, t->len); }

static void push_tok(reader *r, const char *s, size_t len, bool ident, bool number)
{
    if (r->n % 256 == 0)
        r->t = kd_xreallocarray(r->t, r->n + 256, sizeof *r->t);
    r->t[r->n++] = (tok){s, len, ident, number};
}

static const constant *find_const(const reader *r, const char *s, size_t len)
{
    for (size_t i = 0; i < r->nconsts; i++)
        if (strlen(r->consts[i].name) == len && memcmp(r->consts[i].name, s, len) == 0)
            return &r->consts[i];
    return NULL;
}

/* Evaluates an integer expression of literals (suffixes u/l dropped) and known constants. */
static bool eval_const(const reader *r, const char *text, size_t len, double *out)
{
    kd_strbuf clean = {0};
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if ((c == 'u' || c == 'U' || c == 'l' || c == 'L') && i > 0 && isdigit((unsigned char)text[i - 1]))
            continue;
        kd_sb_append(&clean, &c, 1);
    }
    kd_var *vars = kd_xcalloc(r->nconsts + 1, sizeof *vars);
    for (size_t i = 0; i < r->nconsts; i++)
        vars[i] = (kd_var){r->consts[i].name, r->consts[i].value};
    const kd_vars v = {vars, r->nconsts};
    bool ok = clean.len && kd_expr_eval(kd_sb_str(&clean), &v, out, NULL, 0) == 0 && *out == floor(*out);
    free(vars);
    kd_sb_free(&clean);
    return ok;
}

static void add_const(reader *r, const char *name, size_t name_len, const char *value, size_t value_len)
{
    double v;
    if (find_const(r, name, name_len) || !eval_const(r, value, value_len, &v))
        return;
    r->consts = kd_xreallocarray(r->consts, r->nconsts + 1, sizeof *r->consts);
    r->consts[r->nconsts++] = (constant){kd_xstrndup(name, name_len), v};
}

/* `#define NAME VALUE` (no parameters) on the directive line p..eol. */
static void directive(reader *r, const char *p, const char *eol)
{
    while (p < eol && (*p == '#' || *p == ' ' || *p == '\t'))
        p++;
    if (eol - p < 7 || strncmp(p, "define", 6) != 0 || !isspace((unsigned char)p[6]))
        return;
    p += 6;
    while (p < eol && isspace((unsigned char)*p))
        p++;
    const char *name = p;
    while (p < eol && (isalnum((unsigned char)*p) || *p == '_'))
        p++;
    if (p == name || (p < eol && *p == '('))
        return;
    const char *value = p, *end = eol;
    const char *comment = NULL;
    for (const char *q = value; q + 1 < eol && !comment; q++)
        if (q[0] == '/' && (q[1] == '/' || q[1] == '*'))
            comment = q;
    if (comment)
        end = comment;
    add_const(r, name, (size_t)(p - name), value, (size_t)(end - value));
}

static void on_directive(void *ctx, const char *from, const char *to) { directive(ctx, from, to); }

/* scan.c's tokens (source/scan.h), literals dropped, with the multi-byte operators the body
 * patterns match rejoined: the scanner keeps every punctuator one byte (but `::`). */
static void tokenize(reader *r, const char *text, size_t len)
{
    static const char *const ops[] = {"<<=", ">>=", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+=",
                                      "-=", "*=", "/=", "->", "<<", ">>"};
    kd_src_token *t = NULL;
    size_t n = kd_scan_tokens(text, len, &t, on_directive, r);
    for (size_t i = 0; i < n; i++) {
        if (t[i].kind == KD_SRC_STRING || t[i].kind == KD_SRC_CHAR)
            continue;
        size_t op_len = t[i].len;
        for (size_t o = 0; t[i].kind == KD_SRC_PUNCT && t[i].len == 1 && o < sizeof ops / sizeof *ops; o++) {
            size_t k = strlen(ops[o]), j = 0;
            while (j < k && i + j < n && t[i + j].kind == KD_SRC_PUNCT && t[i + j].len == 1 &&
                   t[i + j].off == t[i].off + j && text[t[i + j].off] == ops[o][j])
                j++;
            if (j == k) {
                op_len = k;
                break;
            }
        }
        push_tok(r, text + t[i].off, op_len, t[i].kind == KD_SRC_IDENT, t[i].kind == KD_SRC_NUMBER);
        if (op_len > t[i].len)
            i += op_len - 1;
    }
    free(t);
}

/* The index of the token that closes the bracket at i ("(", "[", "{"), or r->n. */
static size_t closing(const reader *r, size_t i)
{
    char open = r->t[i].s[0], close = open == '(' ? ')' : open == '[' ? ']' : '}';
    int depth = 0;
    for (size_t j = i; j < r->n; j++) {
        if (r->t[j].len == 1 && r->t[j].s[0] == open)
            depth++;
        else if (r->t[j].len == 1 && r->t[j].s[0] == close && --depth == 0)
            return j;
    }
    return r->n;
}

/* The text of tokens [from, to) joined by single spaces. */
static char *span_text(const reader *r, size_t from, size_t to)
{
    kd_strbuf sb = {0};
    for (size_t i = from; i < to && i < r->n; i++) {
        if (i > from)
            kd_sb_puts(&sb, " ");
        kd_sb_append(&sb, r->t[i].s, r->t[i].len);
    }
    return kd_sb_take(&sb);
}

/* `const int NAME = 128;` / `constexpr unsigned NAME = ...;` anywhere. */
static void read_const_declarations(reader *r)
{
    for (size_t i = 0; i + 3 < r->n; i++) {
        if (!at(r, i, "const") && !at(r, i, "constexpr"))
            continue;
        size_t j = i + 1;
        while (j < r->n && r->t[j].ident && !(j + 1 < r->n && is(&r->t[j + 1], "=")))
            j++;
        if (j + 1 >= r->n || !r->t[j].ident || !is(&r->t[j + 1], "="))
            continue;
        size_t e = j + 2;
        while (e < r->n && !is(&r->t[e], ";") && !is(&r->t[e], ","))
            e++;
        if (e < r->n) {
            char *value = span_text(r, j + 2, e);
            add_const(r, r->t[j].s, r->t[j].len, value, strlen(value));
            free(value);
        }
    }
}

/* ---- one kernel's body ------------------------------------------------------------------ */

typedef struct local {
    const tok *name;
    size_t def_from, def_to; /* its first definition's expression, or 0,0 */
    size_t bound_from, bound_to;
    bool bound_inclusive;    /* `<=`: the bound is reached */
    bool x, y;               /* made from threadIdx.x / .y (directly or through another local) */
    bool global_x, global_y; /* made from blockIdx.x / .y too: a grid-wide index */
} local;

typedef struct body {
    const reader *r;
    size_t from, to; /* the body's tokens, braces excluded */
    local *locals;
    size_t nlocals;
    kd_kernel_geometry *k;
} body;

static local *find_local(body *b, const tok *t)
{
    for (size_t i = 0; i < b->nlocals; i++)
        if (b->locals[i].name->len == t->len && memcmp(b->locals[i].name->s, t->s, t->len) == 0)
            return &b->locals[i];
    return NULL;
}

/* Whether token i is a member name (`threadIdx.x`, `p->n`): never a local. */
static bool member(const reader *r, size_t i) { return i > 0 && (is(&r->t[i - 1], ".") || is(&r->t[i - 1], "->")); }

static bool is_param(const kd_kernel_geometry *k, const tok *t)
{
    for (size_t i = 0; i < k->nparams; i++)
        if (strlen(k->params[i]) == t->len && memcmp(k->params[i], t->s, t->len) == 0)
            return true;
    return false;
}

static bool is_keyword(const tok *t)
{
    static const char *const words[] = {"if", "for", "while", "return", "int", "unsigned", "float", "double",
                                        "const", "auto", "size_t", "long", "short", "char", "bool", "else",
                                        "threadIdx", "blockIdx", "blockDim", "gridDim", "sizeof"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (is(t, words[i]))
            return true;
    return false;
}

/* Whether tokens [from, to) mention `builtin . axis` or a local made from it. */
static bool mentions(body *b, size_t from, size_t to, const char *builtin, char axis)
{
    const reader *r = b->r;
    for (size_t i = from; i < to; i++) {
        if (is(&r->t[i], builtin) && at(r, i + 1, ".") && i + 2 < r->n && r->t[i + 2].len == 1 &&
            r->t[i + 2].s[0] == axis)
            return true;
        local *l = r->t[i].ident && !member(r, i) ? find_local(b, &r->t[i]) : NULL;
        if (l && strcmp(builtin, "threadIdx") == 0 && (axis == 'x' ? l->x : l->y))
            return true;
        if (l && strcmp(builtin, "blockIdx") == 0 && (axis == 'x' ? l->global_x : l->global_y))
            return true;
    }
    return false;
}

/* The end of an expression starting at i: a `;`, `,`, `&&`, `||`, `?` or `)`/`]` at depth 0. */
static size_t expr_end(const reader *r, size_t i, size_t limit)
{
    int depth = 0;
    for (; i < limit; i++) {
        const tok *t = &r->t[i];
        if (t->len == 1 && (t->s[0] == '(' || t->s[0] == '['))
            depth++;
        else if (t->len == 1 && (t->s[0] == ')' || t->s[0] == ']')) {
            if (depth-- == 0)
                return i;
        } else if (depth == 0 && (is(t, ";") || is(t, ",") || is(t, "&&") || is(t, "||") || is(t, "?") ||
                                  is(t, "{")))
            return i;
    }
    return limit;
}

/* Locals: every `NAME = EXPR` (first one kept) in the body, and how they were made. */
static void read_locals(body *b)
{
    const reader *r = b->r;
    for (size_t i = b->from; i + 1 < b->to; i++) {
        if (!r->t[i].ident || !is(&r->t[i + 1], "=") || is_keyword(&r->t[i]) || is_param(b->k, &r->t[i]))
            continue;
        if (i > b->from && (is(&r->t[i - 1], ".") || is(&r->t[i - 1], "->") || is(&r->t[i - 1], "]")))
            continue;
        if (find_local(b, &r->t[i]))
            continue;
        size_t to = expr_end(r, i + 2, b->to);
        b->locals = kd_xreallocarray(b->locals, b->nlocals + 1, sizeof *b->locals);
        local *l = &b->locals[b->nlocals++];
        *l = (local){.name = &r->t[i], .def_from = i + 2, .def_to = to};
        l->x = mentions(b, i + 2, to, "threadIdx", 'x');
        l->y = mentions(b, i + 2, to, "threadIdx", 'y');
        l->global_x = l->x && mentions(b, i + 2, to, "blockIdx", 'x');
        l->global_y = l->y && mentions(b, i + 2, to, "blockIdx", 'y');
    }
}

/* Bounds: `v < X`, `v <= X`, and `v >= X` in a condition that returns. The first kept. */
static void read_bounds(body *b)
{
    const reader *r = b->r;
    for (size_t i = b->from; i + 2 < b->to; i++) {
        local *l = r->t[i].ident ? find_local(b, &r->t[i]) : NULL;
        if (!l || l->bound_to || member(r, i))
            continue;
        const tok *op = &r->t[i + 1];
        bool less = is(op, "<") || is(op, "<="), ge = is(op, ">=") || is(op, ">");
        if (!less && !ge)
            continue;
        size_t to = expr_end(r, i + 2, b->to);
        if (to == i + 2)
            continue;
        if (ge) { /* `if (v >= X) return;` and `if (a >= X || v >= Y) return;` */
            size_t close = to;
            while (close < b->to && !is(&r->t[close], ")") && !is(&r->t[close], ";"))
                close = expr_end(r, close + 1, b->to);
            if (close + 1 >= b->to || !is(&r->t[close], ")") || !at(r, close + 1, "return"))
                continue;
        }
        l->bound_from = i + 2;
        l->bound_to = to;
        l->bound_inclusive = is(op, "<=") || is(op, ">");
    }
}

/* Appends the index tokens [from, to) with each bounded local at its largest value. Only
 * sums and products of numbers, scalars, constants and bounded locals are read (less a
 * number, through casts, min and max): for those the largest value is reached with every
 * variable at its largest. */
typedef struct subst {
    body *b;         /* the kernel body read */
    kd_strbuf *out;  /* the text made */
    char **dims;     /* the scalar parameters the index names (at most 8, owned by the caller) */
    size_t *ndims;
} subst;

static bool substitute(const subst *s, size_t from, size_t to, int depth);

static bool is_cast_type(const tok *t)
{
    static const char *const words[] = {"int", "long", "size_t", "unsigned", "int64_t", "uint64_t", "int32_t",
                                        "uint32_t", "ptrdiff_t"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (is(t, words[i]))
            return true;
    return false;
}

/* min(a, b) is at most b (else a); max(a, b) at most the larger of both. i is at "min" or
 * "max"; returns the index of its ")" or 0 when it cannot be read. */
static size_t substitute_min_max(const subst *s, size_t i, size_t to, int depth)
{
    const reader *r = s->b->r;
    kd_strbuf *out = s->out;
    size_t close = closing(r, i + 1), comma = expr_end(r, i + 2, close);
    if (close >= to || comma >= close || !is(&r->t[comma], ","))
        return 0;
    size_t mark = out->len;
    if (is(&r->t[i], "min")) {
        kd_sb_puts(out, "(");
        if (substitute(s, comma + 1, close, depth + 1)) {
            kd_sb_puts(out, ")");
            return close;
        }
        out->len = mark + 1;
        out->data[mark + 1] = '\0';
        if (substitute(s, i + 2, comma, depth + 1)) {
            kd_sb_puts(out, ")");
            return close;
        }
    } else {
        kd_sb_puts(out, "max(");
        if (substitute(s, i + 2, comma, depth + 1)) {
            kd_sb_puts(out, ",");
            if (substitute(s, comma + 1, close, depth + 1)) {
                kd_sb_puts(out, ")");
                return close;
            }
        }
    }
    out->len = mark;
    if (out->data)
        out->data[mark] = '\0';
    return 0;
}

static bool substitute(const subst *s, size_t from, size_t to, int depth)
{
    body *b = s->b;
    const reader *r = b->r;
    kd_strbuf *out = s->out;
    char **dims = s->dims;
    size_t *ndims = s->ndims;
    if (depth > 6)
        return false;
    for (size_t i = from; i < to; i++) {
        const tok *t = &r->t[i];
        if (is(t, "(") && i + 2 < to && is_cast_type(&r->t[i + 1]) && is(&r->t[i + 2], ")")) {
            i += 2; /* (size_t) row: the value is the same */
        } else if (t->number) {
            kd_sb_append(out, t->s, t->len);
        } else if (is(t, "+") || is(t, "*") || is(t, "(") || is(t, ")")) {
            kd_sb_append(out, t->s, 1);
        } else if (is(t, "-") && i > from && i + 1 < to && r->t[i + 1].number &&
                   !(i + 2 < to && (is(&r->t[i + 2], "*") || is(&r->t[i + 2], "/")))) {
            kd_sb_append(out, t->s, 1); /* less a constant: still largest where the rest is */
        } else if ((is(t, "min") || is(t, "max")) && at(r, i + 1, "(")) {
            size_t close = substitute_min_max(s, i, to, depth);
            if (!close)
                return false;
            i = close;
        } else if (is(t, "threadIdx") && at(r, i + 1, ".") && i + 2 < to && (is(&r->t[i + 2], "x") || is(&r->t[i + 2], "y"))) {
            kd_sb_puts(out, is(&r->t[i + 2], "x") ? "(block-1)" : "(__block_y-1)"); /* below the block's */
            i += 2;
        } else if (is(t, "/") && i > from && i + 1 < to &&
                   (r->t[i + 1].number || (r->t[i + 1].ident && find_const(r, r->t[i + 1].s, r->t[i + 1].len)))) {
            kd_sb_append(out, t->s, 1); /* by a positive constant: largest where the rest is */
        } else if (t->ident && is_param(b->k, t)) {
            bool seen = false;
            for (size_t d = 0; d < *ndims; d++)
                seen |= strlen(dims[d]) == t->len && memcmp(dims[d], t->s, t->len) == 0;
            if (!seen && *ndims < 8)
                dims[(*ndims)++] = tok_str(t);
            kd_sb_append(out, t->s, t->len);
        } else if (t->ident && find_const(r, t->s, t->len)) {
            kd_sb_printf(out, "%.0f", find_const(r, t->s, t->len)->value);
        } else if (t->ident && !member(r, i) && find_local(b, t)) {
            local *l = find_local(b, t);
            kd_sb_puts(out, "(");
            if (l->bound_to) {
                if (!substitute(s, l->bound_from, l->bound_to, depth + 1))
                    return false;
                kd_sb_puts(out, l->bound_inclusive ? ")" : "-1)");
            } else if (l->def_to) {
                if (!substitute(s, l->def_from, l->def_to, depth + 1))
                    return false;
                kd_sb_puts(out, ")");
            } else {
                return false;
            }
        } else {
            return false;
        }
    }
    return true;
}

/* Whether the index multiplies by one of the kernel's scalars (directly or through a local):
 * a 2-D index, which n elements would only guess. */
static bool multiplies_by_scalar(body *b, size_t from, size_t to, int depth)
{
    const reader *r = b->r;
    for (size_t i = from; i < to && depth < 4; i++) {
        const tok *t = &r->t[i];
        bool beside_star = (i > from && is(&r->t[i - 1], "*")) || (i + 1 < to && is(&r->t[i + 1], "*"));
        if (t->ident && beside_star && is_param(b->k, t))
            return true;
        local *l = t->ident && !member(r, i) ? find_local(b, t) : NULL;
        if (l && l->def_to && multiplies_by_scalar(b, l->def_from, l->def_to, depth + 1))
            return true;
    }
    return false;
}

static void add_extent(kd_kernel_geometry *k, const char *param, char *count, char *indexing, unsigned rank)
{
    k->extents = kd_xreallocarray(k->extents, k->nextents + 1, sizeof *k->extents);
    k->extents[k->nextents++] = (kd_buffer_extent){kd_xstrdup(param), count, indexing, rank};
}

/* Whether t names name. */
static bool named(const tok *t, const char *name) { return t->ident && strlen(name) == t->len && !memcmp(name, t->s, t->len); }

/* Tokens [from, to) of the body. */
typedef struct span {
    size_t from, to;
} span;

/* One more index of a buffer: the tokens `offset` (an alias's offset, "row * C"; may be
 * empty) plus `index`. Folds it into count; false when it cannot be bounded. */
static bool add_index(body *b, span offset, span index, kd_strbuf *count, char **dims, size_t *ndims)
{
    kd_strbuf one = {0};
    const subst s = {b, &one, dims, ndims};
    bool ok = true;
    if (offset.to > offset.from) {
        ok = substitute(&s, offset.from, offset.to, 0);
        kd_sb_puts(&one, "+");
    }
    ok = ok && substitute(&s, index.from, index.to, 0);
    if (ok) {
        bool first = count->len == 0;
        char *term = kd_xasprintf("(%s)+1", kd_sb_str(&one)), *prev = kd_sb_take(count);
        if (first)
            kd_sb_puts(count, term);
        else if (strstr(prev, term))
            kd_sb_puts(count, prev);
        else
            kd_sb_printf(count, "max(%s, %s)", prev, term);
        free(prev);
        free(term);
    }
    kd_sb_free(&one);
    return ok;
}

/* Every `P[...]` of pointer parameter P, and `x[...]` of a local `x = P + OFFSET` (llm.c's
 * `const float *x = inp + idx * C`): one extent, the largest of its indices. */
static void read_extent(body *b, const char *param)
{
    const reader *r = b->r;
    kd_strbuf count = {0};
    char *indexing = NULL, *dims[8];
    size_t ndims = 0;
    bool known = true, flat_guess = true;
    for (size_t i = b->from; i + 1 < b->to; i++) {
        if (!r->t[i].ident || !is(&r->t[i + 1], "[") || member(r, i))
            continue;
        size_t off_from = 0, off_to = 0;
        if (!named(&r->t[i], param)) {
            local *l = find_local(b, &r->t[i]);
            if (!l || !l->def_to || !named(&r->t[l->def_from], param) || !at(r, l->def_from + 1, "+"))
                continue;
            off_from = l->def_from + 2;
            off_to = l->def_to;
        }
        size_t close = closing(r, i + 1);
        if (close >= b->to)
            break;
        bool two_d = multiplies_by_scalar(b, i + 2, close, 0) || (off_to && multiplies_by_scalar(b, off_from, off_to, 0));
        if (!indexing || (two_d && flat_guess)) {
            free(indexing);
            indexing = span_text(r, i + 2, close);
            if (off_to) {
                char *offset = span_text(r, off_from, off_to), *whole = kd_xasprintf("%s + %s", offset, indexing);
                free(offset);
                free(indexing);
                indexing = whole;
            }
        }
        flat_guess &= !two_d;
        if (known && !add_index(b, (span){off_from, off_to}, (span){i + 2, close}, &count, dims, &ndims))
            known = false;
        i = close;
    }
    if (!indexing) {
        kd_sb_free(&count);
        return;
    }
    /* the shape's rank: 2 where the index multiplies scalars (rows x cols, a pitch) */
    unsigned rank = !flat_guess && ndims >= 2 ? 2 : 1;
    if (known && count.len && flat_guess && ndims == 0 && strstr(kd_sb_str(&count), "block"))
        known = false; /* in[threadIdx.x]: within one block, never past n: nothing to say */
    if (known && count.len)
        add_extent(b->k, param, kd_sb_take(&count), indexing, rank);
    else if (!flat_guess)
        add_extent(b->k, param, NULL, indexing, 2);
    else
        free(indexing);
    kd_sb_free(&count);
    for (size_t d = 0; d < ndims; d++)
        free(dims[d]);
}

/* A shared array's dimension as a number: a named constant, or a literal when `literal_ok`. */
static bool dim_value(const reader *r, size_t from, size_t to, bool literal_ok, unsigned *out)
{
    if (to != from + 1)
        return false;
    const tok *t = &r->t[from];
    double v;
    if (t->ident && find_const(r, t->s, t->len))
        v = find_const(r, t->s, t->len)->value;
    else if (!(literal_ok && t->number && eval_const(r, t->s, t->len, &v)))
        return false;
    if (v < 1 || v > 1024)
        return false;
    *out = (unsigned)v;
    return true;
}

/* A static shared array NAME[D0] (or NAME[D0][D1]) declared at decl (the token of NAME),
 * sized by constants and indexed in the body by threadIdx.x (and .y in its first index): the
 * block it is made for. */
static void block_from_array(body *b, size_t name_at, size_t decl_from)
{
    const reader *r = b->r;
    kd_kernel_geometry *k = b->k;
    size_t d0 = name_at + 1, d0_end = at(r, d0, "[") ? closing(r, d0) : 0;
    if (!d0_end || k->block[0])
        return;
    size_t d1 = d0_end + 1, d1_end = at(r, d1, "[") ? closing(r, d1) : 0;
    unsigned v0, v1 = 0;
    if (!dim_value(r, d0 + 1, d0_end, !d1_end, &v0) || (d1_end && !dim_value(r, d1 + 1, d1_end, false, &v1)))
        return;
    const tok *name = &r->t[name_at];
    for (size_t i = b->from; i + 1 < b->to; i++) {
        if (i == name_at || !is(&r->t[i], "[") || !(r->t[i - 1].len == name->len &&
                                                     memcmp(r->t[i - 1].s, name->s, name->len) == 0))
            continue;
        size_t e0 = closing(r, i);
        if (e0 >= b->to)
            return;
        bool ok;
        if (!d1_end) {
            ok = mentions(b, i + 1, e0, "threadIdx", 'x');
        } else {
            size_t e1 = at(r, e0 + 1, "[") ? closing(r, e0 + 1) : 0;
            ok = e1 && e1 < b->to && mentions(b, i + 1, e0, "threadIdx", 'y') &&
                 mentions(b, e0 + 2, e1, "threadIdx", 'x');
        }
        if (!ok)
            continue;
        k->block[0] = d1_end ? v1 : v0;
        k->block[1] = d1_end ? v0 : 1;
        k->block[2] = 1;
        char *decl = span_text(r, decl_from, (d1_end ? d1_end : d0_end) + 1);
        char *d = span_text(r, d0 + 1, d0_end);
        kd_strbuf why = {0};
        if (find_const(r, r->t[d0 + 1].s, r->t[d0 + 1].len))
            kd_sb_printf(&why, "%s = %u sizes %s", d, v0, decl);
        else
            kd_sb_printf(&why, "%s", decl);
        kd_sb_printf(&why, ", indexed by threadIdx");
        k->block_reason = kd_sb_take(&why);
        free(decl);
        free(d);
        return;
    }
}

/* A shared declaration at i (`__shared__`): static arrays size the block, extern ones are
 * the kernel's dynamic shared memory. Returns the token of the array's name, or 0. */
static size_t shared_decl(const reader *r, size_t i, size_t limit, bool *is_extern, char **type)
{
    *is_extern = i > 0 && at(r, i - 1, "extern");
    size_t j = i + 1;
    while (j + 1 < limit && r->t[j].ident && (r->t[j + 1].ident || is(&r->t[j + 1], "<") || is(&r->t[j + 1], "*") ||
                                              is(&r->t[j + 1], "::")))
        j++;
    while (j < limit && !r->t[j].ident)
        j++;
    if (j >= limit || !(at(r, j + 1, "[") || at(r, j + 1, ";")))
        return 0;
    /* the type: identifiers between __shared__ and the name, qualifiers and alignment left out */
    kd_strbuf sb = {0};
    for (size_t t = i + 1; t < j; t++) {
        if (!r->t[t].ident || is(&r->t[t], "volatile") || is(&r->t[t], "const") || is(&r->t[t], "__align__") ||
            is(&r->t[t], "alignas"))
            continue;
        if (sb.len)
            kd_sb_puts(&sb, " ");
        kd_sb_append(&sb, r->t[t].s, r->t[t].len);
    }
    *type = kd_sb_take(&sb);
    return j;
}

/* `(float *) raw` or `reinterpret_cast<float *>(raw)` in the body: what a char array holds. */
static char *cast_type(body *b, const char *name)
{
    const reader *r = b->r;
    for (size_t i = b->from + 2; i < b->to; i++) {
        if (!r->t[i].ident || strlen(name) != r->t[i].len || memcmp(name, r->t[i].s, r->t[i].len) != 0)
            continue;
        if (is(&r->t[i - 1], ")") && is(&r->t[i - 2], "*") && i >= b->from + 4 && r->t[i - 3].ident &&
            is(&r->t[i - 4], "("))
            return tok_str(&r->t[i - 3]);
        if (is(&r->t[i - 1], "(") && is(&r->t[i - 2], ">") && is(&r->t[i - 3], "*") && r->t[i - 4].ident)
            return tok_str(&r->t[i - 4]);
    }
    return NULL;
}

static bool is_byte_type(const char *type)
{
    return !strcmp(type, "char") || !strcmp(type, "unsigned char") || !strcmp(type, "uint8_t") ||
           !strcmp(type, "int8_t") || !strcmp(type, "signed char");
}

static void set_dynamic(body *b, const char *name, char *type)
{
    kd_kernel_geometry *k = b->k;
    if (k->dynamic_shared) {
        free(type);
        return;
    }
    k->dynamic_shared = true;
    k->shared_name = kd_xstrdup(name);
    char *cast = type && is_byte_type(type) ? cast_type(b, name) : NULL;
    k->shared_type = cast ? cast : type;
    if (cast)
        free(type);
}

/* Helpers that declare an extern shared array (a struct or function of the file, outside
 * kernels): name, element type, and whether the kernel's use passes its template argument. */
typedef struct holder {
    char *name, *type, *array;
} holder;

/* The shared declaration at decl (limit: where it must end) if the kernel body names it:
 * an extern one is its dynamic shared memory, a static one may size its block. */
static void take_shared(body *b, size_t decl, size_t limit, bool must_be_used)
{
    const reader *r = b->r;
    bool ext;
    char *type = NULL;
    size_t name = shared_decl(r, decl, limit, &ext, &type);
    bool used = name && !must_be_used;
    for (size_t i = b->from; name && i < b->to && !used; i++)
        used = r->t[i].len == r->t[name].len && memcmp(r->t[i].s, r->t[name].s, r->t[i].len) == 0;
    if (used && ext) {
        char *n = tok_str(&r->t[name]);
        set_dynamic(b, n, type);
        free(n);
        return;
    }
    if (used)
        block_from_array(b, name, decl);
    free(type);
}

static void read_shared(body *b, const holder *holders, size_t nholders, const size_t *file_shared, size_t nfile)
{
    const reader *r = b->r;
    for (size_t i = b->from; i < b->to; i++)
        if (is(&r->t[i], "__shared__"))
            take_shared(b, i, b->to, false);
    for (size_t f = 0; f < nfile; f++) /* file-scope arrays this kernel names */
        take_shared(b, file_shared[f], r->n, true);
    /* helpers: SharedMemory<T>() gives T; a plain helper gives its own array's type */
    for (size_t h = 0; h < nholders && !b->k->dynamic_shared; h++) {
        for (size_t i = b->from; i < b->to; i++) {
            if (!is(&r->t[i], holders[h].name))
                continue;
            char *type = NULL;
            if (at(r, i + 1, "<")) {
                size_t e = i + 2;
                while (e < b->to && !is(&r->t[e], ">"))
                    e++;
                type = span_text(r, i + 2, e);
            }
            set_dynamic(b, holders[h].array, type ? type : kd_xstrdup(holders[h].type));
            break;
        }
    }
}

/* Whether a local is made of its thread indices without dividing them (a row per warp,
 * `(blockIdx.x * blockDim.x + threadIdx.x) / 32`, is not a thread's own index). */
static bool linear(body *b, const local *l, int depth)
{
    const reader *r = b->r;
    for (size_t i = l->def_from; i < l->def_to && depth < 4; i++) {
        if (is(&r->t[i], "/") || is(&r->t[i], "%") || is(&r->t[i], ">>"))
            return false;
        const local *via = r->t[i].ident && !member(r, i) ? find_local(b, &r->t[i]) : NULL;
        if (via && via != l && !linear(b, via, depth + 1))
            return false;
    }
    return depth < 4;
}

/* The axis of blockIdx (0: x, 1: y) that a local's definition adds (directly or through
 * locals such as `by = blockIdx.y`); -1: none, -2: both. */
static int grid_axis(body *b, const local *l, int depth)
{
    const reader *r = b->r;
    int axis = -1;
    for (size_t i = l->def_from; i < l->def_to && depth < 4; i++) {
        int one = -1;
        if (is(&r->t[i], "blockIdx") && at(r, i + 1, ".") && i + 2 < l->def_to)
            one = is(&r->t[i + 2], "x") ? 0 : is(&r->t[i + 2], "y") ? 1 : -2;
        const local *via = r->t[i].ident && !member(r, i) ? find_local(b, &r->t[i]) : NULL;
        if (via && via != l && via->def_to)
            one = grid_axis(b, via, depth + 1);
        if (one == -2 || (one >= 0 && axis >= 0 && one != axis))
            return -2;
        if (one >= 0)
            axis = one;
    }
    return axis;
}

/* A number or named constant's value as text; NULL otherwise. */
static char *constant_text(const reader *r, const tok *t)
{
    double v;
    if (t->ident && find_const(r, t->s, t->len))
        return kd_xasprintf("%.0f", find_const(r, t->s, t->len)->value);
    if (t->number && eval_const(r, t->s, t->len, &v))
        return kd_xasprintf("%.0f", v);
    return NULL;
}

/* The factor of blockIdx in a grid-wide local on axis (`blockIdx.x * TILE_DIM + threadIdx.x`:
 * "32"; `blockIdx.x * blockDim.x`: the block), where the local adds one threadIdx of that
 * axis: then the local stays below (blockIdx + 1) * factor for a block no larger. NULL: not read. */
static char *grid_step(body *b, const local *l, int axis, int depth)
{
    const reader *r = b->r;
    const char a = axis ? 'y' : 'x';
    if (depth > 3 || !(axis ? l->y : l->x))
        return NULL;
    for (size_t i = l->def_from; i < l->def_to; i++) {
        size_t g_to = 0; /* past the blockIdx term */
        if (is(&r->t[i], "blockIdx") && i + 2 < l->def_to && r->t[i + 2].len == 1 && r->t[i + 2].s[0] == a)
            g_to = i + 3;
        const local *via = r->t[i].ident && !member(r, i) ? find_local(b, &r->t[i]) : NULL;
        if (via && via != l && via->def_to == via->def_from + 3 && is(&r->t[via->def_from], "blockIdx"))
            g_to = i + 1; /* `by` made of blockIdx.y alone */
        if (!g_to)
            continue;
        size_t c = 0;
        if (g_to + 1 < l->def_to && is(&r->t[g_to], "*"))
            c = g_to + 1;
        else if (i >= l->def_from + 2 && is(&r->t[i - 1], "*"))
            c = i - 2;
        if (!c)
            return NULL;
        if (is(&r->t[c], "blockDim") || (c + 2 < r->n && is(&r->t[c + 2], "blockDim")))
            return kd_xstrdup(axis ? "__block_y" : "block");
        return constant_text(r, &r->t[c]);
    }
    return NULL;
}

/* The scalar that pairs with a row length by name (width: height, cols: rows), when the kernel has it. */
static const char *paired_name(const kd_kernel_geometry *k, const tok *s)
{
    static const char *const pairs[][2] = {{"width", "height"}, {"cols", "rows"}, {"ncols", "nrows"},
                                           {"nx", "ny"},        {"w", "h"},       {"num_cols", "num_rows"}};
    for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p++) {
        if (strlen(pairs[p][0]) != s->len || strncasecmp(pairs[p][0], s->s, s->len) != 0)
            continue;
        for (size_t i = 0; i < k->nparams; i++)
            if (strcasecmp(k->params[i], pairs[p][1]) == 0)
                return k->params[i];
    }
    return NULL;
}

/* A grid-wide index local (unbounded, linear, of one axis) at token i; NULL otherwise. */
static local *grid_local(body *b, size_t i, int *axis)
{
    const reader *r = b->r;
    local *l = i < b->to && r->t[i].ident && !member(r, i) ? find_local(b, &r->t[i]) : NULL;
    if (!l || !l->def_to || !linear(b, l, 0))
        return NULL;
    *axis = grid_axis(b, l, 0);
    return *axis >= 0 ? l : NULL;
}

/* Whether a local is given another value after its definition (`x = ...` again). */
static bool reassigned(body *b, const local *l)
{
    const reader *r = b->r;
    for (size_t i = b->from; i + 1 < b->to; i++)
        if (i + 2 != l->def_from && is(&r->t[i + 1], "=") && r->t[i].len == l->name->len &&
            memcmp(r->t[i].s, l->name->s, l->name->len) == 0 && !member(r, i))
            return true;
    return false;
}

/* Notes a bounded index local given another value later (geometry.h: reassigned). */
static void note_reassigned(body *b, const local *l)
{
    if (!b->k->reassigned && reassigned(b, l))
        b->k->reassigned = tok_str(l->name);
}

/* Whether token i may end a term (nothing binds tighter after it). */
static bool term_ends(const reader *r, size_t i, size_t to)
{
    return i >= to || is(&r->t[i], ")") || is(&r->t[i], "]") || is(&r->t[i], ";") || is(&r->t[i], "+") ||
           is(&r->t[i], ",") || is(&r->t[i], "-");
}

/* In an unguarded 2-D kernel, `x + S * y` (any order of the sum and the product) says x
 * runs along a row of S elements: x < S; y's rows are the scalar that pairs with S by
 * name, else S (a square). Each bound is kept in the local (as S's token) and as the
 * kernel's reach, with the factor of blockIdx that the grid must use. */
static void imply_bounds(body *b)
{
    const reader *r = b->r;
    kd_kernel_geometry *k = b->k;
    if (!(mentions(b, b->from, b->to, "threadIdx", 'y') || mentions(b, b->from, b->to, "blockIdx", 'y')))
        return;
    local *rows[2] = {NULL, NULL};
    size_t rows_s[2] = {0, 0}, rows_at[2] = {0, 0}, rows_to[2] = {0, 0};
    for (size_t i = b->from + 1; i + 1 < b->to; i++) {
        int ax, am;
        local *l = grid_local(b, i, &ax);
        if (!l || is(&r->t[i - 1], "*") || is(&r->t[i - 1], "/") || is(&r->t[i - 1], "."))
            continue;
        size_t p = 0, from = i, to = i + 1; /* the product's first token, and the relation's span */
        if (i + 5 <= b->to && is(&r->t[i + 1], "+") && at(r, i + 3, "*") && term_ends(r, i + 5, b->to)) {
            p = i + 2;
            to = i + 5;
        } else if (i >= b->from + 4 && is(&r->t[i - 1], "+") && is(&r->t[i - 3], "*") &&
                   !is(&r->t[i + 1], "*") && !is(&r->t[i + 1], "/") && !is(&r->t[i + 1], "[") &&
                   !is(&r->t[i + 1], "(") && !(i >= b->from + 5 && (is(&r->t[i - 5], "*") || is(&r->t[i - 5], "/")))) {
            p = i - 4;
            from = p;
        }
        if (!p)
            continue;
        size_t s_at = is_param(k, &r->t[p]) ? p : is_param(k, &r->t[p + 2]) ? p + 2 : 0;
        local *m = s_at ? grid_local(b, s_at == p ? p + 2 : p, &am) : NULL;
        if (!m || am == ax || m == l)
            continue;
        if (!l->bound_to && !k->reach[ax]) {
            char *step = grid_step(b, l, ax, 0);
            if (!step)
                continue;
            l->bound_from = s_at;
            l->bound_to = s_at + 1;
            l->bound_inclusive = false;
            k->reach[ax] = tok_str(&r->t[s_at]);
            k->reach_step[ax] = step;
            k->implied[ax] = span_text(r, from, to);
            note_reassigned(b, l);
        }
        if (!rows[am]) {
            rows[am] = m;
            rows_s[am] = s_at;
            rows_at[am] = from;
            rows_to[am] = to;
        }
    }
    for (int a = 0; a < 2; a++) {
        local *m = rows[a];
        if (!m || m->bound_to || k->reach[a])
            continue;
        char *step = grid_step(b, m, a, 0);
        if (!step)
            continue;
        const char *pair = paired_name(k, &r->t[rows_s[a]]);
        size_t s_at = rows_s[a];
        for (size_t i = b->from; pair && i-- > 0;) /* the pair's own token (its parameter's) */
            if (r->t[i].ident && strlen(pair) == r->t[i].len && memcmp(pair, r->t[i].s, r->t[i].len) == 0) {
                s_at = i;
                break;
            }
        m->bound_from = s_at;
        m->bound_to = s_at + 1;
        m->bound_inclusive = false;
        k->reach[a] = tok_str(&r->t[s_at]);
        k->reach_step[a] = step;
        k->square[a] = s_at == rows_s[a];
        k->paired[a] = !k->square[a];
        note_reassigned(b, m);
        k->implied[a] = span_text(r, rows_at[a], rows_to[a]);
    }
}

/* The CUDA samples' tiles: an unguarded 2-D kernel whose indices move a TILE x TILE tile a
 * block (the implied grid's factors, equal numbers) and whose loop `for (i = 0; i < TILE;
 * i += ROWS)` walks its rows: a block of TILE x ROWS threads (the tile's rows in ROWS steps). */
static void tile_block(body *b)
{
    const reader *r = b->r;
    kd_kernel_geometry *k = b->k;
    if (k->block[0] || !k->reach_step[0] || !k->reach_step[1] || strcmp(k->reach_step[0], k->reach_step[1]) != 0)
        return;
    double tile = atof(k->reach_step[0]);
    for (size_t i = b->from; i + 1 < b->to; i++) {
        if (!is(&r->t[i], "for") || !at(r, i + 1, "("))
            continue;
        size_t close = closing(r, i + 1);
        size_t lt = 0, step = 0;
        for (size_t j = i + 2; j + 2 < close; j++) {
            if (r->t[j].ident && is(&r->t[j + 1], "<") && at(r, j + 3, ";"))
                lt = j;
            if (lt && r->t[j].ident && is(&r->t[j + 1], "+=") && j + 3 == close && r->t[j].len == r->t[lt].len &&
                memcmp(r->t[j].s, r->t[lt].s, r->t[j].len) == 0)
                step = j + 2;
        }
        char *bound = lt && step ? constant_text(r, &r->t[lt + 2]) : NULL;
        char *rows = bound ? constant_text(r, &r->t[step]) : NULL;
        double v = rows ? atof(rows) : 0;
        if (bound && atof(bound) == tile && v >= 1 && fmod(tile, v) == 0 && tile * v <= 1024) {
            k->block[0] = (unsigned)tile;
            k->block[1] = (unsigned)v;
            k->block[2] = 1;
            k->block_tile = true;
            char *loop = span_text(r, i, close + 1);
            k->block_reason = kd_xasprintf("a %.0f x %.0f tile a block (blockIdx * %s), its rows walked by %s", tile,
                                           tile, k->reach_step[0], loop);
            free(loop);
        }
        free(bound);
        free(rows);
        if (k->block[0])
            return;
    }
}

/* How far the kernel's x and y thread indices go: the bound of a grid-wide index local. */
static void read_reach(body *b)
{
    kd_kernel_geometry *k = b->k;
    k->two_d = mentions(b, b->from, b->to, "threadIdx", 'y') || mentions(b, b->from, b->to, "blockIdx", 'y');
    for (size_t i = 0; i < b->nlocals; i++) {
        local *l = &b->locals[i];
        int axis = l->global_x && !l->global_y ? 0 : l->global_y && !l->global_x ? 1 : -1;
        if (axis < 0 || !l->bound_to || k->reach[axis] || !linear(b, l, 0))
            continue;
        kd_strbuf sb = {0};
        char *dims[8];
        size_t ndims = 0;
        const subst bound = {b, &sb, dims, &ndims};
        if (substitute(&bound, l->bound_from, l->bound_to, 1)) {
            if (l->bound_inclusive)
                kd_sb_puts(&sb, "+1");
            k->reach[axis] = kd_sb_take(&sb);
        }
        kd_sb_free(&sb);
        for (size_t d = 0; d < ndims; d++)
            free(dims[d]);
    }
}

/* ---- kernels of a CUDA file --------------------------------------------------------------- */

typedef struct pointer_params {
    size_t *at; /* the name token of each pointer parameter */
    size_t count;
} pointer_params;

static void push_name(char ***list, size_t *count, char *name)
{
    *list = kd_xreallocarray(*list, *count + 1, sizeof **list);
    (*list)[(*count)++] = name;
}

/* The parameters between the parentheses at open..close: names in order, and which are pointers. */
static void read_params(const reader *r, size_t open, size_t close, kd_kernel_geometry *k, pointer_params *ptrs)
{
    size_t from = open + 1;
    int depth = 0;
    for (size_t i = open + 1; i <= close; i++) {
        const tok *t = &r->t[i];
        if (is(t, "(") || is(t, "[") || is(t, "<"))
            depth++;
        else if ((is(t, ")") || is(t, "]") || is(t, ">")) && i < close)
            depth--;
        if (!(i == close || (depth == 0 && is(t, ","))))
            continue;
        size_t end = from;
        while (end < i && !is(&r->t[end], "="))
            end++;
        size_t name = 0;
        bool pointer = false;
        for (size_t j = from; j < end; j++) {
            pointer |= is(&r->t[j], "*") || is(&r->t[j], "[");
            if (is(&r->t[j], "["))
                break;
            if (r->t[j].ident && !is(&r->t[j], "__restrict__") && !is(&r->t[j], "const") && !is(&r->t[j], "restrict"))
                name = j;
        }
        if (end > from && name) {
            push_name(&k->params, &k->nparams, tok_str(&r->t[name]));
            if (pointer) {
                ptrs->at = kd_xreallocarray(ptrs->at, ptrs->count + 1, sizeof *ptrs->at);
                ptrs->at[ptrs->count++] = name;
            }
        }
        from = i + 1;
    }
}

/* `template <typename T, unsigned int blockSize>` just before token `at`: its names. */
static void read_template(const reader *r, size_t at_tok, kd_kernel_geometry *k)
{
    size_t back = at_tok > 40 ? at_tok - 40 : 0;
    for (size_t i = at_tok; i-- > back;) {
        if (is(&r->t[i], ";") || is(&r->t[i], "}") || is(&r->t[i], "{"))
            return;
        if (!is(&r->t[i], "template") || !at(r, i + 1, "<"))
            continue;
        int depth = 0;
        for (size_t j = i + 1; j < at_tok; j++) {
            depth += is(&r->t[j], "<") - is(&r->t[j], ">");
            if (depth == 1 && r->t[j].ident && (at(r, j + 1, ",") || at(r, j + 1, ">") || at(r, j + 1, "=")))
                push_name(&k->template_params, &k->ntemplate_params, tok_str(&r->t[j]));
            if (depth == 0)
                break;
        }
        return;
    }
}

static kd_kernel_geometry *add_kernel(kd_file_geometry *g, const tok *name)
{
    for (size_t i = 0; i < g->count; i++)
        if (strlen(g->kernels[i].name) == name->len && !memcmp(g->kernels[i].name, name->s, name->len) &&
            !g->kernels[i].nextents && !g->kernels[i].dynamic_shared && !g->kernels[i].block[0]) {
            kd_kernel_geometry keep = g->kernels[i]; /* a prototype: the definition replaces it */
            for (size_t j = 0; j < keep.nparams; j++)
                free(keep.params[j]);
            free(keep.params);
            g->kernels[i].params = NULL;
            g->kernels[i].nparams = 0;
            return &g->kernels[i];
        }
    g->kernels = kd_xreallocarray(g->kernels, g->count + 1, sizeof *g->kernels);
    kd_kernel_geometry *k = &g->kernels[g->count++];
    *k = (kd_kernel_geometry){.name = tok_str(name)};
    return k;
}

/* The label of the brace at i: a function's or a struct's name, or NULL. */
static const tok *brace_label(const reader *r, size_t i)
{
    size_t j = i;
    while (j > 0 && (at(r, j - 1, "const") || at(r, j - 1, "noexcept")))
        j--;
    if (j > 0 && at(r, j - 1, ")")) {
        int depth = 0;
        for (size_t k = j - 1; k-- > 0;) {
            depth += is(&r->t[k], ")") - is(&r->t[k], "(");
            if (depth < 0)
                return k > 0 && r->t[k - 1].ident ? &r->t[k - 1] : NULL;
        }
        return NULL;
    }
    for (size_t k = j; k-- > 0 && k + 8 > j;)
        if ((is(&r->t[k], "struct") || is(&r->t[k], "class")) && k + 1 < r->n && r->t[k + 1].ident)
            return &r->t[k + 1];
    return NULL;
}

static void read_cuda(reader *r, kd_file_geometry *g)
{
    read_const_declarations(r);
    /* file scope: shared arrays outside any brace, and helpers holding an extern one */
    size_t *file_shared = NULL, nfile = 0, depth = 0;
    holder *holders = NULL;
    size_t nholders = 0;
    const tok *outer = NULL;
    for (size_t i = 0; i < r->n; i++) {
        if (is(&r->t[i], "{")) {
            if (depth++ == 0)
                outer = brace_label(r, i);
        } else if (is(&r->t[i], "}") && depth) {
            depth--;
        } else if (is(&r->t[i], "__shared__") && depth == 0) {
            file_shared = kd_xreallocarray(file_shared, nfile + 1, sizeof *file_shared);
            file_shared[nfile++] = i;
        } else if (is(&r->t[i], "__shared__") && outer && at(r, i - 1, "extern")) {
            bool ext;
            char *type = NULL;
            size_t name = shared_decl(r, i, r->n, &ext, &type);
            if (name) {
                holders = kd_xreallocarray(holders, nholders + 1, sizeof *holders);
                holders[nholders++] = (holder){tok_str(outer), type, tok_str(&r->t[name])};
            } else {
                free(type);
            }
        }
    }
    for (size_t i = 0; i < r->n; i++) {
        if (!is(&r->t[i], "__global__"))
            continue;
        size_t open = i + 1;
        while (open < r->n && !(is(&r->t[open], "(") && r->t[open - 1].ident &&
                                !is(&r->t[open - 1], "__launch_bounds__") && !is(&r->t[open - 1], "__attribute__") &&
                                !is(&r->t[open - 1], "alignas")))
            open = is(&r->t[open], "(") ? closing(r, open) + 1 : open + 1;
        if (open >= r->n)
            break;
        size_t close = closing(r, open);
        if (close >= r->n)
            break;
        /* a holder's name (a device function) is never a kernel's name, so a kernel that is
           also a holder would be odd; no special case */
        kd_kernel_geometry *k = add_kernel(g, &r->t[open - 1]);
        read_template(r, i, k);
        for (size_t j = i; j < open; j++)
            if (is(&r->t[j], "__launch_bounds__") && at(r, j + 1, "(")) {
                size_t e = j + 2;
                while (e < r->n && !is(&r->t[e], ",") && !is(&r->t[e], ")"))
                    e++;
                char *text = span_text(r, j + 2, e);
                double v;
                free(k->launch_bounds);
                k->launch_bounds = NULL;
                if (eval_const(r, text, strlen(text), &v) && v >= 1 && v <= 1024)
                    k->launch_bounds = kd_xasprintf("%.0f", v);
                free(text);
            }
        pointer_params ptrs = {0};
        read_params(r, open, close, k, &ptrs);
        size_t brace = close + 1;
        while (brace < r->n && !is(&r->t[brace], "{") && !is(&r->t[brace], ";"))
            brace++;
        if (at(r, brace, "{")) {
            size_t end = closing(r, brace);
            body b = {r, brace + 1, end < r->n ? end : r->n, NULL, 0, k};
            read_locals(&b);
            read_bounds(&b);
            imply_bounds(&b);
            read_shared(&b, holders, nholders, file_shared, nfile);
            tile_block(&b);
            for (size_t p = 0; p < ptrs.count; p++) {
                char *name = tok_str(&r->t[ptrs.at[p]]);
                read_extent(&b, name);
                free(name);
            }
            read_reach(&b);
            free(b.locals);
            i = b.to;
        }
        free(ptrs.at);
    }
    for (size_t h = 0; h < nholders; h++) {
        free(holders[h].name);
        free(holders[h].type);
        free(holders[h].array);
    }
    free(holders);
    free(file_shared);
}

/* ---- PTX and Python ----------------------------------------------------------------------- */

static const char *find_word(const char *from, const char *end, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = from; p && p + n <= end; p++) {
        p = memmem(p, (size_t)(end - p), word, n);
        if (!p)
            return NULL;
        bool left = p == from || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '$');
        bool right = p + n == end || !(isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '$');
        if (left && right)
            return p;
    }
    return NULL;
}

/* PTX: each .entry's parameters, and the module's .extern .shared arrays it names. */
static void read_ptx(const char *text, size_t len, kd_file_geometry *g)
{
    const char *end = text + len;
    typedef struct { char *name; unsigned align; } ext;
    ext *exts = NULL;
    size_t nexts = 0;
    for (const char *p = text; (p = find_word(p, end, ".extern")) != NULL; p++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        eol = eol ? eol : end;
        const char *shared = find_word(p, eol, ".shared"), *bracket = memchr(p, '[', (size_t)(eol - p));
        if (!shared || !bracket)
            continue;
        const char *name = bracket;
        while (name > p && (isalnum((unsigned char)name[-1]) || name[-1] == '_' || name[-1] == '$'))
            name--;
        const char *align = find_word(p, eol, ".align");
        exts = kd_xreallocarray(exts, nexts + 1, sizeof *exts);
        exts[nexts++] = (ext){kd_xstrndup(name, (size_t)(bracket - name)), align ? (unsigned)atoi(align + 6) : 4};
    }
    for (const char *p = text; (p = find_word(p, end, ".entry")) != NULL;) {
        p += 6;
        while (p < end && isspace((unsigned char)*p))
            p++;
        const char *name = p;
        while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '$'))
            p++;
        kd_kernel_geometry *k = &(kd_kernel_geometry){0};
        g->kernels = kd_xreallocarray(g->kernels, g->count + 1, sizeof *g->kernels);
        k = &g->kernels[g->count++];
        *k = (kd_kernel_geometry){.name = kd_xstrndup(name, (size_t)(p - name))};
        const char *brace = memchr(p, '{', (size_t)(end - p));
        const char *close_paren = memchr(p, ')', (size_t)(end - p));
        for (const char *q = p; close_paren && (q = find_word(q, close_paren, ".param")) != NULL; q++) {
            const char *eol = q;
            while (eol < close_paren && *eol != ',' && *eol != '\n')
                eol++;
            const char *e = eol;
            while (e > q && (isspace((unsigned char)e[-1]) || e[-1] == ']' || isdigit((unsigned char)e[-1]) ||
                             e[-1] == '['))
                e--;
            const char *s = e;
            while (s > q && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '$'))
                s--;
            if (s < e)
                push_name(&k->params, &k->nparams, kd_xstrndup(s, (size_t)(e - s)));
        }
        if (!brace)
            break;
        int depth = 0;
        const char *b = brace;
        for (; b < end; b++)
            if (*b == '{')
                depth++;
            else if (*b == '}' && --depth == 0)
                break;
        for (size_t e = 0; e < nexts && !k->dynamic_shared; e++)
            if (find_word(brace, b, exts[e].name)) {
                k->dynamic_shared = true;
                k->shared_name = kd_xstrdup(exts[e].name);
                k->shared_bytes = exts[e].align;
            }
        p = b;
    }
    for (size_t e = 0; e < nexts; e++)
        free(exts[e].name);
    free(exts);
}

/* The identifier at p (to end), or an empty span. */
static size_t word_len(const char *p, const char *end)
{
    size_t n = 0;
    while (p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '_'))
        n++;
    return n;
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

static const char *param_named(const kd_kernel_geometry *k, const char *s, size_t n)
{
    for (size_t i = 0; n && i < k->nparams; i++)
        if (strlen(k->params[i]) == n && memcmp(k->params[i], s, n) == 0)
            return k->params[i];
    return NULL;
}

/* Whether the signature [sig, sig_end) annotates parameter s (n bytes) `tl.constexpr`. */
static bool constexpr_param(const char *sig, const char *sig_end, const char *s, size_t n)
{
    char *name = kd_xstrndup(s, n);
    const char *at = find_word(sig, sig_end, name);
    free(name);
    if (!at)
        return false;
    const char *p = skip_blanks(at + n, sig_end);
    if (p >= sig_end || *p != ':')
        return false;
    const char *stop = p;
    while (stop < sig_end && *stop != ',' && *stop != ')')
        stop++;
    return find_word(p, stop, "constexpr") != NULL;
}

/* A Triton kernel of one program a row (geometry.h: row_strides): read from its body
 * [from, end); its signature is [sig, sig_end). */
static void read_python_rows(kd_kernel_geometry *k, const char *sig, const char *sig_end, const char *from, const char *end)
{
    const char *pid = find_word(from, end, "program_id");
    if (!pid)
        return;
    const char *arg = skip_blanks(pid + 10, end);
    if (arg >= end || *arg != '(' || !(arg[1] == '0' || (end - arg > 7 && memcmp(arg + 1, "axis=0", 6) == 0)))
        return;
    const char *line = pid; /* `row = tl.program_id(0)`: the name before the `=` of its line */
    while (line > from && line[-1] != '\n')
        line--;
    line = skip_blanks(line, end);
    size_t rn = word_len(line, end);
    const char *eq = skip_blanks(line + rn, end);
    if (!rn || eq >= end || *eq != '=' || eq[1] == '=')
        return;
    char *row = kd_xstrndup(line, rn);
    for (const char *p = from; (p = find_word(p, end, row)) != NULL; p += rn) {
        const char *star = skip_blanks(p + rn, end), *s = NULL;
        size_t sn = 0;
        if (star < end && *star == '*' && star[1] != '*') {
            s = skip_blanks(star + 1, end);
            sn = word_len(s, end);
        } else { /* STRIDE * row */
            const char *q = p;
            while (q > from && (q[-1] == ' ' || q[-1] == '\t'))
                q--;
            if (q > from && q[-1] == '*' && !(q - 1 > from && q[-2] == '*')) {
                q--;
                while (q > from && (q[-1] == ' ' || q[-1] == '\t'))
                    q--;
                s = q;
                while (s > from && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))
                    s--;
                sn = (size_t)(q - s);
            }
        }
        const char *name = s && !constexpr_param(sig, sig_end, s, sn) ? param_named(k, s, sn) : NULL;
        bool seen = false;
        for (size_t i = 0; name && i < k->nrow_strides; i++)
            seen |= strcmp(k->row_strides[i], name) == 0;
        if (!name || seen)
            continue;
        push_name(&k->row_strides, &k->nrow_strides, kd_xstrdup(name));
        { /* the expression as written: its line after the `=` */
            const char *a = p, *b = p;
            while (a > from && a[-1] != '\n' && a[-1] != '=' && a[-1] != '(')
                a--;
            while (b < end && *b != '\n' && *b != ')' && *b != ',')
                b++;
            a = skip_blanks(a, end);
            while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
                b--;
            k->row_indexing = kd_xreallocarray(k->row_indexing, k->nrow_strides, sizeof *k->row_indexing);
            k->row_indexing[k->nrow_strides - 1] = kd_xstrndup(a, (size_t)(b - a));
        }
    }
    free(row);
    /* the row's length: the scalar the column offsets are masked by (`mask = cols < n_cols`) */
    for (const char *p = from; k->nrow_strides && p < end && (p = memchr(p, '<', (size_t)(end - p))) != NULL; p++) {
        if (p + 1 < end && (p[1] == '<' || p[1] == '='))
            continue;
        const char *c = skip_blanks(p + 1, end);
        const char *name = param_named(k, c, word_len(c, end));
        bool stride = false;
        for (size_t i = 0; name && i < k->nrow_strides; i++)
            stride |= strcmp(k->row_strides[i], name) == 0;
        if (name && !stride) {
            k->row_length = kd_xstrdup(name);
            break;
        }
    }
    if (!k->row_length) {
        for (size_t i = 0; i < k->nrow_strides; i++) {
            free(k->row_strides[i]);
            free(k->row_indexing[i]);
        }
        free(k->row_strides);
        free(k->row_indexing);
        k->row_strides = NULL;
        k->nrow_strides = 0;
        k->row_indexing = NULL;
    }
}

/* Python: each `def NAME(a, b: int, C: tl.constexpr = 4)`'s parameter names. */
static void read_python(const char *text, size_t len, kd_file_geometry *g)
{
    const char *end = text + len;
    for (const char *p = text; (p = find_word(p, end, "def")) != NULL;) {
        p += 3;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        const char *name = p;
        while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
            p++;
        if (p == name || p >= end || *p != '(')
            continue;
        g->kernels = kd_xreallocarray(g->kernels, g->count + 1, sizeof *g->kernels);
        kd_kernel_geometry *k = &g->kernels[g->count++];
        *k = (kd_kernel_geometry){.name = kd_xstrndup(name, (size_t)(p - name))};
        int depth = 0;
        bool want = true;
        for (p++; p < end && depth >= 0; p++) {
            if (*p == '(' || *p == '[')
                depth++;
            else if (*p == ')' || *p == ']')
                depth--;
            else if (*p == ',' && depth == 0)
                want = true;
            else if (*p == '#')
                while (p < end && *p != '\n')
                    p++;
            else if (want && depth == 0 && (isalpha((unsigned char)*p) || *p == '_')) {
                const char *s = p;
                while (p + 1 < end && (isalnum((unsigned char)p[1]) || p[1] == '_'))
                    p++;
                push_name(&k->params, &k->nparams, kd_xstrndup(s, (size_t)(p + 1 - s)));
                want = false;
            } else if (*p == ':' || *p == '=') {
                want = false;
            }
        }
        const char *body_end = p; /* to the next definition or decorator at the line's start */
        while (body_end < end && !(body_end[-1] == '\n' && (*body_end == '@' || (end - body_end > 4 && memcmp(body_end, "def ", 4) == 0))))
            body_end++;
        read_python_rows(k, name, p, p, body_end);
    }
}

/* ---- the interface ------------------------------------------------------------------------ */

void kd_geometry_read(const char *text, size_t len, kd_file_geometry *out)
{
    *out = (kd_file_geometry){0};
    if (find_word(text, text + len, ".entry") && find_word(text, text + len, ".version")) {
        read_ptx(text, len, out);
    } else if (find_word(text, text + len, "def") &&
               (find_word(text, text + len, "import") || !find_word(text, text + len, "__global__"))) {
        read_python(text, len, out);
    } else {
        reader r = {0};
        tokenize(&r, text, len);
        read_cuda(&r, out);
        for (size_t i = 0; i < r.nconsts; i++)
            free(r.consts[i].name);
        free(r.consts);
        free(r.t);
    }
}

/* The unqualified base of a kernel name: "ns::reduce<float, 256>" -> "reduce"; a mangled
 * "_Z10scaled_addPKfPfi" -> "scaled_add". */
static void base_name(const char *name, char *out, size_t room)
{
    if (strncmp(name, "_Z", 2) == 0 && isdigit((unsigned char)name[2])) {
        char *rest;
        long n = strtol(name + 2, &rest, 10);
        if (n > 0 && (size_t)n < room && strlen(rest) >= (size_t)n) {
            snprintf(out, room, "%.*s", (int)n, rest);
            return;
        }
    }
    const char *lt = strchr(name, '<'), *paren = strchr(name, '(');
    size_t n = lt ? (size_t)(lt - name) : paren ? (size_t)(paren - name) : strlen(name);
    const char *start = name;
    for (const char *c = name; c + 1 < name + n; c++)
        if (c[0] == ':' && c[1] == ':')
            start = c + 2;
    snprintf(out, room, "%.*s", (int)(name + n - start), start);
}

const kd_kernel_geometry *kd_geometry_find(const kd_file_geometry *g, const char *name)
{
    if (!g || !name)
        return NULL;
    for (size_t i = 0; i < g->count; i++)
        if (strcmp(g->kernels[i].name, name) == 0)
            return &g->kernels[i];
    char base[256];
    base_name(name, base, sizeof base);
    for (size_t i = 0; i < g->count; i++)
        if (strcmp(g->kernels[i].name, base) == 0)
            return &g->kernels[i];
    return NULL;
}

const kd_buffer_extent *kd_geometry_extent(const kd_kernel_geometry *k, const char *param)
{
    for (size_t i = 0; k && i < k->nextents; i++)
        if (strcmp(k->extents[i].param, param) == 0)
            return &k->extents[i];
    return NULL;
}

bool kd_geometry_has_param(const kd_file_geometry *g, const char *name)
{
    for (size_t i = 0; g && i < g->count; i++) {
        for (size_t j = 0; j < g->kernels[i].nparams; j++)
            if (strcmp(g->kernels[i].params[j], name) == 0)
                return true;
        for (size_t j = 0; j < g->kernels[i].ntemplate_params; j++)
            if (strcmp(g->kernels[i].template_params[j], name) == 0)
                return true;
    }
    return false;
}

void kd_geometry_free(kd_file_geometry *g)
{
    for (size_t i = 0; i < g->count; i++) {
        kd_kernel_geometry *k = &g->kernels[i];
        for (size_t j = 0; j < k->nparams; j++)
            free(k->params[j]);
        for (size_t j = 0; j < k->ntemplate_params; j++)
            free(k->template_params[j]);
        for (size_t j = 0; j < k->nextents; j++) {
            free(k->extents[j].param);
            free(k->extents[j].count);
            free(k->extents[j].indexing);
        }
        free(k->params);
        free(k->template_params);
        free(k->extents);
        free(k->name);
        free(k->shared_name);
        free(k->shared_type);
        free(k->block_reason);
        free(k->launch_bounds);
        for (int a = 0; a < 2; a++) {
            free(k->reach[a]);
            free(k->reach_step[a]);
            free(k->implied[a]);
        }
        free(k->reassigned);
        for (size_t j = 0; j < k->nrow_strides; j++) {
            free(k->row_strides[j]);
            free(k->row_indexing[j]);
        }
        free(k->row_strides);
        free(k->row_length);
        free(k->row_indexing);
    }
    free(g->kernels);
    *g = (kd_file_geometry){0};
}

void kd_geometry_merge(kd_file_geometry *into, kd_file_geometry *from)
{
    kd_file_geometry left = {0};
    for (size_t i = 0; i < from->count; i++) {
        kd_file_geometry *to = kd_geometry_find(into, from->kernels[i].name) ? &left : into;
        to->kernels = kd_xreallocarray(to->kernels, to->count + 1, sizeof *to->kernels);
        to->kernels[to->count++] = from->kernels[i];
    }
    free(from->kernels);
    *from = (kd_file_geometry){0};
    kd_geometry_free(&left);
}
