#include "regions/region_profile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/stats.h"
#include "regions/instrument.h"
#include "regions/region_records.h"
#include "util/xalloc.h"

#define MAX_SLICES 50000 /* per side: a trace of about 10 MB, which a browser opens */
#define MAX_DEPTH 32
/* %globaltimer moves in steps of up to 32 ns (H100): below this much summed span, a clock
 * measured from it could be off by more than a tenth of a percent. */
#define MIN_CLOCK_SPAN_NS 50000.0

/* Every instance of one region: its cycles and its SM; per launch, where its instances
 * start in that list; the warp groups that recorded it (bit g: group id g). */
typedef struct instances {
    double *cycles;
    unsigned *sm;
    size_t n, cap;
    size_t launch_start[KD_REGION_MAX_LAUNCHES + 1];
    uint64_t groups[(KD_REGION_MAX_GROUPS + 1 + 63) / 64];
} instances;

static void push_instance(instances *in, double cycles, unsigned sm)
{
    if (in->n == in->cap) {
        in->cap = in->cap ? 2 * in->cap : 256;
        in->cycles = kd_xreallocarray(in->cycles, in->cap, sizeof *in->cycles);
        in->sm = kd_xreallocarray(in->sm, in->cap, sizeof *in->sm);
    }
    in->cycles[in->n] = cycles;
    in->sm[in->n++] = sm;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_double);
    return kd_percentile_sorted(v, n, 50.0);
}

/* The reading state of one file. */
typedef struct reader {
    kd_region_file_header head;
    const kd_strlist *names; /* the regions' */
    size_t ngroups;
    double record_cycles, ns_per_cycle; /* ns_per_cycle: the caller's clock */
    double launch_ns_per_cycle;         /* the launch's own, measured, else ns_per_cycle */
    instances *per_region;   /* [names->count] */
    double total_span;       /* cycles between each warp's first and last record, summed */
    kd_region_profile *out;
} reader;

/* `slice` without its block and warp, which come from the warp's slot. */
static void add_slice(reader *r, size_t slot, kd_region_slice slice)
{
    kd_region_profile *p = r->out;
    if (p->nslices == MAX_SLICES) {
        p->slices_truncated = true;
        return;
    }
    if (!p->slices)
        p->slices = kd_xmalloc(MAX_SLICES * sizeof *p->slices);
    unsigned wpb = r->head.warps_per_block ? r->head.warps_per_block : 1;
    slice.block = (unsigned)(slot / wpb * r->head.block_stride);
    slice.warp = (unsigned)(slot % wpb);
    p->slices[p->nslices++] = slice;
}

/* One warp's part of a launch's record: its slot, its record count, header and ring. */
typedef struct warp_records {
    size_t slot;
    uint32_t count;
    const uint64_t *header;
    const uint64_t *ring;
} warp_records;

