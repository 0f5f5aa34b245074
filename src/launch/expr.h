/* expr.h — the small arithmetic language of launch settings: `ceil(n/256)`, `n*n`,
 * `1<<24`, `16M`, `(n+255)/256`, `min(n, 65535)`.
 *
 * Integers as C computes them (`/` truncates, `%`, `<<`, `>>`, `+ - *`, unary minus,
 * parentheses), with three exceptions that make launch geometry pleasant to write:
 *   - inside ceil(...) and floor(...), `/` is exact division, so ceil(n/256) rounds up;
 *   - cdiv(a, b) is ceil(a/b); min(a, b), max(a, b);
 *   - a literal may end in K, M or G (powers of 1024: 16M = 16777216) or be written
 *     with an exponent (1e6). Names are looked up in `vars`. */
#ifndef KD_LAUNCH_EXPR_H
#define KD_LAUNCH_EXPR_H

#include <stddef.h>

typedef struct kd_var {
    const char *name;
    double value;
} kd_var;

typedef struct kd_vars {
    const kd_var *items;
    size_t count;
} kd_vars;

/* Evaluates text. Returns 0 and *out, or -1 with a one-line reason in err (errlen bytes):
 * syntax error at position, unknown name (listing the known ones), division by zero. */
int kd_expr_eval(const char *text, const kd_vars *vars, double *out, char *err, size_t errlen);

/* A positive whole count: "16M", "1<<24", "4096", "1e6" (no names). Returns 0, or -1 with
 * err filled when the text is not such a count. */
int kd_parse_count(const char *text, unsigned long long *out, char *err, size_t errlen);

#endif
