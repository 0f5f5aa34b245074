#include "report/gate_text.h"

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
    /* Timed, so only --require-match is left: the outputs were not compared. */
    kd_sb_puts(out, c->timing.from_saved ? "no outputs were compared: a saved run did not compare its outputs (it "
                                           "ran with --no-check, or its check failed)"
                                         : "no outputs were compared: the correctness check was off (--no-check)");
}
