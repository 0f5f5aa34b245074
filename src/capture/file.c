/* The capture file (capture/file.h; docs/CAPTURE.md): reader and writer side by side, so
 * what one writes is what the other checks. Layout: a 64-byte header, the contents' blobs,
 * then the text manifest (written last, once the blobs' places and checksums are known,
 * like a zip's central directory). */
#include "capture/file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "capture/capture_msgs.h"
#include "static/symbols.h"
#include "util/fs.h"
#include "util/output.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- the header ---------------------------------------------------------------------- */

#define HEADER_SIZE 64
/* 0x89 catches a 7-bit transfer, "\r\n" a line-ending conversion (PNG's trick). */
static const unsigned char MAGIC[8] = {0x89, 'K', 'D', 'C', 'A', 'P', '\r', '\n'};
#define CHUNK ((size_t)1 << 20)
static const char *const WHICH[2] = {"before", "after"};

typedef struct header {
    uint32_t version;
    uint64_t manifest_offset, manifest_size, file_size;
    uint32_t manifest_crc;
} header;

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* crc32 over any length (zlib's takes a uInt). */
static uint32_t crc_update(uint32_t crc, const void *data, size_t len)
{
    return (uint32_t)crc32_z(crc, (const Bytef *)data, len);
}

/* Bytes 0-7 magic, 8 version, 12 header size, 16 manifest offset, 24 manifest size, 32 file
 * size, 40 manifest crc32, 44-59 zero, 60 crc32 of bytes 0-59 (all little-endian). */
static void header_encode(const header *h, unsigned char out[HEADER_SIZE])
{
    memset(out, 0, HEADER_SIZE);
    memcpy(out, MAGIC, 8);
    put32(out + 8, h->version);
    put32(out + 12, HEADER_SIZE);
    put64(out + 16, h->manifest_offset);
    put64(out + 24, h->manifest_size);
    put64(out + 32, h->file_size);
    put32(out + 40, h->manifest_crc);
    put32(out + 60, crc_update(0, out, 60));
}

/* ---- strings in the manifest: the rest of a line, escaped -------------------------------- */

/* '\\' and every byte below 0x20 or 0x7f escaped ("\\\\", "\\n", "\\xNN"): a line stays a
 * line whatever an argument holds. */
static void put_escaped(kd_strbuf *sb, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\\')
            kd_sb_puts(sb, "\\\\");
        else if (*p == '\n')
            kd_sb_puts(sb, "\\n");
        else if (*p < 0x20 || *p == 0x7f)
            kd_sb_printf(sb, "\\x%02x", *p);
        else
            kd_sb_append(sb, (const char *)p, 1);
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* The string put_escaped wrote, malloc'd; NULL when s is not such a string (a raw control
 * byte, a bad escape, an escaped NUL). */
static char *unescape(const char *s)
{
    kd_strbuf sb = {0};
    kd_sb_append(&sb, "", 0);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if (c < 0x20 || c == 0x7f)
            goto bad;
        if (c == '\\') {
            if (p[1] == '\\' || p[1] == 'n') {
                c = p[1] == 'n' ? '\n' : '\\';
                p++;
            } else if (p[1] == 'x' && hexval(p[2]) >= 0 && hexval(p[3]) >= 0) {
                c = (unsigned char)(hexval(p[2]) * 16 + hexval(p[3]));
                p += 3;
                if (c == 0)
                    goto bad;
            } else {
                goto bad;
            }
        }
        kd_sb_append(&sb, (const char *)&c, 1);
    }
    return kd_sb_take(&sb);
bad:
    kd_sb_free(&sb);
    return NULL;
}

/* ---- fields ---------------------------------------------------------------------------- */

/* Splits s (modified) at single spaces into at most max tokens; the count, or -1 when there
 * are more, an empty token (two spaces, a leading or trailing one) or none. */
static int split(char *s, char **tok, int max)
{
    int n = 0;
    if (!*s)
        return -1;
    for (;;) {
        if (n == max)
            return -1;
        tok[n++] = s;
        char *sp = strchr(s, ' ');
        if (!sp)
            break;
        *sp = '\0';
        s = sp + 1;
        if (!*s || *s == ' ')
            return -1;
    }
    for (int i = 0; i < n; i++)
        if (!*tok[i])
            return -1;
    return n;
}

