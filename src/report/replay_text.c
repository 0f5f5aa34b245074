/* The words of a replayed launch (report/replay_text.h). */
#include "report/replay_text.h"

#include <time.h>

#include "report/untrusted.h"

void kd_replay_origin_text(const kd_comparison *c, kd_strbuf *out)
{
    const kd_replay *r = c->replay.capture;
    if (!r)
        return;
    const kd_capture *cap = &r->cap;
    kd_strbuf text = {0};
    kd_sb_printf(&text, "launch %llu of %s", (unsigned long long)cap->nth, cap->demangled);
    if (cap->api && *cap->api)
        kd_sb_printf(&text, " (%s)", cap->api);
    kd_sb_puts(&text, " in `");
    for (size_t i = 0; i < cap->argc; i++)
        kd_sb_printf(&text, "%s%s", i ? " " : "", cap->argv[i]);
    char when[32] = "an unknown time";
    time_t t = (time_t)cap->time;
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
    kd_sb_printf(&text, "`, captured %s on %s, %llu B of data (%s)", when, cap->gpu,
                 (unsigned long long)r->data_bytes, c->replay.path ? c->replay.path : "");
    if (cap->cluster[0] || cap->cluster[1] || cap->cluster[2]) /* the harness launches without one */
        kd_sb_printf(&text, "; its cluster %ux%ux%u is not replayed (launched without clusters)", cap->cluster[0],
                     cap->cluster[1], cap->cluster[2]);
    kd_sb_untrusted(out, kd_sb_str(&text)); /* the program's words */
    kd_sb_free(&text);
}

static void value(kd_strbuf *out, double v)
{
    if (v == (double)(long long)v)
        kd_sb_printf(out, "%lld", (long long)v);
    else
        kd_sb_printf(out, "%.9g", v);
}

void kd_replay_result_text(const kd_comparison *c, kd_strbuf *out, bool *all_same)
{
    *all_same = true;
    const kd_replay *r = c->replay.capture;
    if (!r)
        return;
    size_t changed = 0;
    for (size_t j = 0; j < r->nbuffers; j++)
        changed += r->buffers[j].changed;
    static const char *const label[2] = {"v1", "v2"};
    for (int s = 0; s < 2; s++) {
        if (!c->replay.checked[s])
            continue;
        const kd_replay_match *m = &c->replay.match[s];
        if (out->len)
            kd_sb_puts(out, "\n");
        if (!m->compared) {
            kd_sb_printf(out, "%s: nothing to compare with the program's result (its kernel changed no allocation)",
                         label[s]);
        } else if (m->same) {
            kd_sb_printf(out, "%s still computes what the program computed (%zu buffer%s, bit for bit)", label[s],
                         changed, changed == 1 ? "" : "s");
        } else {
            *all_same = false;
            const kd_launch_spec *spec = &c->side[s].launch;
            const char *name = m->buffer < spec->nargs ? spec->args[m->buffer].name : r->buffers[m->buffer].name;
            kd_sb_printf(out, "%s differs from the program's result at ", label[s]);
            kd_sb_untrusted(out, name);
            kd_sb_printf(out, "[%llu] (%s ", m->element, label[s]);
            value(out, m->got);
            kd_sb_puts(out, ", program ");
            value(out, m->want);
            kd_sb_puts(out, ")");
        }
    }
    if (c->replay.problem) {
        *all_same = false;
        if (out->len)
            kd_sb_puts(out, "\n");
        kd_sb_puts(out, "not compared with the program's result: ");
        kd_sb_untrusted(out, c->replay.problem);
    }
}
