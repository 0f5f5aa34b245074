/* test_occupancy.c — the architecture table against published limits, and occupancy results
 * computed by hand with the occupancy calculator's rules (see src/static/occupancy.c).
 *
 * Shorthand in the arithmetic comments:
 *   warps/block  = ceil(threads / 32)
 *   regs/warp    = roundup(regs * 32, 256)
 *   by_registers = floor(floor(65536 / 4 / regs/warp) * 4 / warps/block)   (4 sub-partitions)
 *   by_shared    = floor(smem/SM / roundup(smem + 1 KiB reserved, 128))     (sm_80 and later)
 *   by_warps     = floor(max warps/SM / warps/block)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "static/occupancy.h"

#define KIB 1024L

/* A macro, not a function, so a failure reports the line of the case that broke. Occupancy is
 * compared exactly: every expected value here is a dyadic fraction, exact in a double. */
#define EXPECT_OCC(o, blocks, warps, occ, lim)                 \
    do {                                                       \
        assert_int_equal((o).blocks_per_sm, (blocks));         \
        assert_int_equal((o).warps_per_sm, (warps));           \
        assert_true((o).occupancy == (occ));                   \
        assert_string_equal(kd_limiter_name((o).limiter),      \
                            kd_limiter_name(lim));             \
    } while (0)

static kd_occupancy compute_ok(int sm, int threads, int regs, long smem)
{
    const kd_arch_limits *a = kd_arch_limits_for(sm);
    assert_non_null(a);
    kd_occupancy o;
    assert_int_equal(kd_occupancy_compute(a, threads, regs, smem, &o), 0);
    return o;
}

/* ---- the table ---- */

static void test_sm90_published_limits(void **state)
{
    (void)state;
    const kd_arch_limits *a = kd_arch_limits_for(90);
    assert_non_null(a);
    assert_int_equal(a->sm, 90);
    assert_int_equal(a->max_threads_per_block, 1024);
    assert_int_equal(a->max_warps_per_sm, 64);          /* 2048 threads / 32 */
    assert_int_equal(a->max_blocks_per_sm, 32);
    assert_int_equal(a->regs_per_sm, 65536);
    assert_int_equal(a->max_regs_per_thread, 255);
    assert_int_equal(a->reg_alloc_unit, 256);
    assert_int_equal(a->max_smem_per_sm, 228 * KIB);    /* 233472 */
    assert_int_equal(a->max_smem_per_block, 227 * KIB); /* 232448 = 228 KiB - 1 KiB reserved */
    assert_int_equal(a->smem_alloc_unit, 128);
    assert_int_equal(a->reserved_smem_per_block, 1 * KIB);
}

static void test_sm80_published_limits(void **state)
{
    (void)state;
    const kd_arch_limits *a = kd_arch_limits_for(80);
    assert_non_null(a);
    assert_int_equal(a->sm, 80);
    assert_int_equal(a->max_threads_per_block, 1024);
    assert_int_equal(a->max_warps_per_sm, 64);
    assert_int_equal(a->max_blocks_per_sm, 32);
    assert_int_equal(a->regs_per_sm, 65536);
    assert_int_equal(a->max_regs_per_thread, 255);
    assert_int_equal(a->reg_alloc_unit, 256);
    assert_int_equal(a->max_smem_per_sm, 164 * KIB);    /* 167936 */
    assert_int_equal(a->max_smem_per_block, 163 * KIB); /* 166912 */
    assert_int_equal(a->smem_alloc_unit, 128);
    assert_int_equal(a->reserved_smem_per_block, 1 * KIB);
}

static void test_table_lookup(void **state)
{
    (void)state;
    const int known[] = { 70, 75, 80, 86, 89, 90, 100, 120 };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        const kd_arch_limits *a = kd_arch_limits_for(known[i]);
        assert_non_null(a);
        assert_int_equal(a->sm, known[i]);
        assert_non_null(a->name);
    }
    assert_null(kd_arch_limits_for(0));
    assert_null(kd_arch_limits_for(-1));
    assert_null(kd_arch_limits_for(91));
    assert_null(kd_arch_limits_for(61));
}

/* ---- parsing and names ---- */

