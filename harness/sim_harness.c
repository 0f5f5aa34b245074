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
 *                  correctness report's patterns (check/output_compare.h): shift:K (element i
 *                  holds the reference's i+K; the last K keep theirs), reverse (the same
 *                  values in reverse order), scale:F (F times the reference; f32, f64 and
 *                  integers), tail:K (the last K elements are wrong), nan:K (the first K
 *                  are NaN), left:K (the poisoned run leaves the first K elements holding
 *                  the poison, the seeded run their seeded value, which is the reference:
 *                  a kernel that does not touch them), left:all (every element)
 *   copy=K         the "kernel" is a copy: element i < K of every output becomes element i of
 *                  the slot's first `in` buffer, the others are left as they are (copy=all:
 *                  every element), so that a `check` shows what the server seeded and
 *                  restored (the `fill` transcript of tests/conformance); wrong=, unwritten=
 *                  and output= do not apply
 *   skip_after=N   the "kernel" writes nothing after the N-th launch of its slot in this
 *                  process: the `__device__` launch counter of a candidate that skips its
 *                  work once warm (issue 39). `check` runs, timed samples, warm-up (10) and
 *                  `audit` launches all count; the outputs keep what they held
 *   kernels=A-B    `time` answers kernels=A-B: a launch whose samples ran A to B kernels (a
 *                  launcher's work on another stream that comes and goes; issue 39)
 *   noise=X        every launch scales its f32 outputs by 1 + X*u, u uniform in (-1, 1) drawn per
 *                  launch: a kernel whose float atomics sum in another order each run
 *   overrun=B      every launch also writes B bytes past the end of each of its outputs (into
 *                  `check`'s bounds guard, up to its size): a launch whose sizes were guessed
 *                  smaller than the kernel's (issue 39)
 *   mutate=1       every launch also writes into the slot's first `in` buffer (its first
 *                  element zeroed): a kernel that casts away its input's const (issue 39)
 *   device_copy=0  the vendor has no device-to-device copy (slot 0's spec decides): `audit`
 *                  rotates every buffer on the host and uploads it, as a vendor without one
 *   throttle=1     report SW power cap throttling on every block
 *   alloc_fail=1   setup answers "err alloc" like an out-of-memory GPU
 *   sustained=10%  under `mode sustained MS` (a GPU kept busy, as do_bench keeps it) the time
 *                  is this much longer and the SM clock as much lower: a power-bound kernel
 *                  whose clock falls under load (default 0: a kernel the load does not slow)
 *   slow_device=D:F  on device D (CUDA_VISIBLE_DEVICES; unset: 0) every slot's time is F
 *                  times longer: a slower GPU of several (kerndiff rank --gpus)
 *   die_after_reset=N  answer the N-th `reset`, then exit (a kept harness that dies between
 *                  a sweep's points)
 *   crash_point=N  exit with SIGSEGV at the first sample of the N-th launch described to
 *                  this process (after N-1 `reset`s): a harness that fails in a later point
 *
 * The protocol itself (arguments, seeding, `fill`, `setup`, `check`, `buffers`) is
 * harness/server.c's, as for the CUDA harness; this file is the simulated device: memory in
 * host blocks made on first use, launches that write synthetic outputs, synthetic samples.
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

#include "counters_reply.h"
#include "server.h"
#include "regions/region_records.h"
#include "util/dtype.h"
#include "util/env.h"

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
    long copy;                     /* copy=K: elements copied, -1 all, 0 no copy */
    long skip_after;               /* skip_after=N: no work after the N-th launch (0: never skips) */
    int mutate;                    /* mutate=1: the launch writes into its first input */
    int no_device_copy;            /* device_copy=0: the vendor table has no `copy` */
    long overrun;                  /* overrun=B: bytes written past each output's end */
    char kernels[24];              /* kernels=A-B: `time`'s kernels= (empty: not said) */
    double noise;                  /* noise=X: each launch's f32 outputs scaled by 1 + X*u */
    double sustained;              /* sustained=: the slow-down under `mode sustained` */
    long die_after_reset, crash_point;
    int slow_device;               /* slow_device=D:F: on device D, every time F times longer */
    double slow_factor;
} sim_spec;

/* One side: what its samples look like, how many samples it has drawn (its arguments and
 * geometry are the server's slot of the same index). */
typedef struct sim_slot {
    sim_spec spec;
    long samples_drawn;
    long launches; /* every launch of the slot: what skip_after= counts */
} sim_slot;

/* A block of simulated device memory: its bytes are made on first use, from the seeded
 * contents of the buffer it was last restored to (`seeded`), else zero. */
typedef struct sim_block {
    size_t bytes;           /* the allocation's: the buffer's and its bounds guard's */
    unsigned char *data;
    kd_server_arg *seeded;
    unsigned char *guard;   /* the bounds guard (the allocation's last bytes), kept apart so that
                               setting it does not make a large buffer no kernel reads */
    size_t guard_bytes;
} sim_block;

static kd_server server;
static sim_slot slots[KD_PROTO_MAX_SLOTS];
#define cur (&slots[server.cur])
static double placement_factor = 1.0; /* the current placement's effect on every slot */
#define RNG_START 0x853c49e6748fea9bull
static uint64_t rng_state = RNG_START;
static double start_s;
static unsigned sustained_ms;   /* `mode sustained MS`: 0 unless the simulated GPU is kept busy */
static unsigned resets;         /* `reset`s answered: the launch this process serves is resets + 1 */


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
        else if (!strcmp(k, "skip_after")) spec->skip_after = atol(v);
        else if (!strcmp(k, "mutate")) spec->mutate = atoi(v);
        else if (!strcmp(k, "device_copy")) spec->no_device_copy = !atoi(v);
        else if (!strcmp(k, "overrun")) spec->overrun = atol(v);
        else if (!strcmp(k, "noise")) spec->noise = strtod(v, NULL);
        else if (!strcmp(k, "kernels")) snprintf(spec->kernels, sizeof spec->kernels, "%s", v);
        else if (!strcmp(k, "copy")) spec->copy = !strcmp(v, "all") ? -1 : atol(v);
        else if (!strcmp(k, "placement")) spec->placement = parse_quantity(v);
        else if (!strcmp(k, "sustained")) spec->sustained = parse_quantity(v);
        else if (!strcmp(k, "die_after_reset")) spec->die_after_reset = atol(v);
        else if (!strcmp(k, "crash_point")) spec->crash_point = atol(v);
        else if (!strcmp(k, "slow_device")) {
            char *colon = strchr(v, ':');
            spec->slow_device = atoi(v);
            spec->slow_factor = colon ? strtod(colon + 1, NULL) : 1.0;
        }
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
    if (samples_drawn == spec->crash_at || (spec->crash_point && (long)resets + 1 == spec->crash_point)) {
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
    const kd_server_slot *slot = kd_server_current(&server);
    unsigned threads = slot->block[0] * slot->block[1] * slot->block[2];
    for (int i = 0; i < spec->nby_block; i++)
        if (spec->by_block_threads[i] == threads)
            return spec->by_block_ns[i];
    return spec->median_ns;
}

/* slow_device=D:F of any slot, when this process's device is D (CUDA_VISIBLE_DEVICES, as
 * kerndiff rank --gpus sets it for each child; unset: device 0): a slower GPU of a host, for
 * both sides alike, so that every ratio made on it is the same as on the others. */
static double device_factor(void)
{
    const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
    int device = cvd && *cvd ? atoi(cvd) : 0;
    for (int s = 0; s < KD_PROTO_MAX_SLOTS; s++)
        if (slots[s].spec.slow_factor > 0 && slots[s].spec.slow_device == device)
            return slots[s].spec.slow_factor;
    return 1.0;
}

static double draw(void)
{
    const sim_spec *spec = &cur->spec;
    misbehave(spec, ++cur->samples_drawn);
    double t = median_ns() * device_factor() * placement_factor * exp(spec->cv * normal()) * (sustained_ms ? 1 + spec->sustained : 1);
    if (spec->outliers > 0 && uniform() < spec->outliers)
        t *= 2 + 3 * uniform();
    return t * (1 + spec->drift * sin(2 * M_PI * (now_s() - start_s) / 0.2));
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

static void out_of_memory(const sim_block *b, const char *doing)
{
    kd_proto_reply("err cuda %s failed: out of host memory for %zu simulated bytes", doing, b->bytes);
    exit(3);
}

/* A block's bytes, to be read: made now if they were not yet. */
static unsigned char *block_data(kd_devptr p, const char *doing)
{
    sim_block *b = (sim_block *)(uintptr_t)p;
    if (b->data && !b->seeded)
        return b->data;
    const void *seeded = b->seeded ? kd_server_seeded(&server, b->seeded) : NULL;
    /* a block made before keeps its memory: restored again and again (every `audit`), it is
       copied over, not freed and faulted in anew */
    if ((b->seeded && !seeded) ||
        (!b->data && !(b->data = seeded ? malloc(b->bytes ? b->bytes : 1) : calloc(1, b->bytes ? b->bytes : 1))))
        out_of_memory(b, doing);
    if (seeded)
        memcpy(b->data, seeded, b->seeded->bytes); /* the buffer's bytes; its guard is b->guard */
    b->seeded = NULL;
    return b->data;
}

/* A block's bytes, to be overwritten whole: what they held does not matter. */
static unsigned char *block_for_write(kd_devptr p, const char *doing)
{
    sim_block *b = (sim_block *)(uintptr_t)p;
    b->seeded = NULL;
    if (!b->data && !(b->data = malloc(b->bytes ? b->bytes : 1)))
        out_of_memory(b, doing);
    return b->data;
}

/* The slot's first `in` buffer (copy=), or NULL. */
static const kd_server_arg *first_input(kd_server *s)
{
    kd_server_slot *slot = kd_server_current(s);
    for (size_t i = 0; i < slot->nargs; i++)
        if (slot->args[i].is_buffer && !slot->args[i].is_output)
            return kd_server_owner(s, &slot->args[i]);
    return NULL;
}

/* copy=K: out[i] = in[i] for the first K elements of every output, the rest untouched. */
static void copy_launch(kd_server *s, long k)
{
    kd_server_slot *slot = kd_server_current(s);
    const kd_server_arg *input = first_input(s);
    for (size_t i = 0; input && i < slot->nargs; i++) {
        const kd_server_arg *a = &slot->args[i];
        if (!a->is_buffer || !a->is_output)
            continue;
        size_t element = kd_dtype_size(a->dtype) * (size_t)a->lanes, bytes = input->bytes < a->bytes ? input->bytes : a->bytes;
        if (k >= 0 && (size_t)k * element < bytes)
            bytes = (size_t)k * element;
        memcpy(block_data(kd_server_owner(s, (kd_server_arg *)a)->device, "running the kernel"),
               block_data(input->device, "running the kernel"), bytes);
    }
}

/* noise='s draws, apart from the samples' (uniform()): audits launch at secret points, and
 * the samples of a fixed seed= must not depend on how many launches came before them. */
static double noise_uniform(void)
{
    static uint64_t state = 0x9E3779B97F4A7C15ull;
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (double)((state * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

/* kd_fill_random(t, buf, n, 4242), the simulated kernel's result, made once for the largest n
 * of each dtype and copied after: audits launch the "kernel" again and again, and making 16M
 * random numbers each time was most of a simulated diff's time. */
static void reference_result(kd_dtype t, unsigned char *buf, size_t n)
{
    enum { DTYPES = KD_DT_U64 + 1 };
    static unsigned char *made[DTYPES];
    static size_t made_n[DTYPES];
    size_t size = kd_dtype_size(t);
    if ((unsigned)t >= DTYPES || !size) {
        kd_fill_random(t, buf, n, 4242);
        return;
    }
    if (made_n[t] < n) {
        unsigned char *grown = realloc(made[t], n * size);
        if (!grown) {
            kd_fill_random(t, buf, n, 4242);
            return;
        }
        made[t] = grown;
        kd_fill_random(t, made[t], n, 4242);
        made_n[t] = n;
    }
    memcpy(buf, made[t], n * size); /* kd_fill_random's first n of more are its n: one stream */
}

static void sim_guard_set(kd_server *s, kd_server_arg *a)
{
    (void)s;
    sim_block *b = (sim_block *)(uintptr_t)a->device;
    if (!b->guard && !(b->guard = malloc(a->guard))) {
        kd_proto_reply("err cuda setting the bounds guard failed: out of host memory for %zu bytes", a->guard);
        exit(3);
    }
    b->guard_bytes = a->guard;
    memset(b->guard, KD_BOUNDS_GUARD_BYTE, a->guard);
}

static size_t sim_guard_reach(kd_server *s, kd_server_arg *a)
{
    (void)s;
    const sim_block *b = (const sim_block *)(uintptr_t)a->device;
    size_t reach = b->guard ? b->guard_bytes : 0;
    while (reach && b->guard[reach - 1] == KD_BOUNDS_GUARD_BYTE)
        reach--;
    return reach;
}

/* overrun=B: B bytes written past the end of output a (those within its guard land there). */
static void overrun_output(const kd_server_arg *a, long bytes)
{
    sim_block *b = (sim_block *)(uintptr_t)a->device;
    if (b->guard && bytes > 0)
        memset(b->guard, 0x11, (size_t)bytes < b->guard_bytes ? (size_t)bytes : b->guard_bytes);
}

/* A launch inside `check`: both sides compute the same "reference" outputs, except where
 * told not to (wrong=, unwritten=, output=; copy= copies instead). Outside `check` a
 * simulated launch does nothing. */
static void sim_launch(kd_server *s, int check_run)
{
    const sim_spec *spec = &cur->spec;
    if (check_run < 0)
        return;
    if (spec->skip_after && ++cur->launches > spec->skip_after)
        return; /* a cheat once warm: the outputs keep what they held */
    const kd_server_arg *input = spec->mutate ? first_input(s) : NULL;
    if (input && input->bytes)
        memset(block_data(input->device, "running the kernel"), 0, kd_dtype_size(input->dtype));
    if (spec->copy) {
        copy_launch(s, spec->copy);
        return;
    }
    kd_server_slot *slot = kd_server_current(s);
    for (size_t i = 0; i < slot->nargs; i++) {
        const kd_server_arg *a = &slot->args[i];
        if (!a->is_buffer || !a->is_output)
            continue;
        /* the second run poisons outputs first; an in-out buffer keeps its seeded data,
           so its elements that the "kernel" leaves alone hold their seeded values twice */
        bool poisoned = check_run == 1 && !a->is_inout;
        overrun_output(kd_server_owner(s, (kd_server_arg *)a), spec->overrun);
        size_t n = (size_t)a->count * (size_t)a->lanes, size = kd_dtype_size(a->dtype);
        unsigned char *buf = block_for_write(kd_server_owner(s, (kd_server_arg *)a)->device, "running the kernel");
        reference_result(a->dtype, buf, n); /* the same "result" whatever the position */
        for (size_t e = 0; e < n && e < (size_t)spec->wrong; e++)
            memset(buf + e * size, 0x11, size);
        if (*spec->output)
            shape_output(spec->output, a->dtype, buf, n, poisoned);
        if (poisoned)
            kd_fill_poison(a->dtype, buf, n < (size_t)spec->unwritten ? n : (size_t)spec->unwritten);
        else
            kd_fill_random(a->dtype, buf, n < (size_t)spec->unwritten ? n : (size_t)spec->unwritten, 99 + i);
        double scale = spec->noise > 0 ? 1 + spec->noise * (2 * noise_uniform() - 1) : 1;
        for (size_t e = (size_t)spec->unwritten; spec->noise > 0 && a->dtype == KD_DT_F32 && e < n; e++)
            ((float *)buf)[e] = (float)(((float *)buf)[e] * scale);
    }
}

/* `audit`'s launch: as a timed sample's, which in the simulation is an outputs-writing one. */
static void sim_sample_launch(kd_server *s) { sim_launch(s, 0); }

static void time_samples(kd_words *w)
{
    int k = w->count == 2 ? atoi(w->word[1]) : 0;
    if (k <= 0) {
        kd_proto_reply("err protocol usage: time K");
        return;
    }
    double *s = malloc((size_t)k * sizeof *s);
    cur->launches += k;
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
    unsigned clock = (unsigned)((throttle ? 1600 : 1980) / (sustained_ms ? 1 + cur->spec.sustained : 1));
    printf("ok time clock0=%u clock1=%u reasons=0x%x throttled=%d ", clock, clock, throttle ? 0x4 : 0, throttle);
    if (*cur->spec.kernels)
        printf("kernels=%s ", cur->spec.kernels);
    printf("samples=");
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
 * src/regions/region_records.h, from one block in STRIDE of a grid of SIM_BLOCKS. */
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

static int sim_alloc(kd_server *s, kd_devptr *p, size_t bytes, char *why, size_t why_size)
{
    (void)s;
    sim_block *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(why, why_size, "out of host memory");
        return -1;
    }
    b->bytes = bytes;
    *p = (kd_devptr)(uintptr_t)b;
    return 0;
}

static void sim_free(kd_server *s, kd_devptr p)
{
    (void)s;
    sim_block *b = (sim_block *)(uintptr_t)p;
    free(b->guard);
    free(b->data);
    free(b);
}

/* The seeded contents are made when next read (block_data). */
static bool sim_restore(kd_server *s, kd_server_arg *a, const char *doing)
{
    (void)s, (void)doing;
    sim_block *b = (sim_block *)(uintptr_t)a->device;
    b->seeded = a; /* made when next read (block_data), into its memory if it has some */
    return true;
}

static void sim_download(kd_server *s, void *dst, kd_devptr src, size_t bytes, const char *doing)
{
    (void)s;
    memcpy(dst, block_data(src, doing), bytes);
}

static void sim_download_sample(kd_server *s, void *dst, kd_devptr src, const kd_audit_sample *smp, const char *doing)
{
    (void)s;
    const unsigned char *data = block_data(src, doing);
    for (size_t j = 0; j < smp->count; j++)
        memcpy((unsigned char *)dst + j * smp->chunk, data + smp->first + j * smp->pitch, smp->chunk);
}

static void sim_copy(kd_server *s, const kd_device_copy *c, const char *doing)
{
    (void)s;
    const unsigned char *from = block_data(c->src, doing); /* both made first: a restore may be pending on either */
    memcpy(block_data(c->dst, doing) + c->dst_off, from + c->src_off, c->bytes);
}

static void sim_zero(kd_server *s, kd_devptr p, size_t bytes, const char *doing)
{
    (void)s, (void)bytes, (void)doing;
    (void)p; /* made zeroed on first use */
}

static void sim_poison(kd_server *s, kd_server_arg *a)
{
    (void)s;
    kd_fill_poison(a->dtype, block_for_write(a->device, "poisoning outputs"), (size_t)a->count * (size_t)a->lanes);
}

static void *sim_stream_arg(kd_server *s)
{
    (void)s;
    static unsigned long long stream;
    return &stream;
}

static unsigned long long sim_address(kd_server *s, int slot, size_t k, kd_devptr p)
{
    (void)s, (void)p;
    const sim_spec *spec = &slots[slot].spec;
    return k < (size_t)spec->nbuffers ? spec->buffer_address[k] : 0x7f0000000000ull + ((unsigned long long)k << 20);
}

/* Each slot's entry (`load cubin PATH ENTRY`): the function a hot-spot record names. */
static char sim_entry[KD_PROTO_MAX_SLOTS][256];

static bool sim_load(kd_server *s, kd_words *w)
{
    if (w->count >= 4)
        snprintf(sim_entry[kd_server_current(s) - s->slot], sizeof sim_entry[0], "%s", w->word[3]);
    kd_proto_reply("ok load");
    return true;
}

/* `hotspots PATH`: a made-up hot-spot record (docs/HOTSPOTS.md) of the slot's kernel: eight
 * PCs, its first sixteen bytes apart, the first weighted by the simulated median (long
 * scoreboard), the others 100 samples each (selected), so two sides of different medians give
 * different shares of their first line. */
static void sim_hotspots(kd_server *s, kd_words *w)
{
    if (!kd_server_hotspots_path(s, w))
        return;
    FILE *f = fopen(w->word[1], "w");
    if (!f) {
        kd_proto_reply("err hotspots cannot write %s", w->word[1]);
        return;
    }
    const char *slot_entry = sim_entry[kd_server_current(s) - s->slot];
    const char *entry = slot_entry[0] ? slot_entry : "sim_kernel";
    unsigned long long first = (unsigned long long)(median_ns() / 100), total = first + 7 * 100;
    fprintf(f, "kerndiff-hotspots 1\n# simulated (harness/sim_harness.c)\nkernel %s\nperiod 0\ntotal %llu dropped 0\n"
               "reason 1 smsp__pcsamp_warps_issue_stalled_long_scoreboard\n"
               "reason 2 smsp__pcsamp_warps_issue_stalled_selected\npc %s 0x0 1:%llu\n",
            entry, total, entry, first);
    for (int k = 1; k < 8; k++)
        fprintf(f, "pc %s 0x%x 2:100\n", entry, k * 16);
    fclose(f);
    kd_proto_reply("ok hotspots pcs=8 samples=%llu dropped=0", total);
}

/* seed= makes a run repeatable; otherwise each process draws differently. */
static void sim_seeded(kd_server *s, unsigned long long seed)
{
    (void)s;
    unsigned long long fixed = slots[0].spec.seed;
    rng_state ^= fixed ? fixed * 0x9E3779B97F4A7C15ull : seed * 0x9E3779B97F4A7C15ull + (uint64_t)getpid();
}

static bool sim_before_setup(kd_server *s)
{
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++)
        if (s->slot[k].loaded && slots[k].spec.alloc_fail) {
            kd_proto_reply("err alloc argument 0 needs 68719476736 bytes: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory");
            return false;
        }
    return true;
}

static bool sim_slot_ready(kd_server *s, int slot)
{
    (void)s, (void)slot;
    return true;
}

static bool sim_all_ready(kd_server *s)
{
    (void)s;
    draw_placement(); /* this process's first placement */
    return true;
}

static void sim_release(kd_server *s) { (void)s; }

/* After `reset`'s reply: the timing mode back to single, the slots' entries and sample counts
 * forgotten, the draws started over; the specs (this process's arguments) stay. die_after_reset= exits here, as a kept harness that
 * dies before the next point. */
static void sim_reset(kd_server *s)
{
    sustained_ms = 0;
    resets = s->resets;
    rng_state = RNG_START; /* draws as a fresh process's: a sweep's point does not depend on its harness's past */
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++)
        slots[k].samples_drawn = 0;
    memset(sim_entry, 0, sizeof sim_entry);
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++)
        if (slots[k].spec.die_after_reset && (long)resets == slots[k].spec.die_after_reset)
            exit(0);
}

/* The test double's counters (`counters`): no hardware, so each value is made from the
 * simulated kernel, the same every time: the duration is the side's median, DRAM bytes read
 * and written are its input and output buffers' bytes, a percentage (a name with "pct") lies
 * in 5..95, any other metric is a count from the name's hash scaled by the median, so that two
 * sides with different medians differ. KERNDIFF_SIM_COUNTERS=unavailable|unknown refuses the
 * command like a GPU whose driver lacks the profiler, or one that does not know a metric. */
static double sim_counter(kd_server *s, const char *name)
{
    kd_server_slot *slot = kd_server_current(s);
    double in = 0, out = 0;
    for (size_t i = 0; i < slot->nargs; i++) {
        const kd_server_arg *a = kd_server_owner(s, &slot->args[i]);
        if (slot->args[i].is_buffer && !a->is_scratch)
            *(a->is_output ? &out : &in) += (double)a->bytes;
    }
    if (!strcmp(name, "gpu__time_duration.sum"))
        return median_ns();
    if (!strcmp(name, "dram__bytes_read.sum"))
        return in;
    if (!strcmp(name, "dram__bytes_write.sum"))
        return out;
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (const char *c = name; *c; c++)
        h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
    if (strstr(name, "pct"))
        return 5 + (double)(h % 9000) / 100;
    return (double)(h % 1000 + 1) * median_ns() / 100;
}

/* What `counters` and `prepare-counters` answer under KERNDIFF_SIM_COUNTERS=unavailable. */
#define SIM_NO_PROFILER "err counters unavailable the simulated GPU has no CUPTI profiler (KERNDIFF_SIM_COUNTERS)"

static void sim_counters(kd_server *s, kd_words *w)
{
    const char *names[KD_COUNTERS_MAX_METRICS];
    long n = kd_counters_names(w, names, KD_COUNTERS_MAX_METRICS);
    if (n < 0)
        return;
    if (!s->ready || !kd_server_current(s)->loaded) {
        kd_proto_reply("err protocol counters before setup");
        return;
    }
    const char *refuse = kd_env_nonempty(KD_ENV_SIM_COUNTERS);
    if (refuse && !strcmp(refuse, "unavailable")) {
        kd_proto_reply("%s", SIM_NO_PROFILER);
        return;
    }
    if (refuse && !strcmp(refuse, "unknown")) {
        kd_proto_reply("err counters unknown %s", names[n - 1]);
        return;
    }
    double values[KD_COUNTERS_MAX_METRICS];
    for (long m = 0; m < n; m++)
        values[m] = sim_counter(s, names[m]);
    const char *kernel = "sim_kernel";
    /* Tests of the report's profiler line: answer as a CUPTI 13.0 (user replay, L2 flushed by
     * the harness) or a 13.5 (kernel replay, L2 reset by its cache control) would. */
    static const struct {
        const char *as;
        unsigned version;
        const char *l2, *replay;
    } profilers[] = {{"cupti-13.0", 130000, "harness", "user"}, {"cupti-13.5", 130500, "cupti", "kernel"}};
    const char *replay = "simulated";
    for (size_t i = 0; refuse && i < sizeof profilers / sizeof *profilers; i++)
        if (!strcmp(refuse, profilers[i].as)) {
            kd_counters_reply_profiler(profilers[i].version, profilers[i].l2);
            replay = profilers[i].replay;
        }
    kd_counters_reply(1, &kernel, values, (size_t)n, 1, replay);
}

/* `prepare-counters`: nothing to build ahead here; refused as `counters` would be, or a crash
 * (KERNDIFF_SIM_COUNTERS=crash-prepare). */
static void sim_prepare_counters(kd_server *s, kd_words *w)
{
    const char *names[KD_COUNTERS_MAX_METRICS];
    if (kd_counters_names(w, names, KD_COUNTERS_MAX_METRICS) < 0)
        return;
    const char *refuse = kd_env_nonempty(KD_ENV_SIM_COUNTERS);
    if (refuse && !strcmp(refuse, "crash-prepare")) { /* a child that dies while kerndiff waits on the check */
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
    }
    if (!s->ready)
        kd_proto_reply("err protocol prepare-counters before setup");
    else if (refuse && !strcmp(refuse, "unavailable"))
        kd_proto_reply("%s", SIM_NO_PROFILER);
    else
        kd_proto_reply("ok prepare-counters ms=0.0");
}

static bool sim_command(kd_server *s, kd_words *w)
{
    const char *cmd = w->word[0];
    if (!strcmp(cmd, "hello"))
        kd_proto_reply("ok hello version=%d device=Simulated%%20GPU sm=90 sms=132 l2=52428800 driver=13000 pci=sim",
                       KD_PROTOCOL_VERSION);
    else if (!strcmp(cmd, "place")) {
        draw_placement();
        kd_proto_reply("ok place moved=1 pad=131072");
    } else if (!strcmp(cmd, "warmup") && (cur->launches += 10) > 0)
        kd_proto_reply("ok warmup launches=10 median_ns=%.1f stable=1 timer=simulated timer_note=-", median_ns());
    else if (!strcmp(cmd, "time"))
        time_samples(w);
    else if (!strcmp(cmd, "regions"))
        regions(w);
    else if (!strcmp(cmd, "counters"))
        sim_counters(s, w);
    else if (!strcmp(cmd, "prepare-counters"))
        sim_prepare_counters(s, w);
    else if (!strcmp(cmd, "hotspots"))
        sim_hotspots(s, w);
    else if (!strcmp(cmd, "mode")) {
        unsigned batch;
        if (kd_proto_mode(w, &batch, &sustained_ms))
            kd_proto_reply("ok mode");
        else
            kd_proto_reply("err protocol usage: mode single | mode batched N | mode sustained MS (1..%d)",
                           KD_PROTO_MAX_SUSTAINED_MS);
    } else if (!strcmp(cmd, "once"))
        kd_proto_reply("ok %s", cmd);
    else
        return false;
    (void)s;
    return true;
}

static const kd_vendor sim_vendor = {
    .name = "kerndiff-sim-harness",
    .alloc = sim_alloc,
    .free = sim_free,
    .restore = sim_restore,
    .download = sim_download,
    .download_sample = sim_download_sample,
    .copy = sim_copy,
    .zero = sim_zero,
    .poison = sim_poison,
    .guard_set = sim_guard_set,
    .guard_reach = sim_guard_reach,
    .launch_and_wait = sim_launch,
    .sample_launch = sim_sample_launch,
    .stream_arg = sim_stream_arg,
    .address = sim_address,
    .command = sim_command,
    .load = sim_load,
    .seeded = sim_seeded,
    .before_setup = sim_before_setup,
    .slot_ready = sim_slot_ready,
    .all_ready = sim_all_ready,
    .release = sim_release,
    .reset = sim_reset,
};

/* Slot s's spec: its own argument, else slot 0's (a one-argument harness simulates one side). */
int main(int argc, char **argv)
{
    for (int s = 0; s < KD_PROTO_MAX_SLOTS; s++) {
        char *text = strdup(argc > 1 + s ? argv[1 + s] : argc > 1 ? argv[1] : "");
        parse_spec(text, &slots[s].spec);
        free(text);
    }
    start_s = now_s();
    static kd_vendor ops;
    ops = sim_vendor;
    if (slots[0].spec.no_device_copy)
        ops.copy = NULL;
    server.ops = &ops;
    kd_server_run(&server);
    return 0;
}
