#include "kd_test.h"

#include <string.h>

#include "source/geometry.h"

static const kd_kernel_geometry *read_one(const char *src, kd_file_geometry *g, const char *name)
{
    kd_geometry_read(src, strlen(src), g);
    const kd_kernel_geometry *k = kd_geometry_find(g, name);
    if (!k)
        fail_msg("kernel %s not read", name);
    return k;
}

static void extern_shared_in_the_kernel(void **state)
{
    (void)state;
    const char *src = "__global__ void sum(const float *in, float *out, int n) {\n"
                      "  extern __shared__ float sdata[];\n"
                      "  unsigned tid = threadIdx.x;\n"
                      "  sdata[tid] = in[blockIdx.x * blockDim.x + tid];\n}\n";
    kd_file_geometry g;
    const kd_kernel_geometry *k = read_one(src, &g, "sum");
    assert_true(k->dynamic_shared);
    assert_string_equal(k->shared_name, "sdata");
    assert_string_equal(k->shared_type, "float");
    assert_int_equal(k->block[0], 0);
    assert_int_equal(k->nparams, 3);
    assert_string_equal(k->params[2], "n");
    kd_geometry_free(&g);
}

static void shared_memory_helper_of_the_cuda_samples(void **state)
{
    (void)state;
    const char *src = "template <class T> struct SharedMemory {\n"
                      "  __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }\n};\n"
                      "template <class T, unsigned int blockSize>\n"
                      "__global__ void reduce4(T *g_idata, T *g_odata, unsigned int n) {\n"
                      "  T *sdata = SharedMemory<T>();\n  sdata[threadIdx.x] = g_idata[threadIdx.x];\n}\n"
                      "__global__ void plain(float *x) { x[0] = 1; }\n";
    kd_file_geometry g;
    const kd_kernel_geometry *k = read_one(src, &g, "reduce4<float, 256u>");
    assert_true(k->dynamic_shared);
    assert_string_equal(k->shared_type, "T");
    assert_int_equal(k->ntemplate_params, 2);
    assert_string_equal(k->template_params[1], "blockSize");
    assert_false(kd_geometry_find(&g, "plain")->dynamic_shared);
    kd_geometry_free(&g);
}

static void char_array_cast_to_its_element_type(void **state)
{
    (void)state;
    const char *src = "extern __shared__ char raw[];\n"
                      "__global__ void k(double *x) { double *s = (double *)raw; s[threadIdx.x] = x[threadIdx.x]; }\n";
    kd_file_geometry g;
    const kd_kernel_geometry *k = read_one(src, &g, "k");
    assert_true(k->dynamic_shared);
    assert_string_equal(k->shared_type, "double");
    kd_geometry_free(&g);
}

static void block_from_a_macro_sized_shared_array(void **state)
{
    (void)state;
    const char *src = "#define BLOCK_SIZE 128 // threads\n"
                      "__global__ void scan(float *out, const float *in, int n) {\n"
                      "  __shared__ float temp[BLOCK_SIZE];\n  int tid = threadIdx.x;\n"
                      "  temp[tid] = in[tid];\n}\n";
    kd_file_geometry g;
    const kd_kernel_geometry *k = read_one(src, &g, "scan");
    assert_int_equal(k->block[0], 128);
    assert_int_equal(k->block[1], 1);
    assert_non_null(strstr(k->block_reason, "BLOCK_SIZE = 128"));
    assert_false(k->dynamic_shared);
    kd_geometry_free(&g);
}

static void two_d_tile_gives_a_two_d_block(void **state)
{
    (void)state;
    const char *src = "const int TILE = 16;\n"
                      "__global__ void mm(const float *A, const float *B, float *C, int M, int N, int K) {\n"
                      "  __shared__ float As[TILE][TILE];\n"
                      "  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;\n"
                      "  As[threadIdx.y][threadIdx.x] = 0;\n"
                      "  if (row < M && col < N) { float acc = 0;\n"
                      "    for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];\n"
                      "    C[row * N + col] = acc; }\n}\n";
    kd_file_geometry g;
    const kd_kernel_geometry *k = read_one(src, &g, "mm");
    assert_int_equal(k->block[0], 16);
    assert_int_equal(k->block[1], 16);
    assert_true(k->two_d);
    const kd_buffer_extent *a = kd_geometry_extent(k, "A"), *c = kd_geometry_extent(k, "C");
    assert_non_null(a);
    assert_string_equal(a->count, "((M-1)*K+(K-1))+1");
    assert_int_equal(a->rank, 2);
    assert_string_equal(c->count, "((M-1)*N+(N-1))+1");
    assert_string_equal(k->reach[0], "N");
    assert_string_equal(k->reach[1], "M");
    kd_geometry_free(&g);
}