static void test_arch_parse(void **state)
{
    (void)state;
    assert_int_equal(kd_arch_parse("sm_90"), 90);
    assert_int_equal(kd_arch_parse("sm_90a"), 90);
    assert_int_equal(kd_arch_parse("compute_80"), 80);
    assert_int_equal(kd_arch_parse("86"), 86);
    assert_int_equal(kd_arch_parse("sm_100a"), 100);
    assert_int_equal(kd_arch_parse("sm_100f"), 100);
    assert_int_equal(kd_arch_parse("compute_120"), 120);

    assert_int_equal(kd_arch_parse(NULL), -1);
    assert_int_equal(kd_arch_parse(""), -1);
    assert_int_equal(kd_arch_parse("sm_"), -1);
    assert_int_equal(kd_arch_parse("sm_9"), -1);
    assert_int_equal(kd_arch_parse("sm_00"), -1);
    assert_int_equal(kd_arch_parse("sm90"), -1);
    assert_int_equal(kd_arch_parse("sm_90b"), -1);
    assert_int_equal(kd_arch_parse("sm_90aa"), -1);
    assert_int_equal(kd_arch_parse("sm_-90"), -1);
    assert_int_equal(kd_arch_parse(" sm_90"), -1);
    assert_int_equal(kd_arch_parse("sm_90 "), -1);
    assert_int_equal(kd_arch_parse("hopper"), -1);
    assert_int_equal(kd_arch_parse("sm_99999999999999999999"), -1);
}

static void test_limiter_names(void **state)
{
    (void)state;
    assert_string_equal(kd_limiter_name(KD_LIMIT_REGISTERS), "registers");
    assert_string_equal(kd_limiter_name(KD_LIMIT_SHARED), "shared memory");
    assert_string_equal(kd_limiter_name(KD_LIMIT_WARPS), "warps");
    assert_string_equal(kd_limiter_name(KD_LIMIT_BLOCKS), "blocks");
    assert_string_equal(kd_limiter_name(KD_LIMIT_NONE), "none");
    assert_string_equal(kd_limiter_name((kd_limiter)99), "none");
}

/* ---- hand-computed occupancy ---- */

static void test_256_threads_32_regs_full(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(90, 256, 32, 0);
    /* warps/block = 256/32 = 8; by_warps = 64/8 = 8 */
    assert_int_equal(o.by_warps, 8);
    /* regs/warp = 32*32 = 1024; 16384/1024 = 16 warps per sub-partition; 16*4/8 = 8 */
    assert_int_equal(o.by_registers, 8);
    assert_int_equal(o.by_blocks, 32);
    /* roundup(0 + 1024, 128) = 1024; 233472/1024 = 228 */
    assert_int_equal(o.by_shared, 228);
    /* min = 8 (warps and registers tie; the tie names the fixed limit, warps);
     * 8 blocks * 8 warps = 64 warps; 64/64 = 100% */
    EXPECT_OCC(o, 8, 64, 1.0, KD_LIMIT_WARPS);

    o = compute_ok(80, 256, 32, 0);
    /* same as sm_90 except by_shared = 167936/1024 = 164 */
    assert_int_equal(o.by_shared, 164);
    EXPECT_OCC(o, 8, 64, 1.0, KD_LIMIT_WARPS);
}

static void test_256_threads_64_regs(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(90, 256, 64, 0);
    /* regs/warp = 64*32 = 2048; 16384/2048 = 8 per sub-partition; 8*4 = 32 warps; 32/8 = 4 */
    assert_int_equal(o.by_registers, 4);
    assert_int_equal(o.by_warps, 8);
    /* 4 blocks * 8 warps = 32 warps; 32/64 = 50% */
    EXPECT_OCC(o, 4, 32, 0.5, KD_LIMIT_REGISTERS);
}

static void test_128_threads_255_regs(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(90, 128, 255, 0);
    /* regs/warp = roundup(255*32 = 8160, 256) = 8192; 16384/8192 = 2 per sub-partition;
     * 2*4 = 8 warps; warps/block = 128/32 = 4; 8/4 = 2 */
    assert_int_equal(o.by_registers, 2);
    /* 2 blocks * 4 warps = 8 warps; 8/64 = 12.5% */
    EXPECT_OCC(o, 2, 8, 0.125, KD_LIMIT_REGISTERS);
}

static void test_1024_threads_32_regs(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(90, 1024, 32, 0);
    /* warps/block = 32; by_warps = 64/32 = 2;
     * by_registers: 1024 regs/warp, 16 per sub-partition, 64 warps / 32 = 2 (tie → warps) */
    assert_int_equal(o.by_warps, 2);
    assert_int_equal(o.by_registers, 2);
    /* 2 * 32 = 64 warps; 100% */
    EXPECT_OCC(o, 2, 64, 1.0, KD_LIMIT_WARPS);
}

