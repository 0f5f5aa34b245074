/* The terminal report of kerndiff rank (report/rank_report.h), and the sentences shared with
 * Markdown and HTML. */
#include "report/rank_report.h"

#include <stdlib.h>
#include <string.h>

#include "report/untrusted.h"

void kd_rank_format_speedup(const kd_speedup *s, char *buf, size_t n)
{
    if (s->ratio > 0)
        snprintf(buf, n, "%.3fx", s->ratio);
    else
        snprintf(buf, n, "-");
}

void kd_rank_format_interval(const kd_speedup *s, char *buf, size_t n)
{
    if (s->ratio > 0)
        snprintf(buf, n, "[%.3f, %.3f]", s->lo, s->hi);
    else
        snprintf(buf, n, "-");
}

void kd_rank_format_static(const kd_rank_static *s, char regs[16], char spills[24], char occ[16])
{
    if (s->registers >= 0)
        snprintf(regs, 16, "%d", s->registers);
    else
        snprintf(regs, 16, "-");
    if (s->spill_bytes >= 0)
        snprintf(spills, 24, "%ld B", s->spill_bytes);
    else
        snprintf(spills, 24, "-");
    if (s->occupancy >= 0 && s->occupancy <= 1)
        snprintf(occ, 16, "%.0f%%", 100 * s->occupancy);
    else if (s->occupancy > 1) /* a fraction of the SM's warps: 99 is no occupancy (a shard's percent), never "9900%" */
        snprintf(occ, 16, "?");
    else
        snprintf(occ, 16, "-");
}

void kd_rank_format_pair(const kd_rank_result *r, const kd_rank_pair *p, char *buf, size_t n)
{
    const char *a = r->rows[p->a].entry->name, *b = r->rows[p->b].entry->name;
    if (p->verdict == KD_VERDICT_NO_DIFFERENCE)
        snprintf(buf, n, "%s vs %s: no significant difference", a, b);
    else
        snprintf(buf, n, "%s vs %s: %s is faster", a, b, p->verdict == KD_VERDICT_FASTER ? a : b);
}

/* A confidence level in percent with the digits that tell it from 100% and from the
 * family-wise level: 99.999 for 1,000 candidates at 99%, never "100". */
static void format_level(double level, char *buf, size_t n)
{
    double pct = 100 * level;
    for (int digits = 4; digits <= 15; digits++) {
        snprintf(buf, n, "%.*g", digits, pct);
        if (pct >= 100 || strtod(buf, NULL) < 100)
            return;
    }
}

void kd_rank_format_header(const kd_rank_result *r, char *buf, size_t n)
{
    char family[32], each[32];
    format_level(r->opts.confidence, family, sizeof family);
    format_level(r->corrected_confidence, each, sizeof each);
    snprintf(buf, n,
             "%zu candidate%s against %s; %zu timed; intervals Bonferroni-corrected for %zu candidates (%s%% "
             "family-wise, %s%% each); seed %llu, %u heat%s, %zu samples",
             r->count, r->count == 1 ? "" : "s", r->baseline, r->timed, r->family, family, each,
             (unsigned long long)r->seed, r->heats, r->heats == 1 ? "" : "s", r->samples);
}

static const char *status_color(kd_rank_status s)
{
    switch (s) {
    case KD_RANK_FASTER: return "\033[32m";
    case KD_RANK_SLOWER: return "\033[31m";
    case KD_RANK_SAME: case KD_RANK_DROPPED: return "";
    default: return "\033[33m";
    }
}

