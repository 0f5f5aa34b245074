#include "report/kernels_text.h"

#include "report/untrusted.h"

/* names quoted from the user's files: escaped as every renderer needs (report/untrusted.h) */
static void names(kd_strbuf *out, const kd_comparison *c)
{
    for (size_t i = 0; i < c->kernel_count; i++) {
        kd_sb_puts(out, i ? ", " : "");
        kd_sb_untrusted(out, c->kernels[i].side[0].kernel);
    }
}

bool kd_kernels_timing_text(const kd_comparison *c, kd_strbuf *out)
{
    if (!c->kernel_count || !c->kernels_untimed)
        return false;
    kd_sb_puts(out, "timing needs one kernel: --fn NAME (");
    names(out, c);
    kd_sb_puts(out, ")");
    return true;
}

bool kd_kernels_only_text(const kd_comparison *c, int s, kd_strbuf *out)
{
    if (!c->only_count[s])
        return false;
    kd_sb_printf(out, "only in %s (not compared): ", s ? "v2" : "v1");
    for (size_t i = 0; i < c->only_count[s]; i++) {
        kd_sb_puts(out, i ? ", " : "");
        kd_sb_untrusted(out, c->only[s][i]);
    }
    return true;
}

void kd_kernels_heading(const kd_comparison *c, kd_strbuf *out)
{
    kd_sb_printf(out, "%zu kernels compared: ", c->kernel_count);
    names(out, c);
}