static void test_48k_shared_sm80(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(80, 256, 32, 48 * KIB);
    /* roundup(49152 + 1024, 128) = 50176; 167936/50176 = 3.35 → 3 */
    assert_int_equal(o.by_shared, 3);
    /* 3 blocks * 8 warps = 24 warps; 24/64 = 37.5% */
    EXPECT_OCC(o, 3, 24, 0.375, KD_LIMIT_SHARED);
}

static void test_48k_shared_sm90(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(90, 256, 32, 48 * KIB);
    /* roundup(49152 + 1024, 128) = 50176; 233472/50176 = 4.65 → 4 */
    assert_int_equal(o.by_shared, 4);
    /* 4 blocks * 8 warps = 32 warps; 32/64 = 50% */
    EXPECT_OCC(o, 4, 32, 0.5, KD_LIMIT_SHARED);
}

static void test_one_thread_blocks(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(90, 1, 32, 0);
    /* warps/block = ceil(1/32) = 1; by_warps = 64; by_registers = 64 warps / 1 = 64;
     * by_blocks = 32 is the smallest */
    assert_int_equal(o.by_warps, 64);
    assert_int_equal(o.by_registers, 64);
    /* 32 blocks * 1 warp = 32 warps; 32/64 = 50% */
    EXPECT_OCC(o, 32, 32, 0.5, KD_LIMIT_BLOCKS);
}

static void test_partial_warp_counts_as_whole(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(90, 100, 16, 0);
    /* warps/block = ceil(100/32) = 4 (not 3); by_warps = 64/4 = 16 */
    assert_int_equal(o.by_warps, 16);
    /* 16 blocks * 4 warps = 64 warps; 100% */
    EXPECT_OCC(o, 16, 64, 1.0, KD_LIMIT_WARPS);
}

static void test_register_granularity_per_subpartition(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(90, 96, 33, 0);
    /* regs/warp = roundup(33*32 = 1056, 256) = 1280; 16384/1280 = 12.8 → 12 per sub-partition;
     * 12*4 = 48 warps; warps/block = 3; 48/3 = 16.
     * (SM-wide without sub-partitions: 65536/1280 = 51 warps → 17 blocks;
     *  without the 256 rounding: 65536/1056 = 62 warps → 20 blocks.) */
    assert_int_equal(o.by_registers, 16);
    assert_int_equal(o.by_warps, 21); /* 64/3 = 21.3 */
    /* 16 blocks * 3 warps = 48 warps; 48/64 = 75% */
    EXPECT_OCC(o, 16, 48, 0.75, KD_LIMIT_REGISTERS);
}

static void test_shared_rounding_and_reservation(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(80, 32, 16, 1);
    /* roundup(1 + 1024, 128) = 1152; 167936/1152 = 145.8 → 145
     * (no rounding: 167936/1025 = 163; no reservation: 167936/128 = 1312) */
    assert_int_equal(o.by_shared, 145);
    /* still bounded by 32 blocks/SM: 32 * 1 warp = 32 warps; 50% */
    EXPECT_OCC(o, 32, 32, 0.5, KD_LIMIT_BLOCKS);

    o = compute_ok(75, 32, 16, 1);
    /* sm_75: no reservation, 256-byte unit: roundup(1, 256) = 256; 65536/256 = 256 */
    assert_int_equal(o.by_shared, 256);
    o = compute_ok(75, 32, 16, 0);
    /* nothing allocated: shared memory does not limit, reported as the block limit 16 */
    assert_int_equal(o.by_shared, 16);
    /* by_warps = 32/1 = 32; by_blocks = 16 (tie with shared → blocks); 16 warps / 32 = 50% */
    EXPECT_OCC(o, 16, 16, 0.5, KD_LIMIT_BLOCKS);
}

static void test_max_shared_per_block_sm90(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(90, 128, 32, 227 * KIB);
    /* roundup(232448 + 1024, 128) = 233472; 233472/233472 = 1 */
    assert_int_equal(o.by_shared, 1);
    /* 1 block * 4 warps = 4 warps; 4/64 = 6.25% */
    EXPECT_OCC(o, 1, 4, 0.0625, KD_LIMIT_SHARED);
}

static void test_narrower_sm86(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(86, 256, 32, 0);
    /* by_warps = 48/8 = 6; by_registers = 64 warps / 8 = 8; by_blocks = 16;
     * by_shared = 102400/1024 = 100 */
    assert_int_equal(o.by_warps, 6);
    assert_int_equal(o.by_registers, 8);
    assert_int_equal(o.by_blocks, 16);
    assert_int_equal(o.by_shared, 100);
    /* 6 * 8 = 48 warps; 48/48 = 100% */
    EXPECT_OCC(o, 6, 48, 1.0, KD_LIMIT_WARPS);
}

