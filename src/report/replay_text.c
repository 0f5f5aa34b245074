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
    if (c->replay.caller) /* found by kerndiff (issue 45 item 1): the caller named first */
        kd_sb_printf(&text, "launch taken from %s, its %llu%s launch (found by kerndiff); ", c->replay.caller,
                     (unsigned long long)cap->nth,
                     cap->nth % 100 >= 11 && cap->nth % 100 <= 13 ? "th"
                     : cap->nth % 10 == 1                         ? "st"
                     : cap->nth % 10 == 2                         ? "nd"
                     : cap->nth % 10 == 3                         ? "rd"
                                                                  : "th");
    kd_sb_printf(&text, "launch %llu of %s", (unsigned long long)cap->nth, cap->demangled);
    if (cap->api && *cap->api)
        kd_sb_printf(&text, " (%s)", cap->api);
    kd_sb_puts(&text, ", program:");
    for (size_t i = 0; i < cap->argc; i++)
        kd_sb_printf(&text, " %s", cap->argv[i]);
    char when[32] = "an unknown time";
    time_t t = (time_t)cap->time;
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
    kd_sb_printf(&text, "; captured %s on %s, %llu B of data (%s)", when, cap->gpu,
                 (unsigned long long)r->data_bytes, c->replay.path ? c->replay.path : "");
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

/* Line k (0: v1, 1: v2, 2: why they could not be compared) into out; false when it says a
 * difference or a failure. Nothing appended when there is no such line. */
static bool result_line(const kd_comparison *c, int k, kd_strbuf *out)
{
    const kd_replay *r = c->replay.capture;
    static const char *const label[2] = {"v1", "v2"};
    if (k == 2) {
        if (!c->replay.problem)
            return true;
        kd_sb_puts(out, "not compared with the program's result: ");
        kd_sb_untrusted(out, c->replay.problem);
        return false;
    }
    if (!c->replay.checked[k])
        return true;
    const kd_replay_match *m = &c->replay.match[k];
    size_t changed = 0;
    for (size_t j = 0; j < r->nbuffers; j++)
        changed += r->buffers[j].changed;
    if (!m->compared) {
        kd_sb_printf(out, "%s: nothing to compare with the program's result (its kernel changed no allocation)",
                     label[k]);
        return true;
    }
    if (m->same) {
        kd_sb_printf(out, "%s still computes what the program computed (%zu buffer%s, bit for bit)", label[k], changed,
                     changed == 1 ? "" : "s");
        return true;
    }
    const kd_launch_spec *spec = &c->side[k].launch;
    const char *name = m->buffer < spec->nargs ? spec->args[m->buffer].name : r->buffers[m->buffer].name;
    kd_sb_printf(out, "%s differs from the program's result at ", label[k]);
    kd_sb_untrusted(out, name);
    kd_sb_printf(out, "[%llu] (%s ", m->element, label[k]);
    value(out, m->got);
    kd_sb_puts(out, ", program ");
    value(out, m->want);
    kd_sb_puts(out, ")");
    return false;
}

void kd_replay_result_lines(const kd_comparison *c, kd_replay_line_fn emit, void *ctx)
{
    if (!c->replay.capture)
        return;
    for (int k = 0; k < 3; k++) {
        kd_strbuf line = {0};
        bool good = result_line(c, k, &line);
        if (line.len)
            emit(kd_sb_str(&line), good, ctx);
        kd_sb_free(&line);
    }
}

typedef struct joined {
    kd_strbuf *out;
    bool *all_same;
} joined;

static void join_line(const char *line, bool good, void *ctx)
{
    joined *j = ctx;
    if (j->out->len)
        kd_sb_puts(j->out, "\n");
    kd_sb_puts(j->out, line);
    *j->all_same &= good;
}

void kd_replay_result_text(const kd_comparison *c, kd_strbuf *out, bool *all_same)
{
    *all_same = true;
    joined j = {out, all_same};
    kd_replay_result_lines(c, join_line, &j);
}
