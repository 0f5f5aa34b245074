/* test_scan.c — the kernel scanner on hand-checked tricky sources.
 *
 * Every source is handed over in an exact-size heap copy without a terminating NUL, so
 * AddressSanitizer catches any read past `len`. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/scan.h"

/* ------------------------------------------------------------------ helpers */

static kd_kernel_list scan_bytes(const char *src, size_t len)
{
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    if (len)
        memcpy(copy, src, len);
    kd_kernel_list list = {(kd_kernel *)1, 99, true};
    assert_int_equal(kd_scan_source(copy, len, &list), 0);
    free(copy); /* the list must own all of its strings */
    return list;
}

static kd_kernel_list scan(const char *src) { return scan_bytes(src, strlen(src)); }

static const kd_kernel *kernel(const kd_kernel_list *list, const char *name)
{
    const kd_kernel *k = kd_kernel_find(list, name);
    assert_non_null(k);
    return k;
}

#define ASSERT_STR_OR_NULL(actual, expected)                                                  \
    do {                                                                                      \
        const char *a_ = (actual), *e_ = (expected);                                          \
        if (e_) {                                                                             \
            assert_non_null(a_);                                                              \
            assert_string_equal(a_, e_);                                                      \
        } else {                                                                              \
            assert_null(a_);                                                                  \
        }                                                                                     \
    } while (0)

/* pointee NULL means "not a pointer". */
#define CHECK_PARAM(k, i, name_, type_, pointee_, const_, default_)                           \
    do {                                                                                      \
        assert_true((i) < (k)->nparams);                                                      \
        const kd_param *p_ = &(k)->params[i];                                                 \
        assert_string_equal(p_->name, name_);                                                 \
        assert_string_equal(p_->type, type_);                                                 \
        ASSERT_STR_OR_NULL(p_->pointee, pointee_);                                            \
        assert_int_equal(p_->is_pointer, (pointee_) != NULL);                                 \
        assert_int_equal(p_->is_const, const_);                                               \
        ASSERT_STR_OR_NULL(p_->default_value, default_);                                      \
    } while (0)

/* The facts of a kernel that every test pins down. */
#define CHECK_KERNEL(k, qualified_, line_, nparams_, extern_c_, template_params_, bounds_)     \
    do {                                                                                      \
        assert_string_equal((k)->qualified, qualified_);                                      \
        assert_int_equal((k)->line, line_);                                                   \
        assert_int_equal((k)->nparams, nparams_);                                             \
        assert_int_equal((k)->extern_c, extern_c_);                                           \
        assert_int_equal((k)->is_template, (template_params_) != NULL);                       \
        ASSERT_STR_OR_NULL((k)->template_params, template_params_);                           \
        ASSERT_STR_OR_NULL((k)->launch_bounds, bounds_);                                      \
    } while (0)

static void check_names(const kd_kernel_list *list, const char *const *names, size_t n)
{
    assert_int_equal(list->count, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(list->items[i].name, names[i]);
}

#define CHECK_NAMES(list, ...)                                                                \
    do {                                                                                      \
        static const char *const names_[] = {__VA_ARGS__};                                    \
        check_names(&(list), names_, sizeof names_ / sizeof names_[0]);                       \
    } while (0)

/* ------------------------------------------------------------------ tests */

static void test_empty_input(void **state)
{
    (void)state;
    kd_kernel_list list = {(kd_kernel *)1, 7, true};
    assert_int_equal(kd_scan_source(NULL, 0, &list), 0);
    assert_null(list.items);
    assert_int_equal(list.count, 0);

    list = scan("");
    assert_int_equal(list.count, 0);
    kd_kernel_list_free(&list);

    list = scan(" \n\t\r\n  // only a comment\n");
    assert_int_equal(list.count, 0);
    kd_kernel_list_free(&list);
}

static void test_saxpy(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void saxpy(int n, float a, const float* __restrict__ x, float* y)\n"
                               "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }\n");
    CHECK_NAMES(list, "saxpy");
    const kd_kernel *k = kernel(&list, "saxpy");
    CHECK_KERNEL(k, "saxpy", 1, 4, false, NULL, NULL);
    assert_int_equal(k->ninstantiations, 0);
    CHECK_PARAM(k, 0, "n", "int", NULL, false, NULL);
    CHECK_PARAM(k, 1, "a", "float", NULL, false, NULL);
    CHECK_PARAM(k, 2, "x", "const float *__restrict__", "float", true, NULL);
    CHECK_PARAM(k, 3, "y", "float *", "float", false, NULL);
    kd_kernel_list_free(&list);
}

static void test_mentions_in_comments_and_strings(void **state)
{
    (void)state;
    kd_kernel_list list = scan("// __global__ void c1(int n) {}\n"
                               "/* __global__ void c2(int n) {}\n"
                               "   still a comment */\n"
                               "const char *s = \"__global__ void s1(int n) {}\";\n"
                               "const char *e = \"\\\" __global__ void s2(int) \\\"\";\n"
                               "char q = '\"'; // the quote above opens no string\n"
                               "__global__ void real(int n) {}\n");
    CHECK_NAMES(list, "real");
    CHECK_KERNEL(kernel(&list, "real"), "real", 7, 1, false, NULL, NULL);
    assert_null(kd_kernel_find(&list, "c1"));
    assert_null(kd_kernel_find(&list, "s2"));
    kd_kernel_list_free(&list);
}

