/* fuzz_ncu_csv.c — libFuzzer target for the ncu CSV reader: any bytes must parse into a
 * rectangular table or fail cleanly (keeping at most the ==ERROR== line), without reading
 * past the given length; every field must be safe to look up and to read as a number. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu_csv.h"

static void check_table(const kd_ncu_table *t)
{
    if (t->ncolumns == 0 || !t->units)
        abort(); /* a parsed table has a header and one unit per column */
    for (size_t c = 0; c < t->ncolumns; c++) {
        long found = kd_ncu_column(t, t->columns[c]);
        if (found < 0 || found > (long)c || strcmp(t->columns[found], t->columns[c]) != 0)
            abort(); /* the first column of that name */
        if (!t->units[c])
            abort();
    }
    double v;
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncolumns; c++)
            if (kd_ncu_number(t->rows[r][c], &v) && !isfinite(v))
                abort();
    (void)kd_ncu_column(t, "gpu__time_duration.sum");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy, so ASan flags any read past `size`. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    kd_ncu_table t;
    if (kd_ncu_parse_csv(text, size, &t) == 0)
        check_table(&t);
    else if (t.ncolumns || t.nrows || t.columns || t.rows || t.units)
        abort(); /* a failure leaves only the error line */
    if (t.error_line && strncmp(t.error_line, "==ERROR==", 9) != 0)
        abort();
    kd_ncu_table_free(&t);
    free(text);
    return 0;
}
