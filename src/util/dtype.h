/* dtype.h — the element types kerndiff can allocate, fill, poison and compare. A CUDA
 * vector type (float4, half2, int2 ...) is its base type with `lanes` elements. */
#ifndef KD_UTIL_DTYPE_H
#define KD_UTIL_DTYPE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum kd_dtype {
    KD_DT_UNKNOWN = 0,
    KD_DT_F16, KD_DT_BF16, KD_DT_F32, KD_DT_F64,
    KD_DT_I8, KD_DT_U8, KD_DT_I16, KD_DT_U16, KD_DT_I32, KD_DT_U32, KD_DT_I64, KD_DT_U64,
} kd_dtype;

typedef struct kd_type_info {
    kd_dtype base;
    int lanes;          /* 4 for float4, 1 for float */
} kd_type_info;

/* Parses a C/CUDA type spelling as the scanner reports a pointee or scalar type:
 * "float", "const float" (cv ignored), "half", "__half", "__nv_bfloat16", "nv_bfloat16",
 * "double", "int", "unsigned", "unsigned int", "long long", "unsigned long long",
 * "int64_t", "uint8_t", "char", "signed char", "unsigned char", "short", "size_t",
 * "float2", "float4", "half2", "__half2", "__nv_bfloat162", "int4", "uint2" ... Returns
 * false (base KD_DT_UNKNOWN) for anything else (structs, templates' T). */
bool kd_type_parse(const char *spelling, kd_type_info *out);

size_t kd_dtype_size(kd_dtype t);     /* bytes of one scalar element */
const char *kd_dtype_name(kd_dtype t);/* "f32", "bf16", "i32" ... */
kd_dtype kd_dtype_from_name(const char *name); /* the reverse; KD_DT_UNKNOWN if none */
bool kd_dtype_is_float(kd_dtype t);

/* A buffer setting that names its element type: "f16", "fp16", "float16", "bf16", "f32"
 * ... (kerndiff's and Triton's spellings), alone or with a count, "f16[n*n]". Returns true
 * with the type and *count_text (NULL when none; else a malloc'd copy of the text between
 * the brackets); false when the text does not start with a type name (a plain count). */
bool kd_dtype_setting(const char *text, kd_dtype *type, char **count_text);
/* Triton's name of a dtype ("fp32", "bf16", "i32" ...). */
const char *kd_dtype_triton_name(kd_dtype t);

/* f16/bf16 <-> float without hardware support (round to nearest even). */
float kd_half_to_float(unsigned short h);
unsigned short kd_float_to_half(float f);
float kd_bf16_to_float(unsigned short b);
unsigned short kd_float_to_bf16(float f);

/* Reads element i of a buffer of type t as a double. */
double kd_dtype_load(kd_dtype t, const void *buf, size_t i);

/* Seeded pseudo-random inputs, identical for a given (seed, dtype, count) on every
 * machine: floats uniform in [-1, 1) excluding exact zero; integers in [1, 64]. Never zeros. */
void kd_fill_random(kd_dtype t, void *buf, size_t count, unsigned long long seed);

/* Output poisoning: a bit pattern no kernel writes by accident (a NaN with a payload for
 * floats, 0xA5 bytes for integers); kd_is_poison tests element i. */
void kd_fill_poison(kd_dtype t, void *buf, size_t count);
bool kd_is_poison(kd_dtype t, const void *buf, size_t i);
/* How many of the count elements are poisoned (fast: for whole output buffers). */
size_t kd_count_poison(kd_dtype t, const void *buf, size_t count);

#endif
