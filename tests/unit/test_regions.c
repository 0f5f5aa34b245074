#include "kd_test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "regions/instrument.h"
#include "regions/regions_msgs.h"
#include "regions/regions_pass.h"
#include "regions/region_profile.h"
#include "regions/proton.h"
#include "regions/region_records.h"
#include "source/scan.h"
#include "util/xalloc.h"

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

/* A Proton buffer as Triton 3.6's instrumentation leaves it (regions/proton.h): `ctas` CTAs
 * of 2 warps, 4 records per warp's segment, CTA c on SM 10 + c, started at 1000 * (c + 1) ns. */
enum { P_WARPS = 2, P_CAP = 4, P_CTA_BYTES = 40 + 4 * P_WARPS + P_WARPS * P_CAP * 8 + 8 /* padding */ };

static void put32(unsigned char *p, size_t at, uint32_t v) { memcpy(p + at, &v, 4); }

static void proton_cta(unsigned char *buf, unsigned c)
{
    unsigned char *cta = buf + (size_t)c * P_CTA_BYTES;
    put32(cta, 0, KD_PROTON_PREAMBLE);
    put32(cta, 4, c);
    put32(cta, 8, 10 + c);
    put32(cta, 12, P_WARPS * P_CAP * 8);
    uint64_t start = 1000ull * (c + 1);
    memcpy(cta + 16, &start, 8);
}

/* Record k of warp w of CTA c: scope `scope` start or end at `clock` (43 bits). */
static void proton_record(unsigned char *buf, unsigned c, unsigned w, unsigned k, unsigned scope, int end,
                          uint64_t clock)
{
    size_t at = (size_t)c * P_CTA_BYTES + 40 + 4 * P_WARPS + ((size_t)w * P_CAP + k % P_CAP) * 8;
    put32(buf, at, (uint32_t)end << 31 | scope << 23 | (uint32_t)(clock >> 32 & 0x7ff));
    put32(buf, at + 4, (uint32_t)clock);
}

static void proton_words(unsigned char *buf, unsigned c, unsigned w, uint32_t records)
{
    put32(buf, (size_t)c * P_CTA_BYTES + 40 + 4 * w, 2 * records);
}

/* Scope ids become region ids + 1, the end bit and the 43-bit clock survive, each warp
 * gets its CTA's SM, start time and earliest record clock, warps are CTA-major. */
static void proton_buffer_becomes_records(void **state)
{
    (void)state;
    unsigned char buf[2 * P_CTA_BYTES] = {0};
    char why[256] = "";
    proton_cta(buf, 0);
    proton_cta(buf, 1);
    uint64_t high = (uint64_t)5 << 32; /* a clock beyond 32 bits */
    proton_record(buf, 0, 0, 0, 0, 0, high + 100);
    proton_record(buf, 0, 0, 1, 0, 1, high + 160);
    proton_words(buf, 0, 0, 2);
    proton_record(buf, 0, 1, 0, 1, 0, high + 90);
    proton_record(buf, 0, 1, 1, 1, 1, high + 300);
    proton_words(buf, 0, 1, 2);
    proton_record(buf, 1, 1, 0, 1, 0, 7);
    proton_record(buf, 1, 1, 1, 1, 1, 9);
    proton_words(buf, 1, 1, 2); /* warp 0 of CTA 1 wrote nothing */
    assert_int_equal(kd_proton_capacity(buf, P_CTA_BYTES, P_WARPS, why, sizeof why), P_CAP);
    size_t bytes = kd_region_launch_bytes(2 * P_WARPS, P_CAP);
    unsigned char *out = malloc(bytes);
    memset(out, 0xab, bytes);
    assert_int_equal(kd_proton_to_records(&(kd_proton_scratch){buf, P_CTA_BYTES, 2, P_WARPS}, P_CAP, out, why, sizeof why), 0);
    const uint32_t *counts = (const uint32_t *)out;
    const uint64_t *headers = (const uint64_t *)(out + 4 * 2 * P_WARPS), *records = headers + KD_REGION_HEADER_WORDS * 2 * P_WARPS;
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[2], 0);
    assert_int_equal(counts[3], 2);
    assert_int_equal(kd_region_record_id(records[0]), 1);
    assert_int_equal(kd_region_record_is_end(records[0]), 0);
    assert_true(kd_region_record_clock(records[0]) == high + 100);
    assert_int_equal(kd_region_record_is_end(records[1]), 1);
    assert_int_equal(kd_region_record_id(records[P_CAP]), 2);
    assert_true(kd_region_record_clock(records[P_CAP + 1]) == high + 300);
    assert_true(kd_region_record_clock(records[3 * P_CAP + 1]) == 9);
    /* CTA 0: SM 10, started at 1000 ns, earliest record (warp 1's) at high + 90; no end. */
    enum { H = KD_REGION_HEADER_WORDS };
    assert_true(headers[0] == 1000 && headers[H] == 1000);
    assert_true(headers[1] == ((uint64_t)10 << 32 | (uint32_t)(high + 90)));
    assert_true(headers[H + 1] == headers[1]);
    assert_true(headers[KD_REGION_HEADER_END_NS] == 0 && headers[KD_REGION_HEADER_END_CLOCK] == 0);
    assert_true(headers[H * 3] == 2000 && headers[H * 3 + 1] >> 32 == 11);
    free(out);
}

