/* The launch settings that come from a kernel's code (source/geometry.h through the
 * annotations) when the user gives none, and that each says it was assumed. */
#include "kd_test.h"

#include <string.h>

#include "launch/spec.h"
#include "util/xalloc.h"

typedef struct launch {
    kd_kernel_list kernels;
    kd_annotations notes;
    kd_launch_request req;
    kd_launch_spec spec;
    kd_strbuf error;
} launch;

static void load(launch *l, const char *src, const char *kernel)
{
    memset(l, 0, sizeof *l);
    kd_scan_source(src, strlen(src), &l->kernels);
    kd_annotations_parse(src, strlen(src), &l->notes);
    l->req.kernel = kd_kernel_find(&l->kernels, kernel);
    assert_non_null(l->req.kernel);
    l->req.annotations = &l->notes;
}

static void unload(launch *l)
{
    kd_launch_spec_free(&l->spec);
    kd_kernel_list_free(&l->kernels);
    kd_annotations_free(&l->notes);
    kd_sb_free(&l->error);
}

static void build_ok(launch *l)
{
    if (kd_launch_spec_build(&l->req, &l->spec, &l->error) != 0)
        fail_msg("build failed: %s", kd_sb_str(&l->error));
}

static void assert_contains(const char *text, const char *needle)
{
    if (!strstr(text, needle))
        fail_msg("'%s' lacks '%s'", text, needle);
}

static const char reduction[] =
    "__global__ void reduce0(float *g_idata, float *g_odata, unsigned int n) {\n"
    "  extern __shared__ float sdata[];\n  unsigned int tid = threadIdx.x;\n"
    "  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  sdata[tid] = (i < n) ? g_idata[i] : 0;\n  __syncthreads();\n"
    "  if (tid == 0) g_odata[blockIdx.x] = sdata[0];\n}\n";

static void extern_shared_gets_one_element_per_thread_assumed(void **state)
{
    (void)state;
    launch l;
    load(&l, reduction, "reduce0");
    build_ok(&l);
    assert_true(l.spec.dynamic_shared);
    assert_int_equal(l.spec.block[0], 256);
    assert_true(l.spec.dynamic_smem == 256 * 4);
    assert_string_equal(l.spec.smem_origin, "assumed");
    assert_contains(l.spec.assumed, "smem 1024 B: one float a thread for extern __shared__ sdata[]");
    unload(&l);

    load(&l, reduction, "reduce0"); /* the user's --smem wins, and the kernel still counts as one with dynamic smem */
    l.req.smem = "8K";
    build_ok(&l);
    assert_true(l.spec.dynamic_smem == 8192);
    assert_string_equal(l.spec.smem_origin, "--smem");
    assert_true(l.spec.dynamic_shared);
    assert_string_equal(l.spec.assumed, "");
    unload(&l);
}

static void template_instance_types_its_shared_array_and_block(void **state)
{
    (void)state;
    const char *src = "template <class T> struct SharedMemory {\n"
                      "  __device__ operator T *() { extern __shared__ int __smem[]; return (T *)__smem; } };\n"
                      "template <class T, unsigned int blockSize>\n"
                      "__global__ void reduce5(T *g_idata, T *g_odata, unsigned int n) {\n"
                      "  T *sdata = SharedMemory<T>();\n  sdata[threadIdx.x] = g_idata[threadIdx.x];\n}\n";
    launch l;
    load(&l, src, "reduce5");
    /* what source/compiled.c makes of the instance reduce5<double, 128u>: its name and types */
    kd_kernel instance = *l.req.kernel;
    instance.name = "reduce5<double, 128u>";
    kd_param params[3];
    memcpy(params, instance.params, sizeof params);
    params[0].pointee = params[1].pointee = "double";
    params[0].type = params[1].type = "double *";
    instance.params = params;
    l.req.kernel = &instance;
    build_ok(&l);
    assert_int_equal(l.spec.block[0], 128);
    assert_string_equal(l.spec.block_origin, "template argument");
    assert_true(l.spec.dynamic_smem == 128 * 8);
    assert_contains(l.spec.assumed, "block 128: the instance's blockSize");
    assert_contains(l.spec.assumed, "one double a thread");
    l.req.kernel = kd_kernel_find(&l.kernels, "reduce5");
    unload(&l);
}