static void test_zero_registers_do_not_limit(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(90, 64, 0, 0);
    /* no registers allocated → reported as the block limit 32 */
    assert_int_equal(o.by_registers, 32);
    /* by_warps = 64/2 = 32 ties with blocks → warps; 32 * 2 = 64 warps */
    EXPECT_OCC(o, 32, 64, 1.0, KD_LIMIT_WARPS);
}

static void test_block_too_big_for_register_file(void **state)
{
    (void)state;
    kd_occupancy o = compute_ok(90, 1024, 255, 0);
    /* 8192 regs/warp * 32 warps = 262144 > 65536: the launch fails, 0 blocks, and the
     * answer still says why */
    assert_int_equal(o.by_registers, 0);
    EXPECT_OCC(o, 0, 0, 0.0, KD_LIMIT_REGISTERS);
}

/* ---- invalid input ---- */

static void expect_invalid(const kd_arch_limits *a, int threads, int regs, long smem)
{
    kd_occupancy o;
    memset(&o, 0x5a, sizeof o); /* garbage, so a missing reset shows */
    assert_int_equal(kd_occupancy_compute(a, threads, regs, smem, &o), -1);
    assert_int_equal(o.limiter, KD_LIMIT_NONE);
    assert_int_equal(o.blocks_per_sm, 0);
    assert_int_equal(o.warps_per_sm, 0);
    assert_true(o.occupancy == 0.0);
    assert_int_equal(o.by_warps, 0);
    assert_int_equal(o.by_blocks, 0);
    assert_int_equal(o.by_registers, 0);
    assert_int_equal(o.by_shared, 0);
}

static void test_invalid_inputs(void **state)
{
    (void)state;
    const kd_arch_limits *sm80 = kd_arch_limits_for(80);
    const kd_arch_limits *sm90 = kd_arch_limits_for(90);
    assert_non_null(sm80);
    assert_non_null(sm90);

    expect_invalid(sm90, 0, 32, 0);
    expect_invalid(sm90, -32, 32, 0);
    expect_invalid(sm90, 1025, 32, 0);
    expect_invalid(sm90, 256, 256, 0);
    expect_invalid(sm90, 256, -1, 0);
    expect_invalid(sm90, 256, 32, -1);
    expect_invalid(sm90, 256, 32, 227 * KIB + 1);
    expect_invalid(sm80, 256, 32, 163 * KIB + 1);
    expect_invalid(NULL, 256, 32, 0);
    assert_int_equal(kd_occupancy_compute(sm90, 256, 32, 0, NULL), -1);

    /* the edges themselves are valid: 1024 threads, 255 regs, 163 KiB on sm_80 */
    kd_occupancy o;
    assert_int_equal(kd_occupancy_compute(sm90, 1024, 16, 0, &o), 0);
    assert_int_equal(kd_occupancy_compute(sm90, 32, 255, 0, &o), 0);
    assert_int_equal(kd_occupancy_compute(sm80, 32, 16, 163 * KIB, &o), 0);
    /* roundup(166912 + 1024, 128) = 167936 = all of sm_80's 164 KiB → 1 block */
    assert_int_equal(o.blocks_per_sm, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sm90_published_limits),
        cmocka_unit_test(test_sm80_published_limits),
        cmocka_unit_test(test_table_lookup),
        cmocka_unit_test(test_arch_parse),
        cmocka_unit_test(test_limiter_names),
        cmocka_unit_test(test_256_threads_32_regs_full),
        cmocka_unit_test(test_256_threads_64_regs),
        cmocka_unit_test(test_128_threads_255_regs),
        cmocka_unit_test(test_1024_threads_32_regs),
        cmocka_unit_test(test_48k_shared_sm80),
        cmocka_unit_test(test_48k_shared_sm90),
        cmocka_unit_test(test_one_thread_blocks),
        cmocka_unit_test(test_partial_warp_counts_as_whole),
        cmocka_unit_test(test_register_granularity_per_subpartition),
        cmocka_unit_test(test_shared_rounding_and_reservation),
        cmocka_unit_test(test_max_shared_per_block_sm90),
        cmocka_unit_test(test_narrower_sm86),
        cmocka_unit_test(test_zero_registers_do_not_limit),
        cmocka_unit_test(test_block_too_big_for_register_file),
        cmocka_unit_test(test_invalid_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
