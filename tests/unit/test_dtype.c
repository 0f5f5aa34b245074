#include "kd_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/dtype.h"

static const kd_dtype all_dtypes[] = {
    KD_DT_F16, KD_DT_BF16, KD_DT_F32, KD_DT_F64, KD_DT_I8,  KD_DT_U8,
    KD_DT_I16, KD_DT_U16,  KD_DT_I32, KD_DT_U32, KD_DT_I64, KD_DT_U64,
};
#define N_DTYPES (sizeof all_dtypes / sizeof *all_dtypes)

#define MILLION 1000000

static void type_spellings(void **state)
{
    (void)state;
    static const struct {
        const char *spelling;
        kd_dtype base;
        int lanes;
    } cases[] = {
        {"float", KD_DT_F32, 1},
        {"const float", KD_DT_F32, 1},
        {"float const", KD_DT_F32, 1},
        {"  const\tvolatile   float  ", KD_DT_F32, 1},
        {"const float __restrict__", KD_DT_F32, 1},
        {"double", KD_DT_F64, 1},
        {"half", KD_DT_F16, 1},
        {"__half", KD_DT_F16, 1},
        {"__nv_bfloat16", KD_DT_BF16, 1},
        {"nv_bfloat16", KD_DT_BF16, 1},
        {"int", KD_DT_I32, 1},
        {"unsigned", KD_DT_U32, 1},
        {"unsigned int", KD_DT_U32, 1},
        {"signed", KD_DT_I32, 1},
        {"long", KD_DT_I64, 1},
        {"long long", KD_DT_I64, 1},
        {"unsigned long long", KD_DT_U64, 1},
        {"long unsigned int", KD_DT_U64, 1},
        {"unsigned  long\nlong int", KD_DT_U64, 1},
        {"short", KD_DT_I16, 1},
        {"unsigned short int", KD_DT_U16, 1},
        {"char", KD_DT_I8, 1},
        {"signed char", KD_DT_I8, 1},
        {"unsigned char", KD_DT_U8, 1},
        {"int8_t", KD_DT_I8, 1},
        {"uint8_t", KD_DT_U8, 1},
        {"int16_t", KD_DT_I16, 1},
        {"uint32_t", KD_DT_U32, 1},
        {"int64_t", KD_DT_I64, 1},
        {"std::uint64_t", KD_DT_U64, 1},
        {"size_t", KD_DT_U64, 1},
        {"float2", KD_DT_F32, 2},
        {"const float4", KD_DT_F32, 4},
        {"float1", KD_DT_F32, 1},
        {"double2", KD_DT_F64, 2},
        {"half2", KD_DT_F16, 2},
        {"__half2", KD_DT_F16, 2},
        {"__nv_bfloat162", KD_DT_BF16, 2},
        {"int4", KD_DT_I32, 4},
        {"uint2", KD_DT_U32, 2},
        {"char4", KD_DT_I8, 4},
        {"uchar3", KD_DT_U8, 3},
        {"ushort2", KD_DT_U16, 2},
        {"longlong2", KD_DT_I64, 2},
        {"ulonglong4", KD_DT_U64, 4},
        /* not element types kerndiff can allocate */
        {"MyStruct", KD_DT_UNKNOWN, 0},
        {"T", KD_DT_UNKNOWN, 0},
        {"float*", KD_DT_UNKNOWN, 0},
        {"float *", KD_DT_UNKNOWN, 0},
        {"", KD_DT_UNKNOWN, 0},
        {"   ", KD_DT_UNKNOWN, 0},
        {"const", KD_DT_UNKNOWN, 0},
        {"struct foo", KD_DT_UNKNOWN, 0},
        {"float5", KD_DT_UNKNOWN, 0},
        {"float0", KD_DT_UNKNOWN, 0},
        {"half4", KD_DT_UNKNOWN, 0},
        {"bool", KD_DT_UNKNOWN, 0},
        {"long double", KD_DT_UNKNOWN, 0},
        {"long long long", KD_DT_UNKNOWN, 0},
        {"signed unsigned", KD_DT_UNKNOWN, 0},
        {"short long", KD_DT_UNKNOWN, 0},
        {"char int", KD_DT_UNKNOWN, 0},
        {"unsigned float", KD_DT_UNKNOWN, 0},
        {"float float", KD_DT_UNKNOWN, 0},
        {"std::vector<float>", KD_DT_UNKNOWN, 0},
        {"a_type_name_far_longer_than_any_type_kerndiff_knows", KD_DT_UNKNOWN, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        kd_type_info info = {KD_DT_F64, 7};
        bool ok = kd_type_parse(cases[i].spelling, &info);
        if (ok != (cases[i].base != KD_DT_UNKNOWN) || info.base != cases[i].base ||
            info.lanes != cases[i].lanes)
            fail_msg("\"%s\": got ok=%d base=%s lanes=%d", cases[i].spelling, ok,
                     kd_dtype_name(info.base), info.lanes);
    }
    kd_type_info info;
    assert_false(kd_type_parse(NULL, &info));
    assert_int_equal(info.base, KD_DT_UNKNOWN);
}

static void sizes_names_and_kinds(void **state)
{
    (void)state;
    static const struct {
        kd_dtype t;
        size_t size;
        const char *name;
        bool is_float;
    } cases[] = {
        {KD_DT_F16, 2, "f16", true},  {KD_DT_BF16, 2, "bf16", true}, {KD_DT_F32, 4, "f32", true},
        {KD_DT_F64, 8, "f64", true},  {KD_DT_I8, 1, "i8", false},    {KD_DT_U8, 1, "u8", false},
        {KD_DT_I16, 2, "i16", false}, {KD_DT_U16, 2, "u16", false},  {KD_DT_I32, 4, "i32", false},
        {KD_DT_U32, 4, "u32", false}, {KD_DT_I64, 8, "i64", false},  {KD_DT_U64, 8, "u64", false},
        {KD_DT_UNKNOWN, 0, "unknown", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        assert_int_equal(kd_dtype_size(cases[i].t), cases[i].size);
        assert_string_equal(kd_dtype_name(cases[i].t), cases[i].name);
        assert_int_equal(kd_dtype_is_float(cases[i].t), cases[i].is_float);
    }
}

static bool half_is_nan(unsigned short h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF); }

static void float_to_half_known_patterns(void **state)
{
    (void)state;
    static const struct {
        float f;
        unsigned short h;
    } cases[] = {
        {1.0f, 0x3C00},
        {-2.0f, 0xC000},
        {0.0f, 0x0000},
        {-0.0f, 0x8000},
        {65504.0f, 0x7BFF},   /* largest finite */
        {65519.0f, 0x7BFF},   /* below the halfway point to 65536 */
        {65520.0f, 0x7C00},   /* the halfway point: ties to even, which is infinity */
        {1e10f, 0x7C00},
        {-1e10f, 0xFC00},
        {0x1p-14f, 0x0400},   /* smallest normal */
        {0x1.ff8p-15f, 0x03FF}, /* largest subnormal */
        {0x1p-24f, 0x0001},   /* smallest subnormal */
        {0x1p-25f, 0x0000},   /* half of it: ties to even, which is zero */
        {0x1.8p-25f, 0x0001}, /* above the tie */
        {0x1.8p-24f, 0x0002}, /* 1.5 ulp: ties to even, up */
        {0x1p-30f, 0x0000},
        {0.1f, 0x2E66},
        {0.333333343f, 0x3555},
        {1.0f + 0x1p-11f, 0x3C00},      /* tie, even below */
        {1.0f + 0x3p-11f, 0x3C02},      /* tie, even above */
        {1.0f + 0x1p-11f + 0x1p-23f, 0x3C01}, /* just above the tie */
        {0x1.ffcp-1f, 0x3BFF},          /* largest below one */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        unsigned short h = kd_float_to_half(cases[i].f);
        if (h != cases[i].h)
            fail_msg("%a -> 0x%04X, want 0x%04X", (double)cases[i].f, h, cases[i].h);
    }
    assert_int_equal(kd_float_to_half(INFINITY), 0x7C00);
    assert_int_equal(kd_float_to_half(-INFINITY), 0xFC00);
    assert_true(half_is_nan(kd_float_to_half(NAN)));
    /* a NaN whose payload sits only in the low bits must not truncate to infinity */
    unsigned int low_payload_nan = 0x7F800001;
    float f;
    memcpy(&f, &low_payload_nan, sizeof f);
    assert_true(half_is_nan(kd_float_to_half(f)));
}

static void half_to_float_known_patterns(void **state)
{
    (void)state;
    assert_true(kd_half_to_float(0x3C00) == 1.0f);
    assert_true(kd_half_to_float(0xC000) == -2.0f);
    assert_true(kd_half_to_float(0x7BFF) == 65504.0f);
    assert_true(kd_half_to_float(0x0001) == 0x1p-24f);
    assert_true(kd_half_to_float(0x03FF) == 0x1.ff8p-15f);
    assert_true(kd_half_to_float(0x0400) == 0x1p-14f);
    assert_true(kd_half_to_float(0x2E66) == 0.0999755859375f);
    assert_true(kd_half_to_float(0x8001) == -0x1p-24f);
    assert_true(kd_half_to_float(0x7C00) == INFINITY);
    assert_true(kd_half_to_float(0xFC00) == -INFINITY);
    assert_true(isnan(kd_half_to_float(0x7E00)));
    assert_true(isnan(kd_half_to_float(0x7C01)));
    float neg_zero = kd_half_to_float(0x8000);
    assert_true(neg_zero == 0.0f && signbit(neg_zero));
}

/* Every finite or infinite half survives the trip through float unchanged. */
static void half_round_trips_every_pattern(void **state)
{
    (void)state;
    for (unsigned h = 0; h <= 0xFFFF; h++) {
        unsigned short back = kd_float_to_half(kd_half_to_float((unsigned short)h));
        if (half_is_nan((unsigned short)h) ? !half_is_nan(back) : back != h)
            fail_msg("0x%04X came back as 0x%04X", h, back);
    }
}

static bool bf16_is_nan(unsigned short b) { return (b & 0x7F80) == 0x7F80 && (b & 0x7F); }

static void bf16_known_patterns(void **state)
{
    (void)state;
    static const struct {
        float f;
        unsigned short b;
    } cases[] = {
        {1.0f, 0x3F80},
        {-1.0f, 0xBF80},
        {0.0f, 0x0000},
        {-0.0f, 0x8000},
        {1.0078125f, 0x3F81},          /* 1 + 2^-7, exact */
        {1.00390625f, 0x3F80},         /* 1 + 2^-8: tie between 0x3F80 and 0x3F81, even down */
        {1.01171875f, 0x3F82},         /* 1 + 3*2^-8: tie between 0x3F81 and 0x3F82, even up */
        {1.0f + 0x1p-8f + 0x1p-23f, 0x3F81}, /* just above the first tie */
        {3.0f, 0x4040},
        {0.1f, 0x3DCD},                /* 0x3DCCCCCD rounds up */
        {3.38953139e38f, 0x7F7F},      /* largest finite bf16 */
        {3.4028235e38f, 0x7F80},       /* FLT_MAX rounds past it to infinity */
        {0x1p-133f, 0x0001},           /* float subnormals are bf16 subnormals */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        unsigned short b = kd_float_to_bf16(cases[i].f);
        if (b != cases[i].b)
            fail_msg("%a -> 0x%04X, want 0x%04X", (double)cases[i].f, b, cases[i].b);
    }
    assert_int_equal(kd_float_to_bf16(INFINITY), 0x7F80);
    assert_int_equal(kd_float_to_bf16(-INFINITY), 0xFF80);
    assert_true(bf16_is_nan(kd_float_to_bf16(NAN)));
    unsigned int low_payload_nan = 0x7F800001;
    float f;
    memcpy(&f, &low_payload_nan, sizeof f);
    assert_true(bf16_is_nan(kd_float_to_bf16(f)));
    assert_true(kd_bf16_to_float(0x3F80) == 1.0f);
    assert_true(kd_bf16_to_float(0x3F82) == 1.015625f);
    assert_true(kd_bf16_to_float(0xC000) == -2.0f);
    assert_true(kd_bf16_to_float(0x7F80) == INFINITY);
    assert_true(isnan(kd_bf16_to_float(0x7FC0)));
    for (unsigned b = 0; b <= 0xFFFF; b++) {
        unsigned short back = kd_float_to_bf16(kd_bf16_to_float((unsigned short)b));
        if (bf16_is_nan((unsigned short)b) ? !bf16_is_nan(back) : back != b)
            fail_msg("bf16 0x%04X came back as 0x%04X", b, back);
    }
}

static void load_reads_each_type(void **state)
{
    (void)state;
    unsigned short halves[] = {0x3C00, 0xC000};
    unsigned short bf16s[] = {0x3F80, 0x4040};
    float floats[] = {0.5f, -3.25f};
    double doubles[] = {1e300, -0.125};
    signed char i8s[] = {-128, 127};
    unsigned char u8s[] = {0, 255};
    short i16s[] = {-32768, 7};
    unsigned short u16s[] = {65535, 1};
    int i32s[] = {-2147483647 - 1, 5};
    unsigned u32s[] = {4294967295u, 9};
    long long i64s[] = {-(1LL << 53), 3};
    unsigned long long u64s[] = {1ULL << 63, 4};
    assert_true(kd_dtype_load(KD_DT_F16, halves, 1) == -2.0);
    assert_true(kd_dtype_load(KD_DT_BF16, bf16s, 1) == 3.0);
    assert_true(kd_dtype_load(KD_DT_F32, floats, 1) == -3.25);
    assert_true(kd_dtype_load(KD_DT_F64, doubles, 0) == 1e300);
    assert_true(kd_dtype_load(KD_DT_I8, i8s, 0) == -128.0);
    assert_true(kd_dtype_load(KD_DT_U8, u8s, 1) == 255.0);
    assert_true(kd_dtype_load(KD_DT_I16, i16s, 0) == -32768.0);
    assert_true(kd_dtype_load(KD_DT_U16, u16s, 0) == 65535.0);
    assert_true(kd_dtype_load(KD_DT_I32, i32s, 0) == -2147483648.0);
    assert_true(kd_dtype_load(KD_DT_U32, u32s, 0) == 4294967295.0);
    assert_true(kd_dtype_load(KD_DT_I64, i64s, 0) == -9007199254740992.0);
    assert_true(kd_dtype_load(KD_DT_U64, u64s, 0) == 9223372036854775808.0);
    assert_true(isnan(kd_dtype_load(KD_DT_UNKNOWN, u64s, 0)));
}

/* Pins the generator: element i is splitmix64's (i+1)-th output for the seed, whose
 * published values for seed 0 begin 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4. */
static void random_fill_matches_splitmix64(void **state)
{
    (void)state;
    int ints[3];
    kd_fill_random(KD_DT_I32, ints, 3, 0);
    assert_int_equal(ints[0], 1 + (0xE2 >> 2));
    assert_int_equal(ints[1], 1 + (0x6E >> 2));
    float floats[2];
    kd_fill_random(KD_DT_F32, floats, 2, 0);
    assert_true(floats[0] == 0.7666215896606445f);
    assert_true(floats[1] == -0.13694405555725098f);
    double d;
    kd_fill_random(KD_DT_F64, &d, 1, 42);
    assert_true(d == 0.48312975754364673);
}

static void random_fill_is_deterministic_and_seeded(void **state)
{
    (void)state;
    enum { COUNT = 4096 };
    unsigned char a[COUNT * 8], b[COUNT * 8];
    for (size_t k = 0; k < N_DTYPES; k++) {
        kd_dtype t = all_dtypes[k];
        size_t bytes = COUNT * kd_dtype_size(t);
        kd_fill_random(t, a, COUNT, 1234);
        kd_fill_random(t, b, COUNT, 1234);
        assert_memory_equal(a, b, bytes);
        kd_fill_random(t, b, COUNT, 1235);
        assert_memory_not_equal(a, b, bytes);
    }
}

static void random_fill_shares_prefixes(void **state)
{
    (void)state;
    for (size_t k = 0; k < N_DTYPES; k++) {
        kd_dtype t = all_dtypes[k];
        size_t size = kd_dtype_size(t);
        unsigned char *shorter = malloc(1000 * size), *longer = malloc(1537 * size);
        assert_non_null(shorter);
        assert_non_null(longer);
        kd_fill_random(t, shorter, 1000, 99);
        kd_fill_random(t, longer, 1537, 99);
        assert_memory_equal(shorter, longer, 1000 * size);
        free(shorter);
        free(longer);
    }
}

/* Buffers large enough to be filled by several threads (kd_fill_random splits from 2^21
 * elements into parts of at least 2^20) hold the bytes one thread makes: a fill of 2^21 - 1
 * elements (one part, one thread) must equal the prefix of a 2-part fill of 2^21 + 3, which
 * crosses its part boundary, and that must equal the prefix of a fill of 3 x 2^20 + 7 (2 or 3
 * parts, by the machine's cores: other boundaries). */
static void random_fill_split_over_threads_is_the_same(void **state)
{
    (void)state;
    const size_t one = ((size_t)1 << 21) - 1, n1 = ((size_t)1 << 21) + 3, n2 = ((size_t)3 << 20) + 7;
    kd_dtype types[] = {KD_DT_F32, KD_DT_BF16, KD_DT_F64, KD_DT_I8};
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        size_t size = kd_dtype_size(types[k]);
        unsigned char *single = malloc(one * size), *a = malloc(n1 * size), *b = malloc(n2 * size);
        assert_non_null(single);
        assert_non_null(a);
        assert_non_null(b);
        kd_fill_random(types[k], single, one, 2024);
        kd_fill_random(types[k], a, n1, 2024);
        kd_fill_random(types[k], b, n2, 2024);
        assert_memory_equal(single, a, one * size);
        assert_memory_equal(a, b, n1 * size);
        free(single);
        free(a);
        free(b);
    }
}