/* One warp of one launch: pair begins and ends (nesting by a stack), add each instance. */
static void read_warp(reader *r, size_t launch, const warp_records *w, uint64_t first_global)
{
    uint32_t count = w->count;
    const uint64_t *header = w->header, *ring = w->ring;
    if (count & KD_REGION_DIVERGENT) { /* its lanes recorded differently: no order to trust */
        r->out->divergent_warps++;
        return;
    }
    uint32_t cap = r->head.capacity, n = count < cap ? count : cap;
    r->out->dropped += count - n;
    r->out->records += n;
    if (n == 0)
        return;
    r->out->recording_warps += launch == 0;
    uint64_t start_word = header[KD_REGION_HEADER_START];
    unsigned sm = kd_region_header_sm(start_word), group = kd_region_header_group(start_word);
    if (group > r->ngroups) /* not an id of this side's groups: a stranger, shown as none */
        group = 0;
    if (group) {
        kd_region_group *g = &r->out->groups[group - 1];
        g->recording_warps += launch == 0;
        g->warps = kd_region_header_group_warps(start_word);
    }
    uint32_t clock0 = (uint32_t)start_word;
    double origin_ns = (double)(header[KD_REGION_HEADER_START_NS] - first_global);
    const uint64_t mask = (1ull << KD_REGION_CLOCK_BITS) - 1;
    struct { unsigned id; uint64_t clock; } stack[MAX_DEPTH];
    unsigned depth = 0;
    uint64_t first_clock = 0, last_clock = 0;
    for (uint32_t k = count - n; k < count; k++) {
        uint64_t rec = ring[k % cap];
        unsigned id = kd_region_record_id(rec);
        uint64_t clock = kd_region_record_clock(rec);
        if (k == count - n)
            first_clock = clock;
        last_clock = clock;
        if (!kd_region_record_is_end(rec)) {
            if (depth == MAX_DEPTH) {
                r->out->unmatched++;
                continue;
            }
            stack[depth].id = id;
            stack[depth++].clock = clock;
            continue;
        }
        unsigned open = depth;
        while (open > 0 && stack[open - 1].id != id)
            open--;
        if (open == 0 || id == 0 || id > r->names->count) { /* an end with no begin (dropped), or a stranger */
            r->out->unmatched++;
            continue;
        }
        r->out->unmatched += depth - open; /* begins left open inside this region */
        depth = open - 1;
        double cycles = (double)((clock - stack[depth].clock) & mask) - r->record_cycles;
        cycles = cycles > 0 ? cycles : 0;
        push_instance(&r->per_region[id - 1], cycles, sm);
        r->per_region[id - 1].groups[group / 64] |= 1ull << group % 64;
        if (launch + 1 == r->head.launches) {
            double start = origin_ns + (double)(uint32_t)((uint32_t)stack[depth].clock - clock0) * r->launch_ns_per_cycle;
            add_slice(r, w->slot,
                      (kd_region_slice){.sm = sm, .region = id - 1, .group = group, .start_ns = start,
                                        .duration_ns = cycles * r->launch_ns_per_cycle, .depth = depth});
        }
    }
    r->out->unmatched += depth;
    r->total_span += (double)((last_clock - first_clock) & mask);
}

/* The SM clock of a launch from its recording warps' headers: their summed %globaltimer spans
 * over their summed clock spans; 0 when too little span was measured (or none: a Proton
 * side, warps without a kernel context). */
static double launch_clock_hz(const uint64_t *headers, const uint32_t *counts, size_t warps)
{
    double ns = 0, cycles = 0;
    for (size_t w = 0; w < warps; w++) {
        const uint64_t *h = headers + KD_REGION_HEADER_WORDS * w;
        uint64_t end_ns = h[KD_REGION_HEADER_END_NS], start_ns = h[KD_REGION_HEADER_START_NS];
        uint32_t span = (uint32_t)h[KD_REGION_HEADER_END_CLOCK] - (uint32_t)h[KD_REGION_HEADER_START];
        /* A span past 2^31 cycles (a second) is a wrapped or stray clock, not a warp's life. */
        if (!counts[w] || end_ns <= start_ns || end_ns - start_ns > 2000000000ull || !span || span > 0x80000000u)
            continue;
        ns += (double)(end_ns - start_ns);
        cycles += span;
    }
    return ns >= MIN_CLOCK_SPAN_NS && cycles > 0 ? cycles / ns * 1e9 : 0;
}

/* Returns 0, or -1 when the file ends before the launch does. */
static int read_launch(reader *r, FILE *f, size_t launch, unsigned char *buf, size_t bytes)
{
    if (fread(buf, 1, bytes, f) != bytes)
        return -1;
    size_t warps = r->head.warps;
    const uint32_t *counts = (const uint32_t *)buf;
    const uint64_t *headers = (const uint64_t *)(buf + 4 * warps);
    const uint64_t *records = headers + KD_REGION_HEADER_WORDS * warps;
    uint64_t first_global = UINT64_MAX;
    for (size_t w = 0; w < warps; w++)
        if (counts[w] && headers[KD_REGION_HEADER_WORDS * w + KD_REGION_HEADER_START_NS] < first_global)
            first_global = headers[KD_REGION_HEADER_WORDS * w + KD_REGION_HEADER_START_NS];
    double hz = launch_clock_hz(headers, counts, warps);
    r->launch_ns_per_cycle = hz > 0 ? 1e9 / hz : r->ns_per_cycle;
    if (launch + 1 == r->head.launches)
        r->out->sm_clock_hz = hz;
    for (size_t i = 0; i < r->names->count; i++)
        r->per_region[i].launch_start[launch] = r->per_region[i].n;
    for (size_t w = 0; w < warps; w++) {
        warp_records one = {.slot = w, .count = counts[w], .header = &headers[KD_REGION_HEADER_WORDS * w],
                            .ring = records + w * r->head.capacity};
        read_warp(r, launch, &one, first_global);
    }
    return 0;
}

