#include "report/sanitizer_text.h"

#include "report/untrusted.h"

void kd_sanitizer_heading(const kd_comparison *c, kd_strbuf *out)
{
    kd_sb_puts(out, "compute-sanitizer (");
    const char *sep = "";
    for (int t = 0; t < KD_SAN_TOOLS; t++)
        if (c->sanitize_tools & (1u << t)) {
            kd_sb_printf(out, "%s%s", sep, kd_san_tool_name((kd_san_tool)t));
            sep = ", ";
        }
    kd_sb_puts(out, ")");
}

void kd_sanitizer_lines(const kd_comparison *c, void (*line)(const char *text, void *ctx), void *ctx)
{
    for (int s = 0; s < 2; s++) {
        const kd_sanitize_side *side = &c->sanitize[s];
        kd_strbuf text = {0};
        if (!kd_sanitize_findings(side)) {
            kd_sb_untrusted(&text, c->side[s].label); /* a saved document's label */
            kd_sb_puts(&text, ": clean");
            line(kd_sb_str(&text), ctx);
        }
        for (int t = 0; t < KD_SAN_TOOLS; t++)
            for (size_t i = 0; i < side->report[t].count; i++) {
                kd_sb_free(&text);
                kd_sb_untrusted(&text, c->side[s].label);
                kd_sb_printf(&text, " %s: ", kd_san_tool_name((kd_san_tool)t));
                kd_san_explain(&side->report[t].findings[i], side->buffers, side->nbuffers, &text);
                kd_untrusted_fix(&text); /* the explanation names buffers and source lines */
                line(kd_sb_str(&text), ctx);
            }
        kd_sb_free(&text);
    }
}

void kd_fault_explained_text(const kd_comparison *c, kd_strbuf *out)
{
    const kd_sanitize_side *found = &c->fault_found;
    if (c->fault_no_sanitizer) {
        kd_sb_puts(out, "install compute-sanitizer (part of the CUDA toolkit) and kerndiff will say which buffer and "
                        "element the faulting access hit");
    } else if (found->report[KD_SAN_MEMCHECK].count) {
        kd_sb_printf(out, "%s, under compute-sanitizer memcheck: ", c->side[c->fault_side].label);
        kd_san_explain(&found->report[KD_SAN_MEMCHECK].findings[0], found->buffers, found->nbuffers, out);
    }
}