/* A decimal number without sign or leading zero (but "0"), at most max. */
static int num(const char *s, uint64_t max, uint64_t *v)
{
    if (!*s || (s[0] == '0' && s[1]) || strspn(s, "0123456789") != strlen(s) || strlen(s) > 20)
        return -1;
    uint64_t x = 0;
    for (; *s; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    if (x > max)
        return -1;
    *v = x;
    return 0;
}

/* A signed decimal (the time). */
static int snum(const char *s, int64_t *v)
{
    uint64_t x;
    int neg = *s == '-';
    if (num(s + neg, (uint64_t)INT64_MAX, &x) != 0)
        return -1;
    *v = neg ? -(int64_t)x : (int64_t)x;
    return 0;
}

/* Exactly n numbers, each at most max, in s (modified). */
static int nums(char *s, int n, uint64_t max, uint64_t *out)
{
    char *tok[8];
    if (n > 8 || split(s, tok, 8) != n)
        return -1;
    for (int i = 0; i < n; i++)
        if (num(tok[i], max, &out[i]) != 0)
            return -1;
    return 0;
}

static int hex32(const char *s, uint32_t *v)
{
    if (strlen(s) != 8)
        return -1;
    uint32_t x = 0;
    for (int i = 0; i < 8; i++) {
        int h = hexval((unsigned char)s[i]);
        if (h < 0)
            return -1;
        x = x << 4 | (uint32_t)h;
    }
    *v = x;
    return 0;
}

/* ---- lines ----------------------------------------------------------------------------- */

/* A cursor over a manifest's lines; `line` holds the current one, NUL-terminated. */
typedef struct lines {
    const char *p, *end;
    size_t lineno;
    kd_strbuf line;
    int again; /* the next next_line gives the current line again (a look-ahead put back) */
} lines;

/* The next line (without its '\n') in l->line; 0, or -1 at the end. A last line without
 * '\n' counts (the reader then finds no "end" after it). */
static int next_line(lines *l)
{
    if (l->again) {
        l->again = 0;
        return 0;
    }
    if (l->p >= l->end)
        return -1;
    const char *nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
    size_t len = nl ? (size_t)(nl - l->p) : (size_t)(l->end - l->p);
    l->line.len = 0;
    kd_sb_append(&l->line, l->p, len);
    l->p += len + (nl ? 1 : 0);
    l->lineno++;
    return 0;
}

/* Whether the current line is `key` or `key REST`; *rest is REST ("" if none), modifiable. */
static int line_is(lines *l, const char *key, char **rest)
{
    size_t k = strlen(key);
    char *s = l->line.data;
    if (strncmp(s, key, k) != 0 || (s[k] != ' ' && s[k] != '\0'))
        return 0;
    *rest = s + k + (s[k] == ' ');
    return 1;
}

/* The line, shortened for a message (its first 60 bytes). */
static char *line_excerpt(const char *s)
{
    return kd_xstrndup(s, 60);
}

/* ---- checking a capture, read or packed ---------------------------------------------------- */

static uint64_t span_len(const kd_capture_alloc *a)
{
    return a->span_end - a->span_start;
}

/* What a file or a raw folder says must hold together; name is what {0} names. */
/* The launch's geometry within what any CUDA device accepts (cudaDeviceProp's limits): a grid
 * of 1..2^31-1 x 1..65535 x 1..65535 blocks, a block of 1..1024 x 1..1024 x 1..64 threads and
 * at most 1024 in all, at most 256 KiB of dynamic shared memory (the cluster is checked
 * against the grid where the launch is made). A capture outside them records no launch that ran: it is refused with the
 * launch named, never replayed. */
#define KD_CAPTURE_MAX_SMEM (256u << 10)
static int check_geometry(const kd_capture *c, const char *name, kd_diag *err)
{
    const char *what = NULL, *limit = NULL;
    const uint32_t *dims = NULL;
    uint64_t threads = (uint64_t)c->block[0] * c->block[1] * c->block[2];
    if (!c->grid[0] || !c->grid[1] || !c->grid[2] || c->grid[0] > 2147483647u || c->grid[1] > 65535 || c->grid[2] > 65535)
        what = "grid", dims = c->grid, limit = "1 to 2147483647 x 1 to 65535 x 1 to 65535 blocks";
    else if (!c->block[0] || !c->block[1] || !c->block[2] || c->block[0] > 1024 || c->block[1] > 1024 ||
             c->block[2] > 64 || threads > 1024)
        what = "block", dims = c->block, limit = "1 to 1024 x 1 to 1024 x 1 to 64 threads, at most 1024 in all";
    if (what) {
        char value[64];
        snprintf(value, sizeof value, "%" PRIu32 " %" PRIu32 " %" PRIu32, dims[0], dims[1], dims[2]);
        kd_diag_set(err, KD_MSG_CAPTURE_GEOMETRY, KD_DIAG_NO_SIDE, KD_S(name), KD_S(c->demangled ? c->demangled : "?"),
                    KD_U(c->nth), KD_S(what), KD_S(value), KD_S(limit));
        return -1;
    }
    if (c->smem > KD_CAPTURE_MAX_SMEM) {
        char value[32];
        snprintf(value, sizeof value, "%" PRIu32 " bytes", c->smem);
        kd_diag_set(err, KD_MSG_CAPTURE_GEOMETRY, KD_DIAG_NO_SIDE, KD_S(name), KD_S(c->demangled ? c->demangled : "?"),
                    KD_U(c->nth), KD_S("dynamic shared memory"), KD_S(value), KD_S("at most 262144 bytes"));
        return -1;
    }
    return 0;
}

static int validate(const kd_capture *c, const char *name, kd_diag *err)
{
    if (check_geometry(c, name, err) != 0)
        return -1;
    for (size_t i = 0; i < c->nparams; i++) {
        const kd_capture_param *p = &c->params[i];
        if ((uint64_t)p->offset + p->size > c->param_size) {
            kd_diag_set(err, KD_MSG_CAPTURE_PARAM_OUTSIDE, KD_DIAG_NO_SIDE, KD_S(name), KD_U(i), KD_U(p->offset),
                        KD_U(p->size), KD_U(c->param_size));
            return -1;
        }
    }
    for (size_t i = 0; i < c->nallocs; i++) {
        const kd_capture_alloc *a = &c->allocs[i];
        if (a->size > KD_CAPTURE_MAX_ALLOC_BYTES || a->span_start > a->span_end || a->span_end > a->size) {
            kd_diag_set(err, KD_MSG_CAPTURE_SPAN_BAD, KD_DIAG_NO_SIDE, KD_S(name), KD_U(i), KD_U(a->span_start),
                        KD_U(a->span_end), KD_U(a->size));
            return -1;
        }
    }
    for (size_t i = 0; i < c->npointers; i++) {
        const kd_capture_pointer *p = &c->pointers[i];
        if (p->word % 8 || (uint64_t)p->word + 8 > c->param_size || (i > 0 && p->word <= c->pointers[i - 1].word)) {
            kd_diag_set(err, KD_MSG_CAPTURE_POINTER_BAD_WORD, KD_DIAG_NO_SIDE, KD_S(name), KD_U(p->word),
                        KD_U(c->param_size));
            return -1;
        }
        if (p->alloc >= c->nallocs) {
            kd_diag_set(err, KD_MSG_CAPTURE_POINTER_NO_ALLOC, KD_DIAG_NO_SIDE, KD_S(name), KD_U(p->word),
                        KD_U(p->alloc), KD_U(c->nallocs));
            return -1;
        }
        const kd_capture_alloc *a = &c->allocs[p->alloc];
        if (p->offset < a->span_start || p->offset > a->span_end) {
            kd_diag_set(err, KD_MSG_CAPTURE_POINTER_OUTSIDE, KD_DIAG_NO_SIDE, KD_S(name), KD_U(p->word),
                        KD_U(p->alloc), KD_U(p->offset), KD_U(a->span_start), KD_U(a->span_end));
            return -1;
        }
    }
    return 0;
}

static int over_cap(const char *name, const char *what, uint64_t n, uint64_t cap, kd_diag *err)
{
    if (n <= cap)
        return 0;
    kd_diag_set(err, KD_MSG_CAPTURE_OVER_CAP, KD_DIAG_NO_SIDE, KD_S(name), KD_S(what), KD_U(n), KD_U(cap));
    return -1;
}

void kd_capture_free(kd_capture *cap)
{
    for (size_t i = 0; i < cap->argc; i++)
        free(cap->argv[i]);
    free(cap->argv);
    free(cap->kernel);
    free(cap->demangled);
    free(cap->api);
    free(cap->gpu);
    free(cap->params);
    free(cap->param_data);
    free(cap->pointers);
    free(cap->allocs);
    free(cap->path);
    free(cap->triton);
    memset(cap, 0, sizeof *cap);
}

size_t kd_capture_triton_scratch(const kd_capture *cap)
{
    json_t *t = cap->triton ? json_loads(cap->triton, 0, NULL) : NULL;
    json_int_t n = json_integer_value(json_object_get(t, "scratch_pointers"));
    json_decref(t);
    return n > 0 && (size_t)n <= cap->nparams ? (size_t)n : 0; /* the reader checked it; said again */
}

uint64_t kd_capture_data_bytes(const kd_capture *cap)
{
    uint64_t n = 0;
    for (size_t i = 0; i < cap->nallocs; i++)
        n += span_len(&cap->allocs[i]);
    return n;
}

/* ---- the manifest: written ------------------------------------------------------------- */

static void put_blob(kd_strbuf *sb, const char *which, const kd_capture_blob *b)
{
    kd_sb_printf(sb, "%s %s %" PRIu64 " %" PRIu64 " %08" PRIx32 " %08" PRIx32 "\n", which, b->compressed ? "z" : "raw",
                 b->offset, b->stored, b->crc_stored, b->crc_raw);
}

static void manifest_text(const kd_capture *c, kd_strbuf *sb)
{
    kd_sb_printf(sb, "kerndiff-capture %d\nargc %zu\n", c->triton ? 2 : 1, c->argc);
    for (size_t i = 0; i < c->argc; i++) {
        kd_sb_puts(sb, "arg ");
        put_escaped(sb, c->argv[i]);
        kd_sb_puts(sb, "\n");
    }
    const struct {
        const char *key, *value;
    } strs[] = {{"kernel", c->kernel}, {"demangled", c->demangled}, {"api", c->api}};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
        kd_sb_printf(sb, "%s ", strs[i].key);
        put_escaped(sb, strs[i].value ? strs[i].value : "");
        kd_sb_puts(sb, "\n");
    }
    kd_sb_printf(sb, "nth %" PRIu64 "\ntime %" PRId64 "\ngpu ", c->nth, c->time);
    put_escaped(sb, c->gpu ? c->gpu : "");
    kd_sb_printf(sb, "\nsm %" PRIu32 "\n", c->sm);
    kd_sb_printf(sb, "grid %" PRIu32 " %" PRIu32 " %" PRIu32 "\n", c->grid[0], c->grid[1], c->grid[2]);
    kd_sb_printf(sb, "block %" PRIu32 " %" PRIu32 " %" PRIu32 "\n", c->block[0], c->block[1], c->block[2]);
    kd_sb_printf(sb, "cluster %" PRIu32 " %" PRIu32 " %" PRIu32 "\n", c->cluster[0], c->cluster[1], c->cluster[2]);
    kd_sb_printf(sb, "smem %" PRIu32 "\nparams %zu %zu\n", c->smem, c->nparams, c->param_size);
    for (size_t i = 0; i < c->nparams; i++)
        kd_sb_printf(sb, "param %" PRIu32 " %" PRIu32 "\n", c->params[i].offset, c->params[i].size);
    kd_sb_puts(sb, "paramdata ");
    for (size_t i = 0; i < c->param_size; i++)
        kd_sb_printf(sb, "%02x", c->param_data[i]);
    kd_sb_printf(sb, "\nallocs %zu\n", c->nallocs);
    for (size_t i = 0; i < c->nallocs; i++) {
        const kd_capture_alloc *a = &c->allocs[i];
        kd_sb_printf(sb, "alloc %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", a->size, a->span_start, a->span_end);
        for (int w = 0; w < 2; w++)
            if (a->blob[w].present)
                put_blob(sb, WHICH[w], &a->blob[w]);
    }
    kd_sb_printf(sb, "pointers %zu\n", c->npointers);
    for (size_t i = 0; i < c->npointers; i++)
        kd_sb_printf(sb, "pointer %" PRIu32 " %" PRIu32 " %" PRIu64 "\n", c->pointers[i].word, c->pointers[i].alloc,
                     c->pointers[i].offset);
    if (c->triton) { /* format 2 */
        kd_sb_puts(sb, "triton ");
        put_escaped(sb, c->triton);
        kd_sb_puts(sb, "\n");
    }
    kd_sb_puts(sb, "end\n");
}

