#include "kd_test.h"

#include <string.h>

#include "launch/spec.h"
#include "report/diag_text.h"

/* One kernel file, scanned and annotated as the tool would, plus a request to build. */
typedef struct launch {
    kd_kernel_list kernels;
    kd_annotations notes;
    kd_strlist buffers, scalars;
    kd_launch_request req;
    kd_launch_spec spec;
    kd_strbuf error;
} launch;

static void load(launch *l, const char *src)
{
    memset(l, 0, sizeof *l);
    assert_int_equal(kd_scan_source(src, strlen(src), &l->kernels), 0);
    kd_annotations_parse(src, strlen(src), &l->notes);
    assert_int_equal(l->kernels.count, 1);
    l->req.kernel = &l->kernels.items[0];
    l->req.annotations = &l->notes;
    l->req.buffers = &l->buffers;
    l->req.scalars = &l->scalars;
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

/* Builds expecting failure with exactly `message`. */
static void build_fails(launch *l, const char *message)
{
    assert_int_equal(kd_launch_spec_build(&l->req, &l->spec, &l->error), -1);
    assert_string_equal(kd_sb_str(&l->error), message);
    assert_int_equal(l->spec.nargs, 0);
    assert_null(l->spec.args);
    kd_sb_free(&l->error);
}

/* Builds expecting failure with a message containing `needle`. */
static void build_fails_with(launch *l, const char *needle)
{
    assert_int_equal(kd_launch_spec_build(&l->req, &l->spec, &l->error), -1);
    if (!strstr(kd_sb_str(&l->error), needle))
        fail_msg("error '%s' lacks '%s'", kd_sb_str(&l->error), needle);
    kd_sb_free(&l->error);
}

static void assert_dims(const unsigned d[3], unsigned x, unsigned y, unsigned z)
{
    assert_int_equal(d[0], x);
    assert_int_equal(d[1], y);
    assert_int_equal(d[2], z);
}

static const char saxpy[] = "__global__ void saxpy(float a, const float* x, float* y, int n) {}\n";

static void saxpy_is_inferred_from_its_signature(void **state)
{
    (void)state;
    launch l;
    load(&l, saxpy);
    char *args[] = {"a=2.5"};
    l.scalars = (kd_strlist){args, 1};
    build_ok(&l);
    const kd_launch_spec *s = &l.spec;
    assert_true(s->n == 1048576);
    assert_string_equal(s->n_origin, "default");
    assert_dims(s->block, 256, 1, 1);
    assert_dims(s->grid, 4096, 1, 1);
    assert_true(s->dynamic_smem == 0);
    assert_int_equal(s->nargs, 4);

    assert_string_equal(s->args[0].name, "a");
    assert_int_equal(s->args[0].role, KD_ROLE_SCALAR);
    assert_int_equal(s->args[0].type.base, KD_DT_F32);
    assert_true(s->args[0].value == 2.5);
    assert_string_equal(s->args[0].origin, "--arg");

    assert_string_equal(s->args[1].name, "x");
    assert_int_equal(s->args[1].role, KD_ROLE_INPUT);
    assert_int_equal(s->args[1].type.base, KD_DT_F32);
    assert_int_equal(s->args[1].type.lanes, 1);
    assert_true(s->args[1].count == 1048576);
    assert_string_equal(s->args[1].origin, "n");

    assert_int_equal(s->args[2].role, KD_ROLE_OUTPUT);
    assert_true(s->args[2].count == 1048576);

    assert_string_equal(s->args[3].name, "n");
    assert_int_equal(s->args[3].role, KD_ROLE_LENGTH);
    assert_int_equal(s->args[3].type.base, KD_DT_I32);
    assert_true(s->args[3].value == 1048576);
    assert_string_equal(s->args[3].origin, "n");

    assert_true(kd_launch_spec_bytes(s) == 2ULL * 1048576 * 4);
    unload(&l);
}

static void a_scalar_without_a_value_is_an_error(void **state)
{
    (void)state;
    launch l;
    load(&l, saxpy);
    build_fails(&l, "scalar parameter 'a' (float) needs a value: --arg a=VALUE or `// kerndiff: a=VALUE`");
    unload(&l);
}

static void matmul_takes_its_geometry_from_annotations(void **state)
{
    (void)state;
    launch l;
    load(&l, "// kerndiff: n=1024 A=n*n B=n*n C=n*n\n"
             "// kerndiff: block=16,16 grid=cdiv(n,16),cdiv(n,16) smem=2*16*16*4\n"
             "__global__ void matmul(const float* A, const float* B, float* C, int N) {}\n");
    build_ok(&l);
    const kd_launch_spec *s = &l.spec;
    assert_true(s->n == 1024);
    assert_string_equal(s->n_origin, "annotation");
    assert_dims(s->block, 16, 16, 1);
    assert_dims(s->grid, 64, 64, 1);
    assert_true(s->dynamic_smem == 2048);
    for (int i = 0; i < 3; i++) {
        assert_true(s->args[i].count == 1024 * 1024);
        assert_string_equal(s->args[i].origin, "annotation");
    }
    assert_int_equal(s->args[3].role, KD_ROLE_LENGTH);
    assert_true(s->args[3].value == 1024);
    assert_true(kd_launch_spec_bytes(s) == 3ULL * 1024 * 1024 * 4);
    unload(&l);
}

static void vector_and_bfloat16_buffers_count_whole_elements(void **state)
{
    (void)state;
    launch l;
    load(&l, "#include <cuda_bf16.h>\n"
             "__global__ void k(const float4* __restrict__ in, __nv_bfloat16* out, size_t n) {}\n");
    l.req.n = "1K";
    build_ok(&l);
    const kd_launch_spec *s = &l.spec;
    assert_int_equal(s->args[0].type.base, KD_DT_F32);
    assert_int_equal(s->args[0].type.lanes, 4);
    assert_true(s->args[0].count == 1024);
    assert_int_equal(s->args[1].type.base, KD_DT_BF16);
    assert_int_equal(s->args[1].type.lanes, 1);
    assert_int_equal(s->args[1].role, KD_ROLE_OUTPUT);
    assert_true(s->args[2].value == 1024);
    assert_string_equal(s->n_origin, "--n");
    assert_true(kd_launch_spec_bytes(s) == 1024ULL * 16 + 1024ULL * 2);
    unload(&l);
}

static void types_kerndiff_cannot_handle_are_errors(void **state)
{
    (void)state;
    launch l;
    load(&l, "struct Particle { float x, v; };\n__global__ void step(Particle* p, int n) {}\n");
    build_fails(&l, "buffer parameter 'p' (Particle *) points to 'Particle', which kerndiff cannot allocate: "
                    "change the type to a number or CUDA vector type, or launch it with a custom launcher "
                    "(include/kerndiff/launcher.h)");
    unload(&l);

    load(&l, "template <typename T> __global__ void k(const T* x, T* y, int n) {}\n");
    build_fails_with(&l, "buffer parameter 'x' (const T *) points to 'T', which kerndiff cannot allocate");
    unload(&l);

    load(&l, "__global__ void k(float* y, Config cfg) {}\n");
    build_fails_with(&l, "scalar parameter 'cfg' has type 'Config', which kerndiff cannot pass");
    unload(&l);

    load(&l, "__global__ void k(float* y, float4 v) {}\n");
    build_fails_with(&l, "scalar parameter 'v' is a vector (float4)");
    unload(&l);
}

/* The same file, asked three ways: with the command line, with annotations only, with
 * neither. */
static const char layered[] =
    "// kerndiff: n=4096 block=128 grid=7 smem=1K y=n/2 a=1.5\n"
    "__global__ void saxpy(float a, const float* x, float* y, int n) {}\n";

/* A key that names neither a setting nor a parameter of the file's kernels is a mistake
 * (here a typo of `block`): an error naming it and the keys there are, never silence. A
 * parameter of another kernel of the file is a key. */
static void unknown_annotation_key_is_an_error(void **state)
{
    (void)state;
    launch l;
    load(&l, "// kerndiff: blok=128\n__global__ void k(float *x, int n) {}\n");
    build_fails(&l, "`// kerndiff: blok=128` (line 1): 'blok' is not an annotation key kerndiff knows (did you "
                    "mean 'block'?); it knows n, block, grid, smem, inputs, outputs, inouts, signature, libs, "
                    "num_warps, num_stages, num_ctas and the parameters of the file's kernels (of 'k': x, n)");
    unload(&l);
    const char *two = "// kerndiff: inputs=x\n__global__ void k(float *x, int n) {}\n"
                      "__global__ void k2(float *y, int count) {}\n// kerndiff: count=7\n";
    memset(&l, 0, sizeof l);
    kd_scan_source(two, strlen(two), &l.kernels);
    kd_annotations_parse(two, strlen(two), &l.notes);
    assert_int_equal(l.kernels.count, 2);
    l.req = (kd_launch_request){.kernel = &l.kernels.items[0], .annotations = &l.notes};
    build_ok(&l);
    unload(&l);
}

static void command_line_beats_annotation(void **state)
{
    (void)state;
    launch l;
    load(&l, layered);
    char *bufs[] = {"y=n*3", "x=n*2", "y=n*4"}; /* a later entry overrides an earlier one */
    char *args[] = {"a=3"};
    l.buffers = (kd_strlist){bufs, 3};
    l.scalars = (kd_strlist){args, 1};
    l.req.n = "1000";
    l.req.block = "64";
    l.req.grid = "ceil(n/256),2";
    l.req.smem = "0";
    build_ok(&l);
    const kd_launch_spec *s = &l.spec;
    assert_true(s->n == 1000);
    assert_string_equal(s->n_origin, "--n");
    assert_dims(s->block, 64, 1, 1);
    assert_dims(s->grid, 4, 2, 1);
    assert_true(s->dynamic_smem == 0);
    assert_true(s->args[0].value == 3);
    assert_string_equal(s->args[0].origin, "--arg");
    assert_true(s->args[1].count == 2000);
    assert_string_equal(s->args[1].origin, "--buf");
    assert_true(s->args[2].count == 4000);
    /* `n=4096` in the file is the count setting, which --n replaced, and never the value
     * of the parameter named n: the kernel is told the count its buffers were sized for. */
    assert_true(s->args[3].value == 1000);
    assert_string_equal(s->args[3].origin, "n");
    unload(&l);
}

static void annotation_beats_inference(void **state)
{
    (void)state;
    launch l;
    load(&l, layered);
    build_ok(&l);
    const kd_launch_spec *s = &l.spec;
    assert_true(s->n == 4096);
    assert_dims(s->block, 128, 1, 1);
    assert_dims(s->grid, 7, 1, 1);
    assert_true(s->dynamic_smem == 1024);
    assert_true(s->args[0].value == 1.5);
    assert_string_equal(s->args[0].origin, "annotation");
    assert_true(s->args[1].count == 4096);
    assert_string_equal(s->args[1].origin, "n");
    assert_true(s->args[2].count == 2048);
    assert_string_equal(s->args[2].origin, "annotation");
    assert_true(s->args[3].value == 4096);
    unload(&l);
}

static void inference_fills_the_rest(void **state)
{
    (void)state;
    launch l;
    load(&l, "__global__ void k(const float* x, float* y, unsigned num_items, int stride = 2 * 4) {}\n");
    l.req.n = "1000";
    build_ok(&l);
    const kd_launch_spec *s = &l.spec;
    assert_dims(s->block, 256, 1, 1);
    assert_dims(s->grid, 4, 1, 1); /* ceil(1000/256) */
    assert_true(s->args[2].value == 1000);
    assert_string_equal(s->args[2].origin, "n");
    assert_true(s->args[3].value == 8);
    assert_string_equal(s->args[3].origin, "inferred");
    unload(&l);

    /* A default kerndiff cannot read is no value at all. */
    load(&l, "__global__ void k(float* y, float alpha = 1.0f) {}\n");
    build_fails_with(&l, "scalar parameter 'alpha' (float) needs a value");
    unload(&l);
}

static void default_grid_covers_n_with_every_thread_of_the_block(void **state)
{
    (void)state;
    launch l;
    load(&l, "// kerndiff: block=16,16\n__global__ void k(float* y, int n) {}\n");
    l.req.n = "1000";
    build_ok(&l);
    assert_dims(l.spec.grid, 4, 1, 1); /* ceil(1000/256), not ceil(1000/16) */
    unload(&l);
}

static void settings_see_n_scalars_and_block(void **state)
{
    (void)state;
    launch l;
    load(&l, "// kerndiff: grid=ceil(n/block),min(tile,4) out=n+block*tile block=tile*8\n"
             "// kerndiff: tile=32 smem=tile*tile*4\n"
             "__global__ void k(const float* in, float* out, int tile, int n) {}\n");
    l.req.n = "1M";
    build_ok(&l);
    const kd_launch_spec *s = &l.spec;
    assert_dims(s->block, 256, 1, 1);
    assert_dims(s->grid, 4096, 4, 1);
    assert_true(s->dynamic_smem == 4096);
    assert_true(s->args[1].count == 1048576 + 256 * 32);
    assert_true(s->args[2].value == 32);
    unload(&l);

    /* A scalar is resolved before block and grid, so it cannot use them. */
    load(&l, "__global__ void k(float* out, int tile) {}\n");
    char *args[] = {"tile=block/8"};
    l.scalars = (kd_strlist){args, 1};
    build_fails(&l, "--arg tile=block/8: at position 1: unknown name 'block' (known: n)");
    unload(&l);
}

static void geometry_must_be_whole_positive_and_within_cuda_limits(void **state)
{
    (void)state;
    launch l;
    load(&l, "__global__ void k(float* y, size_t n) {}\n");
    l.req.block = "2048";
    build_fails(&l, "--block 2048: x is 2048, but it must be between 1 and 1024");
    l.req.block = "32,64";
    build_fails(&l, "--block 32,64: 2048 threads per block, but CUDA allows at most 1024");
    l.req.block = "1,1,65";
    build_fails(&l, "--block 1,1,65: z is 65, but it must be between 1 and 64");
    l.req.block = "256";
    l.req.grid = "0";
    build_fails(&l, "--grid 0: x is 0, but it must be between 1 and 2147483647");
    l.req.grid = "1,65536";
    build_fails(&l, "--grid 1,65536: y is 65536, but it must be between 1 and 65535");
    l.req.grid = "n/3.5";
    build_fails_with(&l, "x is 299593.14285714284, not a whole number (round it with ceil() or floor())");
    l.req.grid = "1,2,3,4";
    build_fails(&l, "--grid 1,2,3,4: expected X, X,Y or X,Y,Z");
    l.req.grid = "min(n,4),(2";
    build_fails(&l, "--grid min(n,4),(2: y: at position 3: expected ')' to close the '(' at position 1");
    l.req.grid = NULL;
    l.req.smem = "-1";
    build_fails_with(&l, "--smem -1: the value is -1, but it must be between 0 and");
    l.req.smem = NULL;
    l.req.block = "1";
    l.req.n = "1<<40";
    build_fails(&l, "the default grid ceil(n/1) = 1099511627776 blocks exceeds CUDA's 2147483647: "
                    "set --grid or a smaller --n");
    l.req.n = "0";
    build_fails(&l, "--n 0: '0' is not a positive whole number");
    unload(&l);

    load(&l, "// kerndiff: grid=ceil(n/0)\n__global__ void k(float* y, int n) {}\n");
    build_fails(&l, "`// kerndiff: grid=ceil(n/0)` (line 1): x: at position 7: division by zero");
    unload(&l);
}

static void command_line_names_must_match_parameters(void **state)
{
    (void)state;
    launch l;
    load(&l, saxpy);
    char *args[] = {"a=1", "alpha=2"};
    l.scalars = (kd_strlist){args, 2};
    build_fails(&l, "--arg alpha=2: kernel 'saxpy' has no parameter 'alpha' (its parameters: a, x, y, n)");
    args[1] = "x=2";
    build_fails(&l, "--arg x=2: 'x' is a buffer (const float *), not a scalar; set its element count with "
                    "--buf x=COUNT");
    args[1] = "a";
    build_fails(&l, "--arg a: expected NAME=VALUE");
    l.scalars.count = 1;
    char *bufs[] = {"a=n"};
    l.buffers = (kd_strlist){bufs, 1};
    build_fails(&l, "--buf a=n: 'a' is a scalar (float), not a buffer; give its value with --arg a=VALUE");
    bufs[0] = "y=0";
    build_fails(&l, "--buf y=0: the value is 0, but it must be between 1 and 9007199254740992");
    unload(&l);
}

static void integer_scalars_must_fit_their_type(void **state)
{
    (void)state;
    launch l;
    load(&l, saxpy);
    char *args[] = {"a=1", "n=2.5"};
    l.scalars = (kd_strlist){args, 2};
    build_fails(&l, "scalar parameter 'n' (int) needs a whole number, but its value (from --arg) is 2.5: "
                    "give it one with --arg n=VALUE");
    l.scalars.count = 1;
    l.req.n = "3G";
    build_fails(&l, "scalar parameter 'n' (int) holds -2147483648..2147483647, but its value (from n) is "
                    "3221225472: give it one with --arg n=VALUE or choose a smaller --n");
    unload(&l);
}

static void no_annotations_at_all(void **state)
{
    (void)state;
    launch l;
    load(&l, "__global__ void k(double* y, long long n) {}\n");
    l.req.annotations = NULL;
    l.req.buffers = NULL;
    l.req.scalars = NULL;
    build_ok(&l);
    assert_int_equal(l.spec.args[0].type.base, KD_DT_F64);
    assert_true(kd_launch_spec_bytes(&l.spec) == 1048576ULL * 8);
    unload(&l);
}

static void call_settings_beat_the_command_line_and_say_so(void **state)
{
    (void)state;
    launch l;
    load(&l, "// kerndiff: block=128\n__global__ void k(const float* x, float* y, int iters) {}\n");
    char *args[] = {"iters=3"};
    l.scalars = (kd_strlist){args, 1};
    l.req.grid = "64";
    kd_call_settings call = {0};
    kd_strbuf why = {0};
    assert_int_equal(kd_call_parse("grid=32,2,iters=9,y=n*2", &call, &why), 0);
    l.req.call = &call;
    l.req.call_origin = "--call v2";
    build_ok(&l);
    assert_dims(l.spec.grid, 32, 2, 1);
    assert_string_equal(l.spec.grid_origin, "--call v2");
    assert_string_equal(l.spec.block_origin, "annotation");
    assert_string_equal(l.spec.smem_origin, "default");
    assert_string_equal(l.spec.n_origin, "default");
    assert_true(l.spec.args[2].value == 9);
    assert_string_equal(l.spec.args[2].origin, "--call v2");
    assert_true(l.spec.args[1].count == 2 * 1048576ULL);
    assert_string_equal(l.spec.args[1].origin, "--call v2");
    assert_string_equal(l.spec.args[0].origin, "n");
    kd_launch_spec_free(&l.spec);
    kd_call_settings_free(&call);
    assert_int_equal(kd_call_parse("bogus=1", &call, &why), 0);
    build_fails(&l, "--call v2 bogus=1: kernel 'k' has no parameter 'bogus' (its parameters: x, y, iters)");
    kd_call_settings_free(&call);
    unload(&l);
}

/* A scalar's value may name a scalar later in the signature (a Triton softmax's
 * `row_stride=n_cols`); a name no scalar will ever have is still an error. */
static void scalars_may_name_later_scalars(void **state)
{
    (void)state;
    launch l;
    load(&l, "// kerndiff: stride=cols*2 cols=64\n__global__ void k(float* y, int stride, int cols) {}\n");
    build_ok(&l);
    assert_true(l.spec.args[1].value == 128);
    assert_true(l.spec.args[2].value == 64);
    kd_launch_spec_free(&l.spec);
    unload(&l);
    load(&l, "// kerndiff: stride=rows cols=64\n__global__ void k(float* y, int stride, int cols) {}\n");
    build_fails_with(&l, "unknown name 'rows'");
    unload(&l);
}

static void every_missing_scalar_is_named_at_once(void **state)
{
    (void)state;
    launch l;
    load(&l, "__global__ void k(float a, float* y, int n, double b) {}\n");
    build_fails(&l, "scalar parameters 'a' (float), 'b' (double) need a value: --arg a=VALUE --arg b=VALUE "
                    "or `// kerndiff: a=VALUE b=VALUE`");
    unload(&l);
}

static void more_parameters_than_the_harness_passes_is_an_error(void **state)
{
    (void)state;
    kd_strbuf src = {0};
    kd_sb_puts(&src, "__global__ void wide(float* y");
    for (int i = 0; i < KD_LAUNCH_MAX_ARGS; i++)
        kd_sb_printf(&src, ", int p%d", i);
    kd_sb_puts(&src, ") {}\n");
    launch l;
    load(&l, kd_sb_str(&src));
    build_fails_with(&l, "kernel 'wide' has 65 parameters, but kerndiff passes at most 64");
    unload(&l);
    kd_sb_free(&src);
}

/* A Triton cubin: block from num_warps, grid over a constexpr, its shared memory, scratch
 * pointers last, --arg of a constexpr accepted, --block refused, typed buffers. */
static void a_compiler_fixed_launch(void **state)
{
    (void)state;
    launch l;
    load(&l, "// kerndiff: n=4096 grid=cdiv(n,BLOCK) x=f16\n"
             "__global__ void k(const float *x, float *y, int n);\n");
    kd_launch_abi abi = {.fixed = true, .block_threads = 128, .dynamic_smem = 2048, .nscratch = 2,
                         .scratch_bytes = {64, 0}};
    kd_launch_abi_set(&abi, "BLOCK", 1024);
    kd_launch_abi_set(&abi, "BLOCK", 512); /* replaced, not added */
    assert_int_equal(abi.nconstants, 1);
    l.req.abi = &abi;
    kd_strlist_push(&l.scalars, "BLOCK=512");
    build_ok(&l);
    assert_int_equal(l.spec.block[0], 128);
    assert_int_equal(l.spec.grid[0], 8);
    assert_int_equal(l.spec.dynamic_smem, 2048);
    assert_int_equal(l.spec.nargs, 5);
    assert_int_equal(l.spec.args[0].type.base, KD_DT_F16);
    assert_int_equal(l.spec.args[0].count, 4096);
    assert_int_equal(l.spec.args[3].role, KD_ROLE_SCRATCH);
    assert_int_equal(l.spec.args[3].count, 64 * 8);
    assert_int_equal(l.spec.args[4].count, 0);
    kd_launch_spec_free(&l.spec);
    l.req.block = "64";
    build_fails_with(&l, "fixed by its compiler");
    free(l.scalars.items);
    kd_launch_abi_free(&abi);
    unload(&l);
}

int main(void)
{
    kd_diag_set_words(kd_diag_text); /* as main.c does: the refusals below are checked in words */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_compiler_fixed_launch),
        cmocka_unit_test(saxpy_is_inferred_from_its_signature),
        cmocka_unit_test(a_scalar_without_a_value_is_an_error),
        cmocka_unit_test(matmul_takes_its_geometry_from_annotations),
        cmocka_unit_test(vector_and_bfloat16_buffers_count_whole_elements),
        cmocka_unit_test(types_kerndiff_cannot_handle_are_errors),
        cmocka_unit_test(command_line_beats_annotation),
        cmocka_unit_test(unknown_annotation_key_is_an_error),
        cmocka_unit_test(annotation_beats_inference),
        cmocka_unit_test(inference_fills_the_rest),
        cmocka_unit_test(default_grid_covers_n_with_every_thread_of_the_block),
        cmocka_unit_test(settings_see_n_scalars_and_block),
        cmocka_unit_test(geometry_must_be_whole_positive_and_within_cuda_limits),
        cmocka_unit_test(command_line_names_must_match_parameters),
        cmocka_unit_test(integer_scalars_must_fit_their_type),
        cmocka_unit_test(no_annotations_at_all),
        cmocka_unit_test(call_settings_beat_the_command_line_and_say_so),
        cmocka_unit_test(every_missing_scalar_is_named_at_once),
        cmocka_unit_test(scalars_may_name_later_scalars),
        cmocka_unit_test(more_parameters_than_the_harness_passes_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
