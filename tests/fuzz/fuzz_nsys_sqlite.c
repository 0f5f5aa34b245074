/* fuzz_nsys_sqlite.c — libFuzzer target for the nsys SQLite reader (app/sqlite.c), what
 * `kerndiff app a.sqlite b.sqlite` reads: any bytes must be refused with a message, or read
 * into an activity whose figures the checks held to their bounds (no launch count or time
 * that a damaged profile could make overflow), freeing cleanly; with --range too. The reader
 * takes a path: the bytes are written to a private file first (SQLite opens it by name). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/sqlite.h"

static void read_it(const char *path, const char *range)
{
    kd_app_activity a = {0};
    kd_diag err = {0};
    if (kd_app_sqlite_read(path, range, 0, &a, &err) == 0) {
        if (err.id)
            abort(); /* only a refusal says why */
        for (size_t k = 0; k < a.nkernels; k++)
            if (!a.kernels[k].name)
                abort();
    } else if (!err.id) {
        abort(); /* a refusal always says why */
    }
    kd_diag_free(&err);
    kd_app_activity_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/kd_fuzz_nsys_%d.sqlite", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    if (kd_app_is_sqlite(path)) {
        read_it(path, NULL);
        read_it(path, "step");
    }
    unlink(path);
    return 0;
}
