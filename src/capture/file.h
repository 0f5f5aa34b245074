/* file.h — the capture file (issue 30 item 3; docs/CAPTURE.md is the format): one kernel
 * launch recorded in the user's own program — the program, the kernel, the GPU, the
 * geometry, the parameter buffer with its pointer words, and each allocation the pointers
 * reach, its contents before the launch and after it (the program's own result).
 *
 * Reader and writer live side by side in file.c, so the format has one definition. The
 * reader trusts nothing: magic, version, every size against the file's size, every
 * checksum, every pointer against the allocations, every count against a cap; a refusal
 * is a kd_diag (capture/capture_msgs.h ids, worded in report/words_app.c), never a crash.
 *
 *   kd_capture cap;  kd_diag err = {0};
 *   if (kd_capture_open(path, &cap, &err) != 0) { kd_diag_say(&err); ... }
 *   kd_capture_extract(&cap, 2, KD_CAPTURE_BEFORE, "/private/a2.bin", &err);  // fill 2 PATH
 *   kd_capture_free(&cap);
 *
 * The writer packs the raw folder the injection library leaves (the layout agreed in
 * /work/briefs/s2/capture-raw.md, documented in docs/CAPTURE.md): kd_capture_pack. */
#ifndef KD_CAPTURE_FILE_H
#define KD_CAPTURE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

/* The newest format this kerndiff reads and writes: 2 is 1 with an optional `triton` line (a
 * Triton launch's compiled kernel, issue 30). The writer writes 1 when there is no such section,
 * so a CUDA capture stays readable by every kerndiff that reads format 1. */
#define KD_CAPTURE_VERSION 2
#define KD_CAPTURE_VERSION_OLDEST 1
/* The Triton section's own version (its "section" key): a reader refuses others. */
#define KD_CAPTURE_TRITON_SECTION 1

/* Caps the reader holds a file to (a bigger count is refused, never allocated). */
#define KD_CAPTURE_MAX_ARGS 4096          /* the program's argv */
#define KD_CAPTURE_MAX_STRING 65536       /* one string's bytes (an argument, a kernel name) */
#define KD_CAPTURE_MAX_PARAMS 4096        /* parameters of the kernel */
#define KD_CAPTURE_MAX_PARAM_BYTES 32768  /* the parameter buffer (the driver's limit is 32764) */
#define KD_CAPTURE_MAX_ALLOCS 4096        /* allocations the pointers reach */
#define KD_CAPTURE_MAX_MANIFEST ((uint64_t)16 << 20)
#define KD_CAPTURE_MAX_ALLOC_BYTES ((uint64_t)1 << 44) /* 16 TiB: no GPU holds more */

typedef enum kd_capture_which { KD_CAPTURE_BEFORE = 0, KD_CAPTURE_AFTER = 1 } kd_capture_which;

/* Where one allocation's contents (before or after) lie in the file. */
typedef struct kd_capture_blob {
    int present;         /* 0: not recorded (an "after" the capture did not take) */
    int compressed;      /* 1: a zlib stream; 0: the bytes as they are */
    uint64_t offset;     /* in the file */
    uint64_t stored;     /* bytes in the file */
    uint32_t crc_stored; /* zlib crc32 of the stored bytes */
    uint32_t crc_raw;    /* zlib crc32 of the contents */
} kd_capture_blob;

/* One allocation a pointer word reaches. Its contents are the span [span_start, span_end)
 * of it (a pool, such as a caching allocator's segment, cut to what the launch can reach;
 * else the whole of it), so a blob holds span_end - span_start bytes. 0 bytes is legal. */
typedef struct kd_capture_alloc {
    uint64_t size;       /* the allocation's size (cuMemGetAddressRange) */
    uint64_t span_start; /* <= span_end <= size */
    uint64_t span_end;
    kd_capture_blob blob[2]; /* [KD_CAPTURE_BEFORE], [KD_CAPTURE_AFTER] */
} kd_capture_alloc;

/* A parameter as the driver lays it out (cuFuncGetParamInfo). */
typedef struct kd_capture_param {
    uint32_t offset, size; /* offset + size <= the parameter buffer's size */
} kd_capture_param;

/* An 8-byte-aligned word of the parameter buffer that held a device pointer: it pointed
 * `offset` bytes into allocation `alloc` (offset <= that allocation's size). A replay
 * writes (its copy of the allocation's span) + offset - span_start there. */
