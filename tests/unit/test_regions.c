#include "kd_test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regions/instrument.h"
#include "regions/pass.h"
#include "regions/records.h"
#include "source/scan.h"

/* A device record as include/kerndiff/regions.h packs it. */
static uint64_t dev(unsigned id, unsigned end, uint32_t clock) { return (uint64_t)(id << 1 | end) << 32 | clock; }

/* Both streams merge into clock order; clocks that wrapped past 2^32 keep counting. */
static void streams_merge_by_clock(void **state)
{
    (void)state;
    uint32_t clock0 = 0xfffffff0u;
    uint64_t s0[8] = {dev(1, 0, 0xfffffff8u), dev(1, 1, 0x20)}, s1[8] = {dev(2, 0, 0x8), dev(2, 1, 0x10)};
    const uint64_t *streams[2] = {s0, s1};
    uint32_t counts[2] = {2, 2};
    uint64_t ring[8] = {0};
    assert_int_equal(kd_region_merge_streams(streams, counts, 8, clock0, ring), 4);
    uint64_t base = clock0;
    assert_int_equal(kd_region_record_id(ring[0]), 1);
    assert_true(kd_region_record_clock(ring[0]) == base + 8);
    assert_int_equal(kd_region_record_id(ring[1]), 2);
    assert_true(kd_region_record_clock(ring[1]) == base + 0x18);
    assert_int_equal(kd_region_record_is_end(ring[2]), 1);
    assert_int_equal(kd_region_record_id(ring[2]), 2);
    assert_int_equal(kd_region_record_id(ring[3]), 1);
    assert_true(kd_region_record_clock(ring[3]) == base + 0x30);
}

/* A stream that wrapped its ring keeps its newest records; the merged file keeps the newest
 * `capacity` of both, at k % capacity, and its count says how many were written. */
static void full_rings_keep_the_newest(void **state)
{
    (void)state;
    enum { CAP = 4 };
    uint64_t s0[CAP], s1[CAP] = {0};
    for (uint32_t k = 0; k < 6; k++) /* records 0..5, clocks 10, 20, ...; ring keeps 2..5 */
        s0[k % CAP] = dev(1, k & 1, 10 * (k + 1));
    const uint64_t *streams[2] = {s0, s1};
    uint32_t counts[2] = {6, 0};
    uint64_t ring[CAP] = {0};
    assert_int_equal(kd_region_merge_streams(streams, counts, CAP, 0, ring), 6);
    for (uint32_t k = 2; k < 6; k++)
        assert_true(kd_region_record_clock(ring[k % CAP]) == 10 * (k + 1));
}

static void divergent_flag_survives(void **state)
{
    (void)state;
    uint64_t s0[2] = {dev(1, 0, 5), dev(1, 1, 9)}, s1[2] = {0};
    const uint64_t *streams[2] = {s0, s1};
    uint32_t counts[2] = {2 | KD_REGION_DIVERGENT, 0};
    uint64_t ring[2];
    assert_int_equal(kd_region_merge_streams(streams, counts, 2, 0, ring), 2 | KD_REGION_DIVERGENT);
}

/* Every kernel body gets the context right after its brace, on the same line; host
 * functions, prototypes and launchers do not. */
static void context_goes_into_kernel_bodies(void **state)
{
    (void)state;
    const char *src = "#include <x.h>\n"
                      "__device__ float f(float x) { return x; }\n"
                      "__global__ void a(float *p);\n"
                      "template <typename T> __global__ void b(T *p)\n{\n  p[0] = T();\n}\n"
                      "__global__ void a(float *p) { p[0] = f(1.0f); }\n"
                      "void host() { }\n";
    kd_strbuf out = {0};
    kd_regions_instrument_source(src, strlen(src), "/w/k.cu", &out);
    const char *text = kd_sb_str(&out);
    assert_non_null(strstr(text, "#line 1 \"/w/k.cu\"\n#include <x.h>\n"));
    assert_non_null(strstr(text, "__device__ float f(float x) { return x; }\n"));
    assert_non_null(strstr(text, "__global__ void b(T *p)\n{ KD_REGION_KERNEL_CONTEXT \n  p[0]"));
    assert_non_null(strstr(text, "__global__ void a(float *p) { KD_REGION_KERNEL_CONTEXT  p[0] = f(1.0f); }\n"));
    assert_non_null(strstr(text, "void host() { }\n"));
    size_t lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 1 + 9); /* the #line, then the source's 9 lines, unchanged in number */
    kd_sb_free(&out);
}

/* Block sampling: a given --region-blocks wins; otherwise the largest power of two up to 8
 * that leaves two recording blocks per SM, every block when the grid is small. */
static void block_stride_keeps_two_blocks_per_sm(void **state)
{
    (void)state;
    assert_int_equal(kd_regions_block_stride(4096, 132, 0), 8);  /* 512 recording blocks */
    assert_int_equal(kd_regions_block_stride(4096, 132, 1), 1);  /* --region-blocks all */
    assert_int_equal(kd_regions_block_stride(4096, 132, 64), 64);
    assert_int_equal(kd_regions_block_stride(264, 132, 0), 1);   /* two blocks per SM: all of them */
    assert_int_equal(kd_regions_block_stride(528, 132, 0), 2);
    assert_int_equal(kd_regions_block_stride(1055, 132, 0), 2);  /* 1055 / 4 < 264 */
    assert_int_equal(kd_regions_block_stride(1056, 132, 0), 4);
    assert_int_equal(kd_regions_block_stride(1, 0, 0), 1);       /* SM count unknown */
    assert_int_equal(kd_regions_block_stride(1u << 30, 0, 0), 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(streams_merge_by_clock),
        cmocka_unit_test(full_rings_keep_the_newest),
        cmocka_unit_test(divergent_flag_survives),
        cmocka_unit_test(context_goes_into_kernel_bodies),
        cmocka_unit_test(block_stride_keeps_two_blocks_per_sm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
