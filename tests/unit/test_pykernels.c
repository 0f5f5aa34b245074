/* The Triton kernel list (source/pykernels.c) and the PTX entries of .ptx/.cubin inputs
 * (source/ptxentry.c): what becomes a buffer, an input, an output, a scalar. */
#include "kd_test.h"

#include <string.h>

#include "source/ptxentry.h"
#include "source/pykernels.h"
#include "source/roles.h"

static const char list_json[] =
    "{\"kernels\": [{\"name\": \"add\", \"line\": 7, \"params\": ["
    "{\"name\": \"x_ptr\", \"kind\": \"pointer\", \"annotation\": \"\", \"default\": null, \"stored\": false},"
    "{\"name\": \"out_ptr\", \"kind\": \"pointer\", \"annotation\": \"\", \"default\": null, \"stored\": true},"
    "{\"name\": \"acc_ptr\", \"kind\": \"pointer\", \"annotation\": \"\", \"default\": null, \"stored\": true,"
    " \"loaded\": true},"
    "{\"name\": \"n\", \"kind\": \"scalar\", \"annotation\": \"\", \"default\": null, \"stored\": false},"
    "{\"name\": \"eps\", \"kind\": \"scalar\", \"annotation\": \"tl.float32\", \"default\": \"1e-5\", \"stored\": false},"
    "{\"name\": \"BLOCK\", \"kind\": \"constexpr\", \"annotation\": \"tl.constexpr\", \"default\": \"1024\", \"stored\": false}"
    "], \"configs\": []}], \"imports\": [\"/src/helpers.py\"]}";

static void triton_parameters_become_buffers_and_scalars(void **state)
{
    (void)state;
    kd_kernel_list list;
    kd_strbuf error = {0};
    assert_int_equal(kd_pykernels_parse(list_json, &list, &error), 0);
    assert_int_equal(list.count, 1);
    const kd_kernel *k = &list.items[0];
    assert_string_equal(k->name, "add");
    assert_int_equal(k->line, 7);
    assert_int_equal(k->nparams, 5); /* BLOCK is a meta-parameter, not an argument */
    assert_true(k->params[0].is_pointer && k->params[0].is_const);   /* loaded only: input */
    assert_true(k->params[1].is_pointer && !k->params[1].is_const);  /* stored to: output */
    assert_int_equal(kd_param_buffer_use(&k->params[1], NULL), KD_USE_OUT);
    /* loaded and stored (y += x in place): seeded and compared */
    const char *why = NULL;
    assert_int_equal(kd_param_buffer_use(&k->params[2], &why), KD_USE_INOUT);
    assert_string_equal(why, "loaded and stored through in the source");
    assert_string_equal(k->params[1].pointee, "float");
    assert_string_equal(k->params[3].type, "int");
    assert_string_equal(k->params[4].type, "float");
    assert_string_equal(k->params[4].default_value, "1e-5");
    /* the build's view keeps the constexpr and the imports */
    assert_non_null(strstr(k->frontend_info, "\"BLOCK\""));
    assert_non_null(strstr(k->frontend_info, "/src/helpers.py"));
    kd_kernel_list_free(&list);
}

static void malformed_lists_are_errors(void **state)
{
    (void)state;
    kd_kernel_list list;
    kd_strbuf error = {0};
    assert_int_equal(kd_pykernels_parse("{\"kernels\": 3}", &list, &error), -1);
    assert_non_null(strstr(kd_sb_str(&error), "malformed"));
    assert_int_equal(list.count, 0);
    kd_sb_free(&error);
    assert_int_equal(kd_pykernels_parse("not json", &list, &error), -1);
    kd_sb_free(&error);
}

static void scalar_types_follow_annotations_then_values(void **state)
{
    (void)state;
    assert_string_equal(kd_pykernels_scalar_type("tl.int64", NULL), "long long");
    assert_string_equal(kd_pykernels_scalar_type("float", "3"), "float");
    assert_string_equal(kd_pykernels_scalar_type("", "0.5"), "float");
    assert_string_equal(kd_pykernels_scalar_type(NULL, "1e-5"), "float");
    assert_string_equal(kd_pykernels_scalar_type(NULL, "0x1e"), "int"); /* hex, not an exponent */
    assert_string_equal(kd_pykernels_scalar_type(NULL, "16M"), "int");
    assert_string_equal(kd_pykernels_scalar_type(NULL, NULL), "int");
}

