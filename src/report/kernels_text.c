#include "report/kernels_text.h"

#include "launch/spec.h"
#include "report/untrusted.h"

/* names quoted from the user's files: escaped as every renderer needs (report/untrusted.h) */
static void names(kd_strbuf *out, const kd_comparison *c)
{
    for (size_t i = 0; i < c->kernel_count; i++) {
        kd_sb_puts(out, i ? ", " : "");
        kd_sb_untrusted(out, c->kernels[i].side[0].kernel);
    }
}

void kd_kernels_needs(const kd_comparison *c, kd_strbuf *names)
{
    for (size_t i = 0; i < c->kernel_count; i++)
        for (int s = 0; s < 2; s++)
            kd_launch_needs_collect(&c->kernels[i].side[s].launch, names);
}

void kd_kernels_needs_clause(const char *flags, const char *names, kd_strbuf *out)
{
    kd_sb_printf(out, ", and %s (no value given or in the file for %s)", flags, names);
}

bool kd_kernels_timing_text(const kd_comparison *c, kd_strbuf *out)
{
    if (!c->kernel_count || !c->kernels_untimed)
        return false;
    kd_sb_puts(out, "timing needs one kernel: --fn NAME (");
    names(out, c);
    kd_sb_puts(out, ")");
    /* what the chosen kernel's launch will still refuse, by the launch's own rule */
    kd_strbuf needs = {0}, flags = {0};
    kd_kernels_needs(c, &needs);
    if (needs.len) {
        kd_launch_needs_flags(kd_sb_str(&needs), &flags);
        kd_strbuf safe = {0};
        kd_sb_untrusted(&safe, kd_sb_str(&needs));
        kd_strbuf safe_flags = {0};
        kd_sb_untrusted(&safe_flags, kd_sb_str(&flags));
        kd_kernels_needs_clause(kd_sb_str(&safe_flags), kd_sb_str(&safe), out);
        kd_sb_free(&safe);
        kd_sb_free(&safe_flags);
    }
    kd_sb_free(&needs);
    kd_sb_free(&flags);
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
