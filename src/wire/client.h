/* client.h — kerndiff's side of the harness protocol (docs/PROTOCOL.md): every command is
 * composed and every reply parsed here, through typed calls, so the wire format has one
 * owner. The timing pass, the correctness check and the counter pass all use it. */
#ifndef KD_WIRE_CLIENT_H
#define KD_WIRE_CLIENT_H

#include <stdbool.h>
#include "launch/spec.h"
#include "util/strbuf.h"
#include "wire/child.h"

typedef struct kd_harness_side {
    const char *label;                 /* "v1" / "v2" */
    const char *const *harness_argv;   /* the child that holds this side alone */
    const char *load_kind;             /* "cubin" or "launcher" */
    const char *load_path;             /* the cubin or shared object */
    const char *load_symbol;           /* entry or launcher symbol */
    const kd_launch_spec *spec;
    /* Captured data (issue 26): fill[i], when the array and its entry are non-NULL, is a file
     * whose bytes replace buffer argument i's random seed contents (`fill I PATH`,
     * docs/PROTOCOL.md): exactly the buffer's size. NULL (the default): every buffer random.
     * In slot 1 a buffer that shares slot 0's (share[i] >= 0) is not filled: it holds slot
     * 0's contents, so the caller shares only buffers whose two sides start alike. */
    const char *const *fill;
    /* A launch replayed from a capture (launch/replay.h, `--launch FILE`): the parameters,
     * allocations and pointer words are the capture's (wire/replay.h), spec holds its buffers
     * and geometry; NULL (the default): spec describes the launch. */
    const struct kd_replay *replay;
} kd_harness_side;

typedef struct kd_device_info {
    char name[128];
    int sm, sms, driver;
    long l2_bytes;
} kd_device_info;

enum { KD_HARNESS_START_MS = 120000 }; /* CUDA start-up, module loading, large allocations */

/* hello, with the protocol version checked. Returns 0, or -1 with the reason in why. */
int kd_wire_hello(kd_child *c, kd_device_info *info, kd_strbuf *why);

/* Describes one side into slot `slot` of the child: `side` (for slot 1), load, every
 * argument, the geometry and a `fill` for every buffer side->fill names. share[i] >= 0 makes slot-1 buffer i use slot-0 buffer
 * share[i] (NULL: none shared). Returns 0, or -1 with "what it was doing: what happened". */
int kd_wire_describe(kd_child *c, int slot, const kd_harness_side *side, const int *share, int timeout_ms,
                     kd_strbuf *why);

/* hello, describe slot 0, seed: a child that holds one side. info may be NULL. */
int kd_harness_describe(kd_child *c, const kd_harness_side *side, unsigned long long seed, int timeout_ms,
                        kd_device_info *info, kd_strbuf *why);

/* fill ARG PATH: the current slot's buffer argument `arg` starts with PATH's bytes instead of
 * random data, in every restore (check's two runs, timing). Before setup; a shared buffer
 * (share=) keeps slot 0's contents and cannot be filled. The child checks that the file has
 * exactly the buffer's size: `err load` otherwise. */
kd_reply_status kd_wire_fill(kd_child *c, unsigned arg, const char *path, int timeout_ms);

kd_reply_status kd_wire_seed(kd_child *c, unsigned long long seed, int timeout_ms);
kd_reply_status kd_wire_side(kd_child *c, int slot, int timeout_ms);

/* setup is sent and received apart, so that several children set up at once. The reply
 * gives the device bytes allocated; an allocation failure says how much `need_bytes` is. */
void kd_wire_send_setup(kd_child *c);
int kd_wire_setup_reply(kd_child *c, unsigned long long need_bytes, unsigned long long *bytes, kd_strbuf *why);

typedef struct kd_warmup_result {
    unsigned launches;
    double median_ns;
    bool stable;
    char timer[16];        /* "cupti", "events", "simulated" */
    char timer_note[128];  /* why that timer, decoded; "" when nothing to say */
} kd_warmup_result;
kd_reply_status kd_wire_warmup(kd_child *c, int budget_ms, int timeout_ms, kd_warmup_result *out);