/* ---- the manifest: read ---------------------------------------------------------------- */

typedef struct reader {
    lines l;
    const char *path;
    uint64_t data_end; /* where the contents' area ends: every blob lies in [HEADER_SIZE, data_end) */
    kd_diag *err;
} reader;

static int bad_line(reader *r)
{
    char *ex = line_excerpt(r->l.line.data ? r->l.line.data : "");
    kd_diag_set(r->err, KD_MSG_CAPTURE_BAD_LINE, KD_DIAG_NO_SIDE, KD_S(r->path), KD_U(r->l.lineno), KD_S(ex));
    free(ex);
    return -1;
}

static int expected(reader *r, size_t lineno, const char *key)
{
    kd_diag_set(r->err, KD_MSG_CAPTURE_EXPECTED, KD_DIAG_NO_SIDE, KD_S(r->path), KD_U(lineno), KD_S(key));
    return -1;
}

/* The next line, which must be `key ...`: its rest in *rest. */
static int expect(reader *r, const char *key, char **rest)
{
    if (next_line(&r->l) != 0)
        return expected(r, r->l.lineno + 1, key);
    return line_is(&r->l, key, rest) ? 0 : expected(r, r->l.lineno, key);
}

static int expect_nums(reader *r, const char *key, int n, uint64_t max, uint64_t *out)
{
    char *rest;
    if (expect(r, key, &rest) != 0)
        return -1;
    return nums(rest, n, max, out) == 0 ? 0 : bad_line(r);
}

static int expect_str(reader *r, const char *key, char **out)
{
    char *rest;
    if (expect(r, key, &rest) != 0)
        return -1;
    if (strlen(rest) > 4 * (size_t)KD_CAPTURE_MAX_STRING || !(*out = unescape(rest)))
        return bad_line(r);
    if (strlen(*out) > KD_CAPTURE_MAX_STRING) {
        free(*out);
        *out = NULL;
        return bad_line(r);
    }
    return 0;
}

static int expect_dims(reader *r, const char *key, uint32_t d[3])
{
    uint64_t v[3];
    if (expect_nums(r, key, 3, UINT32_MAX, v) != 0)
        return -1;
    for (int i = 0; i < 3; i++)
        d[i] = (uint32_t)v[i];
    return 0;
}

/* A blob line `which z|raw OFFSET STORED CRC CRC` whose bytes lie in [HEADER_SIZE, r->data_end). */
static int read_blob(reader *r, char *rest, size_t alloc, int w, uint64_t want, kd_capture_blob *b)
{
    char *tok[6];
    uint64_t off, stored;
    if (split(rest, tok, 6) != 5 || (strcmp(tok[0], "z") && strcmp(tok[0], "raw")) ||
        num(tok[1], UINT64_MAX, &off) || num(tok[2], UINT64_MAX, &stored) || hex32(tok[3], &b->crc_stored) ||
        hex32(tok[4], &b->crc_raw))
        return bad_line(r);
    b->present = 1;
    b->compressed = tok[0][0] == 'z';
    b->offset = off;
    b->stored = stored;
    /* Stored as they are, the bytes are the span's; compressed, never nothing. */
    if ((!b->compressed && stored != want) || (b->compressed && stored == 0))
        return bad_line(r);
    if (off < HEADER_SIZE || off > r->data_end || stored > r->data_end - off) {
        kd_diag_set(r->err, KD_MSG_CAPTURE_BLOB_PLACE, KD_DIAG_NO_SIDE, KD_S(r->path), KD_U(alloc), KD_S(WHICH[w]));
        return -1;
    }
    return 0;
}

/* `triton STRING`: a JSON object whose "section" is the version this reader knows, whose
 * "kernel" is the launched kernel's name, and whose "scratch_pointers" (the trailing
 * parameters Triton appends) fit in the parameters. */
static int read_triton(reader *r, char *rest, kd_capture *c)
{
    char *text = strlen(rest) <= 4 * (size_t)KD_CAPTURE_MAX_STRING ? unescape(rest) : NULL;
    json_t *o = text ? json_loads(text, 0, NULL) : NULL;
    json_t *scratch = json_object_get(o, "scratch_pointers");
    bool ok = json_is_object(o) && json_integer_value(json_object_get(o, "section")) == KD_CAPTURE_TRITON_SECTION &&
              json_is_string(json_object_get(o, "kernel")) && json_is_string(json_object_get(o, "specialization")) &&
              json_is_integer(scratch) && json_integer_value(scratch) >= 0 &&
              (size_t)json_integer_value(scratch) <= c->nparams;
    json_decref(o);
    if (!ok) {
        free(text);
        return bad_line(r);
    }
    c->triton = text;
    return 0;
}