/* p90 - p10 of the per-SM medians, in % of their median. in->n > 0. */
static double sm_spread(const instances *in)
{
    unsigned top = 0;
    for (size_t i = 0; i < in->n; i++)
        top = in->sm[i] > top ? in->sm[i] : top;
    /* At most one median per instance: sized by the count, not by an SM id read from the file. */
    double *values = kd_xmalloc(in->n * sizeof *values), *medians = kd_xmalloc(in->n * sizeof *medians);
    size_t m = 0;
    for (unsigned sm = 0; sm <= top; sm++) {
        size_t k = 0;
        for (size_t i = 0; i < in->n; i++)
            if (in->sm[i] == sm)
                values[k++] = in->cycles[i];
        if (k)
            medians[m++] = median_of(values, k);
    }
    double spread = 0;
    if (m >= 3) {
        qsort(medians, m, sizeof *medians, by_double);
        double mid = kd_percentile_sorted(medians, m, 50.0);
        if (mid > 0)
            spread = (kd_percentile_sorted(medians, m, 90.0) - kd_percentile_sorted(medians, m, 10.0)) / mid * 100.0;
    }
    free(values);
    free(medians);
    return spread;
}

/* The names of the groups whose bits are set, ", " between; NULL when none is. */
static char *group_names(const uint64_t *bits, const kd_region_profile *p)
{
    kd_strbuf names = {0};
    for (size_t g = 1; g <= p->ngroups; g++)
        if (bits[g / 64] >> g % 64 & 1)
            kd_sb_printf(&names, "%s%s", names.len ? ", " : "", p->groups[g - 1].name);
    return names.len ? kd_sb_take(&names) : NULL;
}

static void summarise(reader *r)
{
    kd_region_profile *p = r->out;
    p->regions = kd_xcalloc(r->names->count + 1, sizeof *p->regions);
    for (size_t i = 0; i < r->names->count; i++) {
        instances *in = &r->per_region[i];
        kd_region_stat *st = &p->regions[p->count++];
        st->name = kd_xstrdup(r->names->items[i]);
        st->group = group_names(in->groups, p);
        st->instances = in->n;
        in->launch_start[r->head.launches] = in->n;
        st->launches = r->head.launches;
        st->sm_spread_pct = in->n ? sm_spread(in) : 0; /* before any sort breaks cycles[i] <-> sm[i] */
        for (size_t l = 0; l < r->head.launches; l++) {
            size_t a = in->launch_start[l], b = in->launch_start[l + 1];
            st->launch_median[l] = b > a ? median_of(in->cycles + a, b - a) : 0;
        }
        if (in->n) {
            double sum = 0;
            for (size_t k = 0; k < in->n; k++)
                sum += in->cycles[k];
            st->share_pct = r->total_span > 0 ? 100.0 * sum / r->total_span : 0;
            qsort(in->cycles, in->n, sizeof *in->cycles, by_double);
            st->median = kd_percentile_sorted(in->cycles, in->n, 50.0);
            st->p10 = kd_percentile_sorted(in->cycles, in->n, 10.0);
            st->p90 = kd_percentile_sorted(in->cycles, in->n, 90.0);
        }
    }
}

