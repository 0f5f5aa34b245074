/* fuzz_json.c — libFuzzer target for the saved-result reader (`kerndiff compare`): any
 * bytes must either fail to parse, be refused with a message, or read into a model that
 * frees cleanly; never a crash or a read out of bounds. */
#include <stdint.h>
#include <stdlib.h>

#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *doc = json_loadb((const char *)data, size, 0, NULL);
    kd_comparison c;
    kd_strbuf err = {0};
    int rc = kd_comparison_read(doc, &c, &err);
    if ((rc != 0) != (err.len > 0))
        abort(); /* a refusal always says why, and only a refusal does */
    kd_sb_free(&err);
    kd_comparison_free(&c);
    json_decref(doc);
    return 0;
}
