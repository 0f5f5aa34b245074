#include "diff/gate.h"

#include <string.h>

kd_outputs_state kd_outputs_of(const kd_timing *t, bool timed)
{
    if (!timed || !t->checked)
        return KD_OUTPUTS_NOT_CHECKED;
    return kd_timing_incorrect(t) ? KD_OUTPUTS_DIFFER : KD_OUTPUTS_MATCH;
}

kd_gate_result kd_gate_evaluate(const kd_timing *t, bool timed, kd_outputs_state outputs,
                                const kd_gate_options *o, kd_gate *out)
{
    memset(out, 0, sizeof *out);
    out->match_required = o->require_match;
    out->match_evaluated = o->require_match && outputs != KD_OUTPUTS_NOT_CHECKED;
    out->outputs = outputs;
    if (o->fail_if_slower_pct >= 0) {
        out->requested = true;
        out->limit_pct = o->fail_if_slower_pct;
        /* A speedup's upper end of 0 means no interval was computed. Two separate runs
         * whose interval cannot carry the spread between processes are not evaluated: a
         * gate on the narrow interval would fail on a kernel that merely moved between
         * processes (issue 42 item 3). */
        out->between_unknown = timed && t->between_unknown;
        if (timed && t->speedup.hi > 0 && !t->between_unknown) {
            out->evaluated = true;
            out->slowdown = 1 / t->speedup.ratio;
            out->slowdown_low = 1 / t->speedup.hi;
            out->failed = out->slowdown_low > 1 + o->fail_if_slower_pct / 100;
        }
    }
    if (out->failed)
        out->result = KD_GATE_SLOWER;
    else if ((out->requested && !out->evaluated) || (out->match_required && !out->match_evaluated))
        out->result = KD_GATE_NOT_MEASURED;
    else if (out->match_required && outputs == KD_OUTPUTS_DIFFER)
        out->result = KD_GATE_OUTPUTS_DIFFER;
    /* Outputs that differ fail by default, before any speed gate (issue 39: a fast wrong
     * answer is the worst output there is); --allow-mismatch is the old behaviour. Unlike
     * --require-match, outputs that were never compared (no GPU) do not fail it. */
    if (!o->allow_mismatch && outputs == KD_OUTPUTS_DIFFER)
        out->result = KD_GATE_OUTPUTS_DIFFER;
    return out->result;
}
