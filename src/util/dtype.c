/* dtype.c — element types: parsing their C/CUDA spellings, converting half and bfloat16
 * in software, and producing the bytes kerndiff puts in buffers (random inputs, poison).
 *
 * This file is also compiled into the standalone launch harness, so it depends on nothing
 * but libc (threads included), libm and its own header. Every reinterpretation of bits goes through memcpy:
 * buffers arrive as void * with arbitrary alignment, and pointer casts would break strict
 * aliasing. */
#include "dtype.h" /* beside this file, so the harness build needs no -I */

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* ---- type spellings ------------------------------------------------------------------ */

typedef struct named_type {
    const char *name;
    kd_dtype base;
    int lanes;
} named_type;

/* Single-word spellings that are not built from the integer keywords. size_t, ptrdiff_t
 * and the 64-bit names assume an LP64 host, which is what nvcc targets on Linux. */
static const named_type single_words[] = {
    {"float", KD_DT_F32, 1},          {"double", KD_DT_F64, 1},
    {"half", KD_DT_F16, 1},           {"__half", KD_DT_F16, 1},
    {"__nv_bfloat16", KD_DT_BF16, 1}, {"nv_bfloat16", KD_DT_BF16, 1},
    {"half2", KD_DT_F16, 2},          {"__half2", KD_DT_F16, 2},
    {"__nv_bfloat162", KD_DT_BF16, 2}, {"nv_bfloat162", KD_DT_BF16, 2},
    {"int8_t", KD_DT_I8, 1},          {"uint8_t", KD_DT_U8, 1},
    {"int16_t", KD_DT_I16, 1},        {"uint16_t", KD_DT_U16, 1},
    {"int32_t", KD_DT_I32, 1},        {"uint32_t", KD_DT_U32, 1},
    {"int64_t", KD_DT_I64, 1},        {"uint64_t", KD_DT_U64, 1},
    {"size_t", KD_DT_U64, 1},         {"ptrdiff_t", KD_DT_I64, 1},
};

/* CUDA's vector types are these prefixes followed by a lane count of 1 to 4 (float4,
 * uchar2, ulonglong3 ...); long is 64-bit for the same LP64 reason as above. */
static const named_type vector_prefixes[] = {
    {"char", KD_DT_I8, 0},      {"uchar", KD_DT_U8, 0},      {"short", KD_DT_I16, 0},
    {"ushort", KD_DT_U16, 0},   {"int", KD_DT_I32, 0},       {"uint", KD_DT_U32, 0},
    {"long", KD_DT_I64, 0},     {"ulong", KD_DT_U64, 0},     {"longlong", KD_DT_I64, 0},
    {"ulonglong", KD_DT_U64, 0}, {"float", KD_DT_F32, 0},    {"double", KD_DT_F64, 0},
};

#define MAX_WORDS 8
#define MAX_WORD_LEN 32

typedef struct word_list {
    char words[MAX_WORDS][MAX_WORD_LEN];
    int count;
} word_list;

/* Qualifiers change how a kernel may use a value, never its representation. */
static bool is_qualifier(const char *w)
{
    return strcmp(w, "const") == 0 || strcmp(w, "volatile") == 0 ||
           strcmp(w, "__restrict__") == 0 || strcmp(w, "__restrict") == 0 ||
           strcmp(w, "restrict") == 0;
}

/* Splits on whitespace and drops qualifiers, so "const  unsigned\tint" and "unsigned int"
 * read the same. False when the spelling has too many or too long words to be a type we
 * know. */
static bool split_significant_words(const char *s, word_list *out)
{
    out->count = 0;
    while (*s) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        size_t len = 0;
        while (s[len] && !isspace((unsigned char)s[len]))
            len++;
        if (len >= MAX_WORD_LEN)
            return false;
        char word[MAX_WORD_LEN];
        memcpy(word, s, len);
        word[len] = '\0';
        s += len;
        if (is_qualifier(word))
            continue;
        if (out->count == MAX_WORDS)
            return false;
        memcpy(out->words[out->count++], word, len + 1);
    }
    return true;
}

