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

void kd_kernels_needs(const kd_comparison *c, kd_launch_needs_line *line)
{
    for (size_t i = 0; i < c->kernel_count; i++)
        kd_launch_needs_add(line, c->kernels[i].side[0].kernel, &c->kernels[i].side[0].launch,
                            &c->kernels[i].side[1].launch);
}

void kd_kernels_needs_clause(const kd_launch_needs_line *line, kd_strbuf *out)
{
    if (!line->names.len)
        return;
    if (line->differ) {
        kd_sb_puts(out, ", and the values the chosen kernel's launch needs: ");
        kd_sb_untrusted(out, kd_sb_str(&line->each));
    } else {
        kd_sb_puts(out, ", and ");
        kd_sb_untrusted(out, kd_sb_str(&line->flags));
    }
    kd_sb_puts(out, " (no value given or in the file for ");
    kd_sb_untrusted(out, kd_sb_str(&line->names));
    kd_sb_puts(out, ")");
}

bool kd_kernels_timing_text(const kd_comparison *c, kd_strbuf *out)
{
    if (!c->kernel_count || !c->kernels_untimed)
        return false;
    kd_sb_puts(out, "timing needs one kernel: --fn NAME (");
    names(out, c);
    kd_sb_puts(out, ")");
    /* what the chosen kernel's launch will still refuse, by the launch's own rule */
    kd_launch_needs_line needs = {0};
    kd_kernels_needs(c, &needs);
    kd_kernels_needs_clause(&needs, out);
    kd_launch_needs_line_free(&needs);
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
