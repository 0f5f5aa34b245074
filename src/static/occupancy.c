/* occupancy.c — theoretical occupancy, computed the way NVIDIA's occupancy calculator does.
 *
 * The rules follow cudaOccMaxActiveBlocksPerMultiprocessor() in the toolkit header
 * cuda_occupancy.h (CUDA 13.0, /usr/local/cuda/include/cuda_occupancy.h), which is the
 * reference implementation behind cudaOccupancyMaxActiveBlocksPerMultiprocessor() and the
 * CUDA Occupancy Calculator, with the device in its default state (carveout "default", i.e.
 * the whole shared-memory carveout may be used; no partitioned global caching, which no
 * architecture in the table supports).
 *
 * Not modelled: the per-SM barrier limit (cudaOccMaxBlocksPerSMBlockBarrierLimit) and
 * cluster launches; neither binds for ordinary kernels.
 */
#include "static/occupancy.h"

#include <stdlib.h>
#include <string.h>

#define KD_WARP_SIZE 32

/* cuda_occupancy.h, cudaOccSubPartitionsPerMultiprocessor(): 4 for every major >= 7.
 * The register file is split evenly between the sub-partitions and a warp's registers live
 * in one of them, so registers are counted per sub-partition, not per SM. */
#define KD_SUBPARTITIONS 4

#define KIB 1024L

/*
 * One row per architecture. Sources, by column:
 *   [PG]  CUDA C++ Programming Guide, "Compute Capabilities" → "Technical Specifications per
 *         Compute Capability" table: max threads per block, max resident warps per SM,
 *         max resident blocks per SM, 32-bit registers per SM, max registers per thread,
 *         max shared memory per SM, max shared memory per block (opt-in).
 *   [OCC] cuda_occupancy.h (CUDA 13.0): cudaOccMaxBlocksPerMultiprocessor() (blocks per SM),
 *         cudaOccRegAllocationGranularity() (256 registers, every major),
 *         cudaOccSMemAllocationGranularity() (256 B for major 7, 128 B for majors 8-12),
 *         cudaOccAlignUpShmemSizeVoltaPlus() (largest shared-memory carveout per SM),
 *         cudaOccSMemPerBlock() (a per-block reservation exists "starting Ampere").
 *   [PG-reserved] Programming Guide, compute capability 8.x/9.x sections: "1 KB of shared
 *         memory not made available to a thread block is reserved for system use", which is
 *         why the per-block maximum is the per-SM maximum minus 1 KB from sm_80 on.
 *
 * Max registers per thread is 255 [PG]; cuda_occupancy.h says 256 for majors >= 7, but ptxas
 * never allocates more than 255, so the PG figure is the one a real kernel can hit.
 * Registers per block (regsPerBlock) is 64 Ki on all these parts [PG], equal to regs_per_sm,
 * so the struct's regs_per_sm doubles as the per-block register limit.
 *
 * Left out: sm_87 (Orin), sm_101/sm_110 (Thor), sm_103, sm_121 — not checked against a source.
 */
static const kd_arch_limits kd_arch_table[] = {
    /* sm  name                        thr/blk warps blocks regs    maxreg alloc
     *     smem/SM     smem/block   smem unit reserved */
    { 70, "Volta (V100)",               1024, 64, 32, 65536, 255, 256,
      96 * KIB,   96 * KIB,   256, 0 },
    { 75, "Turing (T4, RTX 20)",        1024, 32, 16, 65536, 255, 256,
      64 * KIB,   64 * KIB,   256, 0 },
    { 80, "Ampere (A100)",              1024, 64, 32, 65536, 255, 256,
      164 * KIB,  163 * KIB,  128, 1 * KIB },
    { 86, "Ampere (RTX 30, A40)",       1024, 48, 16, 65536, 255, 256,
      100 * KIB,  99 * KIB,   128, 1 * KIB },
    { 89, "Ada Lovelace (RTX 40, L4)",  1024, 48, 24, 65536, 255, 256,
      100 * KIB,  99 * KIB,   128, 1 * KIB },
    { 90, "Hopper (H100, H200)",        1024, 64, 32, 65536, 255, 256,
      228 * KIB,  227 * KIB,  128, 1 * KIB },
    { 100, "Blackwell (B200)",          1024, 64, 32, 65536, 255, 256,
      228 * KIB,  227 * KIB,  128, 1 * KIB },
    /* Blocks per SM is 24 in cuda_occupancy.h (CUDA 13.0) for every major-12 part. */
    { 120, "Blackwell (RTX 50)",        1024, 48, 24, 65536, 255, 256,
      100 * KIB,  99 * KIB,   128, 1 * KIB },
};

const kd_arch_limits *kd_arch_limits_for(int sm)
{
    for (size_t i = 0; i < sizeof kd_arch_table / sizeof kd_arch_table[0]; i++)
        if (kd_arch_table[i].sm == sm)
            return &kd_arch_table[i];
    return NULL;
}

/* Accepts what nvcc accepts for -arch/-code: an optional "sm_" or "compute_" prefix, the
 * digits, and one optional feature suffix ('a' architecture-specific, 'f' family). */
