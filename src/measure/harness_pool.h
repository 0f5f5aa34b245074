/* harness_pool.h — harness children started ahead, for a sweep (workflow/sweep.h).
 * A child that has been set up cannot be re-sized: protocol version 2 has no command that
 * undoes `setup` (docs/PROTOCOL.md: `arg` after `setup` is `err protocol`), so every point of
 * a sweep needs its own children. What a sweep can keep is their start-up (a CUDA context,
 * the largest part of a harness's first reply): when a point's timing is done and more
 * points follow, the next point's children are started at once, so that their start-up
 * overlaps the end of this point (its children's teardown, its report, the next point's
 * front end), and the next kd_measure takes them instead of starting its own. Started only
 * after the timing (never while samples are taken), only for points that follow, and each
 * taken only by the same role (v1 alone, v2 alone, both) with the same argv.
 * A spare found dead when taken is replaced by a fresh child, and said (KD_MSG_MEASURE_SPARE_NOT_READY).
 * Off outside a sweep, and with KERNDIFF_SWEEP_FRESH=1 (each point starts its children
 * itself, as before: the bench's baseline). Not thread-safe: one kerndiff, one sweep. */
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

/* A point's child whose work is done: when the pool is open, it is told to quit and reaped
 * later (kd_harness_pool_reap), so that its teardown (a CUDA context) overlaps the next
 * point's start; returns true. Else false: the caller stops it itself. */
bool kd_harness_pool_retire(kd_child *c);
/* Waits for every retired child to end: before a point allocates its buffers, so that the
 * GPU memory they held is free. */
void kd_harness_pool_reap(void);

/* What happened since the process began (the tests' and the bench's count). */
typedef struct kd_harness_pool_stats {
    unsigned started;  /* children started (fresh, or ahead) */
    unsigned taken;    /* spares taken by a point */
    unsigned replaced; /* spares found dead and replaced */
    unsigned dropped;  /* spares stopped unused (argv changed, sweep ended early) */
} kd_harness_pool_stats;
kd_harness_pool_stats kd_harness_pool_stats_get(void);

#endif