static void test_macro_lines_ignored(void **state)
{
    (void)state;
    kd_kernel_list list = scan("#define G __global__\n"
                               "#define KERNEL(name) \\\n"
                               "    __global__ void name(float *p) \\\n"
                               "    { p[0] = 1; }\n"
                               "  #  pragma unroll /* __global__ void pc(int)\n"
                               "   continues */ __global__ void pc2(int)\n"
                               "G void through_macro(int n) {}\n" /* not expanded: no kernel */
                               "__global__ void after(float *p) {}\n");
    CHECK_NAMES(list, "after");
    CHECK_KERNEL(kernel(&list, "after"), "after", 8, 1, false, NULL, NULL);
    CHECK_PARAM(kernel(&list, "after"), 0, "p", "float *", "float", false, NULL);
    assert_true(list.macro_kernels); /* KERNEL(name) may declare kernels: the compiled code tells */
    kd_kernel_list_free(&list);
    list = scan("#define N 256\n// #define K __global__ (a comment)\n__global__ void k(float *p) {}\n");
    CHECK_NAMES(list, "k");
    assert_false(list.macro_kernels);
    kd_kernel_list_free(&list);
}

static void test_multiline_signature(void **state)
{
    (void)state;
    kd_kernel_list list = scan("\n"
                               "__global__\n"
                               "void\n"
                               "spread(\n"
                               "    const float *in,   // input\n"
                               "    float *out,        /* output */\n"
                               "    int\n"
                               "    n)\n"
                               "{\n}\n");
    CHECK_NAMES(list, "spread");
    const kd_kernel *k = kernel(&list, "spread");
    CHECK_KERNEL(k, "spread", 4, 3, false, NULL, NULL);
    CHECK_PARAM(k, 0, "in", "const float *", "float", true, NULL);
    CHECK_PARAM(k, 1, "out", "float *", "float", false, NULL);
    CHECK_PARAM(k, 2, "n", "int", NULL, false, NULL);
    kd_kernel_list_free(&list);
}

static void test_template_default_with_comparison(void **state)
{
    (void)state;
    kd_kernel_list list = scan("template <typename T, int N = (4>2)>\n"
                               "__global__ void tk(const T* x, T *y, int n = N) {}\n"
                               "__global__ void plain(int n) {}\n");
    CHECK_NAMES(list, "tk", "plain");
    const kd_kernel *k = kernel(&list, "tk");
    CHECK_KERNEL(k, "tk", 2, 3, false, "typename T, int N = (4>2)", NULL);
    CHECK_PARAM(k, 0, "x", "const T *", "T", true, NULL);
    CHECK_PARAM(k, 1, "y", "T *", "T", false, NULL);
    CHECK_PARAM(k, 2, "n", "int", NULL, false, "N");
    CHECK_KERNEL(kernel(&list, "plain"), "plain", 3, 1, false, NULL, NULL);
    kd_kernel_list_free(&list);
}

static void test_nested_templates(void **state)
{
    (void)state;
    kd_kernel_list list = scan("template <template <typename> class C, typename U = Pair<Pair<int, int>, int>>\n"
                               "__global__ void nest(const Pair<Pair<float, int>, int> *p, C<U> c, int n) {}\n");
    CHECK_NAMES(list, "nest");
    const kd_kernel *k = kernel(&list, "nest");
    CHECK_KERNEL(k, "nest", 2, 3, false,
                 "template <typename> class C, typename U = Pair<Pair<int, int>, int>", NULL);
    CHECK_PARAM(k, 0, "p", "const Pair<Pair<float, int>, int> *", "Pair<Pair<float, int>, int>", true, NULL);
    CHECK_PARAM(k, 1, "c", "C<U>", NULL, false, NULL);
    CHECK_PARAM(k, 2, "n", "int", NULL, false, NULL);
    kd_kernel_list_free(&list);
}

static void test_namespaces(void **state)
{
    (void)state;
    kd_kernel_list list = scan("using namespace std;\n"
                               "namespace al = std;\n"
                               "namespace ns {\n"
                               "namespace inner {\n"
                               "__global__ void k(int n) {}\n"
                               "} // inner\n"
                               "__global__ void mid() {}\n"
                               "}\n"
                               "namespace a::b { __global__ void c17() {} }\n"
                               "inline namespace v1 { __global__ void versioned() {} }\n"
                               "namespace { __global__ void hidden() {} }\n"
                               "__global__ void top() {}\n");
    CHECK_NAMES(list, "k", "mid", "c17", "versioned", "hidden", "top");
    CHECK_KERNEL(kernel(&list, "ns::inner::k"), "ns::inner::k", 5, 1, false, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "mid"), "ns::mid", 7, 0, false, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "c17"), "a::b::c17", 9, 0, false, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "versioned"), "v1::versioned", 10, 0, false, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "hidden"), "hidden", 11, 0, false, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "top"), "top", 12, 0, false, NULL, NULL);
    kd_kernel_list_free(&list);
}

static void test_definition_outside_namespace(void **state)
{
    (void)state;
    kd_kernel_list list = scan("namespace ns { __global__ void k(int); }\n"
                               "__global__ void ns::k(int n) {}\n"
                               "__global__ void ::g(int) {}\n");
    CHECK_NAMES(list, "k", "g");
    const kd_kernel *k = kernel(&list, "ns::k");
    CHECK_KERNEL(k, "ns::k", 2, 1, false, NULL, NULL);
    CHECK_PARAM(k, 0, "n", "int", NULL, false, NULL);
    CHECK_KERNEL(kernel(&list, "g"), "g", 3, 1, false, NULL, NULL);
    kd_kernel_list_free(&list);
}

