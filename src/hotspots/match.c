/* Two hot-spot profiles matched line by line. A line diff (longest common subsequence of
 * the two sources, blanks at either end ignored) pairs the lines whose text is the same,
 * so a line that moved keeps its partner. Inside a changed block of equal size the lines
 * pair in order (a line edited in place); in a block whose size changed a sampled line
 * pairs with the other side's sampled line of the same dominant instruction family. Without
 * both sources, lines pair by file name and number. */
#include "hotspots/hotspots.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Above this many cells of the diff table the changed middle is left unmatched. */
enum { MAX_LCS_CELLS = 16 * 1024 * 1024 };

static bool same_text(const char *a, const char *b)
{
    while (isspace((unsigned char)*a))
        a++;
    while (isspace((unsigned char)*b))
        b++;
    size_t na = strlen(a), nb = strlen(b);
    while (na && isspace((unsigned char)a[na - 1]))
        na--;
    while (nb && isspace((unsigned char)b[nb - 1]))
        nb--;
    return na == nb && !memcmp(a, b, na);
}

/* map[0][i] = j when line i of v1 is line j of v2 (0-based), -1 when changed; map[1] back. */
static void line_diff(char **a, size_t na, char **b, size_t nb, long *map_a, long *map_b)
{
    for (size_t i = 0; i < na; i++)
        map_a[i] = -1;
    for (size_t j = 0; j < nb; j++)
        map_b[j] = -1;
    size_t lo = 0;
    while (lo < na && lo < nb && same_text(a[lo], b[lo]))
        map_a[lo] = (long)lo, map_b[lo] = (long)lo, lo++;
    size_t ea = na, eb = nb;
    while (ea > lo && eb > lo && same_text(a[ea - 1], b[eb - 1]))
        ea--, eb--, map_a[ea] = (long)eb, map_b[eb] = (long)ea;
    size_t n = ea - lo, m = eb - lo;
    if (n == 0 || m == 0 || (n + 1) * (m + 1) > MAX_LCS_CELLS)
        return;
    /* len[i][j]: the LCS of a[lo+i..] and b[lo+j..]. */
    unsigned *len = kd_xcalloc((n + 1) * (m + 1), sizeof *len);
#define L(i, j) len[(i) * (m + 1) + (j)]
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            L(i, j) = same_text(a[lo + i], b[lo + j]) ? L(i + 1, j + 1) + 1
                                                       : (L(i + 1, j) > L(i, j + 1) ? L(i + 1, j) : L(i, j + 1));
    for (size_t i = 0, j = 0; i < n && j < m;) {
        if (same_text(a[lo + i], b[lo + j]) && L(i, j) == L(i + 1, j + 1) + 1) {
            map_a[lo + i] = (long)(lo + j), map_b[lo + j] = (long)(lo + i);
            i++, j++;
        } else if (L(i + 1, j) >= L(i, j + 1)) {
            i++;
        } else {
            j++;
        }
    }
#undef L
    free(len);
}

typedef struct matcher {
    const kd_hs_profile *p[2];
    long *map[2];      /* NULL without both sources */
    bool *claimed[2];  /* per line of each profile's line table */
} matcher;

static bool in_main(const kd_hs_profile *p, const kd_hs_line *l)
{
    return l->file && p->main_file && !strcmp(l->file, p->main_file);
}

static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path ? path : "";
}

/* The profile's line table entry for FILE-in-main line n, or -1. */
static long find_main_line(const kd_hs_profile *p, unsigned n)
{
    for (size_t k = 0; k < p->line_count; k++)
        if (in_main(p, &p->lines[k]) && p->lines[k].line == n)
            return (long)k;
    return -1;
}

/* The other side's unclaimed line of l's number in l's file: the same path first, else the
 * same base name (a header reached by another path). Base name alone paired a header's line
 * with the main file's line of that number when both had one name (dir/k.cu, k.cu), and
 * left the header's own partner unpaired: a profile diffed against itself showed moves. */
static long find_by_name(const kd_hs_profile *p, const bool *claimed, const kd_hs_line *l)
{
    for (int exact = 1; exact >= 0; exact--)
        for (size_t k = 0; k < p->line_count; k++) {
            const kd_hs_line *o = &p->lines[k];
            if (claimed[k] || o->line != l->line || (o->file != NULL) != (l->file != NULL))
                continue;
            if (exact ? !o->file || !strcmp(o->file, l->file) : !strcmp(base_name(o->file), base_name(l->file)))
                return (long)k;
        }
    return -1;
}

