/* expr.c — the launch-setting expression language (see expr.h).
 *
 * A recursive-descent parser that evaluates as it parses. Levels follow C precedence:
 *     shift   := sum (('<<' | '>>') sum)*
 *     sum     := product (('+' | '-') product)*
 *     product := unary (('*' | '/' | '%') unary)*
 *     unary   := ('-' | '+') unary | primary
 *     primary := number | name | name '(' args ')' | '(' shift ')'
 *
 * Values are doubles, but when both operands are whole the arithmetic is done in 64-bit
 * integers and every result is kept within ±2^53, where a double holds every integer
 * exactly; anything larger is an overflow error rather than a silently rounded geometry.
 * An operation with a fractional operand (a float scalar such as alpha=2.5) is done in
 * floating point, as C would after promotion; `%`, `<<` and `>>` refuse fractions. Values
 * carry no type, so a whole-valued double is an integer: `5/2.0` truncates like `5/2`.
 *
 * Inside ceil()/floor() one exact division of whole numbers below 2^53 rounds the right
 * way: the quotient's rounding error is smaller than its distance to the next integer.
 * Chains of fractional steps inside them are ordinary floating point. */
#include "launch/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT 9007199254740992.0 /* 2^53 */
#define LIMIT_INT ((int64_t)1 << 53)
/* Deep enough for any real setting, shallow enough that "((((..." cannot exhaust the stack. */
#define MAX_DEPTH 64

typedef struct parser {
    const char *text;
    const char *p;
    const kd_vars *vars;
    char *err;
    size_t errlen;
    int depth;
    bool exact_division; /* inside ceil()/floor(): `/` does not truncate */
} parser;

static int parse_shift(parser *ps, double *out);

__attribute__((format(printf, 3, 4)))
static int fail(parser *ps, const char *at, const char *fmt, ...)
{
    if (!ps->err || ps->errlen == 0)
        return -1;
    int n = snprintf(ps->err, ps->errlen, "at position %zu: ", (size_t)(at - ps->text) + 1);
    if (n >= 0 && (size_t)n < ps->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int fail_expected(parser *ps, const char *what)
{
    if (!*ps->p)
        return fail(ps, ps->p, "expected %s but the expression ended", what);
    return fail(ps, ps->p, "expected %s but found '%c'", what, *ps->p);
}

static void skip_blanks(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t')
        ps->p++;
}

/* Consumes `token` (after blanks) if it is next. */
static bool accept(parser *ps, const char *token)
{
    skip_blanks(ps);
    size_t n = strlen(token);
    if (strncmp(ps->p, token, n) != 0)
        return false;
    ps->p += n;
    return true;
}

static bool is_whole(double v) { return v == floor(v); }

static bool is_name_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static int check_range(parser *ps, const char *at, double v, double *out)
{
    if (!(fabs(v) <= LIMIT))
        return fail(ps, at, "the value exceeds 2^53 (9007199254740992)");
    *out = v;
    return 0;
}

/* Whole results are checked before they become doubles, where 2^53 + 1 would round to 2^53. */
static int check_whole_range(parser *ps, const char *at, int64_t v, double *out)
{
    if (llabs(v) > LIMIT_INT)
        return fail(ps, at, "the value exceeds 2^53 (9007199254740992)");
    *out = (double)v;
    return 0;
}

/* a * b for whole a and b, exact: the product is refused before it can leave ±2^53. */
static int multiply_whole(parser *ps, const char *at, int64_t a, int64_t b, double *out)
{
    if (a != 0 && llabs(b) > LIMIT_INT / llabs(a))
        return fail(ps, at, "the value exceeds 2^53 (9007199254740992)");
    *out = (double)(a * b);
    return 0;
}

/* Ceiling of a / b for whole a and b (b != 0), without going through a rounded quotient. */
static int64_t ceil_div_whole(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) == (b < 0)) ? q + 1 : q;
}

/* a >> count as an arithmetic shift, spelt so that it is defined for negative a too. */
static int64_t shift_right(int64_t a, int64_t count)
{
    return a >= 0 ? a >> count : -((-a - 1) >> count) - 1;
}

static int apply_shift(parser *ps, const char *at, bool left, double a, double b, double *out)
{
    if (!is_whole(a) || !is_whole(b))
        return fail(ps, at, "'%s' needs whole numbers", left ? "<<" : ">>");
    if (b < 0 || b > 63)
        return fail(ps, at, "shift count %.17g is outside 0..63", b);
    int64_t ia = (int64_t)a, count = (int64_t)b;
    if (!left) {
        *out = (double)shift_right(ia, count);
        return 0;
    }
    if (ia == 0) {
        *out = 0;
        return 0;
    }
    if (count > 53)
        return fail(ps, at, "the value exceeds 2^53 (9007199254740992)");
    return multiply_whole(ps, at, ia, (int64_t)1 << count, out);
}

