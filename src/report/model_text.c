#include "report/model_text.h"

#include <stdio.h>

#include "report/timing_text.h"

/* Which side a failed audit or check blames: the side that left an audit's outputs as they
 * were, else v2 (v1 is the reference). */
static const char *wrong_side(const kd_timing *t)
{
    const kd_audit *au = &t->audit;
    bool values_differ = !t->noutputs || kd_timing_values_differ(t);
    if (!au->failed || values_differ)
        return "v2";
    if (au->output)
        return au->stale_side == 0 ? "v1" : "v2";
    return au->mutated_side == 0 ? "v1" : "v2";
}

/* " read back of its N" when an audit read back a sample of a large output, else "". */
static const char *read_back(const kd_audit *au, char *buf, size_t size)
{
    if (au->buffer_elements <= au->count)
        return "";
    snprintf(buf, size, " read back of its %zu", au->buffer_elements);
    return buf;
}

/* An incorrect timing's first line: what was wrong, then the times as a fact, not a verdict. */
static void incorrect_headline(const kd_timing *t, const char *a, const char *b, kd_strbuf *out)
{
    char of[48];
    const kd_audit *au = &t->audit;
    kd_sb_printf(out, "%s is INCORRECT, no speed verdict: ", wrong_side(t));
    bool values_differ = kd_timing_values_differ(t);
    if (values_differ || t->noutputs == 0)
        kd_sb_puts(out, t->noutputs == 0 ? "no output of one side pairs with the other's, nothing was compared"
                                         : "its outputs differ from v1's (below)");
    else if (!au->output && au->mutated_input)
        kd_sb_printf(out, "its untimed audit launch during the timing wrote into its input %s, which it only "
                          "reads: what the next launch (or the other side, on the same buffers) reads is no longer "
                          "the data", au->mutated_input);
    else if (au->stale_side >= 0)
        kd_sb_printf(out, "the outputs of an untimed audit launch during the timing differ from %s's (%s: %zu of %zu "
                          "elements%s, %zu left as they were before the launch): its work depends on earlier launches",
                     au->stale_side == 0 ? "v2" : "v1", au->output, au->mismatches, au->count, read_back(au, of, sizeof of),
                     au->stale);
    else
        kd_sb_printf(out, "the outputs of an untimed audit launch during the timing differ from v1's (%s: %zu of %zu "
                          "elements%s, after %zu samples a side): what the timed launches computed is not what was checked",
                     au->output ? au->output : "?", au->mismatches, au->count, read_back(au, of, sizeof of),
                     au->first_samples);
    kd_sb_printf(out, ". Timed anyway: %s -> %s", a, b);
}

void kd_timing_headline(const kd_timing *t, kd_strbuf *out)
{
    char a[32], b[32];
    kd_format_ns(t->side[0].summary.median, a, sizeof a);
    kd_format_ns(t->side[1].summary.median, b, sizeof b);
    if (kd_timing_incorrect(t)) {
        incorrect_headline(t, a, b, out);
        return;
    }
    if (kd_timing_unchecked(t)) {
        kd_sb_printf(out, "NOT CHECKED, no speed verdict: %s. Timed anyway: %s -> %s",
                     t->noutputs ? "neither side wrote any element of its outputs"
                                 : "neither side has an output buffer to compare",
                     a, b);
        return;
    }
    const kd_speedup *s = &t->speedup;
    /* A slower v2 is said as the factor it is slower by, its CI turned round with it. */
    double r = s->ratio, lo = s->lo, hi = s->hi;
    if (t->verdict == KD_VERDICT_SLOWER)
        r = 1 / s->ratio, lo = 1 / s->hi, hi = 1 / s->lo;
    int d = kd_ratio_decimals(r, lo, hi);
    switch (t->verdict) {
    case KD_VERDICT_FASTER:
    case KD_VERDICT_SLOWER:
        kd_sb_printf(out, "v2 is %.*fx %s (%s -> %s, 95%% CI %.*f-%.*fx)", d, r,
                     t->verdict == KD_VERDICT_FASTER ? "faster" : "slower", a, b, d, lo, d, hi);
        break;
    case KD_VERDICT_NO_DIFFERENCE:
        kd_sb_printf(out, "no significant difference (%s -> %s, speedup %.*fx, 95%% CI %.*f-%.*fx)", a, b, d, r, d, lo,
                     d, hi);
        if (s->lo > 1 || s->hi < 1)
            kd_sb_printf(out, "; the CI excludes 1 but stays within the %.2g%% noise floor (--min-effect)",
                         t->min_effect_pct);
        break;
    }
}

const char *kd_stop_reason_text(kd_stop_reason r)
{
    switch (r) {
    case KD_STOP_TARGET_REACHED: return "target reached";
    case KD_STOP_MAX_TIME: return "--max-time";
    case KD_STOP_MAX_RUNS: return "--max-runs";
    case KD_STOP_SAVED_SAMPLES: return "the saved samples";
    case KD_STOP_AUDIT_FAILED: return "an audit's outputs differed";
    case KD_STOP_REASON_COUNT: break;
    }
    return "?";
}