static void block_from_macro_sized_shared_array_and_launch_bounds(void **state)
{
    (void)state;
    launch l;
    load(&l, "#define BLOCK_SIZE 128\n"
             "__global__ void scan(float *out, const float *in, int n) {\n"
             "  __shared__ float temp[BLOCK_SIZE];\n  int tid = threadIdx.x;\n  temp[tid] = in[tid];\n"
             "  out[tid] = temp[tid];\n}\n", "scan");
    build_ok(&l);
    assert_int_equal(l.spec.block[0], 128);
    assert_string_equal(l.spec.block_origin, "shared array");
    assert_int_equal(l.spec.grid[0], 1048576 / 128);
    assert_contains(l.spec.assumed, "block 128: BLOCK_SIZE = 128 sizes __shared__ float temp [ BLOCK_SIZE ]");
    unload(&l);

    load(&l, "__global__ void __launch_bounds__(512) k(float *x, int n) { x[0] = n; }\n", "k");
    build_ok(&l);
    assert_int_equal(l.spec.block[0], 512);
    assert_string_equal(l.spec.block_origin, "__launch_bounds__");
    unload(&l);

    load(&l, "__global__ void __launch_bounds__(512) k(float *x, int n) { x[0] = n; }\n", "k");
    l.req.block = "64"; /* the user's block wins, and nothing is assumed */
    build_ok(&l);
    assert_int_equal(l.spec.block[0], 64);
    assert_string_equal(l.spec.assumed, "");
    unload(&l);
}

static const char gemm[] =
    "#define TILE 16\n"
    "__global__ void sgemm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C) {\n"
    "  __shared__ float As[TILE][TILE];\n"
    "  int row = blockIdx.y * TILE + threadIdx.y;\n  int col = blockIdx.x * TILE + threadIdx.x;\n"
    "  As[threadIdx.y][threadIdx.x] = 0.0f;\n"
    "  if (row < M && col < N) {\n    float acc = 0.0f;\n"
    "    for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];\n"
    "    C[row * N + col] = alpha * acc + beta * C[row * N + col];\n  }\n}\n";

static void gemm_buffers_get_the_extent_their_index_reaches(void **state)
{
    (void)state;
    launch l;
    load(&l, gemm, "sgemm");
    kd_strlist args = {0};
    kd_strlist_push(&args, "alpha=1");
    kd_strlist_push(&args, "beta=0");
    l.req.scalars = &args;
    build_ok(&l);
    const kd_launch_spec *s = &l.spec;
    for (int i = 0; i < 3; i++) { /* M, N, K: sqrt(n) each */
        assert_true(s->args[i].value == 1024);
        assert_string_equal(s->args[i].origin, "assumed");
    }
    assert_true(s->args[4].count == 1024 * 1024);
    assert_string_equal(s->args[4].origin, "indexing");
    assert_true(s->args[7].count == 1024 * 1024);
    assert_int_equal(s->block[0], 16);
    assert_int_equal(s->block[1], 16);
    assert_int_equal(s->grid[0], 64);
    assert_int_equal(s->grid[1], 64);
    assert_contains(s->assumed, "M = 1024: sqrt(n)");
    assert_contains(s->assumed, "grid 64x64: covers the kernel's x < N and y < M");
    unload(&l);
    free(args.items);

    load(&l, gemm, "sgemm"); /* given shapes: A is M x K */
    kd_strlist given = {0};
    kd_strlist_push(&given, "alpha=1");
    kd_strlist_push(&given, "beta=0");
    kd_strlist_push(&given, "M=100");
    kd_strlist_push(&given, "N=30");
    kd_strlist_push(&given, "K=7");
    l.req.scalars = &given;
    build_ok(&l);
    assert_true(l.spec.args[4].count == 700);
    assert_true(l.spec.args[5].count == 210);
    assert_true(l.spec.args[7].count == 3000);
    assert_int_equal(l.spec.grid[0], 2);
    assert_int_equal(l.spec.grid[1], 7);
    unload(&l);
    free(given.items);
}

