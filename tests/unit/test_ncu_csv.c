#include "kd_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu_csv.h"

/* The shape of `ncu --csv --page raw` (2025.3.1, H200): ncu's own lines first, then the
 * header, the units row and one row per launch. The always-present columns are cut to a
 * few; the metric columns follow in alphabetical order. Row 2's kernel name holds commas,
 * row 3 an empty field and an "n/a". */
#define SAMPLE_HEADER \
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\"," \
    "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"device__attribute_max_warps_per_multiprocessor\"," \
    "\"dram__bytes_read.sum\",\"gpu__time_duration.sum\",\"l1tex__t_sector_hit_rate.pct\"," \
    "\"launch__registers_per_thread\"\n"
#define SAMPLE_UNITS \
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"warp\",\"byte\",\"nsecond\",\"%\"," \
    "\"register/thread\"\n"

static const char sample[] =
    "==PROF== Connected to process 41872 (/tmp/kd-run/harness)\n"
    "==WARNING== Clock control is disabled; measured clocks may vary.\n"
    "==PROF== Profiling \"saxpy\" - 0: 0%....50%....100% - 9 passes\n"
    "==PROF== Profiling \"k\" - 1: 0%....50%....100% - 9 passes\n"
    "==PROF== Profiling \"reduce\" - 2: 0%....50%....100% - 9 passes\n"
    "==PROF== Disconnected from process 41872\n"
    SAMPLE_HEADER
    SAMPLE_UNITS
    "\"0\",\"41872\",\"harness\",\"gpu-7\",\"saxpy(int, float, const float *, float *)\",\"1\",\"7\","
    "\"(256, 1, 1)\",\"(65536, 1, 1)\",\"0\",\"9.0\",\"64\",\"134,217,728\",\"3,812,805.33\",\"0\",\"16\"\n"
    "\"1\",\"41872\",\"harness\",\"gpu-7\",\"void k<float, 4>(float *)\",\"1\",\"7\","
    "\"(128, 1, 1)\",\"(1024, 1, 1)\",\"0\",\"9.0\",\"64\",\"1,048,576\",\"48,211\",\"87.5\",\"40\"\n"
    "\"2\",\"41872\",\"harness\",\"gpu-7\",\"reduce\",\"1\",\"7\","
    "\"(1024, 1, 1)\",\"(132, 1, 1)\",\"0\",\"9.0\",\"64\",\"\",\"4,096.5\",\"n/a\",\"32\"\n";

static kd_ncu_table parse_ok(const char *text, size_t len)
{
    kd_ncu_table t;
    assert_int_equal(kd_ncu_parse_csv(text, len, &t), 0);
    return t;
}

static double number_at(const kd_ncu_table *t, size_t row, const char *column)
{
    long c = kd_ncu_column(t, column);
    assert_true(c >= 0);
    double v;
    assert_true(kd_ncu_number(t->rows[row][c], &v));
    return v;
}

static void reads_header_units_and_rows(void **state)
{
    (void)state;
    kd_ncu_table t = parse_ok(sample, strlen(sample));
    assert_int_equal(t.ncolumns, 16);
    assert_int_equal(t.nrows, 3);
    assert_null(t.error_line); /* ==WARNING== and ==PROF== lines are not errors */
    assert_string_equal(t.columns[0], "ID");
    assert_string_equal(t.columns[15], "launch__registers_per_thread");
    assert_int_equal(kd_ncu_column(&t, "Kernel Name"), 4);
    assert_int_equal(kd_ncu_column(&t, "gpu__time_duration.sum"), 13);
    assert_string_equal(t.units[11], "warp");
    assert_string_equal(t.units[13], "nsecond");
    assert_string_equal(t.units[14], "%");
    assert_string_equal(t.units[4], "");

    assert_string_equal(t.rows[0][4], "saxpy(int, float, const float *, float *)");
    assert_string_equal(t.rows[1][4], "void k<float, 4>(float *)");
    assert_string_equal(t.rows[1][7], "(128, 1, 1)");
    assert_string_equal(t.rows[2][0], "2");

    assert_true(number_at(&t, 0, "gpu__time_duration.sum") == 3812805.33);
    assert_true(number_at(&t, 0, "dram__bytes_read.sum") == 134217728.0);
    assert_true(number_at(&t, 1, "gpu__time_duration.sum") == 48211.0);
    assert_true(number_at(&t, 2, "gpu__time_duration.sum") == 4096.5);
    assert_true(number_at(&t, 1, "l1tex__t_sector_hit_rate.pct") == 87.5);

    double v = -1;
    long bytes = kd_ncu_column(&t, "dram__bytes_read.sum");
    long hit = kd_ncu_column(&t, "l1tex__t_sector_hit_rate.pct");
    assert_string_equal(t.rows[2][bytes], "");
    assert_false(kd_ncu_number(t.rows[2][bytes], &v));
    assert_string_equal(t.rows[2][hit], "n/a");
    assert_false(kd_ncu_number(t.rows[2][hit], &v));
    assert_true(v == -1); /* a refused field leaves the output alone */
    kd_ncu_table_free(&t);
    assert_null(t.columns);
    assert_int_equal(t.nrows, 0);
}