static bool find_named(const named_type *table, size_t n, const char *name, kd_type_info *out)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(table[i].name, name) == 0) {
            out->base = table[i].base;
            out->lanes = table[i].lanes;
            return true;
        }
    }
    return false;
}

static bool parse_vector_type(const char *w, kd_type_info *out)
{
    size_t len = strlen(w);
    if (len < 2 || w[len - 1] < '1' || w[len - 1] > '4')
        return false;
    char prefix[MAX_WORD_LEN];
    memcpy(prefix, w, len - 1);
    prefix[len - 1] = '\0';
    if (!find_named(vector_prefixes, sizeof vector_prefixes / sizeof *vector_prefixes, prefix, out))
        return false;
    out->lanes = w[len - 1] - '0';
    return true;
}

/* Kernel signatures may qualify the fixed-width names (std::int32_t, std::size_t). */
static const char *without_std_namespace(const char *w)
{
    return strncmp(w, "std::", 5) == 0 ? w + 5 : w;
}

static bool parse_single_word(const char *w, kd_type_info *out)
{
    return find_named(single_words, sizeof single_words / sizeof *single_words,
                      without_std_namespace(w), out) ||
           parse_vector_type(w, out);
}

/* The integer keywords combine in any order ("long unsigned int", "signed char"), so they
 * are counted rather than matched as phrases. Plain char is taken as signed, as on x86-64
 * hosts. */
static bool parse_integer_keywords(const word_list *wl, kd_type_info *out)
{
    int n_signed = 0, n_unsigned = 0, n_char = 0, n_short = 0, n_int = 0, n_long = 0;
    for (int i = 0; i < wl->count; i++) {
        const char *w = wl->words[i];
        if (strcmp(w, "signed") == 0) n_signed++;
        else if (strcmp(w, "unsigned") == 0) n_unsigned++;
        else if (strcmp(w, "char") == 0) n_char++;
        else if (strcmp(w, "short") == 0) n_short++;
        else if (strcmp(w, "int") == 0) n_int++;
        else if (strcmp(w, "long") == 0) n_long++;
        else return false;
    }
    bool ill_formed = n_signed + n_unsigned > 1 || n_int > 1 || n_char + n_short > 1 ||
                      n_long > 2 || (n_long && (n_char || n_short)) || (n_char && n_int);
    if (ill_formed)
        return false;
    bool is_unsigned = n_unsigned == 1;
    if (n_char)
        out->base = is_unsigned ? KD_DT_U8 : KD_DT_I8;
    else if (n_short)
        out->base = is_unsigned ? KD_DT_U16 : KD_DT_I16;
    else if (n_long)
        out->base = is_unsigned ? KD_DT_U64 : KD_DT_I64;
    else
        out->base = is_unsigned ? KD_DT_U32 : KD_DT_I32;
    out->lanes = 1;
    return true;
}

/* On failure *out is {KD_DT_UNKNOWN, 0}: zero lanes so that a caller who ignores the
 * result cannot size a buffer from it. */
bool kd_type_parse(const char *spelling, kd_type_info *out)
{
    word_list wl;
    bool ok = spelling && split_significant_words(spelling, &wl) && wl.count > 0 &&
              ((wl.count == 1 && parse_single_word(wl.words[0], out)) ||
               parse_integer_keywords(&wl, out));
    if (!ok) {
        out->base = KD_DT_UNKNOWN;
        out->lanes = 0;
    }
    return ok;
}

/* ---- sizes and names ----------------------------------------------------------------- */

size_t kd_dtype_size(kd_dtype t)
{
    switch (t) {
    case KD_DT_I8: case KD_DT_U8: return 1;
    case KD_DT_F16: case KD_DT_BF16: case KD_DT_I16: case KD_DT_U16: return 2;
    case KD_DT_F32: case KD_DT_I32: case KD_DT_U32: return 4;
    case KD_DT_F64: case KD_DT_I64: case KD_DT_U64: return 8;
    case KD_DT_UNKNOWN: break;
    }
    return 0;
}

