/* A pointer the kernel's source never writes is an input when no compiled code says
 * (source/body_writes.h; corpus finding 8): read through the scanner, as `list` reads a file
 * whose build failed. Every kernel below is written the way library code writes them. */
#include "kd_test.h"

#include "source/roles.h"
#include "source/scan.h"

/* The scanned kernel `kernel`'s parameter `param`: whether its body never writes it. */
static bool unwritten(const char *src, const char *kernel, const char *param)
{
    kd_kernel_list list = {0};
    kd_scan_source(src, strlen(src), &list);
    const kd_kernel *k = kd_kernel_find(&list, kernel);
    if (!k)
        fail_msg("no kernel %s", kernel);
    int found = -1;
    for (size_t i = 0; i < k->nparams; i++)
        if (strcmp(k->params[i].name, param) == 0)
            found = k->params[i].unwritten_in_source;
    kd_kernel_list_free(&list);
    if (found < 0)
        fail_msg("no parameter %s", param);
    return found;
}

/* A code book copied into shared memory, a template, a grid-stride loop, a block store
 * through a library type (the address handed to a function). */
static const char quantize[] =
    "#define FINAL_MASK 0xffffffff\n"
    "template <typename T, int BLOCK_SIZE, int NUM_PER_TH>\n"
    "__global__ void quantize_blockwise(float *code, T *__restrict__ const A, float *absmax,\n"
    "                                   unsigned char *out, const int n)\n"
    "{\n"
    "    __shared__ float smem_code[256];\n"
    "    for (int i = threadIdx.x; i < 256; i += blockDim.x)\n"
    "        smem_code[i] = code[i];\n"
    "    __syncthreads();\n"
    "    for (int64_t i = blockIdx.x * BLOCK_SIZE; i < n; i += gridDim.x * BLOCK_SIZE) {\n"
    "        float local_max = 0.0f;\n"
    "#pragma unroll NUM_PER_TH\n"
    "        for (int j = 0; j < NUM_PER_TH; j++)\n"
    "            local_max = fmaxf(local_max, fabsf((float)A[i + j]));\n"
    "        if (threadIdx.x == 0)\n"
    "            absmax[i / BLOCK_SIZE] = local_max;\n"
    "        unsigned char q = quantize_one(smem_code, local_max);\n"
    "        StoreT(storage).Store(&(out[i]), q);\n"
    "    }\n"
    "}\n";

static void shared_memory_copy_is_a_read(void **state)
{
    (void)state;
    assert_true(unwritten(quantize, "quantize_blockwise", "code"));
    assert_true(unwritten(quantize, "quantize_blockwise", "A"));
    assert_false(unwritten(quantize, "quantize_blockwise", "absmax")); /* absmax[...] = */
    assert_false(unwritten(quantize, "quantize_blockwise", "out"));    /* &(out[i]) handed on */
}

/* The role follows: never written and not const is an input, said as from the source. */
static void role_falls_back_on_the_source(void **state)
{
    (void)state;
    kd_kernel_list list = {0};
    kd_scan_source(quantize, strlen(quantize), &list);
    const kd_kernel *k = kd_kernel_find(&list, "quantize_blockwise");
    assert_non_null(k);
    const char *why;
    assert_int_equal(kd_param_buffer_use(&k->params[0], &why), KD_USE_IN);
    assert_string_equal(why, "never written in the source");
    assert_int_equal(kd_param_role_of(&k->params[0]), KD_ROLE_INPUT);
    assert_int_equal(kd_param_buffer_use(&k->params[2], &why), KD_USE_OUT);
    assert_string_equal(why, "not declared const");
    /* The compiled code, when there is some, still decides. */
    kd_param written = k->params[0];
    written.access = KD_ACCESS_WRITE;
    assert_int_equal(kd_param_buffer_use(&written, &why), KD_USE_OUT);
    kd_kernel_list_free(&list);
}

/* An alias made by pointer arithmetic carries the writes back to the parameter. */
static const char aliases[] =
    "__global__ void rows(float *x, float *y, float *z, float *w, int cols) {\n"
    "    float *row = x + blockIdx.x * cols;\n"
    "    row[threadIdx.x] = 0.0f;\n"
    "    const float *src = y + blockIdx.x * cols;\n"
    "    float acc = src[threadIdx.x];\n"
    "    float *dst = blockIdx.y ? z : w;\n"
    "    *dst = acc;\n"
    "}\n"
    "__global__ void walk(float *in, float *out, int n) {\n"
    "    in += blockIdx.x * n;\n"
    "    out += blockIdx.x * n;\n"
    "    for (float *p = in; p != in + n; p++)\n"
    "        *out++ = *p;\n"
    "}\n";

