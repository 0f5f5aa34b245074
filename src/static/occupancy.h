/* occupancy.h — theoretical occupancy from one documented table of per-architecture limits. */
#ifndef KD_STATIC_OCCUPANCY_H
#define KD_STATIC_OCCUPANCY_H

#include <stddef.h>

typedef struct kd_arch_limits {
    int sm;                        /* 80 for sm_80 */
    const char *name;              /* "Ampere A100", ... */
    int max_threads_per_block;
    int max_warps_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;
    int max_regs_per_thread;
    int reg_alloc_unit;            /* registers are allocated per warp in units of this many */
    long max_smem_per_sm;          /* bytes usable by blocks */
    long max_smem_per_block;       /* bytes, opt-in maximum */
    long smem_alloc_unit;          /* bytes */
    long reserved_smem_per_block;  /* bytes the system reserves per block (1 KiB since sm_80) */
} kd_arch_limits;

typedef enum kd_limiter {
    KD_LIMIT_NONE = 0,   /* the kernel cannot launch with this configuration */
    KD_LIMIT_WARPS,
    KD_LIMIT_BLOCKS,
    KD_LIMIT_REGISTERS,
    KD_LIMIT_SHARED,
} kd_limiter;

typedef struct kd_occupancy {
    int blocks_per_sm;
    int warps_per_sm;
    double occupancy;   /* warps_per_sm / max_warps_per_sm, 0..1 */
    kd_limiter limiter; /* the resource that gives the smallest block count */
    int by_warps, by_blocks, by_registers, by_shared; /* blocks per SM each resource allows */
} kd_occupancy;

/* The limits for sm_XX, or NULL if the table has no entry. */
const kd_arch_limits *kd_arch_limits_for(int sm);
/* Parses "sm_90", "sm_90a", "compute_90" or "90" into 90; -1 if unreadable. */
int kd_arch_parse(const char *arch);
const char *kd_limiter_name(kd_limiter l);

/* Returns 0 and fills out; -1 if block_threads or regs are outside the architecture's limits
 * (out->limiter = KD_LIMIT_NONE, zero blocks). */
int kd_occupancy_compute(const kd_arch_limits *arch, int block_threads, int regs_per_thread,
                         long smem_per_block, kd_occupancy *out);

#endif