static void test_extern_c(void **state)
{
    (void)state;
    kd_kernel_list list = scan("extern \"C\" {\n"
                               "__global__ void in_block(float *p);\n"
                               "extern \"C++\" { __global__ void cpp_inside(int) {} }\n"
                               "__global__ void in_block(float *p) {}\n"
                               "}\n"
                               "extern \"C\" __global__ void single(int n) {}\n"
                               "extern \"C\" __global__\n"
                               "void split(int n) {}\n"
                               "__global__ void after(int n) {}\n");
    CHECK_NAMES(list, "in_block", "cpp_inside", "single", "split", "after");
    CHECK_KERNEL(kernel(&list, "in_block"), "in_block", 4, 1, true, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "cpp_inside"), "cpp_inside", 3, 1, false, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "single"), "single", 6, 1, true, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "split"), "split", 8, 1, true, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "after"), "after", 9, 1, false, NULL, NULL);
    kd_kernel_list_free(&list);
}

static void test_prototype_then_definition(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void k(float *, const float *, int = 256);\n"
                               "\n"
                               "__global__ void k(float *out, const float *in, int n)\n"
                               "{\n"
                               "}\n");
    CHECK_NAMES(list, "k");
    const kd_kernel *k = kernel(&list, "k");
    CHECK_KERNEL(k, "k", 3, 3, false, NULL, NULL);
    CHECK_PARAM(k, 0, "out", "float *", "float", false, NULL);
    CHECK_PARAM(k, 1, "in", "const float *", "float", true, NULL);
    CHECK_PARAM(k, 2, "n", "int", NULL, false, "256"); /* the default lives on the prototype */
    kd_kernel_list_free(&list);
}

static void test_definition_then_prototype(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void __launch_bounds__(128) k(float *out, int n) {}\n"
                               "__global__ void k(float *, const int);\n"
                               "__global__ void k(float *, int);\n");
    CHECK_NAMES(list, "k");
    const kd_kernel *k = kernel(&list, "k");
    CHECK_KERNEL(k, "k", 1, 2, false, NULL, "128");
    CHECK_PARAM(k, 0, "out", "float *", "float", false, NULL);
    CHECK_PARAM(k, 1, "n", "int", NULL, false, NULL);
    kd_kernel_list_free(&list);
}

static void test_unnamed_definition_takes_prototype_names(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void k(float *out, int n, int);\n"
                               "__global__ void k(float *, int count, int) {}\n");
    CHECK_NAMES(list, "k");
    const kd_kernel *k = kernel(&list, "k");
    CHECK_KERNEL(k, "k", 2, 3, false, NULL, NULL);
    CHECK_PARAM(k, 0, "out", "float *", "float", false, NULL);
    CHECK_PARAM(k, 1, "count", "int", NULL, false, NULL);
    CHECK_PARAM(k, 2, "", "int", NULL, false, NULL);
    kd_kernel_list_free(&list);
}

static void test_globally_qualified_definition(void **state)
{
    (void)state;
    kd_kernel_list list = scan("namespace outer {\n"
                               "namespace inner { __global__ void h(int); }\n"
                               "__global__ void ::outer::inner::h(int n) {}\n"
                               "}\n");
    CHECK_NAMES(list, "h");
    const kd_kernel *k = kernel(&list, "outer::inner::h");
    CHECK_KERNEL(k, "outer::inner::h", 3, 1, false, NULL, NULL);
    CHECK_PARAM(k, 0, "n", "int", NULL, false, NULL);
    kd_kernel_list_free(&list);
}

static void test_template_prototype_then_definition(void **state)
{
    (void)state;
    kd_kernel_list list = scan("template <typename T> __global__ void fill(T *, T);\n"
                               "template <typename V>\n"
                               "__global__ void fill(V *p, V v) { *p = v; }\n");
    CHECK_NAMES(list, "fill");
    const kd_kernel *k = kernel(&list, "fill");
    CHECK_KERNEL(k, "fill", 3, 2, false, "typename V", NULL);
    CHECK_PARAM(k, 0, "p", "V *", "V", false, NULL);
    CHECK_PARAM(k, 1, "v", "V", NULL, false, NULL);
    kd_kernel_list_free(&list);
}

static void test_overloads_stay_separate(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void ov(float *p) {}\n"
                               "__global__ void ov(double *p) {}\n"
                               "__global__ void ov(float *p, int n) {}\n");
    CHECK_NAMES(list, "ov", "ov", "ov");
    CHECK_PARAM(&list.items[0], 0, "p", "float *", "float", false, NULL);
    CHECK_PARAM(&list.items[1], 0, "p", "double *", "double", false, NULL);
    assert_int_equal(list.items[2].nparams, 2);
    assert_int_equal(list.items[1].line, 2);
    assert_int_equal(list.items[2].line, 3);
    kd_kernel_list_free(&list);
}

static void test_void_and_empty_params(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void v(void) {}\n"
                               "__global__ void e() {}\n"
                               "__global__ void vp(void *p) {}\n");
    CHECK_NAMES(list, "v", "e", "vp");
    CHECK_KERNEL(kernel(&list, "v"), "v", 1, 0, false, NULL, NULL);
    assert_null(kernel(&list, "v")->params);
    CHECK_KERNEL(kernel(&list, "e"), "e", 2, 0, false, NULL, NULL);
    const kd_kernel *k = kernel(&list, "vp");
    CHECK_KERNEL(k, "vp", 3, 1, false, NULL, NULL);
    CHECK_PARAM(k, 0, "p", "void *", "void", false, NULL);
    kd_kernel_list_free(&list);
}