/* A warp that wrote more than its segment holds keeps the newest, at k % capacity, and its
 * count says how many it wrote (the decoder counts the rest as dropped). */
static void proton_wrapped_segment_keeps_the_newest(void **state)
{
    (void)state;
    unsigned char buf[P_CTA_BYTES] = {0};
    char why[256] = "";
    proton_cta(buf, 0);
    for (unsigned k = 0; k < 6; k++)
        proton_record(buf, 0, 0, k, k / 2, k % 2, 100 + 10 * k);
    proton_words(buf, 0, 0, 6);
    size_t bytes = kd_region_launch_bytes(P_WARPS, P_CAP);
    unsigned char *out = malloc(bytes);
    assert_int_equal(kd_proton_to_records(&(kd_proton_scratch){buf, P_CTA_BYTES, 1, P_WARPS}, P_CAP, out, why, sizeof why), 0);
    const uint32_t *counts = (const uint32_t *)out;
    const uint64_t *records = (const uint64_t *)(out + 4 * P_WARPS) + KD_REGION_HEADER_WORDS * P_WARPS;
    assert_int_equal(counts[0], 6);
    assert_int_equal(kd_region_record_id(records[4 % P_CAP]), 3); /* record 4: scope 2 starts */
    assert_true(kd_region_record_clock(records[5 % P_CAP]) == 150);
    assert_true(kd_region_record_clock(records[2]) == 120);
    /* The warp's clock is its earliest kept record's (record 2), not an overwritten one. */
    const uint64_t *headers = (const uint64_t *)(out + 4 * P_WARPS);
    assert_int_equal((uint32_t)headers[1], 120);
    free(out);
}

/* What is not Proton's layout is refused, saying why. */
static void proton_rejects_foreign_buffers(void **state)
{
    (void)state;
    unsigned char buf[2 * P_CTA_BYTES] = {0};
    char why[256] = "";
    assert_int_equal(kd_proton_capacity(buf, P_CTA_BYTES, P_WARPS, why, sizeof why), 0);
    assert_non_null(strstr(why, "no Proton header"));
    proton_cta(buf, 0);
    put32(buf, 12, 3 * 8 * P_WARPS); /* 3 records a warp */
    assert_int_equal(kd_proton_capacity(buf, P_CTA_BYTES, P_WARPS, why, sizeof why), 0);
    assert_non_null(strstr(why, "power of two"));
    proton_cta(buf, 0);
    unsigned char out[4096];
    assert_int_equal(kd_proton_to_records(&(kd_proton_scratch){buf, P_CTA_BYTES, 2, P_WARPS}, P_CAP, out, why, sizeof why), -1);
    assert_non_null(strstr(why, "CTA 1"));
    proton_cta(buf, 1);
    proton_record(buf, 1, 0, 0, 200, 0, 5);
    proton_words(buf, 1, 0, 1);
    assert_int_equal(kd_proton_to_records(&(kd_proton_scratch){buf, P_CTA_BYTES, 2, P_WARPS}, P_CAP, out, why, sizeof why), -1);
    assert_non_null(strstr(why, "scope 200"));
}

/* Region names and warp group names are two namespaces, each in order of first use; a
 * group marker needs a name and its warps. */
