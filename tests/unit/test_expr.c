#include "kd_test.h"

#include <string.h>

#include "launch/expr.h"

static const kd_var n1000[] = {{"n", 1000}, {"block", 256}};
static const kd_vars vars = {n1000, 2};

static double eval_ok(const char *text)
{
    double v = -12345;
    char err[256];
    int rc = kd_expr_eval(text, &vars, &v, err, sizeof err);
    if (rc != 0)
        fail_msg("'%s' failed: %s", text, err);
    return v;
}

/* Evaluates text expecting an error that contains `needle`. */
static void eval_fails(const char *text, const char *needle)
{
    double v = 0;
    char err[256];
    assert_int_equal(kd_expr_eval(text, &vars, &v, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("'%s': error '%s' lacks '%s'", text, err, needle);
}

static void integer_arithmetic_is_c_like(void **state)
{
    (void)state;
    assert_true(eval_ok("2+3*4") == 14);
    assert_true(eval_ok("(2+3)*4") == 20);
    assert_true(eval_ok("1<<2+1") == 8);   /* + binds tighter than << */
    assert_true(eval_ok("n/256") == 3);    /* truncates */
    assert_true(eval_ok("-7/2") == -3);    /* towards zero, like C */
    assert_true(eval_ok("-7%3") == -1);
    assert_true(eval_ok("(n+255)/256") == 4);
    assert_true(eval_ok("1<<24") == 16777216);
    assert_true(eval_ok("256>>4") == 16);
    assert_true(eval_ok("-256>>4") == -16);
    assert_true(eval_ok("-5>>1") == -3);   /* arithmetic shift */
    assert_true(eval_ok("10-2-3") == 5);   /* left-associative */
    assert_true(eval_ok("64/4/2") == 8);
    assert_true(eval_ok("-n") == -1000);
    assert_true(eval_ok("--3") == 3);
    assert_true(eval_ok("-(2+3)*2") == -10);
    assert_true(eval_ok("  n * n ") == 1000000);
    assert_true(eval_ok("2.5*2") == 5);
    assert_true(eval_ok("5/2.5") == 2);    /* a fractional operand divides exactly... */
    assert_true(eval_ok("1/0.5") == 2);
    assert_true(eval_ok("5/2.0") == 2);    /* ...but 2.0 is a whole number, so this truncates */
    assert_true(eval_ok("-0") == 0);
}

static void literals_take_suffixes_and_exponents(void **state)
{
    (void)state;
    assert_true(eval_ok("16M") == 16777216);
    assert_true(eval_ok("4K*2") == 8192);
    assert_true(eval_ok("1G") == 1073741824);
    assert_true(eval_ok("1e6") == 1000000);
    assert_true(eval_ok("2.5e3") == 2500);
    assert_true(eval_ok("1E+2") == 100);
    assert_true(eval_ok(".5") == 0.5);
    assert_true(eval_ok("0.5K") == 512);
}

static void functions_round_and_divide_exactly(void **state)
{
    (void)state;
    assert_true(eval_ok("ceil(n/256)") == 4);
    assert_true(eval_ok("floor(n/256)") == 3);
    assert_true(eval_ok("ceil(1024/256)") == 4);
    assert_true(eval_ok("ceil(min(n/3, 1000))") == 334); /* exact division reaches nested calls */
    assert_true(eval_ok("ceil(n/256) + n/3") == 4 + 333); /* and ends with the call */
    assert_true(eval_ok("cdiv(n, 256)") == 4);
    assert_true(eval_ok("cdiv(1024, 256)") == 4);
    assert_true(eval_ok("cdiv(-7, 2)") == -3);
    assert_true(eval_ok("cdiv(7, -2)") == -3);
    assert_true(eval_ok("min(n, 65535)") == 1000);
    assert_true(eval_ok("max(n, 65535)") == 65535);
    assert_true(eval_ok("min(ceil(n/block), 2)") == 2);
    assert_true(eval_ok("max ( 1 , 2 )") == 2);
}

static void large_values_are_exact_up_to_2_to_the_53(void **state)
{
    (void)state;
    assert_true(eval_ok("1<<53") == 9007199254740992.0);
    assert_true(eval_ok("(1<<53)-1") == 9007199254740991.0);
    assert_true(eval_ok("9007199254740991/3") == 3002399751580330.0);
    assert_true(eval_ok("ceil(9007199254740991/3)") == 3002399751580331.0);
    assert_true(eval_ok("cdiv(9007199254740991, 7)") == 1286742750677285.0);
    assert_true(eval_ok("94906265*94906265") == 9007199136250225.0);
    eval_fails("1<<60", "exceeds 2^53");
    eval_fails("(1<<53)+1", "exceeds 2^53");
    eval_fails("94906267*94906267", "exceeds 2^53");
    eval_fails("1e300", "exceeds 2^53");
    eval_fails("8G*8G*8G", "exceeds 2^53");
}

static void errors_give_position_and_reason(void **state)
{
    (void)state;
    double v;
    char err[256];
    assert_int_equal(kd_expr_eval("m*2", &vars, &v, err, sizeof err), -1);
    assert_string_equal(err, "at position 1: unknown name 'm' (known: n, block)");
    assert_int_equal(kd_expr_eval("3 +", &vars, &v, err, sizeof err), -1);
    assert_string_equal(err, "at position 4: expected a number, a name or '(' but the expression ended");
    assert_int_equal(kd_expr_eval("(1", &vars, &v, err, sizeof err), -1);
    assert_string_equal(err, "at position 3: expected ')' to close the '(' at position 1");
    assert_int_equal(kd_expr_eval("1/0", &vars, &v, err, sizeof err), -1);
    assert_string_equal(err, "at position 2: division by zero");
    assert_int_equal(kd_expr_eval("foo(1)", &vars, &v, err, sizeof err), -1);
    assert_string_equal(err, "at position 1: unknown function 'foo' (known: ceil, floor, cdiv, min, max)");
    assert_int_equal(kd_expr_eval("2 3", &vars, &v, err, sizeof err), -1);
    assert_string_equal(err, "at position 3: unexpected '3' after a complete expression");

    eval_fails("", "expected a number");
    eval_fails("n%0", "division by zero");
    eval_fails("ceil(n/0)", "division by zero");
    eval_fails("cdiv(n, 0)", "division by zero");
    eval_fails("min(1)", "min() takes 2 arguments");
    eval_fails("ceil(1, 2)", "ceil() takes 1 argument");
    eval_fails("min(1 2)", "expected ','");
    eval_fails("16m", "unexpected 'm'");
    eval_fails("0x10", "malformed number");
    eval_fails("1e", "unexpected 'e'");
    eval_fails("2.5%2", "'%' needs whole numbers");
    eval_fails("1<<-1", "outside 0..63");
    eval_fails("1.5<<1", "needs whole numbers");
    eval_fails("1 < 2", "unexpected '<'");
    eval_fails("ceil(n", "expected ')'");

    assert_int_equal(kd_expr_eval("x", NULL, &v, err, sizeof err), -1);
    assert_string_equal(err, "at position 1: unknown name 'x' (no names can be used here)");
    assert_int_equal(kd_expr_eval("x", NULL, &v, NULL, 0), -1); /* no room for a reason is fine */
}

static void nesting_is_capped(void **state)
{
    (void)state;
    char deep[1000];
    memset(deep, '(', sizeof deep - 1);
    deep[sizeof deep - 1] = '\0';
    eval_fails(deep, "nested more than");
    memset(deep, '-', sizeof deep - 1);
    eval_fails(deep, "nested more than");
    /* Real expressions stay well inside the cap. */
    assert_true(eval_ok("((((((((((1))))))))))") == 1);
}

static void counts_are_positive_whole_numbers(void **state)
{
    (void)state;
    unsigned long long c;
    char err[256];
    assert_int_equal(kd_parse_count("16M", &c, err, sizeof err), 0);
    assert_true(c == 16777216ULL);
    assert_int_equal(kd_parse_count("1<<24", &c, err, sizeof err), 0);
    assert_true(c == 16777216ULL);
    assert_int_equal(kd_parse_count("4096", &c, err, sizeof err), 0);
    assert_true(c == 4096);
    assert_int_equal(kd_parse_count("1e6", &c, err, sizeof err), 0);
    assert_true(c == 1000000);
    assert_int_equal(kd_parse_count("0", &c, err, sizeof err), -1);
    assert_string_equal(err, "'0' is not a positive whole number");
    assert_int_equal(kd_parse_count("-4", &c, err, sizeof err), -1);
    assert_int_equal(kd_parse_count("2.5", &c, err, sizeof err), -1);
    assert_int_equal(kd_parse_count("n", &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown name 'n'"));
    assert_int_equal(kd_parse_count("abc", &c, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integer_arithmetic_is_c_like),
        cmocka_unit_test(literals_take_suffixes_and_exponents),
        cmocka_unit_test(functions_round_and_divide_exactly),
        cmocka_unit_test(large_values_are_exact_up_to_2_to_the_53),
        cmocka_unit_test(errors_give_position_and_reason),
        cmocka_unit_test(nesting_is_capped),
        cmocka_unit_test(counts_are_positive_whole_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