int kd_arch_parse(const char *arch)
{
    if (arch == NULL)
        return -1;
    if (strncmp(arch, "sm_", 3) == 0)
        arch += 3;
    else if (strncmp(arch, "compute_", 8) == 0)
        arch += 8;

    int value = 0, digits = 0;
    for (; *arch >= '0' && *arch <= '9'; arch++, digits++) {
        if (digits == 4)    /* no real architecture has 5 digits; stops int overflow too */
            return -1;
        value = value * 10 + (*arch - '0');
    }
    if (digits < 2 || value == 0)
        return -1;
    if (*arch == 'a' || *arch == 'f')
        arch++;
    return *arch == '\0' ? value : -1;
}

const char *kd_limiter_name(kd_limiter l)
{
    switch (l) {
    case KD_LIMIT_WARPS:     return "warps";
    case KD_LIMIT_BLOCKS:    return "blocks";
    case KD_LIMIT_REGISTERS: return "registers";
    case KD_LIMIT_SHARED:    return "shared memory";
    case KD_LIMIT_NONE:      break;
    }
    return "none";
}

static long round_up(long x, long unit)
{
    return (x + unit - 1) / unit * unit;
}

/* Blocks the register file holds. A warp gets regs*32 rounded up to the allocation unit, and
 * each sub-partition holds a whole number of such warps, so the SM-wide count is the
 * per-sub-partition count times 4 (which can be lower than regs_per_sm / regs_per_warp).
 * 0 registers (an empty kernel) do not limit: max_blocks stands for "unlimited".
 * A block that needs more than the register file (the calculator's separate per-block check)
 * comes out as 0 here without a test of its own: 4 * floor(16384 / R) <= 65536 / R < warps. */
static int blocks_by_registers(const kd_arch_limits *a, int warps_per_block, int regs)
{
    long regs_per_warp = round_up((long)regs * KD_WARP_SIZE, a->reg_alloc_unit);
    if (regs_per_warp == 0)
        return a->max_blocks_per_sm;
    long warps_per_subpartition = (a->regs_per_sm / KD_SUBPARTITIONS) / regs_per_warp;
    return (int)(warps_per_subpartition * KD_SUBPARTITIONS / warps_per_block);
}

/* Blocks the shared memory holds. Every block pays the system reservation on top of its own
 * static + dynamic bytes, so from sm_80 on shared memory always gives a finite count. */
static int blocks_by_shared(const kd_arch_limits *a, long smem_per_block)
{
    long allocated = round_up(smem_per_block + a->reserved_smem_per_block, a->smem_alloc_unit);
    if (allocated == 0)
        return a->max_blocks_per_sm;
    return (int)(a->max_smem_per_sm / allocated);
}

/* Tie rule: when several resources allow the same smallest count, the hardware's fixed
 * limits (warps, then blocks) are named before the kernel's own resources (registers, then
 * shared memory). Naming registers when the warp slots are full anyway would send the reader
 * off to cut registers for no gain: occupancy only rises if the named limiter is relaxed. */
static kd_limiter pick_limiter(const kd_occupancy *o, int *blocks)
{
    struct { int blocks; kd_limiter which; } order[] = {
        { o->by_warps, KD_LIMIT_WARPS },
        { o->by_blocks, KD_LIMIT_BLOCKS },
        { o->by_registers, KD_LIMIT_REGISTERS },
        { o->by_shared, KD_LIMIT_SHARED },
    };
    size_t best = 0;
    for (size_t i = 1; i < sizeof order / sizeof order[0]; i++)
        if (order[i].blocks < order[best].blocks)
            best = i;
    *blocks = order[best].blocks;
    return order[best].which;
}

static int arguments_valid(const kd_arch_limits *a, int block_threads, int regs, long smem)
{
    return a != NULL
        && block_threads > 0 && block_threads <= a->max_threads_per_block
        && regs >= 0 && regs <= a->max_regs_per_thread
        && smem >= 0 && smem <= a->max_smem_per_block;
}

/* A block whose registers exceed the per-block register file (e.g. 1024 threads x 255 regs)
 * is within the per-thread limits, so it is not an invalid argument: the result is 0 blocks
 * with limiter "registers", which tells the reader why the launch would fail. */
int kd_occupancy_compute(const kd_arch_limits *arch, int block_threads, int regs_per_thread,
                         long smem_per_block, kd_occupancy *out)
{
    if (out == NULL)
        return -1;
    memset(out, 0, sizeof *out);
    out->limiter = KD_LIMIT_NONE;
    if (!arguments_valid(arch, block_threads, regs_per_thread, smem_per_block))
        return -1;

    int warps_per_block = (block_threads + KD_WARP_SIZE - 1) / KD_WARP_SIZE;
    out->by_warps = arch->max_warps_per_sm / warps_per_block;
    out->by_blocks = arch->max_blocks_per_sm;
    out->by_registers = blocks_by_registers(arch, warps_per_block, regs_per_thread);
    out->by_shared = blocks_by_shared(arch, smem_per_block);

    int blocks;
    out->limiter = pick_limiter(out, &blocks);
    out->blocks_per_sm = blocks;
    out->warps_per_sm = blocks * warps_per_block;
    out->occupancy = (double)out->warps_per_sm / arch->max_warps_per_sm;
    return 0;
}