const char *kd_dtype_name(kd_dtype t)
{
    switch (t) {
    case KD_DT_F16: return "f16";
    case KD_DT_BF16: return "bf16";
    case KD_DT_F32: return "f32";
    case KD_DT_F64: return "f64";
    case KD_DT_I8: return "i8";
    case KD_DT_U8: return "u8";
    case KD_DT_I16: return "i16";
    case KD_DT_U16: return "u16";
    case KD_DT_I32: return "i32";
    case KD_DT_U32: return "u32";
    case KD_DT_I64: return "i64";
    case KD_DT_U64: return "u64";
    case KD_DT_UNKNOWN: break;
    }
    return "unknown";
}

kd_dtype kd_dtype_from_name(const char *name)
{
    for (int t = KD_DT_F16; t <= KD_DT_U64; t++)
        if (strcmp(kd_dtype_name((kd_dtype)t), name) == 0)
            return (kd_dtype)t;
    return KD_DT_UNKNOWN;
}

static const struct { const char *name; kd_dtype t; } aliases[] = {
    {"fp16", KD_DT_F16}, {"float16", KD_DT_F16}, {"half", KD_DT_F16}, {"bfloat16", KD_DT_BF16},
    {"fp32", KD_DT_F32}, {"float32", KD_DT_F32}, {"float", KD_DT_F32}, {"fp64", KD_DT_F64},
    {"float64", KD_DT_F64}, {"double", KD_DT_F64}, {"int8", KD_DT_I8}, {"uint8", KD_DT_U8},
    {"int16", KD_DT_I16}, {"int32", KD_DT_I32}, {"int64", KD_DT_I64},
};

bool kd_dtype_setting(const char *text, kd_dtype *type, char **count_text)
{
    size_t len = strcspn(text, "[");
    char name[16];
    if (len == 0 || len >= sizeof name)
        return false;
    memcpy(name, text, len);
    name[len] = '\0';
    *type = kd_dtype_from_name(name);
    for (size_t i = 0; *type == KD_DT_UNKNOWN && i < sizeof aliases / sizeof *aliases; i++)
        if (strcmp(aliases[i].name, name) == 0)
            *type = aliases[i].t;
    if (*type == KD_DT_UNKNOWN)
        return false;
    *count_text = NULL;
    if (!text[len])
        return true;
    size_t n = strlen(text);
    if (text[n - 1] != ']' || n - len < 3)
        return false;
    /* plain strndup, not kd_xstrndup: the harness compiles this file without util/ */
    *count_text = strndup(text + len + 1, n - len - 2);
    return *count_text != NULL;
}

const char *kd_dtype_triton_name(kd_dtype t)
{
    switch (t) {
    case KD_DT_F16: return "fp16";
    case KD_DT_BF16: return "bf16";
    case KD_DT_F32: return "fp32";
    case KD_DT_F64: return "fp64";
    default: return kd_dtype_name(t); /* i8 ... u64 are spelled alike */
    }
}

bool kd_dtype_is_float(kd_dtype t)
{
    return t == KD_DT_F16 || t == KD_DT_BF16 || t == KD_DT_F32 || t == KD_DT_F64;
}

/* ---- half and bfloat16 --------------------------------------------------------------- */

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Drops the low `shift` bits of m, rounding to nearest with ties to even. A carry out of
 * the kept bits is wanted: it moves the value into the next binade (or to infinity). */
static uint32_t shift_right_round_even(uint32_t m, unsigned shift)
{
    uint32_t kept = m >> shift;
    uint32_t rest = m & ((UINT32_C(1) << shift) - 1);
    uint32_t half = UINT32_C(1) << (shift - 1);
    if (rest > half || (rest == half && (kept & 1)))
        kept++;
    return kept;
}

float kd_half_to_float(unsigned short h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1F;
    uint32_t mant = h & 0x3FF;
    if (exp == 0x1F) /* inf, or NaN keeping its payload */
        return float_from_bits(sign | 0x7F800000 | (mant << 13));
    if (exp == 0) { /* zero or subnormal: mant * 2^-24, exact in float */
        float mag = ldexpf((float)mant, -24);
        return sign ? -mag : mag;
    }
    return float_from_bits(sign | ((exp + 112) << 23) | (mant << 13));
}

