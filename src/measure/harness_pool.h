/* harness_pool.h — the harness children of a sweep (workflow/sweep.h), kept across its points.
 * A child whose point is done is told `reset` (docs/PROTOCOL.md: it drops its buffers and
 * slots, keeps its CUDA context and loaded modules) and kept for the same role (v1 alone, v2
 * alone, both) of the next point, which takes it if its argv is the same: one process per role
 * serves the whole sweep, each distinct build loaded once (issue 31: a 5-size sweep paid five
 * start-ups and module loads per role). A child that cannot be kept (it failed, or answers
 * `reset` with an error: an older harness) is replaced as before: the next point's child is
 * started ahead, once this point's timing is done (never while samples are taken), so that
 * its start-up overlaps the end of this point. A spare found dead when taken is replaced by a
 * fresh child, and said (KD_MSG_MEASURE_KEPT_NOT_READY, KD_MSG_MEASURE_SPARE_NOT_READY).
 * Off outside a sweep. KERNDIFF_SWEEP_FRESH=1: each point starts its children itself (the
 * bench's baseline); KERNDIFF_SWEEP_FRESH=ahead: none kept, the next point's started ahead
 * (the bench's second variant). Not thread-safe: one kerndiff, one sweep. */
#ifndef KD_MEASURE_HARNESS_POOL_H
#define KD_MEASURE_HARNESS_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"
#include "wire/child.h"

enum { KD_POOL_ROLES = 3 }; /* v1 alone, v2 alone, both together */

/* A sweep's point is about to run; `followers` points come after it (0: the last). The
 * first call opens the pool (unless KERNDIFF_SWEEP_FRESH is set). */
void kd_harness_pool_point(size_t followers);
/* The sweep is over: every spare left is stopped, the pool closed. */
void kd_harness_pool_end(void);

/* Child `role` for a point: a spare started ahead with the same argv if there is one and it
 * is alive, else a fresh kd_child_start. `label` names the child (kd_child's side). Returns 0,
 * or -1 with the reason in why (from kd_child_start). */
int kd_harness_pool_take(int role, kd_child *c, const char *label, const char *const *argv, kd_strbuf *why);
/* After a point's timing: when the pool is open and points follow, starts the next point's
 * children (argv[role], NULL: none for that role). */
void kd_harness_pool_start_ahead(const char *const *const argv[KD_POOL_ROLES]);

/* A point's child whose work is done and went well: when the pool is open, points follow, no
 * spare is held for `role` and keeping is not turned off, it is told `reset` and kept as the
 * spare for `role` (argv: the one it was started with); returns true (c is the pool's now).
 * False otherwise, or when the reset failed: the caller retires or stops it. */
bool kd_harness_pool_keep(int role, kd_child *c, const char *const *argv, int timeout_ms);

/* A point's child whose work is done: when the pool is open, it is told to quit and reaped
 * later (kd_harness_pool_reap), so that its teardown (a CUDA context) overlaps the next
 * point's start; returns true. Else false: the caller stops it itself. */
bool kd_harness_pool_retire(kd_child *c);
/* Waits for every retired child to end: before a point allocates its buffers, so that the
 * GPU memory they held is free. */
void kd_harness_pool_reap(void);

/* The hand-over of one child from the timing pass to the counter pass of the same diff (issue
 * 31: the counter pass spent 1.1 s of a 4.1 s full diff starting a second child and setting
 * up the same two sides again). Outside a sweep, a timing pass that went well and was asked to
 * (kd_timing_options.hand_over) gives its shared child here as it is: both sides described,
 * set up, warm, not reset. The counter pass takes it when its argv is the same; whatever is
 * not taken is stopped by kd_harness_pool_drop_handed, which the diff calls once its passes
 * are done (and the counter pass before anything that needs the GPU's memory, ncu). One
 * child at most. KERNDIFF_COUNTERS_FRESH=1 turns it off (the bench's baseline). */
/* True: the pool holds c now (c is zeroed). False (in a sweep, turned off, one already held):
 * the caller stops it as before. */
bool kd_harness_pool_hand_over(kd_child *c, const char *const *argv);
/* The handed child, when there is one with this argv and it is alive: *c is it, its side
 * `label`; true. Otherwise false (a held child with another argv, or dead, is stopped). */
bool kd_harness_pool_take_handed(const char *const *argv, const char *label, kd_child *c);
/* Stops the handed child if nobody took it. */
void kd_harness_pool_drop_handed(void);

/* What happened since the process began (the tests' and the bench's count). */
typedef struct kd_harness_pool_stats {
    unsigned started;  /* children started (fresh, or ahead) */
    unsigned taken;    /* spares started ahead, taken by a point */
    unsigned replaced; /* spares found dead and replaced */
    unsigned dropped;  /* spares stopped unused (argv changed, sweep ended early) */
} kd_harness_pool_stats;
kd_harness_pool_stats kd_harness_pool_stats_get(void);
/* Children reset and kept for a next point, and those a next point took (since the start). */
typedef struct kd_harness_pool_kept {
    unsigned kept, reused;
} kd_harness_pool_kept;
kd_harness_pool_kept kd_harness_pool_kept_get(void);

#endif