/* mode single (batch 0) or mode batched BATCH. */
kd_reply_status kd_wire_mode(kd_child *c, unsigned batch, int timeout_ms);
/* mode sustained MS: the GPU kept busy as triton.testing.do_bench keeps it (docs/PROTOCOL.md). */
kd_reply_status kd_wire_mode_sustained(kd_child *c, unsigned ms, int timeout_ms);

/* reset: the child drops every buffer and slot and takes a new launch (a sweep's next point)
 * on the same process. A harness without `reset` answers err protocol. */
kd_reply_status kd_wire_reset(kd_child *c, int timeout_ms);

typedef struct kd_time_block {
    double *samples;       /* room for k, filled with k samples (ns per launch, > 0) */
    unsigned clock0_mhz, clock1_mhz;
    unsigned long long reasons;
    bool throttled;
    unsigned kernels_min, kernels_max; /* kernels one sample ran, fewest and most (0: not counted) */
} kd_time_block;
/* time K. A reply without k positive samples or without its fields is KD_REPLY_GARBLED. */
kd_reply_status kd_wire_time(kd_child *c, int k, int timeout_ms, kd_time_block *out);

/* place VALUE: move the buffers to a new placement; *moved is false when they stayed. */
kd_reply_status kd_wire_place(kd_child *c, unsigned long long value, int timeout_ms, bool *moved);

/* `audit-prepare`: the current slot's device copies for the audits made before the timing
 * (docs/PROTOCOL.md). */
kd_reply_status kd_wire_audit_prepare(kd_child *c, int timeout_ms);
/* audit SEED PATH: one untimed launch of the current slot on inputs seeded from SEED, outputs
 * holding SEED's random values, launched as a timed sample is; the outputs written to path
 * (their bytes: out->bytes), with the first input it wrote into. The device keeps the audit's
 * contents. A reply without bytes= or inputs_changed= is KD_REPLY_GARBLED. */
typedef struct kd_audit_reply {
    unsigned long long bytes;
    long changed_input;         /* the first input argument the launch wrote into, -1: none */
    /* where the audit's time went in the harness, microseconds: giving the buffers their
       contents, the launch, reading back (`us=`; all 0 from a harness that does not say) */
    double put_us, launch_us, read_us;
} kd_audit_reply;
kd_reply_status kd_wire_audit(kd_child *c, unsigned long long seed, const char *path, int timeout_ms,
                              kd_audit_reply *out);

/* check PATH: the outputs of a seeded run, then of a poisoned run, written to path. */
void kd_wire_send_check(kd_child *c, const char *path);
kd_reply_status kd_wire_check_reply(kd_child *c, int timeout_ms);
/* After an ok check reply: the buffers whose bounds guard a run wrote (`overrun=I:R,...`:
 * argument I reached R bytes past its end; wire/protocol.h kd_bounds_guard_bytes), at most max
 * of them in out. Returns how many there are (out holds the first max), or -1 when the reply has no overrun= or it does not parse
 * (a check that cannot say whether the launch stayed in bounds). */
typedef struct kd_overrun {
    size_t arg;
    unsigned long long reach;
} kd_overrun;
long kd_wire_check_overruns(const kd_child *c, kd_overrun *out, size_t max);

/* regions CAPACITY LAUNCHES STRIDE PATH: the instrumented kernel's records from one block in
 * `block_stride` (src/regions/region_records.h), written to `path`. */
typedef struct kd_wire_regions_request {
    unsigned capacity, launches, block_stride;
    const char *path;
    int timeout_ms;
} kd_wire_regions_request;
/* *record_cycles: the cost of one record the harness measured (0: not measured). */
kd_reply_status kd_wire_regions_run(kd_child *c, const kd_wire_regions_request *req, double *record_cycles);

/* setup guard: the same, with a hole after every buffer (for compute-sanitizer). */
void kd_wire_send_setup_guarded(kd_child *c);

/* buffers: *list is the reply's "I:0xADDR:BYTES,..." (in the child's last reply). */
kd_reply_status kd_wire_buffers(kd_child *c, int timeout_ms, const char **list);

/* once: one launch inside cuProfilerStart/Stop (the counter pass). */
kd_reply_status kd_wire_once(kd_child *c, int timeout_ms);

#endif