static void test_unnamed_params(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void un(float*, const int, half2, unsigned long long *, size_t,\n"
                               "                   const T, struct S, ns::T, unsigned, float4 *const) {}\n");
    CHECK_NAMES(list, "un");
    const kd_kernel *k = kernel(&list, "un");
    CHECK_KERNEL(k, "un", 1, 10, false, NULL, NULL);
    CHECK_PARAM(k, 0, "", "float *", "float", false, NULL);
    CHECK_PARAM(k, 1, "", "const int", NULL, true, NULL);
    CHECK_PARAM(k, 2, "", "half2", NULL, false, NULL);
    CHECK_PARAM(k, 3, "", "unsigned long long *", "unsigned long long", false, NULL);
    CHECK_PARAM(k, 4, "", "size_t", NULL, false, NULL);
    CHECK_PARAM(k, 5, "", "const T", NULL, true, NULL);
    CHECK_PARAM(k, 6, "", "struct S", NULL, false, NULL);
    CHECK_PARAM(k, 7, "", "ns::T", NULL, false, NULL);
    CHECK_PARAM(k, 8, "", "unsigned", NULL, false, NULL);
    CHECK_PARAM(k, 9, "", "float4 *const", "float4", false, NULL);
    kd_kernel_list_free(&list);
}

static void test_defaults_with_commas(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void d(int n = 1024, float a = f(1, 2), int m = mx<int, int>(3, 4),\n"
                               "                  int q = (1, 2), int r = arr[1, 2], Pt p = {1, 2},\n"
                               "                  bool lt = N < 3, int last = -1) {}\n");
    CHECK_NAMES(list, "d");
    const kd_kernel *k = kernel(&list, "d");
    CHECK_KERNEL(k, "d", 1, 8, false, NULL, NULL);
    CHECK_PARAM(k, 0, "n", "int", NULL, false, "1024");
    CHECK_PARAM(k, 1, "a", "float", NULL, false, "f(1, 2)");
    CHECK_PARAM(k, 2, "m", "int", NULL, false, "mx<int, int>(3, 4)");
    CHECK_PARAM(k, 3, "q", "int", NULL, false, "(1, 2)");
    CHECK_PARAM(k, 4, "r", "int", NULL, false, "arr[1, 2]");
    CHECK_PARAM(k, 5, "p", "Pt", NULL, false, "{1, 2}");
    CHECK_PARAM(k, 6, "lt", "bool", NULL, false, "N < 3");
    CHECK_PARAM(k, 7, "last", "int", NULL, false, "-1");
    kd_kernel_list_free(&list);
}

static void test_attributes(void **state)
{
    (void)state;
    kd_kernel_list list = scan("[[nodiscard]] static __noinline__ __global__ void a1(int n) {}\n"
                               "__attribute__((used, visibility(\"default\"))) __global__ void a2(int n) {}\n"
                               "__global__ __forceinline__ inline void a3([[maybe_unused]] int n,\n"
                               "    float *p __attribute__((aligned(16)))) {}\n"
                               "static __global__ void a4() {}\n"
                               "__global__ static void a5() {}\n");
    CHECK_NAMES(list, "a1", "a2", "a3", "a4", "a5");
    CHECK_KERNEL(kernel(&list, "a1"), "a1", 1, 1, false, NULL, NULL);
    CHECK_PARAM(kernel(&list, "a1"), 0, "n", "int", NULL, false, NULL);
    CHECK_KERNEL(kernel(&list, "a2"), "a2", 2, 1, false, NULL, NULL);
    const kd_kernel *k = kernel(&list, "a3");
    CHECK_KERNEL(k, "a3", 3, 2, false, NULL, NULL);
    CHECK_PARAM(k, 0, "n", "int", NULL, false, NULL);
    CHECK_PARAM(k, 1, "p", "float *", "float", false, NULL);
    CHECK_KERNEL(kernel(&list, "a4"), "a4", 5, 0, false, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "a5"), "a5", 6, 0, false, NULL, NULL);
    kd_kernel_list_free(&list);
}

static void test_raw_strings(void **state)
{
    (void)state;
    kd_kernel_list list = scan("const char *a = R\"(__global__ void r1(int) \" still raw)\";\n"
                               "const char *b = R\"xy(__global__ void r2() )\" )xy\";\n"
                               "const char *c = u8R\"(\n__global__ void r3()\n)\";\n"
                               "const wchar_t *d = LR\"--(a)--\" L\"__global__ void r4()\";\n"
                               "__global__ void raw_after(int n) {}\n");
    CHECK_NAMES(list, "raw_after");
    CHECK_KERNEL(kernel(&list, "raw_after"), "raw_after", 7, 1, false, NULL, NULL);
    kd_kernel_list_free(&list);
}

static void test_unterminated_comment_at_eof(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void before(int n) {}\n"
                               "/* __global__ void inside(int n) {}\n");
    CHECK_NAMES(list, "before");
    kd_kernel_list_free(&list);

    list = scan("__global__ void before(int n) {}\n/");
    CHECK_NAMES(list, "before");
    kd_kernel_list_free(&list);

    list = scan("__global__ void before(int n) {}\n/*");
    CHECK_NAMES(list, "before");
    kd_kernel_list_free(&list);
}

static void test_unterminated_literals(void **state)
{
    (void)state;
    /* An unterminated string stops at its line; an unterminated raw string runs to EOF. */
    kd_kernel_list list = scan("const char *s = \"open\n"
                               "__global__ void next_line(int n) {}\n"
                               "const char *r = R\"(never closed\n"
                               "__global__ void swallowed(int n) {}\n");
    CHECK_NAMES(list, "next_line");
    CHECK_KERNEL(kernel(&list, "next_line"), "next_line", 2, 1, false, NULL, NULL);
    kd_kernel_list_free(&list);

    list = scan("__global__ void k(int n) {}\nchar c = '\\");
    CHECK_NAMES(list, "k");
    kd_kernel_list_free(&list);
}

