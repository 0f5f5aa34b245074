#include "util/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"
#include "util/text.h"

FILE *kd_output_open(kd_output *o, const char *path, const char *what)
{
    *o = (kd_output){.path = path, .what = what};
    o->stream = open_memstream(&o->data, &o->len);
    if (!o->stream)
        kd_text_fprintf(stderr, "kerndiff: cannot prepare the %s for '%s': out of memory\n", what, path);
    return o->stream;
}

static const char *destination(const kd_output *o)
{
    return strcmp(o->path, "-") == 0 ? "standard output" : o->path;
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
    return kd_stdout_flush() == 0 && written == len ? 0 : -1;
}

int kd_output_close(kd_output *o, int failed)
{
    if (!o->stream)
        return -1;
    failed |= fclose(o->stream) != 0;
    int rc = -1;
    if (failed)
        kd_text_fprintf(stderr, "kerndiff: cannot write the %s to '%s': it could not be rendered (out of memory, or a "
                        "value JSON cannot hold); nothing was written\n", o->what, destination(o));
    else if ((rc = strcmp(o->path, "-") == 0 ? write_stdout(o->data, o->len) : kd_write_file(o->path, o->data, o->len)) != 0)
        kd_text_fprintf(stderr, "kerndiff: cannot write the %s to '%s': %s (check that the folder exists, is writable "
                        "and has space)\n", o->what, destination(o), strerror(errno));
    free(o->data);
    *o = (kd_output){0};
    return rc;
}

int kd_stdout_check(void)
{
    if (kd_stdout_flush() == 0)
        return 0;
    kd_text_fprintf(stderr, "kerndiff: cannot write the report to standard output: %s\n",
                    stdout_errno ? strerror(stdout_errno) : "write error");
    return -1;
}