static const char *change_text(kd_change c)
{
    return c == KD_CHANGE_APPEARED ? "appeared" : c == KD_CHANGE_VANISHED ? "vanished" : "changed";
}

void kd_finding_text(const kd_finding *f, kd_strbuf *out)
{
    const double (*v)[2] = f->value;
    const char *what = change_text(f->change);
    switch (f->id) {
    case KD_FINDING_SPILLS:
        kd_sb_printf(out, "register spills %s: spill stores %.0f -> %.0f B, spill loads %.0f -> %.0f B (ptxas)", what,
                     v[0][0], v[0][1], v[1][0], v[1][1]);
        break;
    case KD_FINDING_LOADS_128:
        kd_sb_printf(out, "128-bit global loads %s: LDG .128 %.0f -> %.0f of %.0f -> %.0f LDG (SASS)", what, v[0][0],
                     v[0][1], v[1][0], v[1][1]);
        break;
    case KD_FINDING_STORES_128:
        kd_sb_printf(out, "128-bit global stores %s: STG .128 %.0f -> %.0f of %.0f -> %.0f STG (SASS)", what, v[0][0],
                     v[0][1], v[1][0], v[1][1]);
        break;
    case KD_FINDING_BARRIERS:
        kd_sb_printf(out, "barriers %s: BAR %.0f -> %.0f (SASS)", what, v[0][0], v[0][1]);
        break;
    case KD_FINDING_MEMORY_BARRIERS:
        kd_sb_printf(out, "memory barriers %s: MEMBAR %.0f -> %.0f (SASS)", what, v[0][0], v[0][1]);
        break;
    case KD_FINDING_OCCUPANCY:
        kd_sb_printf(out, "theoretical occupancy %.0f%% -> %.0f%% (%.0f -> %.0f warps/SM), limited by %s -> %s",
                     100.0 * v[0][0], 100.0 * v[0][1], v[1][0], v[1][1], kd_limiter_name(f->limiter[0]),
                     kd_limiter_name(f->limiter[1]));
        break;
    case KD_FINDING_ID_COUNT:
        break;
    }
}

void kd_gate_line(const kd_gate *g, kd_strbuf *out)
{
    if (!g->evaluated && g->between_unknown)
        kd_sb_printf(out, "gate --fail-if-slower %g%%: NOT EVALUATED, two separate runs and no measured spread "
                          "between processes: the interval cannot carry it", g->limit_pct);
    else if (!g->evaluated)
        kd_sb_printf(out, "gate --fail-if-slower %g%%: NOT EVALUATED, nothing was measured", g->limit_pct);
    else
        kd_sb_printf(out, "gate --fail-if-slower %g%%: %s (v2 takes %+.2f%% time, 95%% CI at least %+.2f%%)",
                     g->limit_pct, g->failed ? "FAILED" : "passed", 100 * (g->slowdown - 1),
                     100 * (g->slowdown_low - 1));
}

void kd_audit_line(const kd_timing *t, kd_strbuf *out)
{
    const kd_audit *au = &t->audit;
    if (!au->done)
        return;
    if (!au->failed)
        kd_sb_printf(out, "audited: %u untimed launch%s of each side at secret points of the timing, on fresh "
                          "inputs, matched", au->done, au->done == 1 ? "" : "es");
    else if (!au->output && au->mutated_input)
        kd_sb_printf(out, "AUDIT FAILED: %s's untimed launch during the timing (round %zu) wrote into its input %s",
                     au->mutated_side == 0 ? "v1" : "v2", au->first_round + 1, au->mutated_input);
    else
        kd_sb_printf(out, "AUDIT FAILED: %u of %u untimed launches of each side during the timing gave outputs that "
                          "differ (the first in round %zu, output %s)", au->failed, au->done, au->first_round + 1,
                     au->output ? au->output : "?");
}

void kd_kernel_count_line(const kd_timing *t, kd_strbuf *out)
{
    for (int s = 0; s < 2; s++) {
        const kd_side_timing *st = &t->side[s];
        if (st->kernels_max && st->kernels_min != st->kernels_max)
            kd_sb_printf(out, "%sKERNEL COUNT CHANGED: v%d's samples ran %u to %u kernels (every stream, up to a device "
                              "sync): work that comes and goes between launches is not one computation",
                         out->len ? "\n" : "", s + 1, st->kernels_min, st->kernels_max);
    }
}

void kd_gate_reason(const kd_gate *g, kd_strbuf *out)
{
    if (g->result == KD_GATE_OUTPUTS_DIFFER)
        kd_sb_puts(out, g->match_required ? "outputs differ between v1 and v2 (--require-match)"
                                          : "outputs differ between v1 and v2 (exit 6; --allow-mismatch exits 0)");
    else
        kd_gate_line(g, out);
}