void kd_rank_render_terminal(FILE *out, const kd_rank_result *r, bool color)
{
    kd_untrusted u = {0};
    char header[512];
    kd_rank_format_header(r, header, sizeof header);
    fprintf(out, "kerndiff rank: %s\n", kd_untrusted_text(&u, header));
    char regs[16], spills[24], occ[16];
    kd_rank_format_static(&r->base_stat, regs, spills, occ);
    fprintf(out, "baseline %s: registers %s, spills %s, occupancy %s\n", kd_untrusted_name(&u, r->baseline), regs, spills, occ);
    if (r->timed) {
        double bound = r->calib.known ? kd_binomial_upper_bound(r->calib.aa_false, r->calib.aa_runs, 0.95) : -1.0;
        if (bound >= 0)
            fprintf(out, "verdicts calibrated: %ld false in %ld A/A runs (<= %.1f%% at 95%%); each candidate's "
                         "detectable change is in the JSON\n", r->calib.aa_false, r->calib.aa_runs, 100.0 * bound);
        else
            fprintf(out, "verdict calibration unknown (no valid A/A record)\n");
        fprintf(out, "\n  %3s  %-24s %-9s %9s  %-18s %5s %9s %6s %8s\n", "#", "candidate", "status", "speedup",
                "interval", "regs", "spills", "occ", "samples");
        for (size_t i = 0; i < r->timed; i++) {
            const kd_rank_row *row = &r->rows[i];
            char sp[32], ci[48];
            kd_rank_format_speedup(&row->speedup, sp, sizeof sp);
            kd_rank_format_interval(&row->speedup, ci, sizeof ci);
            kd_rank_format_static(&row->entry->stat, regs, spills, occ);
            fprintf(out, "  %3zu  %-24s %s%-9s%s %9s  %-18s %5s %9s %6s %8zu\n", i + 1,
                    kd_untrusted_name(&u, row->entry->name), color ? status_color(row->status) : "",
                    kd_rank_status_name(row->status), color ? "\033[0m" : "", sp, ci, regs, spills, occ, row->samples);
            for (size_t g = 0; row->ngpus > 1 && g < row->ngpus; g++) {
                kd_rank_format_speedup(&row->gpus[g].speedup, sp, sizeof sp);
                kd_rank_format_interval(&row->gpus[g].speedup, ci, sizeof ci);
                fprintf(out, "  %3s    on GPU %-16d %-9s %9s  %s\n", "", row->gpus[g].gpu, "", sp, ci);
            }
        }
    }
    if (r->npairs) {
        fprintf(out, "\ntop %zu, pairwise (intervals that do not overlap differ):\n", r->opts.top);
        for (size_t i = 0; i < r->npairs; i++) {
            char line[256];
            kd_rank_format_pair(r, &r->pairs[i], line, sizeof line);
            fprintf(out, "  %s\n", kd_untrusted_text(&u, line));
        }
    }
    if (r->timed < r->count) {
        fprintf(out, "\nnot timed:\n");
        for (size_t i = r->timed; i < r->count; i++) {
            const kd_rank_row *row = &r->rows[i];
            fprintf(out, "  %-24s %s%-12s%s %s\n", kd_untrusted_name(&u, row->entry->name),
                    color ? status_color(row->status) : "", kd_rank_status_name(row->status), color ? "\033[0m" : "",
                    kd_untrusted_name(&u, row->entry->reason ? row->entry->reason : ""));
        }
    }
    kd_untrusted_free(&u);
}

void kd_rank_say_error(const kd_rank_error *e)
{
    kd_untrusted u = {0};
    const char *d = kd_untrusted_name(&u, e->detail);
    switch (e->kind) {
    case KD_RANK_ERR_NONE: break;
    case KD_RANK_ERR_NO_CANDIDATES:
        fprintf(stderr, "kerndiff rank: the folder '%s' holds no kernel file (.cu, .py, .ptx, .cubin): give candidate "
                        "files or a folder of them\n", d);
        break;
    case KD_RANK_ERR_SYMLINK:
        fprintf(stderr, "kerndiff rank: the candidate '%s' is a symbolic link: it is not ranked, so that a link "
                        "planted in a folder of candidates cannot make kerndiff read another file; give the file "
                        "itself, or --follow-links to rank the files links point to\n", d);
        break;
    case KD_RANK_ERR_BASELINE:
        fprintf(stderr, "kerndiff rank: the baseline cannot be used (see above): no candidate can be judged against "
                        "it; fix it, or give another baseline\n");
        break;
    case KD_RANK_ERR_MIXED_GPUS:
        fprintf(stderr, "kerndiff rank: the GPUs asked are of different models, %s: give --gpus of one model, or "
                        "--mixed-gpus to rank on them anyway (each ratio is still made on one GPU)\n", d);
        break;
    }
    kd_untrusted_free(&u);
}

void kd_rank_say_heat_not_written(const char *path, int err)
{
    kd_untrusted u = {0};
    fprintf(stderr, "kerndiff rank: cannot write the heat's result to '%s': %s (check that the folder exists and is "
                    "writable)\n", kd_untrusted_name(&u, path), strerror(err));
    kd_untrusted_free(&u);
}

void kd_rank_say_usage(const char *why)
{
    fprintf(stderr, "kerndiff rank: %s\nusage: kerndiff rank [options] BASE CAND... (files or folders of them); "
                    "kerndiff rank --merge DIR\n", why);
}