/* A million draws of every type: in range, never zero, never the poison pattern, and
 * spread over the whole range. */
static void random_fill_stays_in_range(void **state)
{
    (void)state;
    unsigned char *buf = malloc((size_t)MILLION * 8);
    assert_non_null(buf);
    for (size_t k = 0; k < N_DTYPES; k++) {
        kd_dtype t = all_dtypes[k];
        kd_fill_random(t, buf, MILLION, 7);
        double lo = INFINITY, hi = -INFINITY, sum = 0;
        for (size_t i = 0; i < MILLION; i++) {
            double v = kd_dtype_load(t, buf, i);
            if (v == 0 || isnan(v) || kd_is_poison(t, buf, i))
                fail_msg("%s element %zu is %g", kd_dtype_name(t), i, v);
            lo = fmin(lo, v);
            hi = fmax(hi, v);
            sum += v;
        }
        if (kd_dtype_is_float(t)) {
            assert_true(lo >= -1.0 && lo < -0.99);
            assert_true(hi < 1.0 && hi > 0.99);
            assert_true(fabs(sum / MILLION) < 0.01);
        } else {
            assert_true(lo == 1.0 && hi == 64.0);
            assert_true(fabs(sum / MILLION - 32.5) < 0.1);
        }
    }
    free(buf);
}