static void test_global_after_return_type(void **state)
{
    (void)state;
    kd_kernel_list list = scan("void __global__ after_void(int n) {}\n"
                               "void\n__global__\nsplit_order(float *p) {}\n");
    CHECK_NAMES(list, "after_void", "split_order");
    CHECK_KERNEL(kernel(&list, "after_void"), "after_void", 1, 1, false, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "split_order"), "split_order", 4, 1, false, NULL, NULL);
    CHECK_PARAM(kernel(&list, "split_order"), 0, "p", "float *", "float", false, NULL);
    kd_kernel_list_free(&list);
}

static void test_launch_bounds(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void __launch_bounds__(256, 2) lb1(int n) {}\n"
                               "__global__ void\n__launch_bounds__(MAX_THREADS)\nlb2(int n) {}\n"
                               "__launch_bounds__(BLOCK(2, 3), MIN_BLOCKS) __global__ void lb3() {}\n"
                               "__global__ void nolb() {}\n");
    CHECK_NAMES(list, "lb1", "lb2", "lb3", "nolb");
    CHECK_KERNEL(kernel(&list, "lb1"), "lb1", 1, 1, false, NULL, "256, 2");
    CHECK_KERNEL(kernel(&list, "lb2"), "lb2", 4, 1, false, NULL, "MAX_THREADS");
    CHECK_KERNEL(kernel(&list, "lb3"), "lb3", 5, 0, false, NULL, "BLOCK(2, 3), MIN_BLOCKS");
    CHECK_KERNEL(kernel(&list, "nolb"), "nolb", 6, 0, false, NULL, NULL);
    kd_kernel_list_free(&list);
}

static void test_pointer_const_variants(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void cv(float const * a, const float *const b, float *const c,\n"
                               "                   volatile int *d, const float *const *e, float **f,\n"
                               "                   const int n, int m, const float*__restrict__ g,\n"
                               "                   float * __restrict h, const volatile double *i) {}\n");
    CHECK_NAMES(list, "cv");
    const kd_kernel *k = kernel(&list, "cv");
    CHECK_KERNEL(k, "cv", 1, 11, false, NULL, NULL);
    CHECK_PARAM(k, 0, "a", "float const *", "float", true, NULL);
    CHECK_PARAM(k, 1, "b", "const float *const", "float", true, NULL);
    CHECK_PARAM(k, 2, "c", "float *const", "float", false, NULL);
    CHECK_PARAM(k, 3, "d", "volatile int *", "int", false, NULL);
    CHECK_PARAM(k, 4, "e", "const float *const *", "const float *", true, NULL);
    CHECK_PARAM(k, 5, "f", "float **", "float *", false, NULL);
    CHECK_PARAM(k, 6, "n", "const int", NULL, true, NULL);
    CHECK_PARAM(k, 7, "m", "int", NULL, false, NULL);
    CHECK_PARAM(k, 8, "g", "const float *__restrict__", "float", true, NULL);
    CHECK_PARAM(k, 9, "h", "float *__restrict", "float", false, NULL);
    CHECK_PARAM(k, 10, "i", "const volatile double *", "double", true, NULL);
    kd_kernel_list_free(&list);
}

static void test_cuda_vector_and_half_types(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void vt(__nv_bfloat16* b, half2 *h, float4 *f, unsigned long long *u,\n"
                               "                   const __half *ch, long double ld, unsigned int ui) {}\n");
    CHECK_NAMES(list, "vt");
    const kd_kernel *k = kernel(&list, "vt");
    CHECK_KERNEL(k, "vt", 1, 7, false, NULL, NULL);
    CHECK_PARAM(k, 0, "b", "__nv_bfloat16 *", "__nv_bfloat16", false, NULL);
    CHECK_PARAM(k, 1, "h", "half2 *", "half2", false, NULL);
    CHECK_PARAM(k, 2, "f", "float4 *", "float4", false, NULL);
    CHECK_PARAM(k, 3, "u", "unsigned long long *", "unsigned long long", false, NULL);
    CHECK_PARAM(k, 4, "ch", "const __half *", "__half", true, NULL);
    CHECK_PARAM(k, 5, "ld", "long double", NULL, false, NULL);
    CHECK_PARAM(k, 6, "ui", "unsigned int", NULL, false, NULL);
    kd_kernel_list_free(&list);
}

static void test_reference_params(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void refs(const float &r, float& w, Params &&m, const T& t) {}\n");
    CHECK_NAMES(list, "refs");
    const kd_kernel *k = kernel(&list, "refs");
    CHECK_KERNEL(k, "refs", 1, 4, false, NULL, NULL);
    CHECK_PARAM(k, 0, "r", "const float &", NULL, true, NULL);
    CHECK_PARAM(k, 1, "w", "float &", NULL, false, NULL);
    CHECK_PARAM(k, 2, "m", "Params &&", NULL, false, NULL);
    CHECK_PARAM(k, 3, "t", "const T &", NULL, true, NULL);
    kd_kernel_list_free(&list);
}

static void test_array_params(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void arrs(float x[], const int y[16], float *z[], float md[][4], int[8]) {}\n");
    CHECK_NAMES(list, "arrs");
    const kd_kernel *k = kernel(&list, "arrs");
    CHECK_KERNEL(k, "arrs", 1, 5, false, NULL, NULL);
    CHECK_PARAM(k, 0, "x", "float *", "float", false, NULL);
    CHECK_PARAM(k, 1, "y", "const int *", "int", true, NULL);
    CHECK_PARAM(k, 2, "z", "float **", "float *", false, NULL);
    CHECK_PARAM(k, 3, "md", "float (*)[4]", "float", false, NULL);
    CHECK_PARAM(k, 4, "", "int *", "int", false, NULL);
    kd_kernel_list_free(&list);
}