static void missing_column_is_minus_one(void **state)
{
    (void)state;
    kd_ncu_table t = parse_ok(sample, strlen(sample));
    /* An unknown metric is dropped by ncu without a word: the caller's only sign. */
    assert_int_equal(kd_ncu_column(&t, "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum"), -1);
    assert_int_equal(kd_ncu_column(&t, "id"), -1); /* names are case-sensitive */
    assert_int_equal(kd_ncu_column(&t, ""), -1);
    kd_ncu_table_free(&t);
}

static void doubled_quotes_are_one_quote(void **state)
{
    (void)state;
    static const char text[] =
        "\"Kernel Name\",\"Note\"\n"
        "\"\",\"\"\n"
        "\"k\",\"say \"\"hi\"\", then \"\"bye\"\"\"\n"
        "\"\"\"\",\"a,b\"\n";
    kd_ncu_table t = parse_ok(text, strlen(text));
    assert_int_equal(t.nrows, 2);
    assert_string_equal(t.rows[0][1], "say \"hi\", then \"bye\"");
    assert_string_equal(t.rows[1][0], "\"");
    assert_string_equal(t.rows[1][1], "a,b");
    kd_ncu_table_free(&t);
}

static void error_line_is_remembered(void **state)
{
    (void)state;
    static const char denied[] =
        "==PROF== Connected to process 5150 (/tmp/kd-run/harness)\n"
        "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
        "Performance Counters on the target device 0.\n"
        "==ERROR== second error\n"
        "==PROF== Disconnected from process 5150\n";
    kd_ncu_table t;
    /* No table at all, but the reason survives the failure. */
    assert_int_equal(kd_ncu_parse_csv(denied, strlen(denied), &t), -1);
    assert_non_null(t.error_line);
    assert_string_equal(t.error_line,
                        "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
                        "NVIDIA GPU Performance Counters on the target device 0.");
    assert_int_equal(t.ncolumns, 0);
    kd_ncu_table_free(&t);
    assert_null(t.error_line);

    static const char after_table[] =
        "\"ID\",\"gpu__time_duration.sum\"\n\"\",\"nsecond\"\n\"0\",\"1,024\"\n"
        "==ERROR== Failed to profile \"k\" in process 77\n";
    t = parse_ok(after_table, strlen(after_table));
    assert_int_equal(t.nrows, 1);
    assert_string_equal(t.error_line, "==ERROR== Failed to profile \"k\" in process 77");
    kd_ncu_table_free(&t);
}

static void ragged_row_is_an_error(void **state)
{
    (void)state;
    static const char short_row[] = "\"a\",\"b\",\"c\"\n\"\",\"\",\"\"\n\"1\",\"2\",\"3\"\n\"1\",\"2\"\n";
    static const char long_row[] = "\"a\",\"b\"\n\"\",\"\"\n\"1\",\"2\",\"3\"\n";
    static const char ragged_units[] = "\"a\",\"b\"\n\"\"\n";
    kd_ncu_table t;
    assert_int_equal(kd_ncu_parse_csv(short_row, strlen(short_row), &t), -1);
    assert_int_equal(t.nrows, 0);
    assert_null(t.rows);
    assert_int_equal(kd_ncu_parse_csv(long_row, strlen(long_row), &t), -1);
    assert_int_equal(kd_ncu_parse_csv(ragged_units, strlen(ragged_units), &t), -1);
    kd_ncu_table_free(&t);
}

static void malformed_quotes_are_an_error(void **state)
{
    (void)state;
    static const char unterminated[] = "\"a\",\"b\"\n\"\",\"\"\n\"1\",\"2\n";
    static const char junk_after_quote[] = "\"a\",\"b\"x\n";
    static const char junk_in_one_column[] = "\"a\"x\n\"\"\n"; /* field counts alone would pass */
    kd_ncu_table t;
    assert_int_equal(kd_ncu_parse_csv(unterminated, strlen(unterminated), &t), -1);
    assert_int_equal(kd_ncu_parse_csv(junk_after_quote, strlen(junk_after_quote), &t), -1);
    assert_int_equal(kd_ncu_parse_csv(junk_in_one_column, strlen(junk_in_one_column), &t), -1);
    kd_ncu_table_free(&t);
}

