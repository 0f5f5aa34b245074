/* capture/file.h: the capture file (issue 30 item 3, docs/CAPTURE.md). A raw folder as the
 * injection library leaves it (tests/fixtures/capture/raw-axpy, or one made here) packed,
 * read back and extracted byte for byte; and every way a file can be wrong refused with the
 * message that names it: each prefix, another version, a flipped byte in each part, a
 * pointer outside every allocation, counts over their caps. A 0-byte allocation is legal;
 * the file and what is extracted from it are mode 0600. */
#include "kd_test.h"
#include "kd_test_dir.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "capture/capture_msgs.h"
#include "capture/file.h"
#include "report/diag_text.h"
#include "util/fs.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

KD_TEST_DIR("capture")

static const char *fixture_dir(void)
{
    static char path[1024];
    const char *f = getenv("KD_FIXTURES");
    snprintf(path, sizeof path, "%s/capture/raw-axpy", f && *f ? f : "tests/fixtures");
    return path;
}

static char *in_dir(const char *name)
{
    return kd_path_join(dir, name);
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    kd_strbuf sb = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        kd_sb_append(&sb, buf, n);
    fclose(f);
    *len = sb.len;
    return (unsigned char *)kd_sb_take(&sb);
}

/* The error is the message expected, has words, and is worded with its count of values. */
static void assert_said(const kd_diag *err, int id)
{
    kd_strbuf text = {0};
    kd_diag_text(err, &text);
    if (err->id != id)
        fail_msg("expected message %d, got %d: %s", id, err->id, kd_sb_str(&text));
    assert_non_null(kd_wording_find(id));
    assert_null(strstr(kd_sb_str(&text), "internal"));
    kd_sb_free(&text);
}

/* A copy of the fixture's raw folder in dir/NAME, its manifest's text replaced by manifest
 * when non-NULL. */
static char *raw_copy(const char *name, const char *manifest)
{
    char *to = in_dir(name);
    assert_int_equal(kd_mkdir_p(to), 0);
    const char *files[] = {"manifest", "params.bin", "alloc-0.before", "alloc-0.after", "alloc-1.before",
                           "alloc-1.after"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *src = kd_path_join(fixture_dir(), files[i]), *dst = kd_path_join(to, files[i]);
        size_t len;
        unsigned char *data = slurp(src, &len);
        write_bytes(dst, data, len);
        free(data);
        free(src);
        free(dst);
    }
    if (manifest) {
        char *m = kd_path_join(to, "manifest");
        write_bytes(m, manifest, strlen(manifest));
        free(m);
    }
    return to;
}

/* The fixture's manifest with `from` replaced by `to` (once; it must be there). */
static char *fixture_manifest_with(const char *from, const char *to)
{
    char *m = kd_path_join(fixture_dir(), "manifest");
    size_t len;
    char *text = (char *)slurp(m, &len);
    free(m);
    text = kd_xrealloc(text, len + 1);
    text[len] = '\0';
    char *at = strstr(text, from);
    if (!at)
        fail_msg("'%s' not in the fixture's manifest", from);
    char *out = kd_xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    free(text);
    return out;
}

/* The fixture packed into dir/NAME. */
static char *packed(const char *name)
{
    char *out = in_dir(name);
    kd_diag err = {0};
    if (kd_capture_pack(fixture_dir(), out, &err) != 0) {
        kd_strbuf t = {0};
        kd_diag_text(&err, &t);
        fail_msg("pack: %s", kd_sb_str(&t));
    }
    return out;
}

static void assert_file_equals(const char *path, const char *raw_dir, const char *raw_name)
{
    char *want_path = kd_path_join(raw_dir, raw_name);
    size_t a, b;
    unsigned char *got = slurp(path, &a), *want = slurp(want_path, &b);
    assert_int_equal(a, b);
    assert_memory_equal(got, want, a);
    free(got);
    free(want);
    free(want_path);
}