static void unbounded_two_d_index_is_unknown(void **state)
{
    (void)state;
    const char *src = "__global__ void t(float *out, const float *in, int ld) {\n"
                      "  int r = blockIdx.y, c = threadIdx.x;\n  out[r * ld + c] = in[c];\n}\n";
    kd_file_geometry g;
    const kd_kernel_geometry *k = read_one(src, &g, "t");
    const kd_buffer_extent *out = kd_geometry_extent(k, "out");
    assert_non_null(out);
    assert_null(out->count);
    assert_int_equal(out->rank, 2);
    assert_null(kd_geometry_extent(k, "in")); /* flat and unbounded: the default n stands */
    kd_geometry_free(&g);
}

static void rows_by_columns_and_early_return_guards(void **state)
{
    (void)state;
    const char *src = "__global__ void rownorm(float *out, const float *inp, int N, int C) {\n"
                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= N) return;\n"
                      "  for (int c = 0; c < C; c++) out[i * C + c] = inp[i * C + c];\n}\n";
    kd_file_geometry g;
    const kd_kernel_geometry *k = read_one(src, &g, "rownorm");
    assert_string_equal(kd_geometry_extent(k, "inp")->count, "((N-1)*C+(C-1))+1");
    assert_string_equal(k->reach[0], "N");
    assert_false(k->two_d);
    kd_geometry_free(&g);
}

static void launch_bounds_evaluated_with_macros(void **state)
{
    (void)state;
    const char *src = "#define THREADS (2 * 64u)\n"
                      "__global__ void __launch_bounds__(THREADS, 4) k(float *x, int n) {\n"
                      "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }\n";
    kd_file_geometry g;
    const kd_kernel_geometry *k = read_one(src, &g, "k");
    assert_string_equal(k->launch_bounds, "128");
    assert_string_equal(kd_geometry_extent(k, "x")->count, "((n-1))+1");
    assert_int_equal(kd_geometry_extent(k, "x")->rank, 1);
    kd_geometry_free(&g);
}

static void ptx_extern_shared_and_mangled_entries(void **state)
{
    (void)state;
    const char *src = ".version 8.0\n.target sm_90\n.extern .shared .align 16 .b8 sdata[];\n"
                      ".visible .entry _Z6reducePfS_j(\n .param .u64 _Z6reducePfS_j_param_0,\n"
                      " .param .u32 _Z6reducePfS_j_param_2\n)\n{\n mov.u64 %rd1, sdata;\n}\n"
                      ".visible .entry other(\n .param .u64 other_param_0\n)\n{\n ret;\n}\n";
    kd_file_geometry g;
    const kd_kernel_geometry *k = read_one(src, &g, "_Z6reducePfS_j");
    assert_true(k->dynamic_shared);
    assert_int_equal(k->shared_bytes, 16);
    assert_int_equal(k->nparams, 2);
    assert_ptr_equal(kd_geometry_find(&g, "_Z6reducePfS_j"), k);
    assert_false(kd_geometry_find(&g, "other")->dynamic_shared);
    kd_geometry_free(&g);
}

static void python_parameters_for_annotation_keys(void **state)
{
    (void)state;
    const char *src = "import triton\n@triton.jit\ndef add(x_ptr, y_ptr, n, BLOCK: tl.constexpr = 1024):\n"
                      "    pass\n";
    kd_file_geometry g;
    kd_geometry_read(src, strlen(src), &g);
    assert_true(kd_geometry_has_param(&g, "BLOCK"));
    assert_true(kd_geometry_has_param(&g, "y_ptr"));
    assert_false(kd_geometry_has_param(&g, "tl"));
    assert_false(kd_geometry_has_param(&g, "constexpr"));
    kd_geometry_free(&g);
}

