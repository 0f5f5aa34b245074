#include "util/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"

FILE *kd_output_open(kd_output *o, const char *path)
{
    *o = (kd_output){.path = path};
    o->stream = open_memstream(&o->data, &o->len);
    return o->stream;
}

/* Why stdout first failed (a full disk, a closed pipe): a later flush no longer says. */
static int stdout_errno;

int kd_stdout_flush(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    if (!stdout_errno)
        stdout_errno = errno;
    return -1;
}

/* stdout keeps its buffer shared with the terminal report, so it is written through stdio. */
static int write_stdout(const char *data, size_t len)
{
    size_t written = fwrite(data, 1, len, stdout);
    if (written != len && !stdout_errno)
        stdout_errno = errno;
    int rc = kd_stdout_flush() == 0 && written == len ? 0 : -1;
    if (rc != 0)
        errno = stdout_errno;
    /* A reader that stopped reading (kerndiff --json - | head) took what it wanted: no failure
     * here; main.c ends quietly with the run's status (kd_stdout_check still says EPIPE). */
    if (rc != 0 && stdout_errno == EPIPE)
        rc = 0;
    return rc;
}

kd_output_result kd_output_close(kd_output *o, int failed, int *err)
{
    *err = 0;
    if (!o->stream) {
        *o = (kd_output){0};
        return KD_OUTPUT_NO_MEMORY;
    }
    failed |= fclose(o->stream) != 0;
    kd_output_result result = KD_OUTPUT_NOT_RENDERED;
    if (!failed) {
        errno = 0;
        int rc = strcmp(o->path, "-") == 0 ? write_stdout(o->data, o->len) : kd_write_file(o->path, o->data, o->len);
        result = rc == 0 ? KD_OUTPUT_WRITTEN : KD_OUTPUT_NOT_WRITTEN;
        *err = rc == 0 ? 0 : errno;
    }
    free(o->data);
    *o = (kd_output){0};
    return result;
}

int kd_stdout_check(int *err)
{
    *err = 0;
    if (kd_stdout_flush() == 0)
        return 0;
    *err = stdout_errno;
    return -1;
}
