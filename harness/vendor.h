/* vendor.h — what a harness needs from a GPU vendor: the device-operations table that
 * harness/server.c drives. The server owns the protocol (docs/PROTOCOL.md): the dispatch
 * loop, the slots and their arguments, seeding (random or `fill`ed from a file), `setup`,
 * `check` (restore, poison, launch, read back), `audit`, `buffers`. A vendor owns the device: memory,
 * launches, its timer, and the commands that are device work through and through (`hello`,
 * `load`, `warmup`, `mode`, `time`, `place`, `regions`, `once`).
 *
 * One file per vendor fills this table and has the main(): harness/cuda_harness.c (the CUDA
 * driver API), harness/sim_harness.c (the simulated test double). harness/hip_ops.h
 * declares the table's functions for HIP/ROCm (not built: no AMD GPU here).
 *
 * Conventions: an operation that fails in a way the protocol calls fatal (a CUDA error after
 * a kernel fault poisons the context) replies `err cuda ...` itself and exits with status 3;
 * `doing` words what was being done, for that reply. */
#ifndef KD_HARNESS_VENDOR_H
#define KD_HARNESS_VENDOR_H

#include <stdbool.h>
#include <stddef.h>

#include "wire/protocol.h"

/* A harness's reply: one line on stdout, flushed at once (the orchestrator waits for it).
 * It lives with the server (harness/server.c), not in src/wire: nothing in kerndiff's own
 * process writes a reply. */
void kd_proto_reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

typedef unsigned long long kd_devptr; /* a device address (CUdeviceptr, hipDeviceptr_t) */

struct kd_server;
struct kd_server_arg;

/* One read of `audit` (the table's download_samples): buffer src's chunks as `sample` says,
 * packed into dst. */
typedef struct kd_sample_read {
    void *dst;
    kd_devptr src;
    kd_audit_sample sample;
} kd_sample_read;

/* A device-to-device copy (the table's `copy`): bytes at src + src_off to dst + dst_off. */
typedef struct kd_device_copy {
    kd_devptr dst, src;
    size_t dst_off, src_off, bytes;
} kd_device_copy;

typedef struct kd_vendor {
    const char *name; /* for stderr: "kerndiff-harness" */

    /* Memory. alloc returns 0, or non-zero with the vendor's words for the failure in why. */
    int (*alloc)(struct kd_server *s, kd_devptr *p, size_t bytes, char *why, size_t why_size);
    void (*free)(struct kd_server *s, kd_devptr p);
    /* Gives buffer a (its own, a->device) its seeded contents (kd_server_seeded): at `setup`
     * and before each `check` run. A real device copies them now; the simulated one makes them
     * when its memory is first read, so that a simulated 4 GiB input no kernel reads costs
     * nothing. Returns false when host memory ran out (the server says `err alloc`). */
    bool (*restore)(struct kd_server *s, struct kd_server_arg *a, const char *doing);
    void (*download)(struct kd_server *s, void *dst, kd_devptr src, size_t bytes, const char *doing);
    /* The chunks of src that `audit` reads back (wire/protocol.h's kd_audit_sample: count
     * chunks, pitch bytes apart from first), packed one after the other into dst. */
    void (*download_sample)(struct kd_server *s, void *dst, kd_devptr src, const kd_audit_sample *sample,
                            const char *doing);
    /* Optional: n reads as download_sample makes each, waited for once. An audit reads up to
     * seven a side (an output, each input's sample and its two ends); each waited for alone
     * was a synchronisation inside the timing loop. Without it, download_sample one by one. */
    void (*download_samples)(struct kd_server *s, const kd_sample_read *reads, size_t n, const char *doing);
    /* Optional: c->bytes from c->src + c->src_off to c->dst + c->dst_off, on the device,
     * ordered before the next launch, copy, download and download_sample (it need not be
     * finished when it returns: CUDA queues it on the launches' stream). `audit` then keeps a device copy of each buffer's seeded
     * contents (its mirror) and rotates from it with two copies; without it, the host rotates
     * and uploads the buffer at every audit (0.1 s for 64 MiB, where the two copies take 0.1 ms). */
    void (*copy)(struct kd_server *s, const struct kd_device_copy *c, const char *doing);
    void (*zero)(struct kd_server *s, kd_devptr p, size_t bytes, const char *doing);
    /* `check`'s bounds guard, the a->guard bytes after buffer a's end (its own allocation):
     * guard_set fills them with KD_BOUNDS_GUARD_BYTE; guard_reach returns how far past the end
     * the last byte that is no longer KD_BOUNDS_GUARD_BYTE lies (1..a->guard), 0 when none. */
    void (*guard_set)(struct kd_server *s, struct kd_server_arg *a);
    size_t (*guard_reach)(struct kd_server *s, struct kd_server_arg *a);
    /* Fills an output with kd_fill_poison's pattern (util/dtype.h). */
    void (*poison)(struct kd_server *s, struct kd_server_arg *a);

    /* One launch of the current slot (s->cur), then waits for it. check_run: 0 the seeded and
     * 1 the poisoned run of `check` (the simulated device writes its synthetic outputs by
     * it; a real device ignores it). */
    void (*launch_and_wait)(struct kd_server *s, int check_run);
    /* One launch of the current slot made exactly as a timed sample makes it (L2 flushed,
     * the stream held, the timer's records taken), its time thrown away: `audit`'s launch,
     * which the kernel must not be able to tell from a timed one. */
    void (*sample_launch)(struct kd_server *s);
    /* The pointer a launcher's stream argument is passed as (`arg I stream`). */
    void *(*stream_arg)(struct kd_server *s);
    /* The address `buffers` reports for the k-th buffer of slot `slot`, allocated at p. */
    unsigned long long (*address)(struct kd_server *s, int slot, size_t k, kd_devptr p);

    /* The vendor's own commands (the list at the top). Returns false for a command it does
     * not know (the server answers `err protocol unknown command`). */
    bool (*command)(struct kd_server *s, kd_words *w);
    /* `load` put a kernel into slot s->cur (the server counts the slot as loaded). Replies. */
    bool (*load)(struct kd_server *s, kd_words *w);
    /* `seed N` was received (optional). */
    void (*seeded)(struct kd_server *s, unsigned long long seed);
    /* `setup`: before any buffer, a chance to refuse (optional: the simulated alloc_fail);
     * after a slot's buffers, the vendor's own per-slot set-up; after every slot, its own
     * (the L2 flush buffer). Each returns false after replying `err`. */
    bool (*before_setup)(struct kd_server *s);
    bool (*slot_ready)(struct kd_server *s, int slot);
    bool (*all_ready)(struct kd_server *s);
    /* A failed setup: give back what the vendor's own set-up took (buffers are the server's). */
    void (*release)(struct kd_server *s);
    /* `reset` (after the server dropped every buffer and slot and replied): forget the slots'
     * kernels and the timing mode, so that the process takes a new launch as if it had just
     * started; what is costly to make again (the context, loaded modules, the timer) stays.
     * Optional. */
    void (*reset)(struct kd_server *s);
} kd_vendor;

#endif