unsigned short kd_float_to_half(float f)
{
    uint32_t u = float_bits(f);
    uint32_t sign = (u >> 16) & 0x8000;
    uint32_t mag = u & 0x7FFFFFFF;
    if (mag > 0x7F800000) /* NaN: keep the top payload bits and stay quiet */
        return (unsigned short)(sign | 0x7E00 | ((mag >> 13) & 0x3FF));
    if (mag >= 0x47800000) /* >= 2^16, beyond any rounding to 65504: infinity */
        return (unsigned short)(sign | 0x7C00);
    if (mag >= 0x38800000) /* normal in half: rebias the exponent by 127-15 */
        return (unsigned short)(sign | shift_right_round_even(mag - 0x38000000, 13));
    uint32_t exp = mag >> 23;
    if (exp < 102) /* below 2^-25: rounds to zero */
        return (unsigned short)sign;
    /* Subnormal in half: the significand with its implicit bit, scaled to units of 2^-24. */
    uint32_t significand = (mag & 0x7FFFFF) | 0x800000;
    return (unsigned short)(sign | shift_right_round_even(significand, 126 - exp));
}

float kd_bf16_to_float(unsigned short b) { return float_from_bits((uint32_t)b << 16); }

unsigned short kd_float_to_bf16(float f)
{
    uint32_t u = float_bits(f);
    /* A NaN's payload may sit only in the bits that are cut off: forcing the quiet bit keeps
     * it a NaN rather than an infinity. */
    if ((u & 0x7FFFFFFF) > 0x7F800000)
        return (unsigned short)((u >> 16) | 0x0040);
    /* Rounding the magnitude bits is right for negatives too (sign-magnitude encoding), and
     * a carry out of the largest finite value correctly gives infinity. */
    return (unsigned short)shift_right_round_even(u, 16);
}

/* ---- loading ------------------------------------------------------------------------- */

double kd_dtype_load(kd_dtype t, const void *buf, size_t i)
{
    const unsigned char *p = (const unsigned char *)buf + i * kd_dtype_size(t);
    switch (t) {
    case KD_DT_F16: { unsigned short v; memcpy(&v, p, 2); return kd_half_to_float(v); }
    case KD_DT_BF16: { unsigned short v; memcpy(&v, p, 2); return kd_bf16_to_float(v); }
    case KD_DT_F32: { float v; memcpy(&v, p, 4); return v; }
    case KD_DT_F64: { double v; memcpy(&v, p, 8); return v; }
    case KD_DT_I8: { int8_t v; memcpy(&v, p, 1); return v; }
    case KD_DT_U8: { uint8_t v; memcpy(&v, p, 1); return v; }
    case KD_DT_I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case KD_DT_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case KD_DT_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    case KD_DT_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case KD_DT_I64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
    case KD_DT_U64: { uint64_t v; memcpy(&v, p, 8); return (double)v; }
    case KD_DT_UNKNOWN: break;
    }
    return NAN;
}

/* ---- random inputs ------------------------------------------------------------------- */

/* Element i gets splitmix64's (i+1)-th output for the seed: the generator's state after
 * i+1 steps is seed + (i+1)*gamma, so it can be computed directly from (seed, i). That
 * makes every element independent of the buffer length (buffers of different lengths share
 * their prefixes) and of any fill order. Only 64-bit integer arithmetic is involved, so the
 * bits are the same on every machine. */
#define SPLITMIX_GAMMA UINT64_C(0x9E3779B97F4A7C15)

static uint64_t splitmix64_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint64_t element_hash(uint64_t seed, size_t i)
{
    return splitmix64_mix(seed + ((uint64_t)i + 1) * SPLITMIX_GAMMA);
}

/* A draw landing on exactly zero is replaced by hashing the word again: still a function
 * of (seed, i) alone, and uniform over the remaining values. */
static uint64_t rehash(uint64_t h) { return splitmix64_mix(h + SPLITMIX_GAMMA); }

/* Uniform on the multiples of 2^-24 in [-1, 1) minus zero; every such value is exact in
 * float (at most 24 significant bits). The scaling is a multiplication by 2^-24, exact as
 * ldexpf would be, but inlined: a 16M-element input is filled for every run. */
static inline float random_f32(uint64_t h)
{
    int32_t k;
    while ((k = (int32_t)(h >> 39) - (INT32_C(1) << 24)) == 0)
        h = rehash(h);
    return (float)k * 0x1p-24f;
}

