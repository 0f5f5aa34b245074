/* fuzz_expr.c — libFuzzer target for the launch-setting expression language: any text
 * must evaluate or fail with a reason, without crashing, overflowing the stack on deep
 * nesting, or tripping UBSan on the integer paths; and a success stays within ±2^53. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "launch/expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    static const kd_var items[] = {{"n", 1048576}, {"block", 256}, {"alpha", 2.5}};
    const kd_vars vars = {items, sizeof items / sizeof *items};
    double v;
    char err[160];
    if (kd_expr_eval(text, &vars, &v, err, sizeof err) == 0) {
        if (!(fabs(v) <= 9007199254740992.0))
            abort();
    } else if (err[0] == '\0') {
        abort(); /* every failure says why */
    }
    unsigned long long count;
    if (kd_parse_count(text, &count, err, sizeof err) == 0 && count == 0)
        abort();
    free(text);
    return 0;
}