static void crlf_reads_like_lf(void **state)
{
    (void)state;
    static const char crlf[] =
        "==PROF== Disconnected from process 1\r\n"
        "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\r\n"
        "\"\",\"\",\"nsecond\"\r\n"
        "\r\n"
        "\"0\",\"void k<float, 4>(float *)\",\"3,812,805.33\"\r\n"
        "\"1\",bare,\"7\"\r\n"
        "==ERROR== late\r\n";
    kd_ncu_table t = parse_ok(crlf, strlen(crlf));
    assert_int_equal(t.ncolumns, 3);
    assert_int_equal(t.nrows, 2);
    assert_string_equal(t.columns[2], "gpu__time_duration.sum");
    assert_string_equal(t.units[2], "nsecond");
    assert_string_equal(t.rows[0][1], "void k<float, 4>(float *)");
    assert_string_equal(t.rows[1][1], "bare");
    assert_string_equal(t.rows[1][2], "7");
    assert_string_equal(t.error_line, "==ERROR== late");
    assert_true(number_at(&t, 0, "gpu__time_duration.sum") == 3812805.33);
    kd_ncu_table_free(&t);

    /* A \r ends a line only before \n or as the last byte; elsewhere it is text. */
    static const char lone_cr[] = "\"a\",b\rc\r\n\"\",\"\"\r";
    t = parse_ok(lone_cr, strlen(lone_cr));
    assert_int_equal(t.ncolumns, 2);
    assert_string_equal(t.columns[1], "b\rc");
    assert_string_equal(t.units[1], "");
    assert_int_equal(t.nrows, 0);
    kd_ncu_table_free(&t);
}

static void empty_or_headerless_input_fails(void **state)
{
    (void)state;
    kd_ncu_table t;
    assert_int_equal(kd_ncu_parse_csv("", 0, &t), -1);
    assert_null(t.error_line);
    static const char only_prof[] = "==PROF== Connected to process 1\n\n\r\n==WARNING== x\n";
    assert_int_equal(kd_ncu_parse_csv(only_prof, strlen(only_prof), &t), -1);
    assert_null(t.error_line);
    kd_ncu_table_free(&t);
}

static void header_without_units_has_empty_units(void **state)
{
    (void)state;
    static const char text[] = "\"ID\",\"gpu__time_duration.sum\"\n";
    kd_ncu_table t = parse_ok(text, strlen(text));
    assert_int_equal(t.ncolumns, 2);
    assert_int_equal(t.nrows, 0);
    assert_string_equal(t.units[0], "");
    assert_string_equal(t.units[1], "");
    kd_ncu_table_free(&t);
}

static void reads_only_len_bytes(void **state)
{
    (void)state;
    /* No terminator after the length: the bytes past it must never be read. */
    static const char text[] = "\"a\",\"b\"\n\"\",\"\"\n\"1\",\"2\"XYZ";
    size_t len = strlen(text) - 3;
    char *exact = malloc(len);
    assert_non_null(exact);
    memcpy(exact, text, len);
    kd_ncu_table t = parse_ok(exact, len);
    free(exact);
    assert_int_equal(t.nrows, 1);
    assert_string_equal(t.rows[0][1], "2");
    kd_ncu_table_free(&t);
}

static void numbers(void **state)
{
    (void)state;
    double v = 0;
    assert_true(kd_ncu_number("3,812,805.33", &v));
    assert_true(v == 3812805.33);
    assert_true(kd_ncu_number("1,024", &v));
    assert_true(v == 1024);
    assert_true(kd_ncu_number("0", &v));
    assert_true(v == 0);
    assert_true(kd_ncu_number("-1.5e3", &v));
    assert_true(v == -1500);
    assert_true(kd_ncu_number("18,446,744,073,709,551,615", &v));
    assert_true(v == 18446744073709551615.0);
    v = 42;
    assert_false(kd_ncu_number("", &v));
    assert_false(kd_ncu_number("n/a", &v));
    assert_false(kd_ncu_number(",", &v));
    assert_false(kd_ncu_number("12abc", &v));
    assert_false(kd_ncu_number(" 12", &v));
    assert_false(kd_ncu_number("1.2.3", &v));
    assert_false(kd_ncu_number("inf", &v));
    assert_false(kd_ncu_number("nan", &v));
    assert_false(kd_ncu_number("0x10", &v));
    assert_false(kd_ncu_number("1e999", &v)); /* overflows to inf */
    assert_true(v == 42);

    char longest[200];
    memset(longest, '1', sizeof longest - 1);
    longest[sizeof longest - 1] = '\0';
    assert_false(kd_ncu_number(longest, &v));
    longest[127] = '\0'; /* 127 digits fit the buffer */
    assert_true(kd_ncu_number(longest, &v));
    assert_true(v > 1e126 && v < 1.2e126);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_header_units_and_rows),
        cmocka_unit_test(missing_column_is_minus_one),
        cmocka_unit_test(doubled_quotes_are_one_quote),
        cmocka_unit_test(error_line_is_remembered),
        cmocka_unit_test(ragged_row_is_an_error),
        cmocka_unit_test(malformed_quotes_are_an_error),
        cmocka_unit_test(crlf_reads_like_lf),
        cmocka_unit_test(empty_or_headerless_input_fails),
        cmocka_unit_test(header_without_units_has_empty_units),
        cmocka_unit_test(reads_only_len_bytes),
        cmocka_unit_test(numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
