/* html_regions.c — the Regions section of the HTML report (html_regions.h). */
#include "report/html_regions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure/timing.h"
#include "report/html_page.h"
#include "report/regions_text.h"
#include "util/xalloc.h"

/* The bars, then the table. */
static void bars_and_table(FILE *out, const kd_comparison *c, const kd_region_row *rows, size_t n)
{
    double *at = kd_xcalloc(n + 1, sizeof *at);
    const char **names = kd_xcalloc(n + 1, sizeof *names);
    double most = 1;
    for (size_t i = 0; i < n; i++) {
        at[i] = (double)i;
        names[i] = rows[i].name;
        const kd_region_stat *st[2] = {rows[i].v1, rows[i].v2};
        for (int s = 0; s < 2; s++)
            if (st[s] && st[s]->instances)
                most = fmax(most, st[s]->p90);
    }
    if (n) {
        kd_plot p = {.out = out, .width = 720, .height = 300};
        p.x = (kd_axis){.label = "region", .lo = -0.5, .hi = (double)n - 0.5, .tick_at = at, .tick_text = names, .nticks = n};
        p.y = (kd_axis){.label = "cycles per instance", .lo = 0, .hi = most * 1.15,
                        .style = KD_TICKS_SI};
        kd_html_figure_start(out);
        kd_plot_begin(&p, "chart-regions", "Cycles per instance of each region, v1 and v2");
        for (size_t i = 0; i < n; i++) {
            const kd_region_stat *st[2] = {rows[i].v1, rows[i].v2};
            for (int s = 0; s < 2; s++) {
                if (!st[s] || !st[s]->instances)
                    continue;
                double x0 = (double)i + (s ? 0.03 : -0.38), x1 = x0 + 0.35, mid = (x0 + x1) / 2;
                kd_plot_rect(&p, x0, 0, x1, st[s]->median, s ? "bar v2" : "bar v1");
                kd_plot_line(&p, mid, st[s]->p10, mid, st[s]->p90, "whisker");
            }
        }
        const char *labels[2] = {"v1", "v2"};
        kd_plot_legend(&p, labels, kd_html_side_class, 2);
        kd_plot_end(&p);
        kd_strbuf caption = {0};
        kd_region_heading(c, &caption);
        kd_sb_puts(&caption, ". Bars: medians; whiskers: p10 to p90.");
        kd_html_figure_end(out, &caption);
    }
    fputs("<table><tr><th>region</th><th>v1 cycles</th><th>v2 cycles</th><th>change</th></tr>\n", out);
    for (size_t i = 0; i < n; i++) {
        kd_strbuf a = {0}, b = {0}, change = {0};
        kd_region_cell(rows[i].v1, &a);
        kd_region_cell(rows[i].v2, &b);
        kd_region_change(&rows[i], &change);
        kd_strbuf label = {0};
        kd_region_label(&rows[i], &label);
        fputs("<tr>", out);
        kd_html_cell(out, "td", kd_sb_str(&label));
        kd_sb_free(&label);
        kd_html_cell(out, "td", kd_sb_str(&a));
        kd_html_cell(out, "td", kd_sb_str(&b));
        kd_html_cell(out, "td", kd_sb_str(&change));
        fputs("</tr>\n", out);
        kd_sb_free(&a);
        kd_sb_free(&b);
        kd_sb_free(&change);
    }
    fputs("</table>\n", out);
    kd_strbuf line = {0};
    kd_region_overhead(c, &line);
    kd_html_say(out, "p", "muted", &line);
    free(at);
    free(names);
}


/* ---- one block per side on a timeline ----------------------------------------------------- */

enum { PALETTE = 8 }; /* the page's region colours, .r0 to .r7 */

/* The block of a side that the timeline shows: of the blocks in the traced launch, the one
 * whose span (first record to last) is the median, so neither a straggler nor a block cut
 * short stands for the side. */
typedef struct shown_block {
    bool found;
    unsigned block, warps;   /* warps: the highest warp index seen in it, plus one */
    size_t blocks;           /* blocks in the trace */
    double start_ns, span_ns;
} shown_block;

typedef struct block_extent {
    double start, end;
    unsigned block;
} block_extent;

static int by_span(const void *a, const void *b)
{
    const block_extent *x = a, *y = b;
    double dx = x->end - x->start, dy = y->end - y->start;
    return dx < dy ? -1 : dx > dy ? 1 : (x->block > y->block) - (x->block < y->block);
}

