#include "report/gate_text.h"

#include "report/model_text.h"
#include "report/note_text.h"

void kd_gate_not_evaluated_text(const kd_comparison *c, kd_strbuf *out)
{
    const kd_gate *g = &c->gate;
    bool slower = g->requested && !g->evaluated, match = g->match_required && !g->match_evaluated;
    if (!slower && !match)
        return;
    kd_sb_puts(out, "gate ");
    if (slower)
        kd_sb_printf(out, "--fail-if-slower %g%%", g->limit_pct);
    kd_sb_printf(out, "%s%s: NOT EVALUATED, ", slower && match ? ", " : "", match ? "--require-match" : "");
    if (!c->timed) {
        kd_sb_puts(out, slower && match ? "nothing was measured and no outputs were compared"
                        : slower        ? "nothing was measured"
                                        : "no outputs were compared");
        kd_strbuf why = {0};
        if (kd_note_text(&c->runtime_note, &why))
            kd_sb_printf(out, ": %s", kd_sb_str(&why));
        kd_sb_free(&why);
        return;
    }
    /* Timed: --fail-if-slower is left unjudged only for two separate saved runs whose
     * interval cannot carry the spread between processes (issue 42 item 3). */
    if (slower)
        kd_sb_printf(out, "two separate runs and no measured spread between processes in the calibration record: "
                          "the interval cannot carry it%s",
                     match ? "; " : "");
    if (!match)
        return;
    kd_sb_puts(out, c->timing.from_saved ? "no outputs were compared: a saved run did not compare its outputs (it "
                                           "ran with --no-check, or its check failed)"
                                         : "no outputs were compared: the correctness check was off (--no-check)");
}

void kd_gate_failure_text(const kd_comparison *c, kd_strbuf *out)
{
    switch (c->gate.result) {
    case KD_GATE_PASSED: return;
    case KD_GATE_NOT_MEASURED: kd_gate_not_evaluated_text(c, out); return;
    case KD_GATE_SLOWER: case KD_GATE_OUTPUTS_DIFFER: kd_gate_reason(&c->gate, out); return;
    }
}

void kd_app_gate_failure_text(const kd_app_comparison *c, kd_strbuf *out)
{
    if (c->gate == KD_APP_GATE_SLOWER)
        kd_sb_printf(out, "v2's GPU kernel time is more than %g%% above v1's (--fail-if-slower)", c->fail_if_slower_pct);
}
