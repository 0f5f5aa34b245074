/* report.h — compute-sanitizer's log, read into findings (the format as recorded on an
 * H100 with compute-sanitizer 2025.3.1: tests/fixtures/sanitizer), and a finding explained
 * in the user's terms: which buffer and element an address is, given where the harness put
 * each buffer (the `buffers` reply). Identical findings from many threads are one finding
 * with a count. */
#ifndef KD_SANITIZER_REPORT_H
#define KD_SANITIZER_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include "launch/spec.h"
#include "util/strbuf.h"

typedef enum kd_san_kind {
    KD_SAN_INVALID_ACCESS,  /* memcheck: "Invalid __global__ write of size 4 bytes" */
    KD_SAN_UNINITIALIZED,   /* initcheck: "Uninitialized __global__ memory read of size 4 bytes" */
    KD_SAN_RACE,            /* racecheck: "Race reported between Write access at ... and Read access at ..." */
    KD_SAN_BARRIER,         /* synccheck: "Barrier error detected. ..." */
    KD_SAN_OTHER,           /* any other "=========" error block */
} kd_san_kind;

typedef struct kd_san_finding {
    kd_san_kind kind;
    char title[160];          /* the first line, as the sanitizer wrote it */
    char space[16];           /* "global", "shared", "local" or "" */
    char access[16];          /* "read", "write" ... or "" */
    unsigned size;            /* bytes accessed, 0 if not said */
    char function[128];       /* the kernel or device function */
    char file[160];           /* source file (with -lineinfo), "" if not said */
    unsigned line;
    char other[200];          /* racecheck: the other access, "Read access at f+0x150 in file:29" */
    bool has_thread;
    unsigned thread[3], block[3];
    bool has_address;
    unsigned long long address;
    bool has_nearest;         /* "and is N bytes after/before the nearest allocation at A of size S" */
    long long offset;         /* N, negative when before */
    unsigned long long nearest, nearest_size;
    unsigned long long count; /* how many times it was reported (threads, hazards) */
    /* The launch's dynamic shared memory (kd_san_note_launch), for the hint: a kernel with
     * extern __shared__ memory that faults most likely needs a larger --smem. */
    bool dynamic_shared, smem_assumed;
    unsigned long long smem_bytes;
} kd_san_finding;

typedef struct kd_san_report {
    kd_san_finding *findings;
    size_t count;
    unsigned long long errors;   /* the ERROR SUMMARY (or racecheck's errors) */
    bool summary_seen;           /* the log ended normally */
} kd_san_report;

/* Parses a log. Unknown lines are ignored. A function is named as the kernel's source
 * does ("reduce0<float>" of "void reduce0<float>(float*, float*, unsigned int)+0x1b0"). */
void kd_san_parse(const char *log, kd_san_report *out);
/* Records on every finding what the launch it came from did with dynamic shared memory. */
void kd_san_note_launch(kd_san_report *r, const kd_launch_spec *spec);
void kd_san_report_free(kd_san_report *r);

/* One buffer of a side, where the harness put it. */
typedef struct kd_san_buffer {
    const kd_launch_arg *arg;
    unsigned long long address, bytes;
} kd_san_buffer;

/* Reads the harness's `buffers` reply value ("I:0xADDR:BYTES,...") against the side's spec,
 * whose argument 0 is the harness's argument `first`: 0 for a described launch; for a launch
 * replayed from a capture (launch/replay.h) the capture's parameter count P, since the harness
 * holds its P parameters first and its allocations as arguments P+J after them
 * (docs/PROTOCOL.md "Replayed launches") while the spec holds only the J buffers. Entries
 * outside the spec are dropped. Returns the count (at most `room`). */
size_t kd_san_buffers(const char *list, const kd_launch_spec *spec, size_t first, kd_san_buffer *out, size_t room);

/* Where a global-memory access landed (data; report/sanitizer_explain.c words it): the
 * buffer the address is in or overran (NULL: none, or not a global access with an address),
 * the element index in that buffer's type (negative: before its start; >= elements: past its
 * end) and the buffer's element count. */
typedef struct kd_san_place {
    const kd_san_buffer *buffer;
    long long element;
    unsigned long long elements;
} kd_san_place;
kd_san_place kd_san_locate(const kd_san_finding *f, const kd_san_buffer *buffers, size_t nbuffers);

/* "thread (255,0,0) of block (3,0,0) wrote 4 bytes at out[1024], one past its end (1024
 * elements), at file.cu:12 (in oob_write); the launch probably needs --n, --buf out=... or
 * --grid". For a kernel with dynamic shared memory the hint names --smem first.
 * Its words are report/'s (defined in report/sanitizer_explain.c); declared here while a
 * caller below report/ (diff/passes.c, the fault's explanation) still words a finding. */
void kd_san_explain(const kd_san_finding *f, const kd_san_buffer *buffers, size_t nbuffers, kd_strbuf *out);

#endif