/* Uniform on the multiples of 2^-53 in [-1, 1) minus zero, all exact in double. */
static double random_f64(uint64_t h)
{
    int64_t k;
    while ((k = (int64_t)(h >> 10) - (INT64_C(1) << 53)) == 0)
        h = rehash(h);
    return (double)k * 0x1p-53;
}

/* f16/bf16 take the float draw rounded toward zero, so that values just below 1 stay
 * below 1 (round-to-nearest would give 1.0) and no value reaches zero (the smallest float
 * draw, 2^-24 in magnitude, is representable in both). The encodings are sign-magnitude
 * and monotone in magnitude, so stepping the bits down by one moves one ulp toward zero. */
static unsigned short narrow_toward_zero(float f, unsigned short (*narrow)(float),
                                         float (*widen)(unsigned short))
{
    unsigned short b = narrow(f);
    if (fabsf(widen(b)) > fabsf(f))
        b--;
    return b;
}

/* Integers in [1, 64]: nonzero, small enough that sums and products of a few stay in
 * range of every integer type. */
static uint64_t random_small_int(uint64_t h) { return 1 + (h >> 58); }

static void store_random(kd_dtype t, unsigned char *p, uint64_t h)
{
    switch (t) {
    case KD_DT_F16: {
        unsigned short v = narrow_toward_zero(random_f32(h), kd_float_to_half, kd_half_to_float);
        memcpy(p, &v, 2);
        return;
    }
    case KD_DT_BF16: {
        unsigned short v = narrow_toward_zero(random_f32(h), kd_float_to_bf16, kd_bf16_to_float);
        memcpy(p, &v, 2);
        return;
    }
    case KD_DT_F32: { float v = random_f32(h); memcpy(p, &v, 4); return; }
    case KD_DT_F64: { double v = random_f64(h); memcpy(p, &v, 8); return; }
    case KD_DT_I8: { int8_t v = (int8_t)random_small_int(h); memcpy(p, &v, 1); return; }
    case KD_DT_U8: { uint8_t v = (uint8_t)random_small_int(h); memcpy(p, &v, 1); return; }
    case KD_DT_I16: { int16_t v = (int16_t)random_small_int(h); memcpy(p, &v, 2); return; }
    case KD_DT_U16: { uint16_t v = (uint16_t)random_small_int(h); memcpy(p, &v, 2); return; }
    case KD_DT_I32: { int32_t v = (int32_t)random_small_int(h); memcpy(p, &v, 4); return; }
    case KD_DT_U32: { uint32_t v = (uint32_t)random_small_int(h); memcpy(p, &v, 4); return; }
    case KD_DT_I64: { int64_t v = (int64_t)random_small_int(h); memcpy(p, &v, 8); return; }
    case KD_DT_U64: { uint64_t v = random_small_int(h); memcpy(p, &v, 8); return; }
    case KD_DT_UNKNOWN: return;
    }
}

/* Elements [lo, hi) of a buffer. */
typedef struct fill_part {
    kd_dtype t;
    unsigned char *buf;
    size_t lo, hi;
    uint64_t seed;
} fill_part;

static void fill_range(const fill_part *f)
{
    if (f->t == KD_DT_F32) { /* the common case, in a loop of its own: no switch per element */
        for (size_t i = f->lo; i < f->hi; i++) {
            float v = random_f32(element_hash(f->seed, i));
            memcpy(f->buf + 4 * i, &v, 4);
        }
        return;
    }
    size_t size = kd_dtype_size(f->t);
    for (size_t i = f->lo; i < f->hi; i++)
        store_random(f->t, f->buf + i * size, element_hash(f->seed, i));
}

static void *fill_thread(void *arg)
{
    fill_part *f = arg;
    fill_range(f);
    return NULL;
}

/* Every run fills its inputs, often millions of elements (vector_loads: two of 16M floats,
 * 64 ms each on one core, in each harness): a large buffer is split over up to FILL_THREADS
 * threads of at least FILL_PART_MIN elements. Each element is a function of (seed, i) alone,
 * so the bytes are the same however the work is divided; a thread that cannot be made leaves
 * its part to the caller's thread. */