static void scan_finds_regions_and_groups(void **state)
{
    (void)state;
    const char *src = "KD_REGION_GROUP(producer, 4);\n"
                      "KD_REGION_BEGIN(load); KD_REGION_END(load);\n"
                      "KD_REGION( mma );\n"
                      "KD_REGION_GROUP(consumer, 4); KD_REGION_GROUP(producer, 4);\n"
                      "MY_KD_REGION(x); KD_REGION_KEEP(acc);\n";
    kd_region_names names = {0};
    kd_diag why = {0};
    assert_int_equal(kd_regions_scan(src, "v1", &names, &why), 0);
    assert_int_equal(names.regions.count, 2);
    assert_string_equal(names.regions.items[0], "load");
    assert_string_equal(names.regions.items[1], "mma");
    assert_int_equal(names.groups.count, 2);
    assert_string_equal(names.groups.items[0], "producer");
    assert_string_equal(names.groups.items[1], "consumer");
    kd_strbuf prologue = {0};
    kd_regions_wrapper_prologue(&names, KD_MARKERS_PREDICATED, &prologue);
    assert_non_null(strstr(kd_sb_str(&prologue), "#define KD_REGION_ID_mma 2\n"));
    assert_non_null(strstr(kd_sb_str(&prologue), "#define KD_REGION_GROUP_ID_consumer 2\n"));
    assert_null(strstr(kd_sb_str(&prologue), "KD_REGION_BRANCHED"));
    assert_null(strstr(kd_sb_str(&prologue), "KD_REGION_EVERY_BLOCK"));
    kd_sb_free(&prologue);
    /* Each marker form is its own define, so the build cache and nvcc tell them apart. */
    kd_regions_wrapper_prologue(&names, KD_MARKERS_BRANCHED, &prologue);
    assert_non_null(strstr(kd_sb_str(&prologue), "#define KD_REGION_BRANCHED 1\n"));
    assert_null(strstr(kd_sb_str(&prologue), "KD_REGION_EVERY_BLOCK"));
    kd_sb_free(&prologue);
    kd_regions_wrapper_prologue(&names, KD_MARKERS_EVERY_BLOCK, &prologue);
    assert_non_null(strstr(kd_sb_str(&prologue), "#define KD_REGION_EVERY_BLOCK 1\n"));
    assert_null(strstr(kd_sb_str(&prologue), "KD_REGION_BRANCHED"));
    kd_sb_free(&prologue);
    kd_region_names_free(&names);
    assert_int_equal(kd_regions_scan("KD_REGION_GROUP(consumer);", "v2", &names, &why), -1);
    assert_int_equal(why.id, KD_MSG_REGIONS_GROUP_NEEDS_NAME);
    assert_string_equal(why.args[0].v.s, "v2");
    assert_string_equal(why.args[1].v.s, "KD_REGION_GROUP(consumer);");
    kd_region_names_free(&names);
    kd_diag_free(&why);
}

/* A record file of one launch, `warps` warps of one block, each warp's header word `word`
 * (started at 1000 + w ns; ended `ns` later at clock `end_clock`) and records `ring` (count
 * records of a ring of 8). */
static void write_record_file(const char *path, uint32_t warps, const uint32_t *counts, const uint64_t *words,
                              uint64_t ns, uint32_t end_clock, const uint64_t *rings)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    kd_region_file_header head = {KD_REGION_MAGIC, KD_REGION_VERSION, warps, 8, 1, warps, 1, 1};
    fwrite(&head, sizeof head, 1, f);
    fwrite(counts, 4, warps, f);
    for (uint32_t w = 0; w < warps; w++) {
        uint64_t header[KD_REGION_HEADER_WORDS] = {1000 + w, words[w], 1000 + w + ns, end_clock};
        fwrite(header, 8, KD_REGION_HEADER_WORDS, f);
    }
    fwrite(rings, 8, (size_t)warps * 8, f);
    fclose(f);
}

static uint64_t rec(unsigned id, unsigned end, uint64_t clock)
{
    return (uint64_t)id << 57 | (uint64_t)end << KD_REGION_CLOCK_BITS | clock;
}

/* KD_REGION_GROUP's header bits: a region gets the groups whose warps recorded it, a group
 * its runs' width and recording warps, a slice its group; silent warps (count 0) and a
 * group id the side does not have (shown as none) are read as such. */