static void pointer_offsets_clamps_and_casts(void **state)
{
    (void)state;
    const char *src = "__global__ void ln(float *out, const float *inp, int N, int C) {\n"
                      "  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n  if (idx < N) {\n"
                      "    const float *x = inp + idx * C;\n    float *o = out + (size_t)idx * C;\n"
                      "    for (int i = 0; i < C; i++) o[i] = x[i]; } }\n"
                      "__global__ void blur(const float *in, float *out, int width, int height, int pitch) {\n"
                      "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                      "  if (x < width && y < height) { int yy = min(max(y + 1, 0), height - 1);\n"
                      "    out[y * pitch + x] = in[yy * pitch + x]; } }\n"
                      "__global__ void warp_rows(float *out, int N) {\n"
                      "  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;\n  if (row >= N) return;\n"
                      "  out[row] = 1; }\n";
    kd_file_geometry g;
    const kd_kernel_geometry *ln = read_one(src, &g, "ln");
    assert_string_equal(kd_geometry_extent(ln, "inp")->count, "((N-1)*C+(C-1))+1");
    assert_string_equal(kd_geometry_extent(ln, "out")->count, "((N-1)*C+(C-1))+1");
    assert_int_equal(kd_geometry_extent(ln, "inp")->rank, 2);
    assert_string_equal(kd_geometry_extent(ln, "inp")->indexing, "idx * C + i");
    const kd_kernel_geometry *blur = kd_geometry_find(&g, "blur");
    assert_string_equal(kd_geometry_extent(blur, "in")->count, "(((height-1))*pitch+(width-1))+1");
    assert_string_equal(blur->reach[0], "width");
    assert_string_equal(blur->reach[1], "height");
    const kd_kernel_geometry *rows = kd_geometry_find(&g, "warp_rows");
    assert_null(rows->reach[0]); /* a row per warp: not one thread's index */
    assert_string_equal(kd_geometry_extent(rows, "out")->count, "((N-1))+1");
    kd_geometry_free(&g);
}

static void raw_strings_hide_their_braces_and_quotes(void **state)
{
    (void)state;
    /* One tokenizer (source/scan.h): a raw string's braces and quotes are its own, not the
       body's, so the body after it is still read. */
    const char *src = "__global__ void tagged(float *x, int n) {\n"
                      "  const char *tag = R\"d(} \" { ' )d\";\n"
                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "  if (i < n) x[i] = tag[0];\n}\n"
                      "__global__ void after(float *y, int m) {\n"
                      "  int j = blockIdx.x * blockDim.x + threadIdx.x; if (j < m) y[j] = 0; }\n";
    kd_file_geometry g;
    const kd_kernel_geometry *k = read_one(src, &g, "tagged");
    assert_non_null(kd_geometry_extent(k, "x"));
    assert_string_equal(kd_geometry_extent(k, "x")->count, "((n-1))+1");
    const kd_kernel_geometry *after = kd_geometry_find(&g, "after");
    assert_non_null(after);
    assert_non_null(kd_geometry_extent(after, "y"));
    assert_string_equal(kd_geometry_extent(after, "y")->count, "((m-1))+1");
    kd_geometry_free(&g);
}

static void line_splices_inside_kernel_code(void **state)
{
    (void)state;
    /* backslash-newline joins lines: the index expression is one, not two with a `\` between */
    const char *src = "__global__ void spliced(float *x, int n) {\n"
                      "  int i = blockIdx.x * blockDim.x \\\n      + threadIdx.x;\n"
                      "  if (i < \\\n n) x[i] = 0;\n}\n";
    kd_file_geometry g;
    const kd_kernel_geometry *k = read_one(src, &g, "spliced");
    assert_non_null(kd_geometry_extent(k, "x"));
    assert_string_equal(kd_geometry_extent(k, "x")->count, "((n-1))+1");
    assert_string_equal(k->reach[0], "n");
    kd_geometry_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(extern_shared_in_the_kernel),
        cmocka_unit_test(shared_memory_helper_of_the_cuda_samples),
        cmocka_unit_test(char_array_cast_to_its_element_type),
        cmocka_unit_test(block_from_a_macro_sized_shared_array),
        cmocka_unit_test(two_d_tile_gives_a_two_d_block),
        cmocka_unit_test(unbounded_two_d_index_is_unknown),
        cmocka_unit_test(rows_by_columns_and_early_return_guards),
        cmocka_unit_test(launch_bounds_evaluated_with_macros),
        cmocka_unit_test(ptx_extern_shared_and_mangled_entries),
        cmocka_unit_test(python_parameters_for_annotation_keys),
        cmocka_unit_test(pointer_offsets_clamps_and_casts),
        cmocka_unit_test(raw_strings_hide_their_braces_and_quotes),
        cmocka_unit_test(line_splices_inside_kernel_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