enum { FILL_THREADS = 8 };
#define FILL_PART_MIN ((size_t)1 << 20)

void kd_fill_random(kd_dtype t, void *buf, size_t count, unsigned long long seed)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t parts = count / FILL_PART_MIN;
    if (parts > FILL_THREADS)
        parts = FILL_THREADS;
    if (cpus > 0 && parts > (size_t)cpus)
        parts = (size_t)cpus;
    if (parts < 2) {
        fill_range(&(fill_part){t, buf, 0, count, seed});
        return;
    }
    fill_part part[FILL_THREADS];
    pthread_t thread[FILL_THREADS];
    bool started[FILL_THREADS] = {false};
    for (size_t k = 0; k < parts; k++) {
        part[k] = (fill_part){t, buf, count / parts * k, k + 1 == parts ? count : count / parts * (k + 1), seed};
        started[k] = k > 0 && pthread_create(&thread[k], NULL, fill_thread, &part[k]) == 0;
    }
    for (size_t k = 0; k < parts; k++)
        if (!started[k])
            fill_range(&part[k]);
    for (size_t k = 1; k < parts; k++)
        if (started[k])
            pthread_join(thread[k], NULL);
}

/* ---- poison -------------------------------------------------------------------------- */

/* Quiet NaNs whose payloads (...BAD5, ...B5, ...D5) no arithmetic produces: hardware NaNs
 * carry the canonical payload or propagate an input's. The bf16 pattern is 0x7FD5, not the
 * look-alike 0x7FB5, because that one lacks the quiet bit (0x0040) and would be a
 * signalling NaN. Integer buffers get 0xA5 in every byte, which random inputs in [1, 64]
 * never are. Stored in host byte order, like every other value in the buffers. */
static size_t poison_pattern(kd_dtype t, unsigned char out[8])
{
    switch (t) {
    case KD_DT_F16: { uint16_t v = 0x7EB5; memcpy(out, &v, 2); return 2; }
    case KD_DT_BF16: { uint16_t v = 0x7FD5; memcpy(out, &v, 2); return 2; }
    case KD_DT_F32: { uint32_t v = UINT32_C(0x7FC0BAD5); memcpy(out, &v, 4); return 4; }
    case KD_DT_F64: { uint64_t v = UINT64_C(0x7FF8BAD5BAD5BAD5); memcpy(out, &v, 8); return 8; }
    default: {
        size_t size = kd_dtype_size(t);
        memset(out, 0xA5, size);
        return size;
    }
    }
}

void kd_fill_poison(kd_dtype t, void *buf, size_t count)
{
    unsigned char pattern[8];
    size_t size = poison_pattern(t, pattern);
    for (size_t i = 0; i < count; i++)
        memcpy((unsigned char *)buf + i * size, pattern, size);
}

/* One pattern load and a fixed-size compare per element: this runs over every output
 * element of a correctness check (tens of millions). */
#define COUNT_MATCHES(type)                                                                  \
    do {                                                                                     \
        type want, have;                                                                     \
        memcpy(&want, pattern, sizeof want);                                                 \
        for (size_t i = 0; i < count; i++) {                                                 \
            memcpy(&have, bytes + i * sizeof have, sizeof have);                             \
            hits += have == want;                                                            \
        }                                                                                    \
    } while (0)

size_t kd_count_poison(kd_dtype t, const void *buf, size_t count)
{
    unsigned char pattern[8];
    const unsigned char *bytes = buf;
    size_t hits = 0;
    switch (poison_pattern(t, pattern)) {
    case 1: COUNT_MATCHES(uint8_t); break;
    case 2: COUNT_MATCHES(uint16_t); break;
    case 4: COUNT_MATCHES(uint32_t); break;
    case 8: COUNT_MATCHES(uint64_t); break;
    default: break;
    }
    return hits;
}

bool kd_is_poison(kd_dtype t, const void *buf, size_t i)
{
    unsigned char pattern[8];
    size_t size = poison_pattern(t, pattern);
    return size > 0 && memcmp((const unsigned char *)buf + i * size, pattern, size) == 0;
}