static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry add_kernel(\n"
    "\t.param .u64 .ptr .global .align 1 add_kernel_param_0,\n"
    "\t.param .u64 add_kernel_param_1,\n"
    "\t.param .u32 add_kernel_param_2,\n"
    "\t.param .f32 add_kernel_param_3\n"
    ")\n.reqntid 128\n{\n\tret;\n}\n";

static void ptx_entries_give_parameter_types(void **state)
{
    (void)state;
    kd_kernel_list list;
    kd_ptx_kernels(ptx, &list);
    assert_int_equal(list.count, 1);
    const kd_kernel *k = &list.items[0];
    assert_string_equal(k->name, "add_kernel");
    assert_int_equal(k->nparams, 4);
    assert_true(k->params[0].is_pointer && !k->params[0].is_const); /* unknown: compared */
    assert_true(k->params[1].is_pointer);
    assert_string_equal(k->params[2].type, "unsigned int");
    assert_string_equal(k->params[2].name, "add_kernel_param_2");
    assert_string_equal(k->params[3].type, "float");
    kd_kernel_list_free(&list);
}

static void signature_annotations_name_and_type_parameters(void **state)
{
    (void)state;
    kd_kernel_list list;
    char *names[] = {"k"};
    kd_ptx_kernels_named(names, 1, &list);
    kd_annotations notes;
    const char text[] = "# kerndiff: signature=x:f16*,out:bf16*,n:i64,eps:f32 inputs=x\n";
    kd_annotations_parse(text, strlen(text), &notes);
    kd_strbuf error = {0};
    assert_int_equal(kd_ptx_kernels_annotate(&list, &notes, &error), 0);
    const kd_kernel *k = &list.items[0];
    assert_int_equal(k->nparams, 4);
    assert_string_equal(k->params[0].pointee, "half");
    assert_true(k->params[0].is_const);
    assert_string_equal(k->params[1].pointee, "__nv_bfloat16");
    assert_false(k->params[1].is_const);
    assert_string_equal(k->params[2].type, "long long");
    assert_false(k->params[2].is_pointer);
    assert_string_equal(k->params[3].type, "float");
    kd_annotations_free(&notes);

    const char bad[] = "# kerndiff: signature=x:complex64*\n";
    kd_annotations_parse(bad, strlen(bad), &notes);
    assert_int_equal(kd_ptx_kernels_annotate(&list, &notes, &error), -1);
    assert_non_null(strstr(kd_sb_str(&error), "expected NAME:DTYPE"));
    kd_sb_free(&error);
    kd_annotations_free(&notes);
    kd_kernel_list_free(&list);
}

/* A 2-D tile of assumed blocks stays one block's size (tests/corpus: BLOCK_M = BLOCK_N = 1024
 * compiled for minutes), each a power of two. */
static void several_assumed_blocks_make_one_blocks_tile(void **state)
{
    (void)state;
    assert_int_equal(kd_pykernels_assumed_block(1), KD_TRITON_ASSUMED_BLOCK);
    assert_int_equal(kd_pykernels_assumed_block(2), 32);
    /* three sizes (a GEMM's M, N, K) make tiles of two at a time: 32, not 8 (tl.dot wants 16) */
    assert_int_equal(kd_pykernels_assumed_block(3), 32);
    assert_int_equal(kd_pykernels_assumed_block(20), 32);
    /* one size on both axes of a tile counts twice */
    assert_int_equal(kd_pykernels_tile_axes(0), 1);
    assert_int_equal(kd_pykernels_tile_axes(1), 1);
    assert_int_equal(kd_pykernels_tile_axes(2), 2);
    assert_int_equal(kd_pykernels_assumed_block(kd_pykernels_tile_axes(2)), 32);
    assert_int_equal(kd_pykernels_tile_axes(99), 1); /* a count no kernel has: read as one */
}

/* A pointer the helper saw holding indices ("index": its loads cast to an integer or used in
 * an address) is an int buffer. */
static void index_pointers_hold_ints(void **state)
{
    (void)state;
    static const char json[] =
        "{\"kernels\": [{\"name\": \"k\", \"line\": 1, \"params\": ["
        "{\"name\": \"cu_seqlens\", \"kind\": \"pointer\", \"stored\": false, \"index\": true},"
        "{\"name\": \"x\", \"kind\": \"pointer\", \"stored\": false, \"index\": false}"
        "], \"configs\": []}], \"imports\": []}";
    kd_kernel_list list;
    kd_strbuf error = {0};
    assert_int_equal(kd_pykernels_parse(json, &list, &error), 0);
    assert_string_equal(list.items[0].params[0].type, "const int *");
    assert_string_equal(list.items[0].params[0].pointee, "int");
    assert_string_equal(list.items[0].params[1].type, "const float *");
    kd_kernel_list_free(&list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(triton_parameters_become_buffers_and_scalars),
        cmocka_unit_test(malformed_lists_are_errors),
        cmocka_unit_test(scalar_types_follow_annotations_then_values),
        cmocka_unit_test(ptx_entries_give_parameter_types),
        cmocka_unit_test(signature_annotations_name_and_type_parameters),
        cmocka_unit_test(several_assumed_blocks_make_one_blocks_tile),
        cmocka_unit_test(index_pointers_hold_ints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
