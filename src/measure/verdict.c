#include "measure/verdict.h"

#include <string.h>

int kd_decide(const kd_sample_set sides[2], const kd_verdict_options *o, kd_decision *out)
{
    memset(out, 0, sizeof *out);
    out->verdict = KD_VERDICT_NO_DIFFERENCE;
    kd_speedup_request rq = {
        .side = {sides[0], sides[1]},
        .confidence = KD_SPEEDUP_CONFIDENCE,
        .resamples = o->resamples > 0 ? o->resamples : KD_FINAL_RESAMPLES,
        .seed = o->seed,
        .independent = o->independent,
    };
    if (kd_speedup_ci_rounds(&rq, &out->speedup) != 0) {
        memset(&out->speedup, 0, sizeof out->speedup);
        return -1;
    }
    out->verdict = kd_verdict_with_floor(&out->speedup, o->min_effect_pct);
    return 0;
}