static void test_odd_declarators_tolerated(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void odd(int (&arr)[4], void (*fp)(int, float), int n, ...,\n"
                               "                    const int (&carr)[2]) {}\n"
                               "__global__ void after_odd(int n) {}\n");
    CHECK_NAMES(list, "odd", "after_odd");
    const kd_kernel *k = kernel(&list, "odd");
    CHECK_KERNEL(k, "odd", 1, 5, false, NULL, NULL);
    CHECK_PARAM(k, 0, "arr", "int (&)[4]", NULL, false, NULL);
    CHECK_PARAM(k, 1, "fp", "void (*)(int, float)", "void(int, float)", false, NULL);
    CHECK_PARAM(k, 2, "n", "int", NULL, false, NULL);
    CHECK_PARAM(k, 3, "", "...", NULL, false, NULL);
    CHECK_PARAM(k, 4, "carr", "const int (&)[2]", NULL, true, NULL);
    CHECK_KERNEL(kernel(&list, "after_odd"), "after_odd", 3, 1, false, NULL, NULL);
    kd_kernel_list_free(&list);
}

static void test_explicit_instantiations(void **state)
{
    (void)state;
    kd_kernel_list list = scan("template <typename T, int N>\n"
                               "__global__ void tk(T *p, int n) {}\n"
                               "template <typename T> __global__ void one(T *p) {}\n"
                               "template <typename T> __device__ void helper(T *p) {}\n"
                               "template __global__ void tk<float, 4>(float *, int);\n"
                               "template __global__ void tk<double,8>(double *, int);\n"
                               "template __global__ void tk<float, 4>(float *, int);\n" /* repeated */
                               "template __global__ void one<float>(float *);\n"
                               "template void one<__nv_bfloat16>(__nv_bfloat16 *);\n"
                               "template void helper<float>(float *);\n"
                               "template __global__ void one(int *);\n" /* deduced: no text */
                               "template __global__ void unknown<float>(float *);\n");
    CHECK_NAMES(list, "tk", "one");
    const kd_kernel *tk = kernel(&list, "tk");
    CHECK_KERNEL(tk, "tk", 2, 2, false, "typename T, int N", NULL);
    assert_int_equal(tk->ninstantiations, 2);
    assert_string_equal(tk->instantiations[0], "float, 4");
    assert_string_equal(tk->instantiations[1], "double, 8");
    const kd_kernel *one = kernel(&list, "one");
    CHECK_KERNEL(one, "one", 3, 1, false, "typename T", NULL);
    assert_int_equal(one->ninstantiations, 2);
    assert_string_equal(one->instantiations[0], "float");
    assert_string_equal(one->instantiations[1], "__nv_bfloat16");
    kd_kernel_list_free(&list);
}

static void test_instantiations_across_namespaces(void **state)
{
    (void)state;
    kd_kernel_list list = scan("namespace ns {\n"
                               "template <typename T> __global__ void k(const T *in, T *out) {}\n"
                               "template __global__ void k<float>(const float *, float *);\n"
                               "}\n"
                               "template __global__ void ns::k<int>(const int *, int *);\n"
                               "template void ns::k<const char *>(const char *const *, const char **);\n");
    CHECK_NAMES(list, "k");
    const kd_kernel *k = kernel(&list, "ns::k");
    CHECK_KERNEL(k, "ns::k", 2, 2, false, "typename T", NULL);
    assert_int_equal(k->ninstantiations, 3);
    assert_string_equal(k->instantiations[0], "float");
    assert_string_equal(k->instantiations[1], "int");
    assert_string_equal(k->instantiations[2], "const char *");
    kd_kernel_list_free(&list);
}

static void test_specialisation_and_extern_template(void **state)
{
    (void)state;
    kd_kernel_list list = scan("template <typename T> __global__ void k(T *p) {}\n"
                               "template <> __global__ void k<half>(half *p) { p[0] = 0; }\n"
                               "extern template __global__ void k<double>(double *);\n");
    CHECK_NAMES(list, "k");
    const kd_kernel *k = kernel(&list, "k");
    CHECK_KERNEL(k, "k", 1, 1, false, "typename T", NULL);
    assert_int_equal(k->ninstantiations, 1);
    assert_string_equal(k->instantiations[0], "half");
    kd_kernel_list_free(&list);
}

static void test_char_literals_and_digit_separators(void **state)
{
    (void)state;
    kd_kernel_list list = scan("int big = 1'000'000; char q = '\\''; char d = '\"'; auto w = L'x';\n"
                               "float h = 0x1.8p+3f; auto u = u8'a';\n"
                               "__global__ void lit(int n = 1'024, char c = ';') {}\n");
    CHECK_NAMES(list, "lit");
    const kd_kernel *k = kernel(&list, "lit");
    CHECK_KERNEL(k, "lit", 3, 2, false, NULL, NULL);
    CHECK_PARAM(k, 0, "n", "int", NULL, false, "1'024");
    CHECK_PARAM(k, 1, "c", "char", NULL, false, "';'");
    kd_kernel_list_free(&list);
}