int kd_region_profile_read(const char *path, const kd_region_names *all_names, double record_cycles,
                           double sm_clock_hz, kd_region_profile *out, kd_strbuf *why)
{
    memset(out, 0, sizeof *out);
    const kd_strlist *names = &all_names->regions;
    size_t ngroups = all_names->groups.count < KD_REGION_MAX_GROUPS ? all_names->groups.count : KD_REGION_MAX_GROUPS;
    reader r = {.names = names, .ngroups = ngroups, .record_cycles = record_cycles, .out = out,
                .ns_per_cycle = sm_clock_hz > 0 ? 1e9 / sm_clock_hz : 1.0};
    out->record_cycles = record_cycles;
    out->groups = kd_xcalloc(ngroups + 1, sizeof *out->groups);
    out->ngroups = ngroups;
    for (size_t g = 0; g < ngroups; g++)
        out->groups[g].name = kd_xstrdup(all_names->groups.items[g]);
    FILE *f = fopen(path, "rb");
    if (!f || fread(&r.head, sizeof r.head, 1, f) != 1 || r.head.magic != KD_REGION_MAGIC ||
        r.head.version != KD_REGION_VERSION || !r.head.capacity || (r.head.capacity & (r.head.capacity - 1)) ||
        !r.head.launches || r.head.launches > KD_REGION_MAX_LAUNCHES || !r.head.warps_per_block ||
        !r.head.block_stride || r.head.warps % r.head.warps_per_block) {
        kd_sb_printf(why, "%s is not a region record file of version %u", path, KD_REGION_VERSION);
        if (f)
            fclose(f);
        return -1;
    }
    out->warps = r.head.warps;
    out->launches = r.head.launches;
    out->block_stride = r.head.block_stride;
    out->blocks_recorded = r.head.warps / r.head.warps_per_block;
    out->blocks = r.head.blocks;
    size_t bytes = kd_region_launch_bytes(r.head.warps, r.head.capacity);
    /* Kept checked: sized by the file (gigabytes for a large grid), so too big is an error naming the size. */
    unsigned char *buf = malloc(bytes ? bytes : 1);
    if (!buf) {
        kd_sb_printf(why, "not enough memory to read one launch's records from %s (%zu bytes: %u warps x %u records); "
                     "lower --region-records", path, bytes, r.head.warps, r.head.capacity);
        fclose(f);
        return -1;
    }
    r.per_region = kd_xcalloc(names->count + 1, sizeof *r.per_region);
    int rc = 0;
    for (size_t l = 0; l < r.head.launches && rc == 0; l++)
        rc = read_launch(&r, f, l, buf, bytes);
    if (rc == 0)
        summarise(&r);
    else
        kd_sb_printf(why, "%s is truncated", path);
    for (size_t i = 0; i < names->count; i++) {
        free(r.per_region[i].cycles);
        free(r.per_region[i].sm);
    }
    free(r.per_region);
    free(buf);
    fclose(f);
    return rc;
}

void kd_region_profile_free(kd_region_profile *p)
{
    for (size_t i = 0; i < p->count; i++) {
        free(p->regions[i].name);
        free(p->regions[i].group);
    }
    free(p->regions);
    for (size_t g = 0; g < p->ngroups; g++)
        free(p->groups[g].name);
    free(p->groups);
    free(p->slices);
    memset(p, 0, sizeof *p);
}

bool kd_region_change_is_real(const kd_region_stat *a, const kd_region_stat *b)
{
    if (!a->launches || !b->launches || !a->instances || !b->instances)
        return false;
    double a_lo = a->launch_median[0], a_hi = a_lo, b_lo = b->launch_median[0], b_hi = b_lo;
    for (size_t l = 1; l < a->launches; l++) {
        a_lo = a->launch_median[l] < a_lo ? a->launch_median[l] : a_lo;
        a_hi = a->launch_median[l] > a_hi ? a->launch_median[l] : a_hi;
    }
    for (size_t l = 1; l < b->launches; l++) {
        b_lo = b->launch_median[l] < b_lo ? b->launch_median[l] : b_lo;
        b_hi = b->launch_median[l] > b_hi ? b->launch_median[l] : b_hi;
    }
    return a_hi < b_lo || b_hi < a_lo;
}
