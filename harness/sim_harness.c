/* kerndiff-sim-harness — a test double for the CUDA harness (the one documented seam where
 * CI, which has no GPU, runs the orchestrator, statistics and renderers end to end). It
 * speaks the same protocol and returns synthetic samples drawn from the distribution each
 * argument describes: one argument per slot (side), a comma-separated list of key=value:
 *
 *   median=100us   median time per launch (ns if no unit; us, ms accepted)
 *   by_block=T1:M1+T2:M2  the median when the launch's block has T1 threads is M1 (units as
 *                  median=), and so on; other blocks get median=. A config-dependent time,
 *                  so that the autotune pass (each config its own num_warps) has a fastest
 *   cv=1%          spread: lognormal sigma
 *   drift=2%       a slow common drift: the time is scaled by 1 + drift*sin(2*pi*t/0.2 s),
 *                  t the wall clock, so both sides (two processes) drift together
 *   outliers=2%    share of samples multiplied by 2..5
 *   seed=N         the sampling seed (default: from the `seed` command and the pid); a child
 *                  holding both sides uses slot 0's
 *   crash_at=N     exit with SIGSEGV at the N-th sample        (harness crash)
 *   hang_at=N      stop answering at the N-th sample           (hung kernel)
 *   fault_at=N     answer "err cuda ..." then exit at the N-th sample (kernel fault)
 *   garble_at=N    answer a malformed line at the N-th sample  (protocol error)
 *   wrong=K        the first K output elements differ from the reference values
 *   unwritten=K    the first K output elements are never written
 *   output=SHAPE   how this side's outputs differ from the reference, to test the
 *                  correctness report's patterns (check/compare.h): shift:K (element i
 *                  holds the reference's i+K; the last K keep theirs), reverse (the same
 *                  values in reverse order), scale:F (F times the reference; f32, f64 and
 *                  integers), tail:K (the last K elements are wrong), nan:K (the first K
 *                  are NaN), left:K (the poisoned run leaves the first K elements holding
 *                  the poison, the seeded run their seeded value, which is the reference:
 *                  a kernel that does not touch them), left:all (every element)
 *   throttle=1     report SW power cap throttling on every block
 *   alloc_fail=1   setup answers "err alloc" like an out-of-memory GPU
 *   regions=C1+C2  `regions` records region ids 1, 2, ... lasting C1, C2 ... cycles (plus
 *                  the 30-cycle record cost it reports), 4 times each, in every warp of
 *                  2 blocks x 2 warps, with the spread of cv=, the SM clock at 1500 MHz
 *   region_group=G:W  as KD_REGION_GROUP with group id G and runs of W warps: the first warp
 *                  of each run records (its header says G and W), the others record nothing
 *   buffers=A1+A2  `buffers` puts the side's buffers at these addresses (hex), in argument
 *                  order (default 0x7f0000000000 + 1 MiB per buffer): to replay a recorded
 *                  compute-sanitizer log, whose addresses they must be (tests/fakes)
 *   placement=2%   buffer placement: every placement of the buffers scales the time by
 *                  1 + placement*z, z ~ N(0,1) drawn per placement, as real GPUs do (up to
 *                  5% measured on an H100). A process starts on a placement of its own and
 *                  `place` draws a new one; slots of one process share their buffers, so a
 *                  placement hits both alike. The largest placement= of the slots applies.
 */
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wire/protocol.h"
#include "util/dtype.h"
#include "launch/spec.h"
#include "regions/records.h"

#define MAX_ARGS KD_LAUNCH_MAX_ARGS /* what kerndiff passes at most (launch/spec.h) */

typedef struct sim_spec {
    double median_ns, cv, drift, outliers, placement;
    double region_cycles[8];
    int nregions;
    unsigned region_group, region_group_warps;
    unsigned long long buffer_address[8];
    int nbuffers;
    unsigned by_block_threads[8];
    double by_block_ns[8];
    int nby_block;
    unsigned long long seed;
    long crash_at, hang_at, fault_at, garble_at;
    long wrong, unwritten;
    char output[32];               /* output=SHAPE */
    int throttle, alloc_fail;
} sim_spec;

