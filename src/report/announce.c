#include "report/announce.h"

#include "report/model_text.h"
#include "util/strbuf.h"
#include "util/progress.h"

void kd_announce_verdict(const kd_comparison *c)
{
    kd_strbuf headline = {0};
    kd_timing_headline(&c->timing, &headline);
    kd_announce("%s", kd_sb_str(&headline));
    kd_sb_free(&headline);
}