static void test_line_numbers_crlf_and_splices(void **state)
{
    (void)state;
    kd_kernel_list list = scan("// a comment \\\r\n"
                               "   __global__ void spliced_comment(int);\r\n"
                               "#define X 1 \\\r\n"
                               "   __global__ void spliced_macro(int);\r\n"
                               "__global__ void \\\r\n"
                               "crlf(int n) {}\r\n");
    CHECK_NAMES(list, "crlf");
    const kd_kernel *k = kernel(&list, "crlf");
    CHECK_KERNEL(k, "crlf", 6, 1, false, NULL, NULL);
    CHECK_PARAM(k, 0, "n", "int", NULL, false, NULL);
    kd_kernel_list_free(&list);
}

static void test_macro_attributes(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void LAUNCH(128) m1(int n) {}\n"
                               "EXPORT(1) __global__ void m2(float *p) {}\n"
                               "DECLARE_THING(x)\n" /* no semicolon */
                               "__global__ void m3(int n) {}\n");
    CHECK_NAMES(list, "m1", "m2", "m3");
    CHECK_KERNEL(kernel(&list, "m1"), "m1", 1, 1, false, NULL, NULL);
    CHECK_PARAM(kernel(&list, "m1"), 0, "n", "int", NULL, false, NULL);
    CHECK_KERNEL(kernel(&list, "m2"), "m2", 2, 1, false, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "m3"), "m3", 4, 1, false, NULL, NULL);
    kd_kernel_list_free(&list);
}

static void test_trailing_return_and_noexcept(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ auto tr(int n) -> void;\n"
                               "__global__ auto tr(int count) -> void { }\n"
                               "__global__ void ne(int n) noexcept(true) {}\n");
    CHECK_NAMES(list, "tr", "ne");
    CHECK_KERNEL(kernel(&list, "tr"), "tr", 2, 1, false, NULL, NULL);
    CHECK_PARAM(kernel(&list, "tr"), 0, "count", "int", NULL, false, NULL);
    CHECK_KERNEL(kernel(&list, "ne"), "ne", 3, 1, false, NULL, NULL);
    kd_kernel_list_free(&list);
}

static void test_grid_constant_and_struct_params(void **state)
{
    (void)state;
    kd_kernel_list list = scan("__global__ void gc(const __grid_constant__ Params p, struct Box b, typename T::value_type v) {}\n");
    CHECK_NAMES(list, "gc");
    const kd_kernel *k = kernel(&list, "gc");
    CHECK_KERNEL(k, "gc", 1, 3, false, NULL, NULL);
    CHECK_PARAM(k, 0, "p", "const __grid_constant__ Params", NULL, true, NULL);
    CHECK_PARAM(k, 1, "b", "struct Box", NULL, false, NULL);
    CHECK_PARAM(k, 2, "v", "typename T::value_type", NULL, false, NULL);
    kd_kernel_list_free(&list);
}

static void test_host_code_keeps_scopes(void **state)
{
    (void)state;
    kd_kernel_list list = scan("namespace ns {\n"
                               "struct S { int a; void f() { auto l = [&] { return a; }; } };\n"
                               "void host() { for (int i = 0; i < 3; i++) { if (i) {} } int x[] = {1, 2}; }\n"
                               "__device__ float helper(float x) { return x; }\n"
                               "__global__ void k(float *p) { p[0] = helper(1.0f); }\n"
                               "}\n"
                               "__global__ void g() {}\n");
    CHECK_NAMES(list, "k", "g");
    CHECK_KERNEL(kernel(&list, "ns::k"), "ns::k", 5, 1, false, NULL, NULL);
    CHECK_KERNEL(kernel(&list, "g"), "g", 7, 0, false, NULL, NULL);
    kd_kernel_list_free(&list);
}

static void test_malformed_input_does_not_crash(void **state)
{
    (void)state;
    static const char *const junk[] = {
        "__global__", "__global__ void", "__global__ void k(", "__global__ void k((((",
        "}}}} __global__ void k() {}", "template <", "template <typename T", "template",
        "extern \"C\" {", "extern", "namespace", "namespace ns {{{", "__global__ __global__ void k(",
        "__global__ void k(int n = ", "__global__ void k(int (", "__global__ void k<", "R\"",
        "R\"abcdefghijklmnopq(x)abcdefghijklmnopq\"", "'", "\"", "\\", "#", "#define \\",
        "/*", "//\\", "__launch_bounds__(", "[[", "__global__ void k(float x[) {}",
        "__global__ void k(int)) {}", "__global__ void ::(int) {}", "::", "< > < > >>",
        "__global__ void k(,,,) {}", "template void k<>();",
    };
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
        kd_kernel_list list = scan(junk[i]);
        assert_true(list.count <= 1);
        for (size_t j = 0; j < list.count; j++)
            assert_non_null(kd_kernel_find(&list, list.items[j].qualified));
        kd_kernel_list_free(&list);
    }
    /* The survivors: garbage around a kernel loses only what it touches. */
    kd_kernel_list list = scan("}}}} __global__ void k() {}");
    CHECK_NAMES(list, "k");
    kd_kernel_list_free(&list);
    list = scan("__global__ void k(,,,) {}");
    CHECK_NAMES(list, "k");
    assert_int_equal(list.items[0].nparams, 0);
    kd_kernel_list_free(&list);
    list = scan("__global__ void k(int)) {} __global__ void k2() {}");
    CHECK_NAMES(list, "k", "k2");
    kd_kernel_list_free(&list);
}

static void test_len_bounds_the_scan(void **state)
{
    (void)state;
    static const char src[] = "__global__ void seen(int n) {}\n__global__ void unseen(int n) {}\n";
    kd_kernel_list list = scan_bytes(src, strlen("__global__ void seen(int n) {}\n__global__ void uns"));
    CHECK_NAMES(list, "seen");
    kd_kernel_list_free(&list);

    /* Cut in the middle of the parameter list: the kernel is incomplete, so not reported. */
    list = scan_bytes(src, strlen("__global__ void seen(int n"));
    assert_int_equal(list.count, 0);
    kd_kernel_list_free(&list);
}