typedef struct sim_arg {
    bool is_buffer, is_output, is_inout, shared;
    kd_dtype dtype;
    int lanes;
    unsigned long long count;
    size_t scratch;             /* arg I scratch BYTES */
} sim_arg;

/* One side: what its samples look like, its arguments, how many samples it has drawn. */
typedef struct sim_slot {
    sim_spec spec;
    sim_arg args[MAX_ARGS];
    size_t nargs;
    long samples_drawn;
    unsigned block_threads;     /* from `geometry` */
    bool loaded;
} sim_slot;

static sim_slot slots[KD_PROTO_MAX_SLOTS];
static sim_slot *cur = &slots[0];
static double placement_factor = 1.0; /* the current placement's effect on every slot */
static bool ready;                     /* after setup */
static uint64_t rng_state = 0x853c49e6748fea9bull;
static double start_s;


static double parse_quantity(const char *v)
{
    char *end;
    double x = strtod(v, &end);
    if (!strcmp(end, "%"))
        return x / 100;
    if (!strcmp(end, "us"))
        return x * 1e3;
    if (!strcmp(end, "ms"))
        return x * 1e6;
    return x;
}

static void parse_spec(char *text, sim_spec *spec)
{
    *spec = (sim_spec){.median_ns = 100000, .cv = 0.01, .crash_at = -1, .hang_at = -1, .fault_at = -1,
                       .garble_at = -1};
    for (char *save = NULL, *kv = strtok_r(text, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            continue;
        *eq = '\0';
        const char *k = kv, *v = eq + 1;
        if (!strcmp(k, "median")) spec->median_ns = parse_quantity(v);
        else if (!strcmp(k, "cv")) spec->cv = parse_quantity(v);
        else if (!strcmp(k, "drift")) spec->drift = parse_quantity(v);
        else if (!strcmp(k, "outliers")) spec->outliers = parse_quantity(v);
        else if (!strcmp(k, "seed")) spec->seed = strtoull(v, NULL, 10);
        else if (!strcmp(k, "crash_at")) spec->crash_at = atol(v);
        else if (!strcmp(k, "hang_at")) spec->hang_at = atol(v);
        else if (!strcmp(k, "fault_at")) spec->fault_at = atol(v);
        else if (!strcmp(k, "garble_at")) spec->garble_at = atol(v);
        else if (!strcmp(k, "wrong")) spec->wrong = atol(v);
        else if (!strcmp(k, "unwritten")) spec->unwritten = atol(v);
        else if (!strcmp(k, "output")) snprintf(spec->output, sizeof spec->output, "%s", v);
        else if (!strcmp(k, "throttle")) spec->throttle = atoi(v);
        else if (!strcmp(k, "alloc_fail")) spec->alloc_fail = atoi(v);
        else if (!strcmp(k, "placement")) spec->placement = parse_quantity(v);
        else if (!strcmp(k, "sanitizer"))
            ; /* read by tests/fakes/fake_compute_sanitizer: which recorded log to replay */
        else if (!strcmp(k, "buffers"))
            for (char *c = (char *)v; *c && spec->nbuffers < 8; c += *c == '+')
                spec->buffer_address[spec->nbuffers++] = strtoull(c, &c, 16);
        else if (!strcmp(k, "by_block"))
            for (char *save2 = NULL, *item = strtok_r(eq + 1, "+", &save2); item && spec->nby_block < 8;
                 item = strtok_r(NULL, "+", &save2)) {
                char *colon = strchr(item, ':');
                spec->by_block_threads[spec->nby_block] = (unsigned)strtoul(item, NULL, 10);
                spec->by_block_ns[spec->nby_block++] = colon ? parse_quantity(colon + 1) : spec->median_ns;
            }
        else if (!strcmp(k, "region_group")) {
            char *colon = strchr(v, ':');
            spec->region_group = (unsigned)strtoul(v, NULL, 10) & 0xff;
            spec->region_group_warps = colon ? (unsigned)strtoul(colon + 1, NULL, 10) & 0xff : 1;
        } else if (!strcmp(k, "regions"))
            for (char *c = (char *)v; *c && spec->nregions < 8; c += *c == '+')
                spec->region_cycles[spec->nregions++] = strtod(c, &c);
        else
            fprintf(stderr, "kerndiff-sim-harness: unknown key %s\n", k);
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double uniform(void) /* xorshift64*, in (0, 1) */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return ((rng_state * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0) + 1e-300;
}

static double normal(void) { return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform()); }

/* A new placement of the buffers: the largest placement= of the slots decides its spread. */
static void draw_placement(void)
{
    double spread = 0;
    for (int s = 0; s < KD_PROTO_MAX_SLOTS; s++)
        spread = fmax(spread, slots[s].spec.placement);
    placement_factor = spread > 0 ? fmax(0.5, 1 + spread * normal()) : 1.0;
}

/* Acts out the failure planned for this sample, if any. */
static void misbehave(const sim_spec *spec, long samples_drawn)
{
    if (samples_drawn == spec->crash_at) {
        signal(SIGSEGV, SIG_DFL); /* a sanitizer's handler would turn the crash into an exit */
        raise(SIGSEGV);
    }
    if (samples_drawn == spec->hang_at)
        for (;;)
            pause();
    if (samples_drawn == spec->fault_at) {
        kd_proto_reply("err cuda running the kernel failed: CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory access was encountered");
        exit(3);
    }
}

/* The current slot's median: by_block's for its block, else median=. */
static double median_ns(void)
{
    const sim_spec *spec = &cur->spec;
    for (int i = 0; i < spec->nby_block; i++)
        if (spec->by_block_threads[i] == cur->block_threads)
            return spec->by_block_ns[i];
    return spec->median_ns;
}

static double draw(void)
{
    const sim_spec *spec = &cur->spec;
    misbehave(spec, ++cur->samples_drawn);
    double t = median_ns() * placement_factor * exp(spec->cv * normal());
    if (spec->outliers > 0 && uniform() < spec->outliers)
        t *= 2 + 3 * uniform();
    return t * (1 + spec->drift * sin(2 * M_PI * (now_s() - start_s) / 0.2));
}

static size_t buffer_bytes(const sim_arg *a) { return (size_t)a->count * (size_t)a->lanes * kd_dtype_size(a->dtype); }

static void arg(kd_words *w)
{
    unsigned long i = w->count >= 2 ? strtoul(w->word[1], NULL, 10) : MAX_ARGS;
    if (i >= MAX_ARGS) {
        kd_proto_reply("err protocol bad arg index");
        return;
    }
    sim_arg *a = &cur->args[i];
    memset(a, 0, sizeof *a);
    const char *share = kd_proto_value(w, 7, "share");
    if ((w->count == 7 || (w->count == 8 && share)) && !strcmp(w->word[2], "buffer")) {
        if (!kd_proto_buffer_mode(w->word[6], &a->is_output, &a->is_inout)) {
            kd_proto_reply("err protocol buffer mode '%s': in, out or inout", w->word[6]);
            return;
        }
        a->is_buffer = true;
        a->dtype = kd_dtype_from_name(w->word[3]);
        a->lanes = atoi(w->word[4]);
        a->count = strtoull(w->word[5], NULL, 10);
        if (share) {
            unsigned long j = strtoul(share, NULL, 10);
            const sim_arg *owner = j < MAX_ARGS ? &slots[0].args[j] : NULL;
            if (cur == &slots[0] || !owner || !owner->is_buffer || buffer_bytes(owner) != buffer_bytes(a)) {
                kd_proto_reply("err protocol share=%s: only slot 1 shares, with a slot-0 buffer of the same size", share);
                return;
            }
            a->shared = true;
        }
    } else if (w->count == 5 && !strcmp(w->word[2], "scalar")) {
        a->dtype = kd_dtype_from_name(w->word[3]);
    } else if (w->count == 3 && !strcmp(w->word[2], "stream")) {
        a->dtype = KD_DT_U64;
    } else if (w->count == 4 && !strcmp(w->word[2], "scratch")) {
        a->dtype = KD_DT_U8; /* workspace: counted in setup's bytes, never compared */
        a->scratch = (size_t)strtoull(w->word[3], NULL, 10);
    } else {
        kd_proto_reply("err protocol bad arg");
        return;
    }
    if (i + 1 > cur->nargs)
        cur->nargs = i + 1;
    kd_proto_reply("ok arg");
}

/* A float or integer element times f (output=scale:F); half types stay as they are. */
static void scale_element(kd_dtype t, unsigned char *e, double f)
{
    switch (t) {
    case KD_DT_F32: { float x; memcpy(&x, e, 4); x = (float)(x * f); memcpy(e, &x, 4); break; }
    case KD_DT_F64: { double x; memcpy(&x, e, 8); x *= f; memcpy(e, &x, 8); break; }
    case KD_DT_I32: case KD_DT_U32: { int32_t x; memcpy(&x, e, 4); x = (int32_t)(x * f); memcpy(e, &x, 4); break; }
    case KD_DT_I64: case KD_DT_U64: { int64_t x; memcpy(&x, e, 8); x = (int64_t)(x * f); memcpy(e, &x, 8); break; }
    default: break;
    }
}

/* output=SHAPE (see the top of this file) applied to one output buffer of n elements. */
static void shape_output(const char *shape, kd_dtype t, unsigned char *buf, size_t n, bool poisoned)
{
    size_t size = kd_dtype_size(t);
    const char *colon = strchr(shape, ':');
    const char *arg = colon ? colon + 1 : "";
    size_t k = strcmp(arg, "all") == 0 ? n : (size_t)strtoull(arg, NULL, 10);
    if (k > n)
        k = n;
    if (!strncmp(shape, "shift:", 6)) {
        memmove(buf, buf + k * size, (n - k) * size);
    } else if (!strcmp(shape, "reverse")) {
        unsigned char tmp[8];
        for (size_t i = 0; i < n / 2; i++) {
            memcpy(tmp, buf + i * size, size);
            memcpy(buf + i * size, buf + (n - 1 - i) * size, size);
            memcpy(buf + (n - 1 - i) * size, tmp, size);
        }
    } else if (!strncmp(shape, "scale:", 6)) {
        for (size_t i = 0; i < n; i++)
            scale_element(t, buf + i * size, strtod(arg, NULL));
    } else if (!strncmp(shape, "tail:", 5)) {
        memset(buf + (n - k) * size, 0x11, k * size);
    } else if (!strncmp(shape, "nan:", 4)) {
        double nan = NAN;
        float nanf = NAN;
        for (size_t i = 0; i < k && (t == KD_DT_F32 || t == KD_DT_F64); i++)
            memcpy(buf + i * size, t == KD_DT_F32 ? (const void *)&nanf : (const void *)&nan, size);
    } else if (!strncmp(shape, "left:", 5) && poisoned) {
        kd_fill_poison(t, buf, k);
    }
}

/* Both sides compute the same "reference" outputs (seeded data), except where told not to. */
static void check(kd_words *w)
{
    if (w->count != 2) {
        kd_proto_reply("err protocol usage: check PATH");
        return;
    }
    kd_proto_decode(w->word[1]);
    FILE *f = fopen(w->word[1], "wb");
    if (!f) {
        kd_proto_reply("err protocol cannot write %s", w->word[1]);
        return;
    }
    size_t written = 0;
    const sim_spec *spec = &cur->spec;
    const sim_arg *args = cur->args;
    for (int run = 0; run < 2; run++) {
        for (size_t i = 0; i < cur->nargs; i++) {
            if (!args[i].is_buffer || !args[i].is_output)
                continue;
            /* the second run poisons outputs first; an in-out buffer keeps its seeded data,
               so its elements that the "kernel" leaves alone hold their seeded values twice */
            bool poisoned = run == 1 && !args[i].is_inout;
            size_t n = (size_t)args[i].count * (size_t)args[i].lanes, size = kd_dtype_size(args[i].dtype);
            unsigned char *buf = malloc(n * size + 1);
            kd_fill_random(args[i].dtype, buf, n, 4242); /* the same "result" whatever the position */
            for (size_t e = 0; e < n && e < (size_t)spec->wrong; e++)
                memset(buf + e * size, 0x11, size);
            if (*spec->output)
                shape_output(spec->output, args[i].dtype, buf, n, poisoned);
            if (poisoned)
                kd_fill_poison(args[i].dtype, buf, n < (size_t)spec->unwritten ? n : (size_t)spec->unwritten);
            else
                kd_fill_random(args[i].dtype, buf, n < (size_t)spec->unwritten ? n : (size_t)spec->unwritten, 99 + i);
            written += fwrite(buf, size, n, f) * size;
            free(buf);
        }
    }
    fclose(f);
    kd_proto_reply("ok check bytes=%zu", written);
}

static void time_samples(kd_words *w)
{
    int k = w->count == 2 ? atoi(w->word[1]) : 0;
    if (k <= 0) {
        kd_proto_reply("err protocol usage: time K");
        return;
    }
    double *s = malloc((size_t)k * sizeof *s);
    for (int i = 0; i < k; i++) {
        if (cur->samples_drawn + 1 == cur->spec.garble_at) {
            cur->samples_drawn++;
            kd_proto_reply("ok time samples=12,,x");
            free(s);
            return;
        }
        s[i] = draw();
    }
    int throttle = cur->spec.throttle;
    unsigned clock = throttle ? 1600 : 1980;
    printf("ok time clock0=%u clock1=%u reasons=0x%x throttled=%d samples=", clock, clock, throttle ? 0x4 : 0,
           throttle);
    for (int i = 0; i < k; i++)
        printf("%s%.1f", i ? "," : "", s[i]);
    kd_proto_reply("%s", "");
    free(s);
}

enum { SIM_RECORD_CYCLES = 30, SIM_BLOCKS = 16, SIM_WARPS_PER_BLOCK = 2, SIM_REPEATS = 4, SIM_CLOCK_MHZ = 1500 };

/* Whether a recorded warp writes records: under a group of runs of `run` warps, only the
 * first of each run does. */
static bool writes(uint32_t warp, unsigned run) { return warp % SIM_WARPS_PER_BLOCK % run == 0; }

/* regions CAPACITY LAUNCHES STRIDE PATH: synthetic records in the format of
 * src/regions/records.h, from one block in STRIDE of a grid of SIM_BLOCKS. */
static void regions(kd_words *w)
{
    const sim_spec *spec = &cur->spec;
    uint32_t capacity = w->count == 5 ? (uint32_t)strtoul(w->word[1], NULL, 10) : 0;
    uint32_t launches = w->count == 5 ? (uint32_t)strtoul(w->word[2], NULL, 10) : 0;
    uint32_t stride = w->count == 5 ? (uint32_t)strtoul(w->word[3], NULL, 10) : 0;
    if (!capacity || (capacity & (capacity - 1)) || !launches || launches > 1000 || !stride || (stride & (stride - 1))) {
        kd_proto_reply("err protocol usage: regions CAPACITY LAUNCHES STRIDE PATH (CAPACITY and STRIDE powers of two)");
        return;
    }
    const uint32_t blocks = stride < SIM_BLOCKS ? SIM_BLOCKS / stride : 1, warps = blocks * SIM_WARPS_PER_BLOCK;
    if (!spec->nregions) {
        kd_proto_reply("err load the kernel has no kd_regions: it was not built with KERNDIFF_REGIONS (or is a launcher)");
        return;
    }
    kd_proto_decode(w->word[4]);
    FILE *f = fopen(w->word[4], "wb");
    uint64_t *ring = calloc((size_t)capacity * warps, sizeof *ring);
    if (!f || !ring) {
        kd_proto_reply("err io cannot write %s", w->word[4]);
        free(ring);
        if (f)
            fclose(f);
        return;
    }
    kd_region_file_header head = {KD_REGION_MAGIC, KD_REGION_VERSION, warps, capacity, launches, SIM_WARPS_PER_BLOCK,
                                  stride, SIM_BLOCKS};
    fwrite(&head, sizeof head, 1, f);
    uint32_t count = (uint32_t)(2 * SIM_REPEATS * spec->nregions);
    /* Under a group, only the first warp of each run records. */
    unsigned run = spec->region_group && spec->region_group_warps ? spec->region_group_warps : 1;
    uint64_t group_bits = (uint64_t)spec->region_group << 48 | (uint64_t)spec->region_group_warps << 56;
    for (uint32_t l = 0; l < launches; l++) {
        for (uint32_t warp = 0; warp < warps; warp++) {
            uint32_t written = writes(warp, run) ? count : 0;
            fwrite(&written, sizeof written, 1, f);
        }
        /* The rings first, for each warp's end clock; the header's end is that clock at
         * SIM_CLOCK_MHZ (recorded block b runs on SM b). */
        for (uint32_t warp = 0; warp < warps; warp++) {
            uint64_t clock = 1000;
            for (uint32_t k = 0; k < count; k += 2) {
                unsigned id = 1 + (k / 2) % (unsigned)spec->nregions;
                double cycles = spec->region_cycles[id - 1] * exp(spec->cv * normal()) + SIM_RECORD_CYCLES;
                ring[(size_t)warp * capacity + k % capacity] = (uint64_t)id << 57 | clock;
                clock += (uint64_t)cycles;
                ring[(size_t)warp * capacity + (k + 1) % capacity] = (uint64_t)id << 57 | 1ull << KD_REGION_CLOCK_BITS | clock;
                clock += 40;
            }
            uint64_t writer = writes(warp, run) ? group_bits : 0;
            uint64_t start_ns = 1000000000ull + 200ull * (uint64_t)warp;
            uint64_t header[KD_REGION_HEADER_WORDS] = {start_ns, writer | (uint64_t)(warp / SIM_WARPS_PER_BLOCK) << 32 | 1000u,
                                                       start_ns + (clock - 1000) * 1000 / SIM_CLOCK_MHZ, (uint32_t)clock};
            fwrite(header, sizeof header, 1, f);
        }
        fwrite(ring, sizeof *ring, (size_t)capacity * warps, f);
    }
    free(ring);
    fclose(f);
    kd_proto_reply("ok regions warps=%u launches=%u bytes=0 record_cycles=%d blocks=%u", warps, launches,
                   SIM_RECORD_CYCLES, blocks);
}

static void buffers(void)
{
    printf("ok buffers list=");
    int k = 0;
    for (size_t i = 0; i < cur->nargs; i++) {
        if (!cur->args[i].is_buffer)
            continue;
        unsigned long long at = k < cur->spec.nbuffers ? cur->spec.buffer_address[k] : 0x7f0000000000ull + ((unsigned long long)k << 20);
        printf("%s%zu:0x%llx:%zu", k ? "," : "", i, at, buffer_bytes(&cur->args[i]));
        k++;
    }
    kd_proto_reply("%s", k ? "" : "-");
}

static void side(kd_words *w)
{
    int s = w->count == 2 ? atoi(w->word[1]) : -1;
    if (s < 0 || s >= KD_PROTO_MAX_SLOTS || strcmp(w->word[1], s ? "1" : "0") != 0 ||
        (s > 0 && !slots[s - 1].loaded) || (ready && !slots[s].loaded)) {
        kd_proto_reply("err protocol usage: side 0|1 (slot 1 after slot 0 is loaded)");
        return;
    }
    cur = &slots[s];
    kd_proto_reply("ok side");
}

static void setup(void)
{
    for (int s = 0; s < KD_PROTO_MAX_SLOTS; s++)
        if (slots[s].loaded && slots[s].spec.alloc_fail) {
            kd_proto_reply("err alloc argument 0 needs 68719476736 bytes: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory");
            return;
        }
    size_t bytes = 0;
    for (int s = 0; s < KD_PROTO_MAX_SLOTS; s++)
        for (size_t i = 0; slots[s].loaded && i < slots[s].nargs; i++)
            if (slots[s].args[i].is_buffer && !slots[s].args[i].shared)
                bytes += buffer_bytes(&slots[s].args[i]);
            else
                bytes += slots[s].args[i].scratch;
    draw_placement(); /* this process's first placement */
    ready = true;
    kd_proto_reply("ok setup bytes=%zu", bytes);
}

/* Slot s's spec: its own argument, else slot 0's (a one-argument harness simulates one side). */
int main(int argc, char **argv)
{
    for (int s = 0; s < KD_PROTO_MAX_SLOTS; s++) {
        char *text = strdup(argc > 1 + s ? argv[1 + s] : argc > 1 ? argv[1] : "");
        parse_spec(text, &slots[s].spec);
        free(text);
    }
    start_s = now_s();
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        kd_words w;
        kd_proto_split(line, &w);
        if (w.count == 0)
            continue;
        const char *cmd = w.word[0];
        bool needs_setup = !strcmp(cmd, "warmup") || !strcmp(cmd, "time") || !strcmp(cmd, "check") ||
                           !strcmp(cmd, "once") || !strcmp(cmd, "place") || !strcmp(cmd, "regions") ||
                           !strcmp(cmd, "buffers");
        if (needs_setup && !ready)
            kd_proto_reply("err protocol %s before setup", cmd);
        else if (!strcmp(cmd, "hello"))
            kd_proto_reply("ok hello version=%d device=Simulated%%20GPU sm=90 sms=132 l2=52428800 driver=13000 pci=sim",
                  KD_PROTOCOL_VERSION);
        else if (!strcmp(cmd, "arg"))
            arg(&w);
        else if (!strcmp(cmd, "side"))
            side(&w);
        else if (!strcmp(cmd, "load")) {
            cur->loaded = true;
            kd_proto_reply("ok load");
        } else if (!strcmp(cmd, "seed") && w.count == 2) {
            /* seed= makes a run repeatable; otherwise each process draws differently. */
            unsigned long long fixed = slots[0].spec.seed;
            rng_state ^= fixed ? fixed * 0x9E3779B97F4A7C15ull
                               : strtoull(w.word[1], NULL, 10) * 0x9E3779B97F4A7C15ull + (uint64_t)getpid();
            kd_proto_reply("ok seed");
        } else if (!strcmp(cmd, "setup"))
            setup();
        else if (!strcmp(cmd, "place")) {
            draw_placement();
            kd_proto_reply("ok place moved=1 pad=131072");
        } else if (!strcmp(cmd, "warmup"))
            kd_proto_reply("ok warmup launches=10 median_ns=%.1f stable=1 timer=simulated timer_note=-",
                           median_ns());
        else if (!strcmp(cmd, "time"))
            time_samples(&w);
        else if (!strcmp(cmd, "check"))
            check(&w);
        else if (!strcmp(cmd, "regions"))
            regions(&w);
        else if (!strcmp(cmd, "buffers"))
            buffers();
        else if (!strcmp(cmd, "quit")) {
            kd_proto_reply("ok quit");
            break;
        } else if (!strcmp(cmd, "geometry") && w.count == 8) {
            cur->block_threads = (unsigned)(strtoul(w.word[4], NULL, 10) * strtoul(w.word[5], NULL, 10) *
                                            strtoul(w.word[6], NULL, 10));
            kd_proto_reply("ok geometry");
        } else if (!strcmp(cmd, "geometry") || !strcmp(cmd, "mode") || !strcmp(cmd, "once"))
            kd_proto_reply("ok %s", cmd);
        else
            kd_proto_reply("err protocol unknown command %s", cmd);
    }
    return 0;
}