static int apply_division(parser *ps, const char *at, char op, double a, double b, double *out)
{
    if (b == 0)
        return fail(ps, at, "division by zero");
    bool whole = is_whole(a) && is_whole(b);
    if (op == '%') {
        if (!whole)
            return fail(ps, at, "'%%' needs whole numbers");
        *out = (double)((int64_t)a % (int64_t)b);
        return 0;
    }
    if (whole && !ps->exact_division) {
        *out = (double)((int64_t)a / (int64_t)b);
        return 0;
    }
    return check_range(ps, at, a / b, out);
}

static int apply(parser *ps, const char *at, char op, double a, double b, double *out)
{
    if (op == '/' || op == '%')
        return apply_division(ps, at, op, a, b, out);
    bool whole = is_whole(a) && is_whole(b);
    switch (op) {
    case '+':
        return whole ? check_whole_range(ps, at, (int64_t)a + (int64_t)b, out) : check_range(ps, at, a + b, out);
    case '-':
        return whole ? check_whole_range(ps, at, (int64_t)a - (int64_t)b, out) : check_range(ps, at, a - b, out);
    default: /* '*' */
        return whole ? multiply_whole(ps, at, (int64_t)a, (int64_t)b, out) : check_range(ps, at, a * b, out);
    }
}

/* Digits with an optional fraction and exponent, then an optional K/M/G (powers of 1024).
 * The span is found here and only converted by strtod, so that strtod's extras (hex,
 * "inf", "nan") never count as numbers. */
static int parse_number(parser *ps, double *out)
{
    const char *start = ps->p, *q = start;
    while (isdigit((unsigned char)*q))
        q++;
    if (*q == '.')
        for (q++; isdigit((unsigned char)*q); q++)
            ;
    if ((*q == 'e' || *q == 'E') &&
        (isdigit((unsigned char)q[1]) || ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2]))))
        for (q += 2; isdigit((unsigned char)*q); q++)
            ;
    char *end;
    double v = strtod(start, &end);
    if (end != q)
        return fail(ps, start, "malformed number");
    static const char suffixes[] = "KMG";
    const char *suffix = *q ? strchr(suffixes, *q) : NULL;
    if (suffix) {
        v = ldexp(v, 10 * (int)(suffix - suffixes + 1));
        q++;
    }
    ps->p = q;
    return check_range(ps, start, v, out);
}

static int unknown_name(parser *ps, const char *at, size_t len)
{
    char known[256] = "";
    size_t used = 0;
    size_t count = ps->vars ? ps->vars->count : 0;
    for (size_t i = 0; i < count && used < sizeof known; i++) {
        int n = snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", ps->vars->items[i].name);
        used += n > 0 ? (size_t)n : 0;
    }
    if (count == 0)
        return fail(ps, at, "unknown name '%.*s' (no names can be used here)", (int)len, at);
    return fail(ps, at, "unknown name '%.*s' (known: %s)", (int)len, at, known);
}

static int lookup(parser *ps, const char *at, size_t len, double *out)
{
    for (size_t i = 0; ps->vars && i < ps->vars->count; i++) {
        const char *name = ps->vars->items[i].name;
        if (strlen(name) == len && memcmp(name, at, len) == 0) {
            *out = ps->vars->items[i].value;
            return 0;
        }
    }
    return unknown_name(ps, at, len);
}

static int wrong_arity(parser *ps, const char *name, size_t len, int want)
{
    return fail(ps, ps->p, "%.*s() takes %d argument%s", (int)len, name, want, want == 1 ? "" : "s");
}

/* Reads "(a)" or "(a, b)" after a function's name: exactly `want` arguments. */
static int parse_args(parser *ps, const char *name, size_t len, int want, double *args)
{
    const char *open = ps->p - 1;
    for (int i = 0; i < want; i++) {
        if (i > 0 && !accept(ps, ","))
            return *ps->p == ')' ? wrong_arity(ps, name, len, want) : fail_expected(ps, "','");
        if (parse_shift(ps, &args[i]) != 0)
            return -1;
    }
    if (accept(ps, ")"))
        return 0;
    if (*ps->p == ',')
        return wrong_arity(ps, name, len, want);
    return fail(ps, ps->p, "expected ')' to close the '(' at position %zu", (size_t)(open - ps->text) + 1);
}

static int call_rounding(parser *ps, const char *name, size_t len, bool up, double *out)
{
    /* Exact division holds for everything inside the call, nested calls included. */
    bool outer = ps->exact_division;
    ps->exact_division = true;
    double x;
    int rc = parse_args(ps, name, len, 1, &x);
    ps->exact_division = outer;
    if (rc != 0)
        return -1;
    *out = up ? ceil(x) : floor(x);
    return 0;
}