static void poison_round_trips(void **state)
{
    (void)state;
    enum { COUNT = 17 };
    unsigned char buf[COUNT * 8];
    for (size_t k = 0; k < N_DTYPES; k++) {
        kd_dtype t = all_dtypes[k];
        kd_fill_poison(t, buf, COUNT);
        for (size_t i = 0; i < COUNT; i++)
            assert_true(kd_is_poison(t, buf, i));
        if (kd_dtype_is_float(t))
            assert_true(isnan(kd_dtype_load(t, buf, 5)));
        kd_fill_random(t, buf + 5 * kd_dtype_size(t), 1, 3);
        assert_false(kd_is_poison(t, buf, 5));
        assert_true(kd_is_poison(t, buf, 4));
        assert_true(kd_is_poison(t, buf, 6));
    }
    assert_false(kd_is_poison(KD_DT_UNKNOWN, buf, 0));
}

static void poison_patterns_are_the_documented_ones(void **state)
{
    (void)state;
    unsigned short h;
    unsigned int f;
    unsigned long long d;
    kd_fill_poison(KD_DT_F16, &h, 1);
    assert_int_equal(h, 0x7EB5);
    assert_true(half_is_nan(h) && (h & 0x0200)); /* quiet */
    kd_fill_poison(KD_DT_BF16, &h, 1);
    assert_int_equal(h, 0x7FD5);
    assert_true(bf16_is_nan(h) && (h & 0x0040));
    kd_fill_poison(KD_DT_F32, &f, 1);
    assert_int_equal(f, 0x7FC0BAD5);
    kd_fill_poison(KD_DT_F64, &d, 1);
    assert_true(d == 0x7FF8BAD5BAD5BAD5ULL);
    kd_fill_poison(KD_DT_I64, &d, 1);
    assert_true(d == 0xA5A5A5A5A5A5A5A5ULL);
    /* the NaN a kernel produces by arithmetic is not poison */
    float canonical = NAN;
    assert_false(kd_is_poison(KD_DT_F32, &canonical, 0));
}

