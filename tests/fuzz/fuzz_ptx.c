/* fuzz_ptx.c — libFuzzer target for the compiler-output readers. The input is read as a PTX
 * module (every entry's body extracted and counted) and as a cuobjdump listing (the whole
 * text, and the function named like each PTX entry). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "static/ptx.h"
#include "static/sass.h"

static void count_ptx_entry(const char *text, const char *name)
{
    char *body = kd_ptx_entry_body(text, name);
    if (!body)
        abort(); /* every listed name has a body */
    kd_histogram ops = {0}, families = {0};
    kd_ptx_histogram(body, &ops, &families);
    if (ops.total != families.total)
        abort();
    kd_hist_sort(&ops);
    kd_hist_free(&ops);
    kd_hist_free(&families);
    free(body);
}

static void count_sass(const char *text)
{
    kd_histogram ops = {0}, families = {0};
    kd_sass_checks checks;
    kd_sass_histogram(text, &ops, &families, &checks);
    if (ops.total != families.total)
        abort();
    kd_hist_free(&ops);
    kd_hist_free(&families);
}

static void count_sass_function(const char *text, const char *name)
{
    char *function = kd_sass_function_text(text, name);
    if (function)
        count_sass(function);
    free(function);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    char **names;
    size_t count;
    kd_ptx_entry_names(text, &names, &count);
    for (size_t i = 0; i < count; i++) {
        count_ptx_entry(text, names[i]);
        count_sass_function(text, names[i]);
    }
    kd_ptx_names_free(names, count);
    count_sass(text);
    free(text);
    return 0;
}
