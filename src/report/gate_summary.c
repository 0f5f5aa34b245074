#include "report/gate_summary.h"

#include "report/gate_text.h"
#include "report/model_text.h"

bool kd_gate_asked(const kd_comparison *c)
{
    return c->gate.requested || c->gate.match_required;
}

bool kd_gate_summary(const kd_comparison *c, kd_strbuf *out)
{
    const kd_gate *g = &c->gate;
    bool bad = false;
    if (g->requested && g->evaluated) {
        kd_gate_line(g, out);
        bad |= g->failed;
    }
    if (g->match_required && g->match_evaluated) {
        bool differ = g->outputs == KD_OUTPUTS_DIFFER;
        if (out->len)
            kd_sb_puts(out, "\n");
        kd_sb_puts(out, differ ? "gate --require-match: FAILED, the outputs differ between v1 and v2"
                               : "gate --require-match: passed, the outputs match");
        bad |= differ;
    }
    kd_strbuf not_judged = {0};
    kd_gate_not_evaluated_text(c, &not_judged);
    if (not_judged.len) {
        if (out->len)
            kd_sb_puts(out, "\n");
        kd_sb_puts(out, kd_sb_str(&not_judged));
        bad = true;
    }
    kd_sb_free(&not_judged);
    return bad;
}
