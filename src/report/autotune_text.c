#include "report/autotune_text.h"

#include <math.h>
#include <stdio.h>

#include "measure/timing.h"
#include "report/note_text.h"

/* Why the configs were not all timed; false when they were. */
static bool untimed_text(const kd_autotune *t, kd_strbuf *out)
{
    switch (t->untimed) {
    case KD_UNTIMED_NONE:
        return false;
    case KD_UNTIMED_NO_AUTOTUNE:
        kd_sb_puts(out, "--no-autotune");
        break;
    case KD_UNTIMED_NOTHING_TIMED:
        kd_sb_puts(out, "nothing could be timed (");
        kd_note_text(&t->untimed_note, out);
        kd_sb_puts(out, ")");
        break;
    case KD_UNTIMED_NO_HARNESS:
        kd_sb_puts(out, t->untimed_detail ? t->untimed_detail : "");
        break;
    case KD_UNTIMED_LAUNCH_FAILED:
        kd_sb_printf(out, "config %zu could not run: cannot launch it: %s", t->untimed_config + 1,
                     t->untimed_detail ? t->untimed_detail : "");
        break;
    case KD_UNTIMED_TIMING_FAILED:
        kd_sb_printf(out, "config %zu could not run: %s", t->untimed_config + 1,
                     t->untimed_detail ? t->untimed_detail : "");
        break;
    case KD_UNTIMED_NONE_RAN:
        kd_sb_puts(out, "no config could run");
        break;
    }
    return true;
}

bool kd_autotune_text(const kd_autotune *t, kd_strbuf *out)
{
    if (!t->count || !t->decided || t->chosen >= t->count)
        return false;
    kd_sb_printf(out, "autotune: config %zu of %zu (%s) ", t->chosen + 1, t->count, t->configs[t->chosen]);
    if (t->how == KD_TUNE_GIVEN) {
        kd_sb_puts(out, "used, the one the values given (--arg, --call, annotations) select");
    } else if (t->how == KD_TUNE_FIRST || !t->median_ns) {
        kd_sb_puts(out, "used, the first: ");
        untimed_text(t, out);
    } else {
        char text[32];
        kd_format_ns(t->median_ns[t->chosen], text, sizeof text);
        kd_sb_printf(out, "was fastest, %s vs ", text);
        int others = 0;
        for (size_t i = 0; i < t->count; i++) {
            if (i == t->chosen)
                continue;
            if (isnan(t->median_ns[i]))
                snprintf(text, sizeof text, "(did not run)");
            else
                kd_format_ns(t->median_ns[i], text, sizeof text);
            kd_sb_printf(out, "%s%s", others++ ? "/" : "", text);
        }
        kd_sb_puts(out, " (each timed briefly alone; --arg of its meta-parameters picks one)");
        if (t->untimed != KD_UNTIMED_NONE) {
            kd_sb_puts(out, "; ");
            untimed_text(t, out);
        }
    }
    return true;
}