/* A changed block: side s's lines [mine_from, mine_to) against the other side's [from, to). */
typedef struct {
    size_t from, to, mine_from, mine_to;
} changed_block;

/* The changed block around 0-based line i of side s. */
static changed_block block_of(const matcher *m, int s, size_t i)
{
    const long *map = m->map[s];
    size_t n = m->p[s]->src_count, other = m->p[!s]->src_count;
    size_t a = i, b = i;
    while (a > 0 && map[a - 1] < 0)
        a--;
    while (b < n && map[b] < 0)
        b++;
    return (changed_block){.from = a > 0 ? (size_t)map[a - 1] + 1 : 0,
                           .to = b < n ? (size_t)map[b] : other,
                           .mine_from = a,
                           .mine_to = b};
}

/* The partner of side s's line l: the other side's line number (0: none) and how. */
static unsigned partner(matcher *m, int s, const kd_hs_line *l, kd_hs_match *how, long *other_index)
{
    const kd_hs_profile *me = m->p[s], *them = m->p[!s];
    *other_index = -1;
    if (!m->map[s] || !in_main(me, l) || l->line < 1 || l->line > me->src_count) {
        /* Each side's main file is its own source (v1.cu, v2.cu): those pair by number alone. */
        *other_index = in_main(me, l) ? find_main_line(them, l->line) : find_by_name(them, m->claimed[!s], l);
        *how = KD_HS_SAME_LINE;
        if (*other_index >= 0 && m->claimed[!s][*other_index])
            *other_index = -1;
        return l->line; /* the same number, sampled there or not */
    }
    size_t i = l->line - 1;
    if (m->map[s][i] >= 0) {
        *how = KD_HS_SAME_LINE;
        unsigned n = (unsigned)m->map[s][i] + 1;
        *other_index = find_main_line(them, n);
        return n;
    }
    changed_block blk = block_of(m, s, i);
    size_t from = blk.from, to = blk.to, mine_from = blk.mine_from, mine_to = blk.mine_to;
    if (to - from == mine_to - mine_from) {
        *how = KD_HS_CHANGED;
        unsigned n = (unsigned)(from + (i - mine_from)) + 1;
        *other_index = find_main_line(them, n);
        return n;
    }
    /* A block that grew or shrank: the nearest unclaimed sampled line of the same family. */
    long best = -1;
    size_t best_gap = (size_t)-1;
    for (size_t k = 0; l->family && k < them->line_count; k++) {
        const kd_hs_line *o = &them->lines[k];
        if (m->claimed[!s][k] || !in_main(them, o) || o->line < from + 1 || o->line > to || !o->family ||
            strcmp(o->family, l->family))
            continue;
        size_t pos_me = i - mine_from, pos_o = o->line - 1 - from;
        size_t gap = pos_me > pos_o ? pos_me - pos_o : pos_o - pos_me;
        if (gap < best_gap)
            best_gap = gap, best = (long)k;
    }
    *how = best >= 0 ? KD_HS_FAMILY : (s == 0 ? KD_HS_ONLY_V1 : KD_HS_ONLY_V2);
    *other_index = best;
    return best >= 0 ? them->lines[best].line : 0;
}

static const char *dominant(const kd_hs_profile *p, const kd_hs_line *l)
{
    if (!l || !l->samples)
        return NULL;
    size_t best = 0;
    for (size_t r = 1; r < p->reason_count; r++)
        if (l->by_reason[r] > l->by_reason[best])
            best = r;
    return p->reason_count && l->by_reason[best] ? kd_hs_reason_short(p->reasons[best]) : NULL;
}

static const char *source_text(const kd_hs_profile *p, unsigned n)
{
    return n >= 1 && n <= p->src_count ? p->src[n - 1] : NULL;
}

/* The k-th instruction of a family on one side pairs with the k-th on the other. */
static void pair_insns(const matcher *m, kd_hs_row *row)
{
    size_t na = row->side[0] ? row->side[0]->insn_count : 0, nb = row->side[1] ? row->side[1]->insn_count : 0;
    row->insns = kd_xcalloc(na + nb + 1, sizeof *row->insns);
    bool *used = kd_xcalloc(nb + 1, sizeof *used);
    for (size_t i = 0; i < na; i++) {
        const kd_hs_insn *x = &m->p[0]->insns[row->side[0]->insn[i]];
        kd_hs_insn_pair pr = {{x, NULL}};
        for (size_t j = 0; j < nb; j++) {
            const kd_hs_insn *y = &m->p[1]->insns[row->side[1]->insn[j]];
            if (!used[j] && x->family && y->family && !strcmp(x->family, y->family)) {
                used[j] = true, pr.side[1] = y;
                break;
            }
        }
        row->insns[row->insn_count++] = pr;
    }
    for (size_t j = 0; j < nb; j++)
        if (!used[j])
            row->insns[row->insn_count++] = (kd_hs_insn_pair){{NULL, &m->p[1]->insns[row->side[1]->insn[j]]}};
    free(used);
}

