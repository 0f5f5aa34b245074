/* server.h — the harness protocol's server, written once for every vendor (docs/PROTOCOL.md):
 * the dispatch loop, the slots and their arguments, seeding (random, or a `fill` file's
 * bytes), `setup`, `check`, `buffers`, and a replayed launch's raw parameters and pointer
 * patches (`arg I bytes`, `patch`). The device work goes through a kd_vendor table
 * (harness/vendor.h); a vendor's main() fills it and calls kd_server_run. */
#ifndef KD_HARNESS_SERVER_H
#define KD_HARNESS_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "vendor.h"
#include "launch/spec.h"
#include "util/dtype.h"

#define KD_SERVER_MAX_ARGS KD_LAUNCH_MAX_ARGS /* what kerndiff passes at most (launch/spec.h) */

typedef struct kd_server_arg {
    bool is_buffer, is_output;  /* is_output: compared (written to the check file) */
    bool is_inout;              /* an output the kernel also reads: seeded in both check runs, never poisoned */
    bool is_scratch;            /* compiler workspace: zeroed, never seeded, compared or moved */
    int share;                  /* slot 1 only: the slot-0 argument whose buffer this one uses, or -1 */
    kd_dtype dtype;
    int lanes;
    unsigned long long count;   /* elements of the (vector) type */
    size_t bytes;
    size_t guard;               /* bytes allocated after the buffer's end: `check`'s bounds guard */
    size_t seed_index;          /* k of docs/PROTOCOL.md "Inputs" */
    kd_devptr device;
    void *initial;              /* the seeded contents (host), restored before each `check` run */
    void *fill;                 /* `fill I PATH`: the file's bytes, which replace the random seed */
    void *audit;                /* the last `audit` seed's contents (host), kept for the other slot's audit;
                                   made only where the device cannot rotate from the mirror */
    kd_devptr mirror;           /* `audit`: a device copy of the seeded contents (0: none) */
    bool mirror_tried;          /* ... its allocation was tried (once: it failed, the host rotates) */
    bool audit_in;              /* during an `audit` the host rotated: initial and audit swapped, so that
                                   a vendor that seeds lazily (the simulated one) reads the audit's */
    unsigned char scalar[8];
    unsigned char *raw;         /* `arg I bytes HEX`: a by-value parameter as the program passed it */
    size_t raw_bytes;
} kd_server_arg;

/* `patch I WORD J OFFSET`: the 8 bytes at WORD of parameter I (an `arg I bytes`) hold buffer
 * J's device address + OFFSET, rewritten whenever buffers are made or moved (a replayed
 * launch's pointer words, rebased onto the harness's own copies of the allocations). */
typedef struct kd_server_patch {
    size_t param, word, buffer;
    unsigned long long offset;
} kd_server_patch;

typedef struct kd_server_slot {
    kd_server_arg args[KD_SERVER_MAX_ARGS];
    void *arg_ptrs[KD_SERVER_MAX_ARGS]; /* what a launch passes: &device, scalar bytes, the stream */
    size_t nargs;
    bool loaded;
    unsigned grid[3], block[3], smem;
    unsigned cluster[3];        /* `geometry ... CX CY CZ`: blocks per cluster; all 0: no cluster launch */
    kd_server_patch *patches;
    size_t npatches;
} kd_server_slot;

typedef struct kd_server {
    const kd_vendor *ops;
    void *vendor;               /* the vendor's own state */
    kd_server_slot slot[KD_PROTO_MAX_SLOTS];
    int cur;                    /* the slot `side` selected (0 until then) */
    unsigned long long seed;
    unsigned long long audit_seed; /* the seed the args' `audit` contents were made from */
    bool ready;                 /* after a setup that succeeded */
    unsigned resets;            /* `reset`s answered: one process serves a sweep's points */
} kd_server;

/* `hotspots PATH [period=N]`'s checks (after setup, a loaded slot, a PATH): the path, decoded,
 * or NULL after the `err` reply. */
const char *kd_server_hotspots_path(kd_server *s, kd_words *w);

/* Reads commands from stdin until `quit` or end of input, answering each on stdout. */
void kd_server_run(kd_server *s);

/* What buffer a starts with: its `fill` file's bytes, else kd_fill_random's (made on first
 * use and kept). NULL when host memory ran out. */
const void *kd_server_seeded(kd_server *s, kd_server_arg *a);
/* The buffer an argument uses: its own, or slot 0's one it shares. */
kd_server_arg *kd_server_owner(kd_server *s, kd_server_arg *a);
static inline kd_server_slot *kd_server_current(kd_server *s) { return &s->slot[s->cur]; }

#endif