static void test_find(void **state)
{
    (void)state;
    kd_kernel_list list = scan("namespace a { __global__ void k(int) {} }\n"
                               "namespace b { __global__ void k(float *) {} }\n"
                               "__global__ void z() {}\n");
    CHECK_NAMES(list, "k", "k", "z");
    assert_ptr_equal(kd_kernel_find(&list, "a::k"), &list.items[0]);
    assert_ptr_equal(kd_kernel_find(&list, "b::k"), &list.items[1]);
    assert_ptr_equal(kd_kernel_find(&list, "k"), &list.items[0]);
    assert_ptr_equal(kd_kernel_find(&list, "z"), &list.items[2]);
    assert_null(kd_kernel_find(&list, "c::k"));
    assert_null(kd_kernel_find(&list, "K"));
    assert_null(kd_kernel_find(&list, NULL));
    assert_null(kd_kernel_find(NULL, "z"));
    kd_kernel_list_free(&list);
    assert_null(list.items);
    assert_int_equal(list.count, 0);
    kd_kernel_list_free(&list); /* freeing twice is harmless */
    kd_kernel_list_free(NULL);
}

static void test_fixture_file(void **state)
{
    (void)state;
    const char *dir = getenv("KD_FIXTURES");
    char path[4096];
    snprintf(path, sizeof path, "%s/scan/mixed.cu", dir ? dir : "tests/fixtures");
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(n > 0 && n < sizeof buf);

    kd_kernel_list list = scan_bytes(buf, n);
    CHECK_NAMES(list, "reduce", "transpose", "entry");
    const kd_kernel *r = kernel(&list, "kd::reduce");
    CHECK_KERNEL(r, "kd::reduce", 15, 3, false, "typename T, int BLOCK = 256", "BLOCK");
    CHECK_PARAM(r, 0, "in", "const T *__restrict__", "T", true, NULL);
    CHECK_PARAM(r, 1, "out", "T *__restrict__", "T", false, NULL);
    CHECK_PARAM(r, 2, "n", "size_t", NULL, false, NULL);
    assert_int_equal(r->ninstantiations, 2);
    assert_string_equal(r->instantiations[0], "float, 256");
    assert_string_equal(r->instantiations[1], "__nv_bfloat16, 128");
    const kd_kernel *t = kernel(&list, "transpose");
    CHECK_KERNEL(t, "kd::transpose", 34, 4, false, NULL, NULL);
    CHECK_PARAM(t, 0, "dst", "float *", "float", false, NULL);
    CHECK_PARAM(t, 1, "src", "const float *", "float", true, NULL);
    CHECK_PARAM(t, 2, "rows", "int", NULL, false, NULL);
    CHECK_PARAM(t, 3, "cols", "int", NULL, false, "0");
    const kd_kernel *e = kernel(&list, "entry");
    CHECK_KERNEL(e, "entry", 44, 1, true, NULL, NULL);
    CHECK_PARAM(e, 0, "data", "half2 *", "half2", false, NULL);
    kd_kernel_list_free(&list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_input),
        cmocka_unit_test(test_saxpy),
        cmocka_unit_test(test_mentions_in_comments_and_strings),
        cmocka_unit_test(test_macro_lines_ignored),
        cmocka_unit_test(test_multiline_signature),
        cmocka_unit_test(test_template_default_with_comparison),
        cmocka_unit_test(test_nested_templates),
        cmocka_unit_test(test_namespaces),
        cmocka_unit_test(test_definition_outside_namespace),
        cmocka_unit_test(test_extern_c),
        cmocka_unit_test(test_prototype_then_definition),
        cmocka_unit_test(test_definition_then_prototype),
        cmocka_unit_test(test_unnamed_definition_takes_prototype_names),
        cmocka_unit_test(test_globally_qualified_definition),
        cmocka_unit_test(test_template_prototype_then_definition),
        cmocka_unit_test(test_overloads_stay_separate),
        cmocka_unit_test(test_void_and_empty_params),
        cmocka_unit_test(test_unnamed_params),
        cmocka_unit_test(test_defaults_with_commas),
        cmocka_unit_test(test_attributes),
        cmocka_unit_test(test_raw_strings),
        cmocka_unit_test(test_unterminated_comment_at_eof),
        cmocka_unit_test(test_unterminated_literals),
        cmocka_unit_test(test_global_after_return_type),
        cmocka_unit_test(test_launch_bounds),
        cmocka_unit_test(test_pointer_const_variants),
        cmocka_unit_test(test_cuda_vector_and_half_types),
        cmocka_unit_test(test_reference_params),
        cmocka_unit_test(test_array_params),
        cmocka_unit_test(test_odd_declarators_tolerated),
        cmocka_unit_test(test_explicit_instantiations),
        cmocka_unit_test(test_instantiations_across_namespaces),
        cmocka_unit_test(test_specialisation_and_extern_template),
        cmocka_unit_test(test_char_literals_and_digit_separators),
        cmocka_unit_test(test_line_numbers_crlf_and_splices),
        cmocka_unit_test(test_macro_attributes),
        cmocka_unit_test(test_trailing_return_and_noexcept),
        cmocka_unit_test(test_grid_constant_and_struct_params),
        cmocka_unit_test(test_host_code_keeps_scopes),
        cmocka_unit_test(test_malformed_input_does_not_crash),
        cmocka_unit_test(test_len_bounds_the_scan),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_fixture_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