/* One row to add: side s's line index `mine`, paired with the other side's line index `theirs`
 * (-1: none) whose line number is their_line (0: none), matched as `how`. */
typedef struct {
    int s;
    long mine, theirs;
    unsigned their_line;
    kd_hs_match how;
} row_pairing;

static void add_row(matcher *m, kd_hs_diff *d, const row_pairing *pr)
{
    int s = pr->s;
    long mine = pr->mine, theirs = pr->theirs;
    unsigned their_line = pr->their_line;
    kd_hs_row row = {.how = pr->how};
    const kd_hs_line *l = &m->p[s]->lines[mine];
    row.side[s] = l;
    row.line[s] = l->line;
    m->claimed[s][mine] = true;
    if (theirs >= 0) {
        row.side[!s] = &m->p[!s]->lines[theirs];
        m->claimed[!s][theirs] = true;
    }
    row.line[!s] = their_line;
    for (int k = 0; k < 2; k++) {
        const kd_hs_profile *p = m->p[k];
        row.text[k] = row.side[k] ? row.side[k]->text : (row.line[k] && m->map[k] ? source_text(p, row.line[k]) : NULL);
        row.share[k] = row.side[k] && p->sampled ? (double)row.side[k]->samples / (double)p->sampled : 0;
        row.dominant[k] = dominant(p, row.side[k]);
        /* -1 where the side has no SASS counts at all: "not counted", never "ran 0 times" */
        row.executed[k] = p->has_executed ? (long long)(row.side[k] ? row.side[k]->executed : 0) : -1;
    }
    row.delta = row.share[1] - row.share[0];
    pair_insns(m, &row);
    d->rows = kd_xreallocarray(d->rows, d->row_count + 1, sizeof *d->rows);
    d->rows[d->row_count++] = row;
}

static int by_change(const void *a, const void *b)
{
    const kd_hs_row *x = a, *y = b;
    double dx = fabs(x->delta), dy = fabs(y->delta);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    double mx = fmax(x->share[0], x->share[1]), my = fmax(y->share[0], y->share[1]);
    if (mx != my)
        return mx > my ? -1 : 1;
    unsigned lx = x->line[1] ? x->line[1] : x->line[0], ly = y->line[1] ? y->line[1] : y->line[0];
    return lx < ly ? -1 : lx > ly;
}

void kd_hs_diff_build(const kd_hs_profile *v1, const kd_hs_profile *v2, kd_hs_diff *d)
{
    memset(d, 0, sizeof *d);
    d->side[0] = v1, d->side[1] = v2;
    matcher m = {.p = {v1, v2}};
    if (v1->src && v2->src) {
        m.map[0] = kd_xcalloc(v1->src_count + 1, sizeof *m.map[0]);
        m.map[1] = kd_xcalloc(v2->src_count + 1, sizeof *m.map[1]);
        line_diff(v1->src, v1->src_count, v2->src, v2->src_count, m.map[0], m.map[1]);
    }
    for (int s = 0; s < 2; s++)
        m.claimed[s] = kd_xcalloc(m.p[s]->line_count + 1, sizeof *m.claimed[s]);
    for (int s = 0; s < 2; s++)
        for (size_t k = 0; k < m.p[s]->line_count; k++) {
            if (m.claimed[s][k])
                continue;
            kd_hs_match how;
            long theirs;
            unsigned n = partner(&m, s, &m.p[s]->lines[k], &how, &theirs);
            if (theirs >= 0 && m.claimed[!s][theirs])
                theirs = -1; /* taken by an earlier pairing: this line stands alone */
            add_row(&m, d, &(row_pairing){.s = s, .mine = (long)k, .theirs = theirs, .their_line = n, .how = how});
        }
    qsort(d->rows, d->row_count, sizeof *d->rows, by_change);
    for (int s = 0; s < 2; s++)
        free(m.map[s]), free(m.claimed[s]);
}

void kd_hs_diff_free(kd_hs_diff *d)
{
    for (size_t k = 0; k < d->row_count; k++)
        free(d->rows[k].insns);
    free(d->rows);
    memset(d, 0, sizeof *d);
}