static shown_block median_block(const kd_region_profile *p)
{
    shown_block shown = {0};
    unsigned last = 0;
    for (size_t i = 0; i < p->nslices; i++)
        last = p->slices[i].block > last ? p->slices[i].block : last;
    if (!p->nslices)
        return shown;
    block_extent *e = kd_xmalloc(((size_t)last + 1) * sizeof *e);
    for (unsigned b = 0; b <= last; b++)
        e[b] = (block_extent){INFINITY, -INFINITY, b};
    for (size_t i = 0; i < p->nslices; i++) {
        const kd_region_slice *s = &p->slices[i];
        e[s->block].start = fmin(e[s->block].start, s->start_ns);
        e[s->block].end = fmax(e[s->block].end, s->start_ns + s->duration_ns);
    }
    size_t n = 0;
    for (unsigned b = 0; b <= last; b++) /* blocks with no instance traced are left out */
        if (e[b].start <= e[b].end)
            e[n++] = e[b];
    qsort(e, n, sizeof *e, by_span);
    const block_extent *m = &e[(n - 1) / 2];
    shown = (shown_block){true, m->block, 0, n, m->start, m->end - m->start};
    free(e);
    for (size_t i = 0; i < p->nslices; i++)
        if (p->slices[i].block == shown.block && p->slices[i].warp >= shown.warps)
            shown.warps = p->slices[i].warp + 1;
    return shown;
}

/* The warp group each warp of the shown block recorded for ([warps], NULL: none), in one
 * pass over the slices. */
static const char **groups_of(const kd_region_profile *p, const shown_block *shown)
{
    const char **group = kd_xcalloc(shown->warps + 1, sizeof *group);
    for (size_t i = 0; i < p->nslices; i++) {
        const kd_region_slice *s = &p->slices[i];
        if (s->block == shown->block && s->warp < shown->warps && s->group && s->group <= p->ngroups)
            group[s->warp] = p->groups[s->group - 1].name;
    }
    return group;
}

/* Each region of a side, by its index in the profile, gets the colour of its row in the
 * table (rows are matched by name), so a region has one colour on both sides. */
static size_t *colours_of(const kd_region_profile *p, int side, const kd_region_row *rows, size_t n)
{
    size_t *colour = kd_xcalloc(p->count + 1, sizeof *colour);
    for (size_t i = 0; i < p->count; i++)
        for (size_t r = 0; r < n; r++)
            if ((side ? rows[r].v2 : rows[r].v1) == &p->regions[i])
                colour[i] = r % PALETTE;
    return colour;
}

static void timeline_caption(const kd_comparison *c, const shown_block shown[2], kd_strbuf *caption)
{
    kd_sb_puts(caption, "One block of each side in the last recorded launch, the one whose span is the median of the "
                        "blocks traced (");
    for (int s = 0; s < 2; s++) {
        char span[32];
        kd_format_ns(shown[s].span_ns, span, sizeof span);
        kd_sb_printf(caption, "%sv%d: block %u (%zu blocks traced), %u warps, %s", s ? "; " : "", s + 1, shown[s].block,
                     shown[s].blocks, shown[s].warps, span);
    }
    kd_sb_puts(caption, "). A row per warp and a bar per region instance, nested instances narrower; a region has the "
                        "same colour on both sides, and both sides share the time axis (cycles converted to ns with "
                        "the SM clock measured in the recorded launch from %globaltimer, or where it could not be, "
                        "the one the timing pass saw).");
    for (int s = 0; s < 2; s++)
        if (c->side[s].regions.slices_truncated)
            kd_sb_printf(caption, " v%d's trace reached its limit of instances: blocks recorded later are not in it.",
                         s + 1);
}