static void round_trip(void **state)
{
    (void)state;
    char *path = packed("rt.kdcap");
    kd_capture cap;
    kd_diag err = {0};
    assert_int_equal(kd_capture_open(path, &cap, &err), 0);
    assert_int_equal(cap.argc, 3);
    assert_string_equal(cap.argv[0], "./prog");
    assert_string_equal(cap.argv[2], "an argument with spaces");
    assert_string_equal(cap.kernel, "_Z4axpyfPKfPfi");
    assert_string_equal(cap.demangled, "axpy(float, float const*, float*, int)");
    assert_string_equal(cap.api, "cuLaunchKernelEx");
    assert_string_equal(cap.gpu, "NVIDIA H100 80GB HBM3");
    assert_int_equal(cap.sm, 90);
    assert_int_equal(cap.nth, 2);
    assert_int_equal(cap.time, 1764086177);
    assert_int_equal(cap.grid[0], 1);
    assert_int_equal(cap.block[0], 256);
    assert_int_equal(cap.cluster[0], 0);
    assert_int_equal(cap.smem, 0);
    assert_int_equal(cap.nparams, 4);
    assert_int_equal(cap.params[3].offset, 24);
    assert_int_equal(cap.params[3].size, 4);
    assert_int_equal(cap.param_size, 28);
    size_t plen;
    char *pb = kd_path_join(fixture_dir(), "params.bin");
    unsigned char *pdata = slurp(pb, &plen);
    assert_int_equal(plen, cap.param_size);
    assert_memory_equal(pdata, cap.param_data, plen);
    free(pdata);
    free(pb);
    assert_int_equal(cap.npointers, 2);
    assert_int_equal(cap.pointers[1].word, 16);
    assert_int_equal(cap.pointers[1].alloc, 1);
    assert_int_equal(cap.nallocs, 2);
    assert_int_equal(kd_capture_data_bytes(&cap), 64);
    /* Allocation 0 is only read: its "after" is its "before", stored once. */
    assert_int_equal(cap.allocs[0].blob[KD_CAPTURE_AFTER].offset, cap.allocs[0].blob[KD_CAPTURE_BEFORE].offset);
    assert_int_not_equal(cap.allocs[1].blob[KD_CAPTURE_AFTER].offset, cap.allocs[1].blob[KD_CAPTURE_BEFORE].offset);
    const char *names[2][2] = {{"alloc-0.before", "alloc-0.after"}, {"alloc-1.before", "alloc-1.after"}};
    for (size_t a = 0; a < 2; a++)
        for (int w = 0; w < 2; w++) {
            char *out = in_dir("extracted");
            assert_int_equal(kd_capture_extract(&cap, a, (kd_capture_which)w, out, &err), 0);
            assert_file_equals(out, fixture_dir(), names[a][w]);
            struct stat st;
            assert_int_equal(stat(out, &st), 0);
            assert_int_equal(st.st_mode & 0777, 0600);
            unsigned char *mem;
            uint64_t len;
            assert_int_equal(kd_capture_read_contents(&cap, &(kd_capture_read_request){a, (kd_capture_which)w, 1 << 20}, &mem, &len, &err), 0);
            assert_int_equal(len, 32);
            free(mem);
            unlink(out);
            free(out);
        }
    /* Asked for what is not there. */
    char *out = in_dir("nothing");
    assert_int_not_equal(kd_capture_extract(&cap, 2, KD_CAPTURE_BEFORE, out, &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_NO_ALLOC);
    assert_int_not_equal(access(out, F_OK), 0);
    unsigned char *mem;
    uint64_t len;
    assert_int_not_equal(kd_capture_read_contents(&cap, &(kd_capture_read_request){1, KD_CAPTURE_AFTER, 8}, &mem, &len, &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_TOO_BIG);
    free(out);
    kd_diag_free(&err);
    kd_capture_free(&cap);
    free(path);
}

/* The committed v1 file (made by this writer when the format was fixed) still reads: a
 * change of format that forgets the version breaks here. */
static void committed_v1_file_reads(void **state)
{
    (void)state;
    char path[1024];
    const char *f = getenv("KD_FIXTURES");
    snprintf(path, sizeof path, "%s/capture/axpy-v1.kdcap", f && *f ? f : "tests/fixtures");
    kd_capture cap;
    kd_diag err = {0};
    assert_int_equal(kd_capture_open(path, &cap, &err), 0);
    assert_string_equal(cap.kernel, "_Z4axpyfPKfPfi");
    char *out = in_dir("v1.after");
    assert_int_equal(kd_capture_extract(&cap, 1, KD_CAPTURE_AFTER, out, &err), 0);
    assert_file_equals(out, fixture_dir(), "alloc-1.after");
    free(out);
    kd_capture_free(&cap);
}

static void files_are_0600(void **state)
{
    (void)state;
    mode_t old = umask(0);
    char *path = packed("mode.kdcap");
    umask(old);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    /* Written over an existing file of another mode: 0600 all the same, and no temporary left. */
    write_bytes(path, "old", 3);
    assert_int_equal(chmod(path, 0644), 0);
    free(packed("mode.kdcap"));
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    kd_capture cap;
    kd_diag err = {0};
    assert_int_equal(kd_capture_open(path, &cap, &err), 0);
    kd_capture_free(&cap);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "test $(ls %s | grep -c mode.kdcap) -eq 1", dir);
    assert_int_equal(system(cmd), 0);
    free(path);
}

static void every_prefix_is_refused(void **state)
{
    (void)state;
    char *path = packed("whole.kdcap");
    size_t len;
    unsigned char *data = slurp(path, &len);
    assert_true(len > 200);
    char *cut = in_dir("cut.kdcap");
    for (size_t n = 0; n < len; n++) {
        write_bytes(cut, data, n);
        kd_capture cap;
        kd_diag err = {0};
        assert_int_not_equal(kd_capture_open(cut, &cap, &err), 0);
        assert_said(&err, KD_MSG_CAPTURE_TRUNCATED);
        assert_int_equal(err.args[1].v.u, n); /* "truncated at byte N" */
        kd_diag_free(&err);
    }
    /* And one byte more is said too. */
    unsigned char *more = kd_xmalloc(len + 1);
    memcpy(more, data, len);
    more[len] = 0;
    write_bytes(cut, more, len + 1);
    kd_capture cap;
    kd_diag err = {0};
    assert_int_not_equal(kd_capture_open(cut, &cap, &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_TRAILING);
    kd_diag_free(&err);
    free(more);
    free(cut);
    free(data);
    free(path);
}

/* A copy of the file with one change, opened: the message it gives (0 when it opened). */
static int open_changed(const unsigned char *data, size_t len, size_t at, unsigned char value, kd_diag *err)
{
    unsigned char *copy = kd_xmalloc(len);
    memcpy(copy, data, len);
    copy[at] = value;
    char *p = in_dir("changed.kdcap");
    write_bytes(p, copy, len);
    kd_capture cap;
    int rc = kd_capture_open(p, &cap, err);
    if (rc == 0)
        kd_capture_free(&cap);
    free(copy);
    free(p);
    return rc == 0 ? 0 : err->id;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static void put_le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put_le64(unsigned char *p, uint64_t v)
{
    put_le32(p, (uint32_t)v);
    put_le32(p + 4, (uint32_t)(v >> 32));
}

static void wrong_version_and_magic(void **state)
{
    (void)state;
    char *path = packed("ver.kdcap");
    size_t len;
    unsigned char *data = slurp(path, &len);
    kd_diag err = {0};
    assert_int_equal(open_changed(data, len, 8, 3, &err), KD_MSG_CAPTURE_VERSION);
    assert_said(&err, KD_MSG_CAPTURE_VERSION);
    kd_strbuf text = {0};
    kd_diag_text(&err, &text);
    assert_non_null(strstr(kd_sb_str(&text), "capture format 3, this kerndiff reads formats up to 2"));
    kd_sb_free(&text);
    assert_int_equal(open_changed(data, len, 1, 'X', &err), KD_MSG_CAPTURE_NOT_CAPTURE);
    /* A header byte: its checksum. */
    assert_int_equal(open_changed(data, len, 50, 1, &err), KD_MSG_CAPTURE_HEADER_CHECKSUM);
    /* A manifest byte: the manifest's checksum. */
    uint64_t moff = le64(data + 16);
    for (uint64_t at = moff; at < len; at += 7)
        assert_int_equal(open_changed(data, len, at, data[at] ^ 0x20, &err), KD_MSG_CAPTURE_MANIFEST_CHECKSUM);
    kd_diag_free(&err);
    free(data);
    free(path);
}

/* Every byte of every blob flipped in turn: the file opens (the manifest is intact), the
 * blob's extraction says its checksum fails and leaves no output file. */
static void flipped_byte_in_each_blob(void **state)
{
    (void)state;
    char *path = packed("flip.kdcap");
    size_t len;
    unsigned char *data = slurp(path, &len);
    kd_capture cap;
    kd_diag err = {0};
    assert_int_equal(kd_capture_open(path, &cap, &err), 0);
    char *p = in_dir("flipped.kdcap"), *out = in_dir("flipped.out");
    size_t tried = 0;
    for (size_t a = 0; a < cap.nallocs; a++)
        for (int w = 0; w < 2; w++) {
            const kd_capture_blob *b = &cap.allocs[a].blob[w];
            for (uint64_t i = 0; i < b->stored; i++) {
                unsigned char *copy = kd_xmalloc(len);
                memcpy(copy, data, len);
                copy[b->offset + i] ^= 0x01;
                write_bytes(p, copy, len);
                free(copy);
                kd_capture flipped;
                assert_int_equal(kd_capture_open(p, &flipped, &err), 0);
                assert_int_not_equal(kd_capture_extract(&flipped, a, (kd_capture_which)w, out, &err), 0);
                assert_said(&err, KD_MSG_CAPTURE_BLOB_CHECKSUM);
                assert_int_equal(err.args[1].v.u, a);
                assert_string_equal(err.args[2].v.s, w ? "after" : "before");
                assert_int_not_equal(access(out, F_OK), 0);
                kd_capture_free(&flipped);
                tried++;
            }
        }
    assert_true(tried > 40);
    kd_diag_free(&err);
    kd_capture_free(&cap);
    free(p);
    free(out);
    free(data);
    free(path);
}

/* The packed file with its manifest's `from` replaced by `to`, every checksum and size made
 * right again: what only the manifest's own checks can refuse. */
static char *with_manifest_edit(const char *name, const char *from, const char *to)
{
    char *path = packed(name);
    size_t len;
    unsigned char *data = slurp(path, &len);
    uint64_t moff = le64(data + 16);
    kd_strbuf m = {0};
    kd_sb_append(&m, (const char *)data + moff, len - moff);
    char *at = strstr(m.data, from);
    if (!at)
        fail_msg("'%s' not in the manifest", from);
    kd_strbuf out = {0};
    kd_sb_append(&out, (const char *)data, moff);
    kd_sb_append(&out, m.data, (size_t)(at - m.data));
    kd_sb_puts(&out, to);
    kd_sb_puts(&out, at + strlen(from));
    unsigned char *o = (unsigned char *)out.data;
    uint64_t msize = out.len - moff;
    put_le64(o + 24, msize);
    put_le64(o + 32, out.len);
    put_le32(o + 40, (uint32_t)crc32(0, o + moff, (uInt)msize));
    put_le32(o + 60, (uint32_t)crc32(0, o, 60));
    write_bytes(path, out.data, out.len);
    kd_sb_free(&out);
    kd_sb_free(&m);
    free(data);
    return path;
}

static int open_edited(const char *from, const char *to, kd_diag *err)
{
    char *path = with_manifest_edit("edited.kdcap", from, to);
    kd_capture cap;
    int rc = kd_capture_open(path, &cap, err);
    if (rc == 0)
        kd_capture_free(&cap);
    free(path);
    return rc == 0 ? 0 : err->id;
}

static void manifest_checks(void **state)
{
    (void)state;
    kd_diag err = {0};
    /* The edit helper itself keeps a file readable. */
    assert_int_equal(open_edited("gpu NVIDIA", "gpu NVIDIA", &err), 0);
    /* Pointer outside every allocation; past its allocation's span; unaligned; twice. */
    assert_int_equal(open_edited("pointer 16 1 0", "pointer 16 2 0", &err), KD_MSG_CAPTURE_POINTER_NO_ALLOC);
    assert_said(&err, KD_MSG_CAPTURE_POINTER_NO_ALLOC);
    assert_int_equal(open_edited("pointer 16 1 0", "pointer 16 1 33", &err), KD_MSG_CAPTURE_POINTER_OUTSIDE);
    assert_said(&err, KD_MSG_CAPTURE_POINTER_OUTSIDE);
    assert_int_equal(open_edited("pointer 16 1 0", "pointer 16 1 32", &err), 0); /* one past the end: legal */
    assert_int_equal(open_edited("pointer 16 1 0", "pointer 12 1 0", &err), KD_MSG_CAPTURE_POINTER_BAD_WORD);
    assert_int_equal(open_edited("pointer 16 1 0", "pointer 8 1 0", &err), KD_MSG_CAPTURE_POINTER_BAD_WORD);
    assert_int_equal(open_edited("pointer 16 1 0", "pointer 24 1 0", &err), KD_MSG_CAPTURE_POINTER_BAD_WORD);
    /* A parameter past the buffer; a span past its allocation. */
    assert_int_equal(open_edited("param 24 4", "param 24 5", &err), KD_MSG_CAPTURE_PARAM_OUTSIDE);
    assert_said(&err, KD_MSG_CAPTURE_PARAM_OUTSIDE);
    assert_int_equal(open_edited("alloc 32 0 32", "alloc 31 0 32", &err), KD_MSG_CAPTURE_SPAN_BAD);
    assert_said(&err, KD_MSG_CAPTURE_SPAN_BAD);
    /* Counts over their caps are refused before anything is allocated for them. */
    assert_int_equal(open_edited("argc 3", "argc 99999999999", &err), KD_MSG_CAPTURE_OVER_CAP);
    assert_said(&err, KD_MSG_CAPTURE_OVER_CAP);
    assert_int_equal(open_edited("params 4 28", "params 4097 28", &err), KD_MSG_CAPTURE_OVER_CAP);
    assert_int_equal(open_edited("params 4 28", "params 4 40000", &err), KD_MSG_CAPTURE_OVER_CAP);
    assert_int_equal(open_edited("allocs 2", "allocs 18446744073709551615", &err), KD_MSG_CAPTURE_OVER_CAP);
    assert_int_equal(open_edited("pointers 2", "pointers 4", &err), KD_MSG_CAPTURE_OVER_CAP);
    assert_int_equal(open_edited("allocs 2", "allocs 18446744073709551616", &err), KD_MSG_CAPTURE_BAD_LINE);
    /* A blob placed outside the data, in the manifest or the header. */
    assert_int_equal(open_edited("before z 64 ", "before z 1 ", &err), KD_MSG_CAPTURE_BLOB_PLACE);
    assert_said(&err, KD_MSG_CAPTURE_BLOB_PLACE);
    /* Lines out of order, missing, or bad. */
    assert_int_equal(open_edited("kernel _Z", "kernal _Z", &err), KD_MSG_CAPTURE_EXPECTED);
    assert_said(&err, KD_MSG_CAPTURE_EXPECTED);
    assert_int_equal(open_edited("end\n", "", &err), KD_MSG_CAPTURE_EXPECTED);
    assert_int_equal(open_edited("end\n", "end\nmore\n", &err), KD_MSG_CAPTURE_BAD_LINE);
    assert_int_equal(open_edited("grid 1 1 1", "grid 1  1 1", &err), KD_MSG_CAPTURE_BAD_LINE);
    assert_int_equal(open_edited("grid 1 1 1", "grid 1 1 -1", &err), KD_MSG_CAPTURE_BAD_LINE);
    assert_int_equal(open_edited("grid 1 1 1", "grid 1 1 4294967296", &err), KD_MSG_CAPTURE_BAD_LINE);
    assert_int_equal(open_edited("arg ./prog", "arg ./p\\x00", &err), KD_MSG_CAPTURE_BAD_LINE);
    assert_int_equal(open_edited("arg ./prog", "arg ./p\\q", &err), KD_MSG_CAPTURE_BAD_LINE);
    assert_int_equal(open_edited("paramdata 0", "paramdata g", &err), KD_MSG_CAPTURE_BAD_LINE);
    assert_int_equal(open_edited("kerndiff-capture 1", "kerndiff-capture 2", &err), KD_MSG_CAPTURE_BAD_LINE);
    kd_diag_free(&err);
}

/* A raw folder made here: one 0-byte allocation, one big compressible one (an input: its
 * after equals its before), one incompressible one. */
static void zero_byte_and_big_allocations(void **state)
{
    (void)state;
    char *raw = in_dir("raw-made");
    assert_int_equal(kd_mkdir_p(raw), 0);
    const size_t big = 3u << 20, noise = 100000;
    unsigned char params[24] = {0};
    char *p;
    write_bytes(p = kd_path_join(raw, "params.bin"), params, sizeof params), free(p);
    write_bytes(p = kd_path_join(raw, "alloc-0.before"), "", 0), free(p);
    write_bytes(p = kd_path_join(raw, "alloc-0.after"), "", 0), free(p);
    unsigned char *b = kd_xmalloc(big);
    for (size_t i = 0; i < big; i++)
        b[i] = (unsigned char)(i / 4096);
    write_bytes(p = kd_path_join(raw, "alloc-1.before"), b, big), free(p);
    write_bytes(p = kd_path_join(raw, "alloc-1.after"), b, big), free(p);
    unsigned char *n = kd_xmalloc(noise);
    uint32_t x = 12345;
    for (size_t i = 0; i < noise; i++) {
        x = x * 1103515245u + 12345u;
        n[i] = (unsigned char)(x >> 24);
    }
    write_bytes(p = kd_path_join(raw, "alloc-2.before"), n, noise), free(p);
    n[7] ^= 0xff;
    write_bytes(p = kd_path_join(raw, "alloc-2.after"), n, noise), free(p);
    /* A pool: allocation 1 is 8 MiB, the launch reaches 3 MiB of it from 1 MiB on. */
    char *manifest = kd_xasprintf("kerndiff-capture-raw 1\nstatus captured\ntime 5\nargv prog\ngpu G\nsm 8 0\n"
                                  "kernel k\nnth 1\ngrid 1 1 1\nblock 1 1 1\nshared 0\nparams 3 24\n"
                                  "param 0 0 8\nparam 1 8 8\nparam 2 16 8\n"
                                  "alloc 0 0x1000 0 0 0\nalloc 1 0x2000 %zu %zu %zu\nalloc 2 0x3000 %zu 0 %zu\n"
                                  "pointer 0 0 0\npointer 8 1 %zu\npointer 16 2 %zu\nend\n",
                                  (size_t)8 << 20, (size_t)1 << 20, ((size_t)1 << 20) + big, noise, noise,
                                  (size_t)1 << 20, noise);
    write_bytes(p = kd_path_join(raw, "manifest"), manifest, strlen(manifest)), free(p);
    free(manifest);
    char *out = in_dir("made.kdcap");
    kd_diag err = {0};
    assert_int_equal(kd_capture_pack(raw, out, &err), 0);
    kd_capture cap;
    assert_int_equal(kd_capture_open(out, &cap, &err), 0);
    assert_string_equal(cap.demangled, "k");
    assert_int_equal(cap.nallocs, 3);
    assert_int_equal(cap.allocs[0].size, 0);
    unsigned char *mem;
    uint64_t len;
    assert_int_equal(kd_capture_read_contents(&cap, &(kd_capture_read_request){0, KD_CAPTURE_AFTER, 0}, &mem, &len, &err), 0);
    assert_int_equal(len, 0);
    assert_null(mem);
    char *ex = in_dir("zero.out");
    assert_int_equal(kd_capture_extract(&cap, 0, KD_CAPTURE_BEFORE, ex, &err), 0);
    struct stat st;
    assert_int_equal(stat(ex, &st), 0);
    assert_int_equal(st.st_size, 0);
    /* Compressed, stored once. */
    const kd_capture_alloc *a1 = &cap.allocs[1];
    assert_true(a1->blob[0].compressed);
    assert_true(a1->blob[0].stored < big / 20);
    assert_int_equal(a1->blob[1].offset, a1->blob[0].offset);
    assert_int_equal(kd_capture_extract(&cap, 1, KD_CAPTURE_AFTER, ex, &err), 0);
    size_t got_len;
    unsigned char *got = slurp(ex, &got_len);
    assert_int_equal(got_len, big);
    assert_memory_equal(got, b, big);
    free(got);
    /* Incompressible: stored as it is, its two versions apart. */
    const kd_capture_alloc *a2 = &cap.allocs[2];
    assert_false(a2->blob[0].compressed);
    assert_int_equal(a2->blob[0].stored, noise);
    assert_int_equal(kd_capture_read_contents(&cap, &(kd_capture_read_request){2, KD_CAPTURE_AFTER, noise}, &mem, &len, &err), 0);
    assert_int_equal(len, noise);
    assert_memory_equal(mem, n, noise);
    free(mem);
    /* The whole file is smaller than the contents it holds. */
    assert_int_equal(stat(out, &st), 0);
    assert_true((uint64_t)st.st_size < big / 10 + 2 * noise + 4096);
    /* A write that fails (a file-size limit stands in for a full disk): said, and nothing
     * partial left behind, neither the extracted file nor the capture or its temporary. */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old, small = {.rlim_cur = 65536};
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small.rlim_max = old.rlim_max;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    assert_int_not_equal(kd_capture_extract(&cap, 1, KD_CAPTURE_BEFORE, ex, &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_CANNOT_WRITE);
    assert_int_not_equal(access(ex, F_OK), 0);
    char *full = in_dir("full.kdcap");
    assert_int_not_equal(kd_capture_pack(raw, full, &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_CANNOT_WRITE);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls %s | grep full.kdcap)\"", dir);
    assert_int_equal(system(cmd), 0);
    /* Not into a device or a FIFO: refused, the device left alone. */
    assert_int_not_equal(kd_capture_extract(&cap, 1, KD_CAPTURE_BEFORE, "/dev/null", &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_OUT_NOT_REGULAR);
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_int_equal(st.st_mode & 0777, 0666);
    free(full);
    kd_diag_free(&err);
    kd_capture_free(&cap);
    free(ex);
    free(out);
    free(b);
    free(n);
    free(raw);
}

static int pack_raw(const char *manifest, kd_diag *err)
{
    char *raw = raw_copy("raw-bad", manifest);
    char *out = in_dir("bad.kdcap");
    int rc = kd_capture_pack(raw, out, err);
    if (rc != 0)
        assert_int_not_equal(access(out, F_OK), 0); /* nothing written */
    unlink(out);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls %s | grep bad.kdcap)\"", dir);
    assert_int_equal(system(cmd), 0); /* and no temporary left behind */
    kd_remove_tree(raw);
    free(raw);
    free(out);
    return rc == 0 ? 0 : err->id;
}

static int pack_edited(const char *from, const char *to, kd_diag *err)
{
    char *m = fixture_manifest_with(from, to);
    int rc = pack_raw(m, err);
    free(m);
    return rc;
}

static void raw_folder_checks(void **state)
{
    (void)state;
    kd_diag err = {0};
    assert_int_equal(pack_raw(NULL, &err), 0);
    /* What the library says of a failed capture. */
    assert_int_equal(pack_raw("kerndiff-capture-raw 1\nstatus not-found\nnth 3\nseen 2 _Z1av\nseen 1 b\nend\n", &err),
                     KD_MSG_CAPTURE_RAW_NOT_FOUND);
    assert_said(&err, KD_MSG_CAPTURE_RAW_NOT_FOUND);
    assert_string_equal(err.args[2].v.s, "_Z1av (2), b (1)");
    assert_int_equal(pack_raw("kerndiff-capture-raw 1\nstatus not-found\nnth 1\nend\n", &err),
                     KD_MSG_CAPTURE_RAW_NOT_FOUND_NONE);
    assert_int_equal(pack_raw("kerndiff-capture-raw 1\nstatus not-found\nnth 1\ngraphs 4\nend\n", &err),
                     KD_MSG_CAPTURE_RAW_GRAPH);
    assert_said(&err, KD_MSG_CAPTURE_RAW_GRAPH);
    assert_int_equal(pack_raw("kerndiff-capture-raw 1\nstatus not-found\nnth 1\nerror no kernel name\nend\n", &err),
                     KD_MSG_CAPTURE_RAW_NOT_FOUND_SAID);
    assert_said(&err, KD_MSG_CAPTURE_RAW_NOT_FOUND_SAID);
    assert_string_equal(err.args[2].v.s, "no kernel name");
    assert_int_equal(pack_raw("kerndiff-capture-raw 1\nstatus not-found\nnth 2\nseen 1 k\nerror 3 went to a graph\n"
                              "graphs 1\nend\n",
                              &err),
                     KD_MSG_CAPTURE_RAW_NOT_FOUND_SAID_SEEN);
    assert_said(&err, KD_MSG_CAPTURE_RAW_NOT_FOUND_SAID_SEEN);
    assert_string_equal(err.args[3].v.s, "k (1)");
    assert_int_equal(pack_raw("kerndiff-capture-raw 1\nstatus error\nerror over the cap\nerror copy failed\nend\n", &err),
                     KD_MSG_CAPTURE_RAW_ERROR);
    assert_string_equal(err.args[1].v.s, "over the cap; copy failed");
    assert_int_equal(pack_raw("kerndiff-capture-raw 2\n", &err), KD_MSG_CAPTURE_RAW_VERSION);
    assert_said(&err, KD_MSG_CAPTURE_RAW_VERSION);
    /* Pointer outside every allocation, past one's span; parameter outside the buffer. */
    assert_int_equal(pack_edited("pointer 16 1 0", "pointer 16 7 0", &err), KD_MSG_CAPTURE_POINTER_NO_ALLOC);
    assert_int_equal(pack_edited("pointer 16 1 0", "pointer 16 1 40", &err), KD_MSG_CAPTURE_POINTER_OUTSIDE);
    assert_int_equal(pack_edited("param 3 24 4", "param 3 26 4", &err), KD_MSG_CAPTURE_PARAM_OUTSIDE);
    /* Counts over caps, missing lines, bad lines, blob files of the wrong size. */
    assert_int_equal(pack_edited("params 4 28", "params 5000 28", &err), KD_MSG_CAPTURE_OVER_CAP);
    assert_int_equal(pack_edited("params 4 28", "params 4 99999", &err), KD_MSG_CAPTURE_OVER_CAP);
    assert_int_equal(pack_edited("grid 1 1 1\n", "", &err), KD_MSG_CAPTURE_RAW_MISSING);
    assert_said(&err, KD_MSG_CAPTURE_RAW_MISSING);
    assert_int_equal(pack_edited("param 3 24 4\n", "", &err), KD_MSG_CAPTURE_RAW_MISSING);
    assert_int_equal(pack_edited("end\n", "", &err), KD_MSG_CAPTURE_RAW_MISSING);
    assert_int_equal(pack_edited("grid 1 1 1", "grid 1 x 1", &err), KD_MSG_CAPTURE_BAD_LINE);
    assert_int_equal(pack_edited("param 1 8 8", "param 2 8 8", &err), KD_MSG_CAPTURE_BAD_LINE);
    assert_int_equal(pack_edited("alloc 1 0x7f0000100000 32 0 32", "alloc 1 0x7f0000100000 64 0 64", &err),
                     KD_MSG_CAPTURE_RAW_BLOB_SIZE);
    assert_said(&err, KD_MSG_CAPTURE_RAW_BLOB_SIZE);
    assert_int_equal(pack_edited("params 4 28", "params 4 32", &err), KD_MSG_CAPTURE_RAW_BLOB_SIZE);
    /* Unknown lines (a newer library's) are passed over. */
    assert_int_equal(pack_edited("pid 4242", "pid 4242\nnewthing 1 2 3", &err), 0);
    /* No manifest: the library did not run, or said why. */
    char *empty = in_dir("raw-empty");
    assert_int_equal(kd_mkdir_p(empty), 0);
    char *out = in_dir("never.kdcap");
    assert_int_not_equal(kd_capture_pack(empty, out, &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_RAW_NO_MANIFEST);
    char *why = kd_path_join(empty, "unavailable");
    write_bytes(why, "CUPTI not found\n", 16);
    assert_int_not_equal(kd_capture_pack(empty, out, &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_RAW_UNAVAILABLE);
    assert_string_equal(err.args[1].v.s, "CUPTI not found");
    /* Not over a folder or a device. */
    assert_int_not_equal(kd_capture_pack(fixture_dir(), dir, &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_OUT_NOT_REGULAR);
    assert_int_not_equal(kd_capture_pack(fixture_dir(), "/dev/null", &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_OUT_NOT_REGULAR);
    free(why);
    free(out);
    free(empty);
    kd_diag_free(&err);
}

static void not_a_file(void **state)
{
    (void)state;
    kd_capture cap;
    kd_diag err = {0};
    char *missing = in_dir("missing.kdcap");
    assert_int_not_equal(kd_capture_open(missing, &cap, &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_CANNOT_OPEN);
    assert_int_not_equal(kd_capture_open(dir, &cap, &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_NOT_REGULAR);
    char *fifo = in_dir("fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_not_equal(kd_capture_open(fifo, &cap, &err), 0); /* and does not block */
    assert_said(&err, KD_MSG_CAPTURE_NOT_REGULAR);
    char *text = in_dir("text.kdcap");
    write_bytes(text, "hello world, not a capture at all, no no no no no no no no no no no no no no no", 80);
    assert_int_not_equal(kd_capture_open(text, &cap, &err), 0);
    assert_said(&err, KD_MSG_CAPTURE_NOT_CAPTURE);
    free(text);
    free(fifo);
    free(missing);
    kd_diag_free(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
        cmocka_unit_test(committed_v1_file_reads),
        cmocka_unit_test(files_are_0600),
        cmocka_unit_test(every_prefix_is_refused),
        cmocka_unit_test(wrong_version_and_magic),
        cmocka_unit_test(flipped_byte_in_each_blob),
        cmocka_unit_test(manifest_checks),
        cmocka_unit_test(zero_byte_and_big_allocations),
        cmocka_unit_test(raw_folder_checks),
        cmocka_unit_test(not_a_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
