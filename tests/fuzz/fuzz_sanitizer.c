/* fuzz_sanitizer.c — libFuzzer target for the compute-sanitizer log reader and the
 * explanation of what it found: any log must parse without crashing, and every finding
 * must be explainable against a launch's buffers without reading out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sanitizer/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    kd_san_report r;
    kd_san_parse(text, &r);
    kd_launch_arg args[2] = {
        {.name = "x", .role = KD_ROLE_INPUT, .type = {.base = KD_DT_F32, .lanes = 1}, .count = 1024},
        {.name = "out", .role = KD_ROLE_OUTPUT, .type = {.base = KD_DT_F16, .lanes = 2}, .count = 1000},
    };
    kd_san_buffer buffers[2] = {{&args[0], 0x7f0000000000ull, 4096}, {&args[1], 0x7f0000011000ull, 4000}};
    for (size_t i = 0; i < r.count; i++) {
        kd_strbuf sb = {0};
        kd_san_explain(&r.findings[i], buffers, 2, &sb);
        if (sb.len == 0)
            abort(); /* a finding always says something */
        kd_sb_free(&sb);
    }
    kd_san_report_free(&r);
    free(text);
    return 0;
}