static int parse(reader *r, kd_capture *c)
{
    char *rest;
    uint64_t v[3];
    if (expect(r, "kerndiff-capture", &rest) != 0)
        return -1;
    if (strcmp(rest, "1") != 0 && strcmp(rest, "2") != 0)
        return bad_line(r);
    c->version = (uint32_t)(rest[0] - '0');
    if (expect_nums(r, "argc", 1, UINT64_MAX, v) != 0 || over_cap(r->path, "argc", v[0], KD_CAPTURE_MAX_ARGS, r->err))
        return -1;
    c->argv = kd_xcalloc(v[0] + 1, sizeof *c->argv);
    for (size_t n = v[0]; c->argc < n; c->argc++)
        if (expect_str(r, "arg", &c->argv[c->argc]) != 0)
            return -1;
    if (expect_str(r, "kernel", &c->kernel) || expect_str(r, "demangled", &c->demangled) ||
        expect_str(r, "api", &c->api) || expect_nums(r, "nth", 1, UINT64_MAX, &c->nth))
        return -1;
    if (expect(r, "time", &rest) != 0)
        return -1;
    if (snum(rest, &c->time) != 0)
        return bad_line(r);
    if (expect_str(r, "gpu", &c->gpu) || expect_nums(r, "sm", 1, UINT32_MAX, v))
        return -1;
    c->sm = (uint32_t)v[0];
    if (expect_dims(r, "grid", c->grid) || expect_dims(r, "block", c->block) || expect_dims(r, "cluster", c->cluster) ||
        expect_nums(r, "smem", 1, UINT32_MAX, v))
        return -1;
    c->smem = (uint32_t)v[0];
    if (expect_nums(r, "params", 2, UINT64_MAX, v) || over_cap(r->path, "params", v[0], KD_CAPTURE_MAX_PARAMS, r->err) ||
        over_cap(r->path, "parameter bytes", v[1], KD_CAPTURE_MAX_PARAM_BYTES, r->err))
        return -1;
    size_t nparams = v[0];
    c->param_size = v[1];
    c->params = kd_xcalloc(nparams + 1, sizeof *c->params);
    for (; c->nparams < nparams; c->nparams++) {
        if (expect_nums(r, "param", 2, UINT32_MAX, v) != 0)
            return -1;
        c->params[c->nparams] = (kd_capture_param){.offset = (uint32_t)v[0], .size = (uint32_t)v[1]};
    }
    if (expect(r, "paramdata", &rest) != 0)
        return -1;
    if (strlen(rest) != 2 * c->param_size)
        return bad_line(r);
    c->param_data = kd_xmalloc(c->param_size + 1);
    for (size_t i = 0; i < c->param_size; i++) {
        int hi = hexval((unsigned char)rest[2 * i]), lo = hexval((unsigned char)rest[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return bad_line(r);
        c->param_data[i] = (unsigned char)(hi * 16 + lo);
    }
    if (expect_nums(r, "allocs", 1, UINT64_MAX, v) || over_cap(r->path, "allocs", v[0], KD_CAPTURE_MAX_ALLOCS, r->err))
        return -1;
    size_t nallocs = v[0];
    c->allocs = kd_xcalloc(nallocs + 1, sizeof *c->allocs);
    /* An allocation's line, its "before" line, then an optional "after" line. */
    for (size_t i = 0; i < nallocs; i++) {
        kd_capture_alloc *a = &c->allocs[i];
        if (expect_nums(r, "alloc", 3, UINT64_MAX, v) != 0)
            return -1;
        a->size = v[0];
        a->span_start = v[1];
        a->span_end = v[2];
        c->nallocs++;
        if (a->span_start > a->span_end || a->span_end > a->size || a->size > KD_CAPTURE_MAX_ALLOC_BYTES) {
            kd_diag_set(r->err, KD_MSG_CAPTURE_SPAN_BAD, KD_DIAG_NO_SIDE, KD_S(r->path), KD_U(i), KD_U(a->span_start),
                        KD_U(a->span_end), KD_U(a->size));
            return -1;
        }
        if (expect(r, "before", &rest) != 0 ||
            read_blob(r, rest, i, KD_CAPTURE_BEFORE, span_len(a), &a->blob[KD_CAPTURE_BEFORE]) != 0)
            return -1;
        if (next_line(&r->l) != 0)
            return expected(r, r->l.lineno + 1, i + 1 < nallocs ? "alloc" : "pointers");
        if (!line_is(&r->l, "after", &rest))
            r->l.again = 1;
        else if (read_blob(r, rest, i, KD_CAPTURE_AFTER, span_len(a), &a->blob[KD_CAPTURE_AFTER]) != 0)
            return -1;
    }
    if (expect(r, "pointers", &rest) != 0)
        return -1;
    if (nums(rest, 1, UINT64_MAX, v) != 0)
        return bad_line(r);
    if (over_cap(r->path, "pointers", v[0], c->param_size / 8, r->err))
        return -1;
    size_t npointers = v[0];
    c->pointers = kd_xcalloc(npointers + 1, sizeof *c->pointers);
    for (; c->npointers < npointers; c->npointers++) {
        if (expect_nums(r, "pointer", 3, UINT64_MAX, v) != 0)
            return -1;
        if (v[0] > UINT32_MAX || v[1] > UINT32_MAX)
            return bad_line(r);
        c->pointers[c->npointers] = (kd_capture_pointer){.word = (uint32_t)v[0], .alloc = (uint32_t)v[1], .offset = v[2]};
    }
    if (c->version >= 2 && next_line(&r->l) == 0) { /* the optional Triton section */
        if (line_is(&r->l, "triton", &rest)) {
            if (read_triton(r, rest, c) != 0)
                return -1;
        } else {
            r->l.again = 1;
        }
    }
    if (expect(r, "end", &rest) != 0)
        return -1;
    if (*rest)
        return bad_line(r);
    if (r->l.p != r->l.end) { /* anything after "end" */
        next_line(&r->l);
        return bad_line(r);
    }
    return validate(c, r->path, r->err);
}

int kd_capture_parse_manifest(const char *text, size_t len, uint64_t data_end, const char *path, kd_capture *cap,
                              kd_diag *err)
{
    memset(cap, 0, sizeof *cap);
    reader r = {.l = {.p = text, .end = text + len}, .path = path, .data_end = data_end, .err = err};
    int rc = 0;
    if (memchr(text, '\0', len)) {
        kd_diag_set(err, KD_MSG_CAPTURE_BAD_LINE, KD_DIAG_NO_SIDE, KD_S(path), KD_U(1), KD_S("(a NUL byte)"));
        rc = -1;
    } else {
        rc = parse(&r, cap);
    }
    kd_sb_free(&r.l.line);
    if (rc != 0)
        kd_capture_free(cap);
    return rc;
}

/* ---- opening a file -------------------------------------------------------------------- */

/* pread of exactly n bytes at off: 0, or -1 with errno (EIO-like 0 for a short read). */
static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
    size_t done = 0;
    while (done < n) {
        ssize_t got = pread(fd, (char *)buf + done, n - done, (off_t)(off + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            if (got == 0)
                errno = EIO;
            return -1;
        }
        done += (size_t)got;
    }
    return 0;
}

/* Opens path for reading, a regular file only (a FIFO is not waited on): fd, or -1 with *err. */
static int open_regular(const char *path, uint64_t *size, kd_diag *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        kd_diag_set(err, KD_MSG_CAPTURE_CANNOT_OPEN, KD_DIAG_NO_SIDE, KD_S(path), KD_S(strerror(errno)));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        kd_diag_set(err, KD_MSG_CAPTURE_NOT_REGULAR, KD_DIAG_NO_SIDE, KD_S(path));
        close(fd);
        return -1;
    }
    *size = (uint64_t)st.st_size;
    return fd;
}

static int cannot_read(const char *path, kd_diag *err)
{
    kd_diag_set(err, KD_MSG_CAPTURE_CANNOT_READ, KD_DIAG_NO_SIDE, KD_S(path), KD_S(strerror(errno)));
    return -1;
}

static int truncated(const char *path, uint64_t size, uint64_t need, kd_diag *err)
{
    kd_diag_set(err, KD_MSG_CAPTURE_TRUNCATED, KD_DIAG_NO_SIDE, KD_S(path), KD_U(size), KD_U(need));
    return -1;
}

/* The header's checks, in the order that names the real fault first: what the file is,
 * which version, whether it is whole, whether it is intact. */
static int read_header(int fd, const char *path, uint64_t size, header *h, kd_diag *err)
{
    unsigned char b[HEADER_SIZE];
    size_t have = size < HEADER_SIZE ? (size_t)size : HEADER_SIZE;
    if (read_at(fd, b, have, 0) != 0)
        return cannot_read(path, err);
    if (memcmp(b, MAGIC, have < 8 ? have : 8) != 0) {
        kd_diag_set(err, KD_MSG_CAPTURE_NOT_CAPTURE, KD_DIAG_NO_SIDE, KD_S(path));
        return -1;
    }
    if (have < 12)
        return truncated(path, size, HEADER_SIZE, err);
    h->version = get32(b + 8);
    if (h->version < KD_CAPTURE_VERSION_OLDEST || h->version > KD_CAPTURE_VERSION) {
        kd_diag_set(err, KD_MSG_CAPTURE_VERSION, KD_DIAG_NO_SIDE, KD_S(path), KD_U(h->version),
                    KD_U(KD_CAPTURE_VERSION));
        return -1;
    }
    if (have < HEADER_SIZE)
        return truncated(path, size, HEADER_SIZE, err);
    if (get32(b + 60) != crc_update(0, b, 60) || get32(b + 12) != HEADER_SIZE) {
        kd_diag_set(err, KD_MSG_CAPTURE_HEADER_CHECKSUM, KD_DIAG_NO_SIDE, KD_S(path));
        return -1;
    }
    h->manifest_offset = get64(b + 16);
    h->manifest_size = get64(b + 24);
    h->file_size = get64(b + 32);
    h->manifest_crc = get32(b + 40);
    if (size < h->file_size)
        return truncated(path, size, h->file_size, err);
    if (size > h->file_size) {
        kd_diag_set(err, KD_MSG_CAPTURE_TRAILING, KD_DIAG_NO_SIDE, KD_S(path), KD_U(size), KD_U(h->file_size));
        return -1;
    }
    if (h->manifest_offset < HEADER_SIZE || h->manifest_offset > size || h->manifest_size != size - h->manifest_offset ||
        h->manifest_size > KD_CAPTURE_MAX_MANIFEST) {
        kd_diag_set(err, KD_MSG_CAPTURE_MANIFEST_PLACE, KD_DIAG_NO_SIDE, KD_S(path), KD_U(h->manifest_offset),
                    KD_U(h->manifest_size));
        return -1;
    }
    return 0;
}

int kd_capture_open(const char *path, kd_capture *cap, kd_diag *err)
{
    memset(cap, 0, sizeof *cap);
    uint64_t size;
    int fd = open_regular(path, &size, err);
    if (fd < 0)
        return -1;
    header h;
    char *text = NULL;
    int rc = read_header(fd, path, size, &h, err);
    if (rc == 0) {
        text = kd_xmalloc((size_t)h.manifest_size + 1);
        if (read_at(fd, text, (size_t)h.manifest_size, h.manifest_offset) != 0)
            rc = cannot_read(path, err);
        else if (crc_update(0, text, (size_t)h.manifest_size) != h.manifest_crc) {
            kd_diag_set(err, KD_MSG_CAPTURE_MANIFEST_CHECKSUM, KD_DIAG_NO_SIDE, KD_S(path));
            rc = -1;
        } else {
            rc = kd_capture_parse_manifest(text, (size_t)h.manifest_size, h.manifest_offset, path, cap, err);
            if (rc == 0 && cap->version != h.version) { /* the manifest's own first line disagrees */
                kd_capture_free(cap);
                kd_diag_set(err, KD_MSG_CAPTURE_BAD_LINE, KD_DIAG_NO_SIDE, KD_S(path), KD_U(1),
                            KD_S(h.version == 1 ? "kerndiff-capture 2" : "kerndiff-capture 1"));
                rc = -1;
            }
        }
    }
    free(text);
    close(fd);
    if (rc != 0)
        return -1;
    cap->path = kd_xstrdup(path);
    cap->file_size = size;
    return 0;
}

/* ---- extracting contents --------------------------------------------------------------- */

/* Where extracted bytes go: 0, or -1 with errno. */
typedef int (*sink_fn)(void *ctx, const unsigned char *p, size_t n);

static int blob_error(const kd_capture *cap, int id, size_t alloc, int w, kd_diag *err)
{
    kd_diag_set(err, id, KD_DIAG_NO_SIDE, KD_S(cap->path), KD_U(alloc), KD_S(WHICH[w]));
    return -1;
}

/* The blob's stored bytes are read twice: once for their checksum (so a corrupt file is
 * said to be corrupt, not "cannot be decompressed"), once to inflate. The contents' own
 * checksum and size are checked at the end; the sink has then had every byte. */
static int stream_blob(const kd_capture *cap, size_t alloc, kd_capture_which which, sink_fn sink, void *ctx,
                       kd_diag *err)
{
    int w = which == KD_CAPTURE_AFTER;
    if (alloc >= cap->nallocs) {
        kd_diag_set(err, KD_MSG_CAPTURE_NO_ALLOC, KD_DIAG_NO_SIDE, KD_S(cap->path), KD_U(alloc), KD_U(cap->nallocs));
        return -1;
    }
    const kd_capture_alloc *a = &cap->allocs[alloc];
    const kd_capture_blob *b = &a->blob[w];
    if (!b->present) {
        kd_diag_set(err, KD_MSG_CAPTURE_NO_AFTER, KD_DIAG_NO_SIDE, KD_S(cap->path), KD_U(alloc));
        return -1;
    }
    uint64_t size;
    int fd = open_regular(cap->path, &size, err);
    if (fd < 0)
        return -1;
    if (size != cap->file_size) {
        close(fd);
        return truncated(cap->path, size, cap->file_size, err);
    }
    unsigned char *in = kd_xmalloc(CHUNK), *out = kd_xmalloc(CHUNK);
    int rc = 0;
    uint32_t crc = 0;
    for (uint64_t done = 0; rc == 0 && done < b->stored;) {
        size_t n = b->stored - done < CHUNK ? (size_t)(b->stored - done) : CHUNK;
        if (read_at(fd, in, n, b->offset + done) != 0)
            rc = cannot_read(cap->path, err);
        crc = crc_update(crc, in, n);
        done += n;
    }
    if (rc == 0 && crc != b->crc_stored)
        rc = blob_error(cap, KD_MSG_CAPTURE_BLOB_CHECKSUM, alloc, w, err);
    const uint64_t want = span_len(a);
    uint64_t made = 0;
    uint32_t crc_raw = 0;
    z_stream z = {0};
    int zinit = rc == 0 && b->compressed;
    if (zinit && inflateInit(&z) != Z_OK)
        kd_die_oom(0);
    int zr = Z_OK;
    for (uint64_t done = 0; rc == 0 && done < b->stored;) {
        size_t n = b->stored - done < CHUNK ? (size_t)(b->stored - done) : CHUNK;
        if (read_at(fd, in, n, b->offset + done) != 0) {
            rc = cannot_read(cap->path, err);
            break;
        }
        done += n;
        if (!b->compressed) {
            crc_raw = crc_update(crc_raw, in, n);
            made += n;
            if (sink(ctx, in, n) != 0)
                rc = -2;
            continue;
        }
        z.next_in = in;
        z.avail_in = (uInt)n;
        while (rc == 0 && z.avail_in > 0) {
            if (zr == Z_STREAM_END) { /* bytes after the stream's end */
                rc = -1;
                kd_diag_set(err, KD_MSG_CAPTURE_BLOB_INFLATE, KD_DIAG_NO_SIDE, KD_S(cap->path), KD_U(alloc),
                            KD_S(WHICH[w]), KD_S("data after the end of the stream"));
                break;
            }
            z.next_out = out;
            z.avail_out = (uInt)CHUNK;
            zr = inflate(&z, Z_NO_FLUSH);
            if (zr != Z_OK && zr != Z_STREAM_END) {
                kd_diag_set(err, KD_MSG_CAPTURE_BLOB_INFLATE, KD_DIAG_NO_SIDE, KD_S(cap->path), KD_U(alloc),
                            KD_S(WHICH[w]), KD_S(z.msg ? z.msg : zError(zr)));
                rc = -1;
                break;
            }
            size_t got = CHUNK - z.avail_out;
            made += got;
            if (made > want) {
                kd_diag_set(err, KD_MSG_CAPTURE_BLOB_SIZE, KD_DIAG_NO_SIDE, KD_S(cap->path), KD_U(alloc),
                            KD_S(WHICH[w]), KD_U(made), KD_U(want));
                rc = -1;
                break;
            }
            crc_raw = crc_update(crc_raw, out, got);
            if (got && sink(ctx, out, got) != 0)
                rc = -2;
        }
    }
    if (rc == 0 && b->compressed && zr != Z_STREAM_END) {
        kd_diag_set(err, KD_MSG_CAPTURE_BLOB_INFLATE, KD_DIAG_NO_SIDE, KD_S(cap->path), KD_U(alloc), KD_S(WHICH[w]),
                    KD_S("the stream ends early"));
        rc = -1;
    }
    if (rc == 0 && made != want) {
        kd_diag_set(err, KD_MSG_CAPTURE_BLOB_SIZE, KD_DIAG_NO_SIDE, KD_S(cap->path), KD_U(alloc), KD_S(WHICH[w]),
                    KD_U(made), KD_U(want));
        rc = -1;
    }
    if (rc == 0 && crc_raw != b->crc_raw)
        rc = blob_error(cap, KD_MSG_CAPTURE_BLOB_RAW_CHECKSUM, alloc, w, err);
    if (zinit)
        inflateEnd(&z);
    free(in);
    free(out);
    close(fd);
    return rc;
}

typedef struct fd_sink {
    int fd;
    uint64_t off;
    int write_errno; /* a failed write's errno, kept past the cleanup that follows it */
} fd_sink;

static int to_fd(void *ctx, const unsigned char *p, size_t n)
{
    fd_sink *s = ctx;
    if (kd_pwrite_all(s->fd, p, n, s->off) != 0) {
        s->write_errno = errno;
        return -1;
    }
    s->off += n;
    return 0;
}

int kd_capture_extract(const kd_capture *cap, size_t alloc, kd_capture_which which, const char *out_path,
                       kd_diag *err)
{
    /* Non-blocking: a FIFO without a reader is refused, not waited on. */
    int fd = open(out_path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        /* Never truncated, chmod'ed or removed: a device, a FIFO. */
        kd_diag_set(err, KD_MSG_CAPTURE_OUT_NOT_REGULAR, KD_DIAG_NO_SIDE, KD_S(out_path));
        close(fd);
        return -1;
    }
    if (fd < 0 || fchmod(fd, 0600) != 0 || ftruncate(fd, 0) != 0) {
        kd_diag_set(err, KD_MSG_CAPTURE_CANNOT_WRITE, KD_DIAG_NO_SIDE, KD_S(out_path), KD_S(strerror(errno)));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    fd_sink s = {fd, 0, 0};
    int rc = stream_blob(cap, alloc, which, to_fd, &s, err);
    int write_errno = s.write_errno;
    if (close(fd) != 0 && rc == 0) {
        write_errno = errno;
        rc = -2;
    }
    if (rc == -2)
        kd_diag_set(err, KD_MSG_CAPTURE_CANNOT_WRITE, KD_DIAG_NO_SIDE, KD_S(out_path), KD_S(strerror(write_errno)));
    if (rc != 0)
        unlink(out_path);
    return rc == 0 ? 0 : -1;
}

static int to_memory(void *ctx, const unsigned char *p, size_t n)
{
    kd_sb_append((kd_strbuf *)ctx, (const char *)p, n);
    return 0;
}

int kd_capture_read_contents(const kd_capture *cap, const kd_capture_read_request *req, unsigned char **data,
                             uint64_t *len, kd_diag *err)
{
    *data = NULL;
    *len = 0;
    size_t alloc = req->alloc;
    if (alloc < cap->nallocs && span_len(&cap->allocs[alloc]) > req->max_bytes) {
        kd_diag_set(err, KD_MSG_CAPTURE_TOO_BIG, KD_DIAG_NO_SIDE, KD_S(cap->path), KD_U(alloc),
                    KD_S(WHICH[req->which == KD_CAPTURE_AFTER]), KD_U(span_len(&cap->allocs[alloc])),
                    KD_U(req->max_bytes));
        return -1;
    }
    kd_strbuf sb = {0};
    if (stream_blob(cap, alloc, req->which, to_memory, &sb, err) != 0) {
        kd_sb_free(&sb);
        return -1;
    }
    *len = sb.len;
    *data = sb.len ? (unsigned char *)kd_sb_take(&sb) : NULL;
    kd_sb_free(&sb);
    return 0;
}

/* ---- writing a file -------------------------------------------------------------------- */

/* The file being written: its descriptor and where the next byte goes. */
typedef struct writer {
    int fd;
    uint64_t pos;
    const char *path; /* the temporary file, for messages: the final name */
    kd_diag *err;
} writer;

static int put_bytes(writer *w, const void *p, size_t n)
{
    if (kd_pwrite_all(w->fd, p, n, w->pos) != 0) {
        kd_diag_set(w->err, KD_MSG_CAPTURE_CANNOT_WRITE, KD_DIAG_NO_SIDE, KD_S(w->path), KD_S(strerror(errno)));
        return -1;
    }
    w->pos += n;
    return 0;
}

static int raw_cannot_read(const char *path, kd_diag *err)
{
    kd_diag_set(err, KD_MSG_CAPTURE_RAW_CANNOT_READ, KD_DIAG_NO_SIDE, KD_S(path), KD_S(strerror(errno)));
    return -1;
}

/* One raw contents file (len bytes) into the file at w->pos: deflated (level 1: a 1 GiB
 * working set must not take minutes), or as it is where deflate does not make it smaller. */
static int put_blob_file(writer *w, const char *raw_path, uint64_t len, kd_capture_blob *b)
{
    memset(b, 0, sizeof *b);
    b->present = 1;
    b->offset = w->pos;
    if (len == 0)
        return 0;
    int in = open(raw_path, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return raw_cannot_read(raw_path, w->err);
    unsigned char *buf = kd_xmalloc(CHUNK), *zout = kd_xmalloc(CHUNK);
    z_stream z = {0};
    if (deflateInit(&z, 1) != Z_OK)
        kd_die_oom(0);
    int rc = 0;
    uint64_t done = 0;
    while (rc == 0) {
        size_t n = len - done < CHUNK ? (size_t)(len - done) : CHUNK;
        if (n && read_at(in, buf, n, done) != 0) {
            rc = raw_cannot_read(raw_path, w->err);
            break;
        }
        done += n;
        b->crc_raw = crc_update(b->crc_raw, buf, n);
        z.next_in = buf;
        z.avail_in = (uInt)n;
        int flush = done == len ? Z_FINISH : Z_NO_FLUSH, zr;
        do {
            z.next_out = zout;
            z.avail_out = (uInt)CHUNK;
            zr = deflate(&z, flush);
            size_t got = CHUNK - z.avail_out;
            b->crc_stored = crc_update(b->crc_stored, zout, got);
            b->stored += got;
            if (got && put_bytes(w, zout, got) != 0)
                rc = -1;
        } while (rc == 0 && z.avail_out == 0);
        if (rc != 0 || zr == Z_STREAM_END)
            break;
    }
    deflateEnd(&z);
    b->compressed = 1;
    if (rc == 0 && b->stored >= len) { /* incompressible: the bytes as they are */
        w->pos = b->offset;
        b->compressed = 0;
        b->stored = len;
        b->crc_stored = b->crc_raw;
        for (done = 0; rc == 0 && done < len;) {
            size_t n = len - done < CHUNK ? (size_t)(len - done) : CHUNK;
            if (read_at(in, buf, n, done) != 0)
                rc = raw_cannot_read(raw_path, w->err);
            else
                rc = put_bytes(w, buf, n);
            done += n;
        }
    }
    free(buf);
    free(zout);
    close(in);
    return rc;
}

/* Whether two files hold the same len bytes (stops at the first difference). */
static int same_contents(const char *a, const char *b, uint64_t len)
{
    int fa = open(a, O_RDONLY | O_CLOEXEC), fb = open(b, O_RDONLY | O_CLOEXEC);
    int same = fa >= 0 && fb >= 0;
    unsigned char *ba = kd_xmalloc(CHUNK), *bb = kd_xmalloc(CHUNK);
    for (uint64_t done = 0; same && done < len;) {
        size_t n = len - done < CHUNK ? (size_t)(len - done) : CHUNK;
        same = read_at(fa, ba, n, done) == 0 && read_at(fb, bb, n, done) == 0 && memcmp(ba, bb, n) == 0;
        done += n;
    }
    free(ba);
    free(bb);
    if (fa >= 0)
        close(fa);
    if (fb >= 0)
        close(fb);
    return same;
}

/* ---- the raw folder (/work/briefs/s2/capture-raw.md; docs/CAPTURE.md) ------------------------ */

typedef struct raw {
    kd_capture c;
    const char *manifest; /* its path, for messages */
    int status;           /* 0 none, 1 captured, 2 not-found, 3 error */
    int ended;
    unsigned have;        /* the required lines seen, bits of REQUIRED */
    size_t params_told;   /* the count on the "params" line */
    size_t cap_allocs, cap_pointers;
    uint64_t graphs;
    kd_strbuf seen, errors;
} raw;

static const char *const REQUIRED[] = {"status", "time", "argv", "gpu", "sm", "kernel", "nth",
                                       "grid", "block", "shared", "params", "end"};
enum { NREQUIRED = sizeof REQUIRED / sizeof *REQUIRED };

static void saw(raw *r, const char *key)
{
    for (unsigned i = 0; i < NREQUIRED; i++)
        if (!strcmp(REQUIRED[i], key))
            r->have |= 1u << i;
}

static int raw_bad_line(raw *r, size_t lineno, const char *line, kd_diag *err)
{
    char *ex = line_excerpt(line);
    kd_diag_set(err, KD_MSG_CAPTURE_BAD_LINE, KD_DIAG_NO_SIDE, KD_S(r->manifest), KD_U(lineno), KD_S(ex));
    free(ex);
    return -1;
}

static int raw_dims(char *rest, uint32_t d[3])
{
    uint64_t v[3];
    if (nums(rest, 3, UINT32_MAX, v) != 0)
        return -1;
    for (int i = 0; i < 3; i++)
        d[i] = (uint32_t)v[i];
    return 0;
}

/* One line of the raw manifest (key already split off): 0, -1 for a bad line, or -2 with
 * *err set (a count over its cap). Unknown keys are left alone (a newer library). */
static int raw_line(raw *r, const char *key, char *rest, kd_diag *err)
{
    kd_capture *c = &r->c;
    uint64_t v[4];
    if (!strcmp(key, "status")) {
        r->status = !strcmp(rest, "captured") ? 1 : !strcmp(rest, "not-found") ? 2 : !strcmp(rest, "error") ? 3 : 0;
        return r->status ? 0 : -1;
    }
    if (!strcmp(key, "time"))
        return snum(rest, &c->time);
    if (!strcmp(key, "argv")) {
        if (over_cap(r->manifest, "argc", c->argc + 1, KD_CAPTURE_MAX_ARGS, err))
            return -2;
        c->argv = kd_xreallocarray(c->argv, c->argc + 2, sizeof *c->argv);
        c->argv[c->argc++] = kd_xstrdup(rest);
        c->argv[c->argc] = NULL;
        return 0;
    }
    char **str = !strcmp(key, "gpu") ? &c->gpu : !strcmp(key, "kernel") ? &c->kernel : !strcmp(key, "api") ? &c->api : NULL;
    if (str) {
        if (strlen(rest) > KD_CAPTURE_MAX_STRING)
            return -1;
        free(*str);
        *str = kd_xstrdup(rest);
        return 0;
    }
    if (!strcmp(key, "sm")) {
        if (nums(rest, 2, 1000, v) != 0 || v[1] > 9)
            return -1;
        c->sm = (uint32_t)(v[0] * 10 + v[1]);
        return 0;
    }
    if (!strcmp(key, "nth"))
        return nums(rest, 1, UINT64_MAX, &c->nth);
    if (!strcmp(key, "grid"))
        return raw_dims(rest, c->grid);
    if (!strcmp(key, "block"))
        return raw_dims(rest, c->block);
    if (!strcmp(key, "cluster"))
        return raw_dims(rest, c->cluster);
    if (!strcmp(key, "shared")) {
        if (nums(rest, 1, UINT32_MAX, v) != 0)
            return -1;
        c->smem = (uint32_t)v[0];
        return 0;
    }
    if (!strcmp(key, "params")) {
        if (c->params || nums(rest, 2, UINT64_MAX, v) != 0)
            return -1;
        if (over_cap(r->manifest, "params", v[0], KD_CAPTURE_MAX_PARAMS, err) ||
            over_cap(r->manifest, "parameter bytes", v[1], KD_CAPTURE_MAX_PARAM_BYTES, err))
            return -2;
        r->params_told = v[0];
        c->param_size = v[1];
        c->params = kd_xcalloc(v[0] + 1, sizeof *c->params);
        return 0;
    }
    if (!strcmp(key, "param")) {
        if (!c->params || c->nparams >= r->params_told || nums(rest, 3, UINT32_MAX, v) != 0 || v[0] != c->nparams)
            return -1;
        c->params[c->nparams++] = (kd_capture_param){.offset = (uint32_t)v[1], .size = (uint32_t)v[2]};
        return 0;
    }
    if (!strcmp(key, "alloc")) {
        char *tok[6];
        if (split(rest, tok, 6) != 5 || num(tok[0], UINT64_MAX, &v[0]) || v[0] != c->nallocs ||
            strncmp(tok[1], "0x", 2) != 0 || num(tok[2], UINT64_MAX, &v[1]) || num(tok[3], UINT64_MAX, &v[2]) ||
            num(tok[4], UINT64_MAX, &v[3]))
            return -1;
        if (over_cap(r->manifest, "allocs", c->nallocs + 1, KD_CAPTURE_MAX_ALLOCS, err))
            return -2;
        if (c->nallocs == r->cap_allocs) {
            r->cap_allocs = r->cap_allocs ? 2 * r->cap_allocs : 16;
            c->allocs = kd_xreallocarray(c->allocs, r->cap_allocs, sizeof *c->allocs);
        }
        c->allocs[c->nallocs++] = (kd_capture_alloc){.size = v[1], .span_start = v[2], .span_end = v[3]};
        return 0;
    }
    if (!strcmp(key, "pointer")) {
        if (nums(rest, 3, UINT64_MAX, v) != 0 || v[0] > UINT32_MAX || v[1] > UINT32_MAX)
            return -1;
        if (over_cap(r->manifest, "pointers", c->npointers + 1, c->param_size / 8, err))
            return -2;
        if (c->npointers == r->cap_pointers) {
            r->cap_pointers = r->cap_pointers ? 2 * r->cap_pointers : 16;
            c->pointers = kd_xreallocarray(c->pointers, r->cap_pointers, sizeof *c->pointers);
        }
        c->pointers[c->npointers++] = (kd_capture_pointer){.word = (uint32_t)v[0], .alloc = (uint32_t)v[1], .offset = v[2]};
        return 0;
    }
    if (!strcmp(key, "seen")) {
        char *sp = strchr(rest, ' ');
        if (!sp)
            return -1;
        *sp = '\0';
        if (num(rest, UINT64_MAX, &v[0]) != 0)
            return -1;
        kd_sb_printf(&r->seen, "%s%s (%" PRIu64 ")", r->seen.len ? ", " : "", sp + 1, v[0]);
        return 0;
    }
    if (!strcmp(key, "graphs"))
        return nums(rest, 1, UINT64_MAX, &r->graphs);
    if (!strcmp(key, "error")) {
        kd_sb_printf(&r->errors, "%s%s", r->errors.len ? "; " : "", rest);
        return 0;
    }
    if (!strcmp(key, "end")) {
        r->ended = 1;
        return *rest ? -1 : 0;
    }
    return 0; /* pid, stream, and what a newer library adds */
}

/* The raw folder's manifest read into r->c; what it says of a failed capture as *err. */
static int read_raw_manifest(const char *dir, raw *r, kd_diag *err)
{
    char *path = kd_xasprintf("%s/manifest", dir);
    r->manifest = path;
    struct stat st;
    if (stat(path, &st) != 0) {
        char *why_path = kd_xasprintf("%s/unavailable", dir);
        size_t len = 0;
        char *why = kd_read_file(why_path, &len);
        if (why) {
            why[strcspn(why, "\n")] = '\0';
            kd_diag_set(err, KD_MSG_CAPTURE_RAW_UNAVAILABLE, KD_DIAG_NO_SIDE, KD_S(dir), KD_S(why));
        } else {
            kd_diag_set(err, KD_MSG_CAPTURE_RAW_NO_MANIFEST, KD_DIAG_NO_SIDE, KD_S(dir));
        }
        free(why);
        free(why_path);
        return -1;
    }
    size_t len = 0;
    char *text = kd_read_file(path, &len);
    if (!text)
        return raw_cannot_read(path, err);
    lines l = {.p = text, .end = text + len};
    int rc = 0;
    if (memchr(text, '\0', len) || next_line(&l) != 0 || strcmp(l.line.data, "kerndiff-capture-raw 1") != 0) {
        char *first = line_excerpt(l.line.data && !memchr(text, '\0', len) ? l.line.data : "");
        kd_diag_set(err, KD_MSG_CAPTURE_RAW_VERSION, KD_DIAG_NO_SIDE, KD_S(path), KD_S(first));
        free(first);
        rc = -1;
    }
    while (rc == 0 && !r->ended && next_line(&l) == 0) {
        char *s = l.line.data, *sp = strchr(s, ' ');
        char *rest = sp ? sp + 1 : s + strlen(s);
        if (sp)
            *sp = '\0';
        saw(r, s);
        int lr = raw_line(r, s, rest, err);
        if (lr == -1) {
            if (sp)
                *sp = ' ';
            raw_bad_line(r, l.lineno, l.line.data, err);
        }
        rc = lr == 0 ? 0 : -1;
    }
    kd_sb_free(&l.line);
    free(text);
    if (rc != 0)
        return -1;
    /* A failed capture: what the library said. */
    if (r->status == 2) {
        /* The library's own diagnostics (no kernel name given, launches that went into a graph
         * being captured) say more than the graph count. */
        if (r->errors.len && r->seen.len)
            kd_diag_set(err, KD_MSG_CAPTURE_RAW_NOT_FOUND_SAID_SEEN, KD_DIAG_NO_SIDE, KD_S(dir), KD_U(r->c.nth),
                        KD_S(kd_sb_str(&r->errors)), KD_S(kd_sb_str(&r->seen)));
        else if (r->errors.len)
            kd_diag_set(err, KD_MSG_CAPTURE_RAW_NOT_FOUND_SAID, KD_DIAG_NO_SIDE, KD_S(dir), KD_U(r->c.nth),
                        KD_S(kd_sb_str(&r->errors)));
        else if (r->graphs)
            kd_diag_set(err, KD_MSG_CAPTURE_RAW_GRAPH, KD_DIAG_NO_SIDE, KD_S(dir), KD_U(r->c.nth), KD_U(r->graphs),
                        KD_S(kd_sb_str(&r->seen)));
        else if (r->seen.len)
            kd_diag_set(err, KD_MSG_CAPTURE_RAW_NOT_FOUND, KD_DIAG_NO_SIDE, KD_S(dir), KD_U(r->c.nth),
                        KD_S(kd_sb_str(&r->seen)));
        else
            kd_diag_set(err, KD_MSG_CAPTURE_RAW_NOT_FOUND_NONE, KD_DIAG_NO_SIDE, KD_S(dir), KD_U(r->c.nth));
        return -1;
    }
    if (r->status == 3) {
        kd_diag_set(err, KD_MSG_CAPTURE_RAW_ERROR, KD_DIAG_NO_SIDE, KD_S(dir), KD_S(kd_sb_str(&r->errors)));
        return -1;
    }
    for (unsigned i = 0; i < NREQUIRED; i++)
        if (!(r->have & 1u << i)) {
            kd_diag_set(err, KD_MSG_CAPTURE_RAW_MISSING, KD_DIAG_NO_SIDE, KD_S(path), KD_S(REQUIRED[i]));
            return -1;
        }
    if (r->c.nparams != r->params_told) {
        kd_diag_set(err, KD_MSG_CAPTURE_RAW_MISSING, KD_DIAG_NO_SIDE, KD_S(path), KD_S("param"));
        return -1;
    }
    return validate(&r->c, path, err);
}

/* A raw file that must hold exactly want bytes: 0, 1 when absent (and absence is allowed),
 * or -1 with *err. */
static int raw_file_size(const char *path, uint64_t want, int optional, kd_diag *err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (optional && errno == ENOENT)
            return 1;
        return raw_cannot_read(path, err);
    }
    if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != want) {
        kd_diag_set(err, KD_MSG_CAPTURE_RAW_BLOB_SIZE, KD_DIAG_NO_SIDE, KD_S(path), KD_U((uint64_t)st.st_size),
                    KD_U(want));
        return -1;
    }
    return 0;
}

/* The blobs, the manifest and the header into w's file. */
static int write_capture(writer *w, const char *dir, kd_capture *c)
{
    unsigned char head[HEADER_SIZE] = {0};
    if (put_bytes(w, head, HEADER_SIZE) != 0)
        return -1;
    for (size_t i = 0; i < c->nallocs; i++) {
        kd_capture_alloc *a = &c->allocs[i];
        char *before = kd_xasprintf("%s/alloc-%zu.before", dir, i), *after = kd_xasprintf("%s/alloc-%zu.after", dir, i);
        int rc = raw_file_size(before, span_len(a), 0, w->err);
        int has_after = rc == 0 ? raw_file_size(after, span_len(a), 1, w->err) : -1;
        if (rc == 0 && has_after >= 0)
            rc = put_blob_file(w, before, span_len(a), &a->blob[KD_CAPTURE_BEFORE]);
        else
            rc = -1;
        if (rc == 0 && has_after == 0) {
            /* An input the kernel only read: its "after" is its "before", stored once. */
            if (same_contents(before, after, span_len(a)))
                a->blob[KD_CAPTURE_AFTER] = a->blob[KD_CAPTURE_BEFORE];
            else
                rc = put_blob_file(w, after, span_len(a), &a->blob[KD_CAPTURE_AFTER]);
        }
        free(before);
        free(after);
        if (rc != 0)
            return -1;
    }
    kd_strbuf m = {0};
    manifest_text(c, &m);
    header h = {.version = c->triton ? 2 : 1, .manifest_offset = w->pos, .manifest_size = m.len,
                .manifest_crc = crc_update(0, m.data, m.len)};
    int rc = put_bytes(w, m.data, m.len);
    kd_sb_free(&m);
    if (rc != 0)
        return -1;
    h.file_size = w->pos;
    header_encode(&h, head);
    uint64_t end = w->pos;
    w->pos = 0;
    if (put_bytes(w, head, HEADER_SIZE) != 0)
        return -1;
    /* An incompressible blob rewritten shorter may have left bytes past the end. */
    if (ftruncate(w->fd, (off_t)end) != 0 || fsync(w->fd) != 0) {
        kd_diag_set(w->err, KD_MSG_CAPTURE_CANNOT_WRITE, KD_DIAG_NO_SIDE, KD_S(w->path), KD_S(strerror(errno)));
        return -1;
    }
    return 0;
}

/* The Triton section for the captured kernel: the last record of the raw folder's
 * triton.jsonl (one JSON object a line, written by the JIT hook `kerndiff capture` installs in
 * a Python program, app/capture_run.c) whose "kernel" is the kernel launched; NULL: none (no
 * Triton in the program, or another kernel). A line that is no such object is passed over. */
static char *triton_section(const char *raw_dir, const char *kernel)
{
    char *path = kd_xasprintf("%s/triton.jsonl", raw_dir);
    FILE *f = kernel ? fopen(path, "r") : NULL;
    free(path);
    char *found = NULL, *line = NULL;
    size_t cap = 0;
    while (f && getline(&line, &cap, f) > 0) {
        json_t *o = json_loads(line, 0, NULL);
        const char *name = json_string_value(json_object_get(o, "kernel"));
        if (json_is_object(o) && name && strcmp(name, kernel) == 0 &&
            json_integer_value(json_object_get(o, "section")) == KD_CAPTURE_TRITON_SECTION) {
            free(found);
            found = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
        }
        json_decref(o);
    }
    free(line);
    if (f)
        fclose(f);
    if (found && strlen(found) > KD_CAPTURE_MAX_STRING) { /* the reader's cap: never write what it refuses */
        free(found);
        found = NULL;
    }
    return found;
}

int kd_capture_pack(const char *raw_dir, const char *out_path, kd_diag *err)
{
    raw r = {0};
    int rc = read_raw_manifest(raw_dir, &r, err);
    kd_capture *c = &r.c;
    char *params_path = kd_xasprintf("%s/params.bin", raw_dir);
    if (rc == 0)
        rc = raw_file_size(params_path, c->param_size, 0, err);
    if (rc == 0) {
        c->param_data = kd_xmalloc(c->param_size + 1);
        int fd = open(params_path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || read_at(fd, c->param_data, c->param_size, 0) != 0)
            rc = raw_cannot_read(params_path, err);
        if (fd >= 0)
            close(fd);
    }
    free(params_path);
    struct stat st;
    if (rc == 0 && lstat(out_path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
        kd_diag_set(err, KD_MSG_CAPTURE_OUT_NOT_REGULAR, KD_DIAG_NO_SIDE, KD_S(out_path));
        rc = -1;
    }
    if (rc == 0) {
        if (!c->demangled)
            c->demangled = kd_demangle(c->kernel);
        if (!c->api)
            c->api = kd_xstrdup("");
        c->triton = triton_section(raw_dir, c->kernel);
        /* the section says how many trailing parameters are Triton's scratch: never more than there are */
        json_t *o = c->triton ? json_loads(c->triton, 0, NULL) : NULL;
        if (c->triton && (json_integer_value(json_object_get(o, "scratch_pointers")) < 0 ||
                          (size_t)json_integer_value(json_object_get(o, "scratch_pointers")) > c->nparams ||
                          !json_is_string(json_object_get(o, "specialization")))) {
            free(c->triton);
            c->triton = NULL;
        }
        json_decref(o);
        char *tmp = kd_xasprintf("%s.XXXXXX", out_path);
        /* removed if a signal ends kerndiff before the rename (util/output.h) */
        writer w = {.fd = kd_output_temp_make(tmp), .path = out_path, .err = err};
        if (w.fd < 0) {
            kd_diag_set(err, KD_MSG_CAPTURE_CANNOT_WRITE, KD_DIAG_NO_SIDE, KD_S(out_path), KD_S(strerror(errno)));
            rc = -1;
        } else {
            /* mkstemp makes it 0600 already; said again, for the record: it holds the user's data. */
            int said = 0;
            rc = fchmod(w.fd, 0600);
            if (rc == 0) {
                rc = write_capture(&w, raw_dir, c);
                said = rc != 0;
            }
            if (close(w.fd) != 0 && rc == 0)
                rc = -1;
            if (rc == 0 && rename(tmp, out_path) != 0)
                rc = -1;
            if (rc != 0 && !said)
                kd_diag_set(err, KD_MSG_CAPTURE_CANNOT_WRITE, KD_DIAG_NO_SIDE, KD_S(out_path), KD_S(strerror(errno)));
            if (rc != 0)
                unlink(tmp);
            kd_output_temp_done();
        }
        free(tmp);
    }
    kd_sb_free(&r.seen);
    kd_sb_free(&r.errors);
    free((char *)r.manifest);
    kd_capture_free(c);
    return rc;
}
