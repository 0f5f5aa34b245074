#include "diff/gate.h"

#include <stdio.h>
#include <string.h>

void kd_gate_evaluate(const kd_timing *t, bool timed, double limit_pct, kd_gate *out)
{
    memset(out, 0, sizeof *out);
    out->requested = true;
    out->limit_pct = limit_pct;
    if (!timed || t->speedup.hi <= 0) {
        snprintf(out->text, sizeof out->text,
                 "gate --fail-if-slower %g%%: NOT EVALUATED, nothing was measured (no GPU?)", limit_pct);
        return;
    }
    out->evaluated = true;
    out->slowdown = 1 / t->speedup.ratio;
    out->slowdown_low = 1 / t->speedup.hi;
    out->failed = out->slowdown_low > 1 + limit_pct / 100;
    snprintf(out->text, sizeof out->text,
             "gate --fail-if-slower %g%%: %s (v2 takes %+.2f%% time, 95%% CI at least %+.2f%%)", limit_pct,
             out->failed ? "FAILED" : "passed", 100 * (out->slowdown - 1), 100 * (out->slowdown_low - 1));
}