static void pointer_arithmetic_alias_is_followed(void **state)
{
    (void)state;
    assert_false(unwritten(aliases, "rows", "x")); /* row[...] = */
    assert_true(unwritten(aliases, "rows", "y"));
    assert_false(unwritten(aliases, "rows", "z")); /* *dst = through a conditional alias */
    assert_false(unwritten(aliases, "rows", "w"));
    assert_true(unwritten(aliases, "walk", "in")); /* moved, aliased, only read */
    assert_false(unwritten(aliases, "walk", "out"));
}

/* Atomics, compound assignments, increments, a macro that writes, a device function that
 * takes the pointer or an element by reference: each is a write, or may be. */
static const char writes[] =
    "#define STORE_RESULT(v) result[threadIdx.x] = (v)\n"
    "__device__ void accumulate(float &acc, float v) { acc += v; }\n"
    "__global__ void many(float *hist, float *sum, int *counter, float *result, float *acc,\n"
    "                     float *scaled, float *half_in, float *guarded, const float *src, int n) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    atomicAdd(&hist[(int)src[i]], 1.0f);\n"
    "    sum[i] += src[i];\n"
    "    ++counter[0];\n"
    "    STORE_RESULT(src[i]);\n"
    "    accumulate(acc[i], src[i]);\n"
    "    scaled[i] *= 2.0f;\n"
    "    float h = __half2float(half_in[i]);\n"
    "    if (guarded != nullptr && guarded[i] > h) return;\n"
    "}\n";

static void writes_and_escapes_are_not_inputs(void **state)
{
    (void)state;
    assert_false(unwritten(writes, "many", "hist"));
    assert_false(unwritten(writes, "many", "sum"));
    assert_false(unwritten(writes, "many", "counter"));
    assert_false(unwritten(writes, "many", "result"));
    assert_false(unwritten(writes, "many", "acc"));
    assert_false(unwritten(writes, "many", "scaled"));
    assert_true(unwritten(writes, "many", "half_in")); /* a conversion takes the value */
    assert_true(unwritten(writes, "many", "guarded")); /* tested, then read */
    /* src[i] handed whole to a macro and to accumulate(): either might take a reference (its
       `const` makes it an input all the same). */
    assert_false(unwritten(writes, "many", "src"));
}

/* Vectorised loads and stores through casts, read-only loads, inline PTX. */
static const char vectors[] =
    "__global__ void __launch_bounds__(256) copy4(float *in, float *out, float *bias, float *raw, size_t n) {\n"
    "    size_t i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;\n"
    "    if (i >= n) return;\n"
    "    float4 v = reinterpret_cast<const float4 *>(in)[i / 4];\n"
    "    float b = __ldg(&bias[i % 4]) + __ldg(bias + 1);\n"
    "    v.x += b;\n"
    "    reinterpret_cast<float4 *>(out)[i / 4] = v;\n"
    "    asm volatile(\"st.global.f32 [%0], %1;\" :: \"l\"(raw + i), \"f\"(b));\n"
    "}\n";

static void casts_and_loads(void **state)
{
    (void)state;
    assert_true(unwritten(vectors, "copy4", "in"));
    assert_true(unwritten(vectors, "copy4", "bias"));
    assert_false(unwritten(vectors, "copy4", "out"));
    assert_false(unwritten(vectors, "copy4", "raw"));
}

/* A prototype before the definition takes the definition's walk; a prototype alone (no
 * body), or a body that never names the pointer, knows nothing. Elements of vector types read by member are reads; assigned, writes. */
static const char prototypes[] =
    "__global__ void scale(half2 *x, half2 *y, int n);\n"
    "__global__ void only_declared(float *p, int n);\n"
    "__global__ void stub(float *p, int n) {}\n"
    "__global__ void scale(half2 *x, half2 *y, int n) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) { y[i].x = x[i].x; y[i].y = x[i].y; }\n"
    "}\n";

static void prototypes_and_members(void **state)
{
    (void)state;
    assert_true(unwritten(prototypes, "scale", "x"));
    assert_false(unwritten(prototypes, "scale", "y"));
    assert_false(unwritten(prototypes, "only_declared", "p"));
    assert_false(unwritten(prototypes, "stub", "p")); /* never named: left to its const */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shared_memory_copy_is_a_read),
        cmocka_unit_test(role_falls_back_on_the_source),
        cmocka_unit_test(pointer_arithmetic_alias_is_followed),
        cmocka_unit_test(writes_and_escapes_are_not_inputs),
        cmocka_unit_test(casts_and_loads),
        cmocka_unit_test(prototypes_and_members),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
