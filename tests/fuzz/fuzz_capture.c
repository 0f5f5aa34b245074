/* fuzz_capture.c — libFuzzer target for the capture file's reader (capture/file.h,
 * docs/CAPTURE.md). Two ways in, by the input's first bytes:
 *   - a whole file (it starts with the magic): written to a memory file and opened with
 *     kd_capture_open, then every blob read (each under 1 MiB) — the header's checks;
 *   - anything else: a manifest, parsed by kd_capture_parse_manifest as if its checksum held
 *     (a fuzzer never forges a CRC-32, so this is how the manifest's checks are reached).
 * Every input must be read or refused with a message that has words and its count of values;
 * what is read must hold together (parameters, spans, pointer words, blob places, caps). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capture/file.h"
#include "report/diag_text.h"

static const unsigned char MAGIC[8] = {0x89, 'K', 'D', 'C', 'A', 'P', '\r', '\n'};
#define DATA_END ((uint64_t)1 << 20)

static void check_refusal(const kd_diag *err)
{
    const kd_wording *w = kd_wording_find(err->id);
    if (!w || w->nargs != err->nargs)
        abort(); /* every refusal says why, in words */
}

static void check_capture(const kd_capture *c, uint64_t data_end)
{
    if (c->argc > KD_CAPTURE_MAX_ARGS || c->nparams > KD_CAPTURE_MAX_PARAMS ||
        c->param_size > KD_CAPTURE_MAX_PARAM_BYTES || c->nallocs > KD_CAPTURE_MAX_ALLOCS || !c->kernel ||
        !c->demangled || !c->api || !c->gpu || (c->param_size && !c->param_data))
        abort();
    for (size_t i = 0; i < c->argc; i++)
        if (!c->argv[i] || strlen(c->argv[i]) > KD_CAPTURE_MAX_STRING)
            abort();
    for (size_t i = 0; i < c->nparams; i++)
        if ((uint64_t)c->params[i].offset + c->params[i].size > c->param_size)
            abort();
    for (size_t i = 0; i < c->nallocs; i++) {
        const kd_capture_alloc *a = &c->allocs[i];
        if (a->span_start > a->span_end || a->span_end > a->size || !a->blob[0].present)
            abort();
        for (int w = 0; w < 2; w++) {
            const kd_capture_blob *b = &a->blob[w];
            if (b->present && (b->offset < 64 || b->offset + b->stored > data_end ||
                               (!b->compressed && b->stored != a->span_end - a->span_start)))
                abort();
        }
    }
    for (size_t i = 0; i < c->npointers; i++) {
        const kd_capture_pointer *p = &c->pointers[i];
        if (p->word % 8 || (uint64_t)p->word + 8 > c->param_size || p->alloc >= c->nallocs ||
            p->offset < c->allocs[p->alloc].span_start || p->offset > c->allocs[p->alloc].span_end ||
            (i && p->word <= c->pointers[i - 1].word))
            abort();
    }
}

static void whole_file(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz_capture", 0);
    if (fd < 0)
        return;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    kd_capture cap;
    kd_diag err = {0};
    if (kd_capture_open(path, &cap, &err) == 0) {
        check_capture(&cap, size);
        for (size_t a = 0; a < cap.nallocs; a++)
            for (int w = 0; w < 2; w++) {
                unsigned char *mem = NULL;
                uint64_t len = 0;
                kd_capture_read_request req = {.alloc = a, .which = (kd_capture_which)w, .max_bytes = 1 << 20};
                if (kd_capture_read_contents(&cap, &req, &mem, &len, &err) == 0) {
                    if (len != cap.allocs[a].span_end - cap.allocs[a].span_start)
                        abort();
                    free(mem);
                } else {
                    check_refusal(&err);
                }
            }
        kd_capture_free(&cap);
    } else {
        check_refusal(&err);
    }
    kd_diag_free(&err);
    close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= sizeof MAGIC && memcmp(data, MAGIC, sizeof MAGIC) == 0) {
        whole_file(data, size);
        return 0;
    }
    /* An exact-size copy: ASan reports any read past the end. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    kd_capture cap;
    kd_diag err = {0};
    if (kd_capture_parse_manifest(text, size, DATA_END, "fuzz", &cap, &err) == 0) {
        check_capture(&cap, DATA_END);
        kd_capture_free(&cap);
    } else {
        check_refusal(&err);
    }
    kd_diag_free(&err);
    free(text);
    return 0;
}