static void timeline_chart(FILE *out, const kd_comparison *c, const kd_region_row *rows, size_t n)
{
    shown_block shown[2];
    if (c->side[0].regions.saved) {
        kd_strbuf line = {0};
        kd_sb_puts(&line, "No timeline: saved runs keep the region table, not the instances a timeline draws "
                          "(--html at the run itself draws it).");
        kd_html_say(out, "p", "muted", &line);
        return;
    }
    for (int s = 0; s < 2; s++) {
        shown[s] = median_block(&c->side[s].regions);
        if (!shown[s].found) {
            kd_strbuf line = {0};
            kd_sb_printf(&line, "No timeline: v%d recorded no complete region instance in its last launch (or there "
                                "was no memory to index it).", s + 1);
            kd_html_say(out, "p", "muted", &line);
            return;
        }
    }
    /* Rows from the top: v1's warps, a gap, v2's warps. Row r's centre is at y = total - r - 0.5. */
    size_t total = (size_t)shown[0].warps + 1 + shown[1].warps, first_row[2] = {0, (size_t)shown[0].warps + 1};
    double *at = kd_xcalloc(total, sizeof *at);
    char (*names)[48] = kd_xcalloc(total, sizeof *names);
    const char **text = kd_xcalloc(total, sizeof *text);
    size_t *colour[2] = {colours_of(&c->side[0].regions, 0, rows, n), colours_of(&c->side[1].regions, 1, rows, n)};
    size_t ticks = 0;
    for (int s = 0; s < 2; s++) {
        const char **group = groups_of(&c->side[s].regions, &shown[s]);
        for (unsigned w = 0; w < shown[s].warps; w++) {
            at[ticks] = (double)(total - first_row[s] - w) - 0.5;
            snprintf(names[ticks], sizeof *names, "v%d warp %u%s%s", s + 1, w, group[w] ? " " : "",
                     group[w] ? group[w] : "");
            text[ticks] = names[ticks];
            ticks++;
        }
        free(group);
    }
    double row_px = total > 20 ? 14 : 24, span = fmax(shown[0].span_ns, shown[1].span_ns);
    char xlabel[96];
    size_t widest = 0;
    for (size_t t = 0; t < ticks; t++)
        widest = strlen(text[t]) > widest ? strlen(text[t]) : widest;
    kd_plot p = {.out = out, .width = 720, .height = 28 + 46 + row_px * (double)total,
                 .left = widest > 12 ? 16 + 7 * (double)widest : 96};
    kd_html_axis_of_time(&p.x, &(kd_time_axis){0, span * 1.02 + 1e-9, KD_SCALE_LINEAR, "time from the block's first record"},
                         xlabel, sizeof xlabel);
    p.y = (kd_axis){.label = "warp", .lo = 0, .hi = (double)total, .tick_at = at, .tick_text = text,
                    .nticks = ticks};
    kd_html_figure_start(out);
    kd_plot_begin(&p, "chart-region-timeline", "Region instances of each warp in one block of v1 and one of v2");
    kd_plot_line(&p, 0, (double)shown[1].warps + 0.5, p.x.hi, (double)shown[1].warps + 0.5, "reference");
    for (int s = 0; s < 2; s++) {
        const kd_region_profile *prof = &c->side[s].regions;
        unsigned deepest = 0;
        for (unsigned depth = 0; depth <= deepest; depth++) /* outer first: nested bars drawn on top */
            for (size_t i = 0; i < prof->nslices; i++) {
                const kd_region_slice *sl = &prof->slices[i];
                if (sl->block != shown[s].block)
                    continue;
                deepest = sl->depth > deepest ? sl->depth : deepest;
                if (sl->depth != depth)
                    continue;
                double centre = (double)(total - first_row[s] - sl->warp) - 0.5;
                double half = 0.42 - 0.08 * (depth < 4 ? depth : 4), x0 = sl->start_ns - shown[s].start_ns;
                char cls[24];
                snprintf(cls, sizeof cls, "slice r%zu", colour[s][sl->region]);
                kd_plot_rect(&p, x0, centre - half, x0 + sl->duration_ns, centre + half, cls);
            }
    }
    const char **labels = kd_xcalloc(n + 1, sizeof *labels);
    char (*classes)[8] = kd_xcalloc(n + 1, sizeof *classes);
    const char **class_names = kd_xcalloc(n + 1, sizeof *class_names);
    for (size_t r = 0; r < n; r++) {
        labels[r] = rows[r].name;
        snprintf(classes[r], sizeof *classes, "r%zu", r % PALETTE);
        class_names[r] = classes[r];
    }
    kd_plot_legend(&p, labels, class_names, n);
    free(labels);
    free(classes);
    free(class_names);
    kd_plot_end(&p);
    kd_strbuf caption = {0};
    timeline_caption(c, shown, &caption);
    if (n > PALETTE)
        kd_sb_printf(&caption, " With %zu regions, colours repeat after %d: the legend's order is the table's.", n,
                     PALETTE);
    kd_html_figure_end(out, &caption);
    free(at);
    free(names);
    free(text);
    free(colour[0]);
    free(colour[1]);
}

void kd_html_regions(FILE *out, const kd_comparison *c)
{
    fputs("<h2>Regions</h2>\n", out);
    size_t room = c->side[0].regions.count + c->side[1].regions.count + 1;
    kd_region_row *rows = kd_xcalloc(room, sizeof *rows);
    size_t n = kd_region_rows(c, rows);
    bars_and_table(out, c, rows, n);
    timeline_chart(out, c, rows, n);
    free(rows);
}