static int call_function(parser *ps, const char *name, size_t len, double *out)
{
    double a[2];
    if (len == 4 && memcmp(name, "ceil", 4) == 0)
        return call_rounding(ps, name, len, true, out);
    if (len == 5 && memcmp(name, "floor", 5) == 0)
        return call_rounding(ps, name, len, false, out);
    bool is_min = len == 3 && memcmp(name, "min", 3) == 0;
    bool is_max = len == 3 && memcmp(name, "max", 3) == 0;
    bool is_cdiv = len == 4 && memcmp(name, "cdiv", 4) == 0;
    if (!is_min && !is_max && !is_cdiv)
        return fail(ps, name, "unknown function '%.*s' (known: ceil, floor, cdiv, min, max)", (int)len, name);
    if (parse_args(ps, name, len, 2, a) != 0)
        return -1;
    if (is_min || is_max) {
        *out = is_min ? fmin(a[0], a[1]) : fmax(a[0], a[1]);
        return 0;
    }
    if (a[1] == 0)
        return fail(ps, name, "division by zero in cdiv()");
    if (is_whole(a[0]) && is_whole(a[1])) {
        *out = (double)ceil_div_whole((int64_t)a[0], (int64_t)a[1]);
        return 0;
    }
    return check_range(ps, name, ceil(a[0] / a[1]), out);
}

static int parse_primary(parser *ps, double *out)
{
    skip_blanks(ps);
    const char *at = ps->p;
    if (isdigit((unsigned char)*at) || (*at == '.' && isdigit((unsigned char)at[1])))
        return parse_number(ps, out);
    if (is_name_start(*at)) {
        while (is_name_char(*ps->p))
            ps->p++;
        size_t len = (size_t)(ps->p - at);
        if (accept(ps, "("))
            return call_function(ps, at, len, out);
        return lookup(ps, at, len, out);
    }
    if (accept(ps, "(")) {
        if (parse_shift(ps, out) != 0)
            return -1;
        if (accept(ps, ")"))
            return 0;
        return fail(ps, ps->p, "expected ')' to close the '(' at position %zu", (size_t)(at - ps->text) + 1);
    }
    return fail_expected(ps, "a number, a name or '('");
}

static int parse_unary(parser *ps, double *out)
{
    skip_blanks(ps);
    if (++ps->depth > MAX_DEPTH)
        return fail(ps, ps->p, "nested more than %d levels deep", MAX_DEPTH);
    int rc;
    if (accept(ps, "-")) {
        rc = parse_unary(ps, out);
        *out = -*out;
    } else if (accept(ps, "+")) {
        rc = parse_unary(ps, out);
    } else {
        rc = parse_primary(ps, out);
    }
    ps->depth--;
    return rc;
}

static int parse_product(parser *ps, double *out)
{
    if (parse_unary(ps, out) != 0)
        return -1;
    for (;;) {
        skip_blanks(ps);
        const char *at = ps->p;
        char op = *at;
        if (op != '*' && op != '/' && op != '%')
            return 0;
        ps->p++;
        double rhs;
        if (parse_unary(ps, &rhs) != 0 || apply(ps, at, op, *out, rhs, out) != 0)
            return -1;
    }
}

static int parse_sum(parser *ps, double *out)
{
    if (parse_product(ps, out) != 0)
        return -1;
    for (;;) {
        skip_blanks(ps);
        const char *at = ps->p;
        char op = *at;
        if (op != '+' && op != '-')
            return 0;
        ps->p++;
        double rhs;
        if (parse_product(ps, &rhs) != 0 || apply(ps, at, op, *out, rhs, out) != 0)
            return -1;
    }
}

static int parse_shift(parser *ps, double *out)
{
    if (parse_sum(ps, out) != 0)
        return -1;
    for (;;) {
        skip_blanks(ps);
        const char *at = ps->p;
        bool left = accept(ps, "<<");
        if (!left && !accept(ps, ">>"))
            return 0;
        double rhs;
        if (parse_sum(ps, &rhs) != 0 || apply_shift(ps, at, left, *out, rhs, out) != 0)
            return -1;
    }
}

int kd_expr_eval(const char *text, const kd_vars *vars, double *out, char *err, size_t errlen)
{
    parser ps = {.text = text, .p = text, .vars = vars, .err = err, .errlen = errlen};
    if (err && errlen)
        err[0] = '\0';
    double v;
    if (parse_shift(&ps, &v) != 0)
        return -1;
    skip_blanks(&ps);
    if (*ps.p)
        return fail(&ps, ps.p, "unexpected '%c' after a complete expression", *ps.p);
    *out = v + 0.0; /* -0 (from "-0") reads as 0 */
    return 0;
}

int kd_parse_count(const char *text, unsigned long long *out, char *err, size_t errlen)
{
    double v;
    if (kd_expr_eval(text, NULL, &v, err, errlen) != 0)
        return -1;
    if (!is_whole(v) || v < 1) {
        if (err && errlen)
            snprintf(err, errlen, "'%s' is not a positive whole number", text);
        return -1;
    }
    *out = (unsigned long long)v;
    return 0;
}