static void unbounded_two_d_index_is_refused_before_launching(void **state)
{
    (void)state;
    launch l;
    load(&l, "__global__ void t(float *out, const float *in, int ld) {\n"
             "  int r = blockIdx.y, c = threadIdx.x;\n  out[r * ld + c] = in[c];\n}\n", "t");
    kd_strlist args = {0};
    kd_strlist_push(&args, "ld=64");
    l.req.scalars = &args;
    assert_int_equal(kd_launch_spec_build(&l.req, &l.spec, &l.error), -1);
    assert_string_equal(kd_sb_str(&l.error),
                        "buffer 'out' is indexed as out[r * ld + c], in 2-D, and kerndiff cannot tell how far that "
                        "reaches (no guard such as `if (row < rows)` bounds it): give its element count with --buf "
                        "out=COUNT or `// kerndiff: out=COUNT`");
    kd_sb_free(&l.error);
    kd_strlist bufs = {0};
    kd_strlist_push(&bufs, "out=4096");
    l.req.buffers = &bufs;
    build_ok(&l);
    assert_true(l.spec.args[0].count == 4096);
    unload(&l);
    free(args.items);
    free(bufs.items);
}

static void one_d_extent_beyond_n_is_kept(void **state)
{
    (void)state;
    launch l;
    load(&l, "__global__ void pairs(const float2 *in, float *out, int n) {\n"
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  if (i < n) { out[2 * i] = in[i].x; out[2 * i + 1] = in[i].y; }\n}\n", "pairs");
    l.req.n = "1000";
    build_ok(&l);
    assert_true(l.spec.args[0].count == 1000);
    assert_string_equal(l.spec.args[0].origin, "n");
    assert_true(l.spec.args[1].count == 2000);
    assert_string_equal(l.spec.args[1].origin, "indexing");
    unload(&l);
}

/* inputs=/outputs=/inouts= in a .cu file decide the launch's roles; a name that is no buffer
 * is an error naming it. */
static void role_annotations_in_a_cuda_file(void **state)
{
    (void)state;
    launch l;
    load(&l, "// kerndiff: inputs=g_idata outputs=table inouts=acc\n"
             "__global__ void k(float *g_idata, const float *table, float *acc, float *out, int n) {}\n", "k");
    build_ok(&l);
    assert_int_equal(l.spec.args[0].role, KD_ROLE_INPUT);
    assert_int_equal(l.spec.args[1].role, KD_ROLE_OUTPUT);
    assert_int_equal(l.spec.args[2].role, KD_ROLE_INOUT); /* seeded and compared */
    assert_int_equal(l.spec.args[3].role, KD_ROLE_OUTPUT);
    unload(&l);
    load(&l, "// kerndiff: inputs=g_idta\n__global__ void k(float *g_idata, float *out, int n) {}\n", "k");
    assert_int_equal(kd_launch_spec_build(&l.req, &l.spec, &l.error), -1);
    assert_string_equal(kd_sb_str(&l.error), "`// kerndiff: inputs=g_idta` (line 1): kernel 'k' has no parameter "
                                             "'g_idta' (its buffers: g_idata, out)");
    unload(&l);
    load(&l, "// kerndiff: inputs=n\n__global__ void k(float *g_idata, float *out, int n) {}\n", "k");
    assert_int_equal(kd_launch_spec_build(&l.req, &l.spec, &l.error), -1);
    assert_string_equal(kd_sb_str(&l.error), "`// kerndiff: inputs=n` (line 1): 'n' is a scalar (int), not a buffer "
                                             "(its buffers: g_idata, out)");
    unload(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(extern_shared_gets_one_element_per_thread_assumed),
        cmocka_unit_test(template_instance_types_its_shared_array_and_block),
        cmocka_unit_test(block_from_macro_sized_shared_array_and_launch_bounds),
        cmocka_unit_test(gemm_buffers_get_the_extent_their_index_reaches),
        cmocka_unit_test(unbounded_two_d_index_is_refused_before_launching),
        cmocka_unit_test(one_d_extent_beyond_n_is_kept),
        cmocka_unit_test(role_annotations_in_a_cuda_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