/* NAME=f16 / NAME=fp16[n*n] on a buffer: the element type, and maybe its count. */
static void buffer_settings_may_name_the_type(void **state)
{
    (void)state;
    kd_dtype t;
    char *count = (char *)"unset";
    assert_true(kd_dtype_setting("f16", &t, &count));
    assert_int_equal(t, KD_DT_F16);
    assert_null(count);
    assert_true(kd_dtype_setting("bfloat16[n*n]", &t, &count));
    assert_int_equal(t, KD_DT_BF16);
    assert_string_equal(count, "n*n");
    free(count);
    assert_true(kd_dtype_setting("fp32", &t, &count));
    assert_int_equal(t, KD_DT_F32);
    assert_false(kd_dtype_setting("n*n", &t, &count));
    assert_false(kd_dtype_setting("16M", &t, &count));
    assert_false(kd_dtype_setting("f16[", &t, &count));
    assert_string_equal(kd_dtype_triton_name(KD_DT_F16), "fp16");
    assert_string_equal(kd_dtype_triton_name(KD_DT_I32), "i32");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(buffer_settings_may_name_the_type),
        cmocka_unit_test(type_spellings),
        cmocka_unit_test(sizes_names_and_kinds),
        cmocka_unit_test(float_to_half_known_patterns),
        cmocka_unit_test(half_to_float_known_patterns),
        cmocka_unit_test(half_round_trips_every_pattern),
        cmocka_unit_test(bf16_known_patterns),
        cmocka_unit_test(load_reads_each_type),
        cmocka_unit_test(random_fill_matches_splitmix64),
        cmocka_unit_test(random_fill_is_deterministic_and_seeded),
        cmocka_unit_test(random_fill_shares_prefixes),
        cmocka_unit_test(random_fill_split_over_threads_is_the_same),
        cmocka_unit_test(random_fill_stays_in_range),
        cmocka_unit_test(poison_round_trips),
        cmocka_unit_test(poison_patterns_are_the_documented_ones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