static void grouped_records_name_their_groups(void **state)
{
    (void)state;
    enum { W = 4 };
    uint64_t group = (uint64_t)2 << 48 | (uint64_t)2 << 56; /* group id 2 ("consumer"), runs of 2 */
    uint64_t words[W] = {group | 7ull << 32 | 100, 7ull << 32, (uint64_t)9 << 48 | 7ull << 32 | 100, 7ull << 32 | 100};
    uint32_t counts[W] = {4, 0, 2, 2};
    uint64_t rings[W * 8] = {0};
    rings[0] = rec(1, 0, 100), rings[1] = rec(1, 1, 400), rings[2] = rec(2, 0, 500), rings[3] = rec(2, 1, 600);
    rings[16] = rec(2, 0, 100), rings[17] = rec(2, 1, 300); /* warp 2: group id 9, unknown */
    rings[24] = rec(2, 0, 100), rings[25] = rec(2, 1, 300); /* warp 3: no group */
    char path[] = "/tmp/kd_regions_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_record_file(path, W, counts, words, 0, 0, rings); /* no end: the caller's clock */
    kd_region_names names = {0};
    kd_strbuf why = {0};
    kd_diag scanned = {0};
    assert_int_equal(kd_regions_scan("KD_REGION(load); KD_REGION(mma); KD_REGION_GROUP(producer, 4); "
                                     "KD_REGION_GROUP(consumer, 2);", "v1", &names, &scanned), 0);
    kd_region_profile p;
    assert_int_equal(kd_region_profile_read(path, &names, 0, 1e9, &p, &why), 0);
    unlink(path);
    assert_true(p.sm_clock_hz == 0);
    assert_int_equal(p.warps, 4);
    assert_int_equal(p.recording_warps, 3);
    assert_int_equal(p.ngroups, 2);
    assert_int_equal(p.groups[0].recording_warps, 0);
    assert_int_equal(p.groups[1].recording_warps, 1);
    assert_int_equal(p.groups[1].warps, 2);
    assert_string_equal(p.regions[0].name, "load");
    assert_string_equal(p.regions[0].group, "consumer");
    assert_true(p.regions[0].median == 300);
    assert_string_equal(p.regions[1].group, "consumer"); /* the ungrouped warps add no name */
    assert_int_equal(p.regions[1].instances, 3);
    size_t grouped = 0;
    for (size_t i = 0; i < p.nslices; i++) {
        assert_int_equal(p.slices[i].sm, 7);
        grouped += p.slices[i].group == 2;
        assert_true(p.slices[i].group == 2 || p.slices[i].warp != 0);
    }
    assert_int_equal(grouped, 2);
    kd_region_profile_free(&p);
    kd_region_names_free(&names);
    kd_sb_free(&why);
}

/* The warps' start and end %globaltimer and clock measure the launch's SM clock, which the
 * slices' ns then use; too short a span (globaltimer's steps) measures nothing. */
static void header_ends_measure_the_clock(void **state)
{
    (void)state;
    uint64_t words[2] = {100, 100};
    uint32_t counts[2] = {2, 2};
    uint64_t rings[16] = {0};
    rings[0] = rec(1, 0, 100), rings[1] = rec(1, 1, 1600), rings[8] = rec(1, 0, 100), rings[9] = rec(1, 1, 1600);
    char path[] = "/tmp/kd_regions_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    kd_region_names names = {0};
    kd_strbuf why = {0};
    kd_strlist_push(&names.regions, kd_xstrdup("load"));
    kd_region_profile p;
    /* 2 warps of 40 us each over 60,000 cycles: 1.5 GHz; 1500 cycles of load are 1 us. */
    write_record_file(path, 2, counts, words, 40000, 100 + 60000, rings);
    assert_int_equal(kd_region_profile_read(path, &names, 0, 1e9, &p, &why), 0);
    assert_true(p.sm_clock_hz > 1.4999e9 && p.sm_clock_hz < 1.5001e9);
    assert_int_equal(p.nslices, 2);
    assert_true(p.slices[0].duration_ns > 999.9 && p.slices[0].duration_ns < 1000.1);
    kd_region_profile_free(&p);
    /* 2 x 20 us is less than the 50 us the clock needs: the caller's 1 GHz is used. */
    write_record_file(path, 2, counts, words, 20000, 100 + 30000, rings);
    assert_int_equal(kd_region_profile_read(path, &names, 0, 1e9, &p, &why), 0);
    assert_true(p.sm_clock_hz == 0);
    assert_true(p.slices[0].duration_ns > 1499.9 && p.slices[0].duration_ns < 1500.1);
    kd_region_profile_free(&p);
    unlink(path);
    kd_region_names_free(&names);
    kd_sb_free(&why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(streams_merge_by_clock),
        cmocka_unit_test(full_rings_keep_the_newest),
        cmocka_unit_test(divergent_flag_survives),
        cmocka_unit_test(proton_buffer_becomes_records),
        cmocka_unit_test(proton_wrapped_segment_keeps_the_newest),
        cmocka_unit_test(proton_rejects_foreign_buffers),
        cmocka_unit_test(context_goes_into_kernel_bodies),
        cmocka_unit_test(block_stride_keeps_two_blocks_per_sm),
        cmocka_unit_test(scan_finds_regions_and_groups),
        cmocka_unit_test(grouped_records_name_their_groups),
        cmocka_unit_test(header_ends_measure_the_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