typedef struct kd_capture_pointer {
    uint32_t word;   /* byte offset of the word in the parameter buffer, a multiple of 8 */
    uint32_t alloc;  /* index into allocs */
    uint64_t offset; /* bytes from the allocation's start */
} kd_capture_pointer;

/* A capture, as read (kd_capture_open) or to be written. Strings are NUL-terminated and
 * may hold any other byte (an argument with a newline); they are the program's, so a
 * renderer passes them through report/untrusted. */
typedef struct kd_capture {
    char **argv; /* the program's command line */
    size_t argc;
    char *kernel;    /* mangled name (or the name, for a C kernel) */
    char *demangled; /* the demangled name ("void k<float>(float*, int)"); the name itself for a C kernel */
    char *api;       /* the launch call the driver saw ("cuLaunchKernelEx"); "" when unknown */
    uint64_t nth;    /* which launch of the kernel (1: the first) */
    int64_t time;    /* when, seconds since 1970 (UTC) */
    char *gpu;       /* the GPU's name */
    uint32_t sm;     /* compute capability * 10 + minor (90 for sm_90) */
    uint32_t grid[3], block[3], cluster[3]; /* cluster {0,0,0}: not a cluster launch */
    uint32_t smem;   /* dynamic shared memory, bytes */
    kd_capture_param *params;
    size_t nparams;
    unsigned char *param_data; /* the parameter buffer as the program passed it */
    size_t param_size;
    kd_capture_pointer *pointers; /* by increasing word */
    size_t npointers;
    kd_capture_alloc *allocs;
    size_t nallocs;
    /* Format 2: the Triton JIT's compiled kernel of this launch, a JSON object's text
     * (docs/CAPTURE.md "The Triton section"), or NULL: none (a CUDA kernel). */
    char *triton;
    uint32_t version; /* the format read (or written) */
    /* The reader's: the file it came from and that file's size. */
    char *path;
    uint64_t file_size;
} kd_capture;

/* Reads path's header and manifest and checks all of it but the contents' bytes (each is
 * checked when extracted: a 1 GiB capture opens without reading 1 GiB). 0, or -1 with
 * *err set (and *cap empty). */
int kd_capture_open(const char *path, kd_capture *cap, kd_diag *err);

/* Writes allocation `alloc`'s contents (which) — exactly span_end - span_start bytes — to
 * out_path (created with mode 0600; replaced if it exists), streaming (never holding the
 * whole of it), checking the stored checksum, the decompressed size and the contents'
 * checksum. On any failure out_path is removed, 0 or -1 with *err set. */
int kd_capture_extract(const kd_capture *cap, size_t alloc, kd_capture_which which, const char *out_path,
                       kd_diag *err);

/* Which contents kd_capture_read_contents reads, and the most bytes it accepts. */
typedef struct kd_capture_read_request {
    size_t alloc;
    kd_capture_which which;
    uint64_t max_bytes;
} kd_capture_read_request;

/* The same into memory, for small contents (tests, a comparison of a few elements): *data
 * malloc'd (NULL when 0 bytes), *len its size; refuses contents over req->max_bytes. */
int kd_capture_read_contents(const kd_capture *cap, const kd_capture_read_request *req, unsigned char **data,
                             uint64_t *len, kd_diag *err);

/* The manifest parser kd_capture_open runs once the header and the manifest's checksum
 * hold (exposed for the fuzz target): text[0..len) is the manifest, data_end the byte where
 * the contents' area ends (the manifest's offset). */
int kd_capture_parse_manifest(const char *text, size_t len, uint64_t data_end, const char *path, kd_capture *cap,
                              kd_diag *err);

/* How many trailing parameters of the captured launch are Triton's scratch pointers (its
 * Triton section's scratch_pointers); 0 without a section. */
size_t kd_capture_triton_scratch(const kd_capture *cap);

/* Total bytes of the captured contents (the spans, before), for the launch line. */
uint64_t kd_capture_data_bytes(const kd_capture *cap);

void kd_capture_free(kd_capture *cap);

/* Packs the injection library's raw folder (its text manifest and raw blob files) into the
 * capture file out_path: written with mode 0600 to a temporary name in out_path's folder
 * and renamed over it, so a failure leaves nothing behind. The caller has checked that
 * out_path is no input or source file (cli/outputs). Contents are zlib-compressed (stored
 * as they are where that is not smaller); an "after" equal to its "before" is stored once.
 * 0, or -1 with *err set (a raw folder that records a failed capture: its reason). */
int kd_capture_pack(const char *raw_dir, const char *out_path, kd_diag *err);

#endif
