/* protocol.h — the line protocol between kerndiff and a harness child (one per side).
 *
 * kerndiff writes one command per line to the child's stdin; the child answers each with
 * exactly one line on stdout that starts with "ok " or "err ". Words are separated by
 * single spaces; values never contain spaces (paths are %-encoded: see kd_proto_encode).
 * The child's stderr is free text, kept for error reports.
 *
 *   hello 1                  -> ok hello version=1 device=<name> sm=90 sms=132 l2=<bytes> driver=13000 pci=<bus id>
 *   load cubin <path> <entry>   (the kernel, launched through the driver API)
 *   load launcher <path>        (a shared object exporting kerndiff_launch_v1, launcher.h)
 *                            -> ok load
 *   arg <i> buffer <dtype> <lanes> <count> <in|out>
 *   arg <i> scalar <dtype> <value>      (%.17g)
 *   arg <i> stream                      (a launcher's cudaStream_t: the harness's stream)
 *   geometry <gx> <gy> <gz> <bx> <by> <bz> <dynamic smem bytes>
 *   seed <u64>
 *   setup                    -> ok setup bytes=<device bytes>       (allocates, fills inputs)
 *   warmup <max ms>          -> ok warmup launches=<k> median_ns=<t>
 *   mode single | mode batched <launches per sample> | mode sustained <ms>   -> ok mode
 *   time <k>                 -> ok time clock0=<MHz> clock1=<MHz> reasons=<hex> throttled=<0|1> samples=<ns>,<ns>,...
 *   check <path>             -> ok check bytes=<n>   (poison outputs, restore inputs, run once,
 *                                                      write every output buffer, in order, raw)
 *   once                     -> ok once              (one launch inside cuProfilerStart/Stop)
 *   reset                    -> ok reset resets=<n>  (buffers and slots dropped: a new describe/setup)
 *   quit                     -> ok quit, then exit 0
 *
 * Errors: "err <kind> <message words...>" with kind one of protocol, cuda, alloc, load,
 * launch. After "err cuda" the child may exit: a sticky CUDA error poisons its context. */
#ifndef KD_HARNESS_PROTOCOL_H
#define KD_HARNESS_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

#define KD_PROTOCOL_VERSION 2
#define KD_PROTO_MAX_SLOTS 2   /* sides one child can hold: `side 0`, `side 1` */
#define KD_PROTO_MAX_WORDS 64
#define KD_PROTO_MAX_SUSTAINED_MS 60000 /* `mode sustained MS`: at most a minute of load */

typedef struct kd_words {
    char *word[KD_PROTO_MAX_WORDS];
    size_t count;
} kd_words;

/* Splits `line` in place at spaces (and strips the newline). */
void kd_proto_split(char *line, kd_words *w);

/* The value of "key=value" among words[from..], or NULL. */
const char *kd_proto_value(const kd_words *w, size_t from, const char *key);
/* A buffer's mode word of `arg I buffer ...`: "in" (seeded, not compared), "out" (seeded,
 * then poisoned; compared) or "inout" (seeded in both check runs; compared). Returns false
 * for any other word. */
bool kd_proto_buffer_mode(const char *word, bool *compared, bool *inout);

/* `audit SEED PATH`'s contents (docs/PROTOCOL.md), computed alike by every harness and by
 * kerndiff (which reads what a side left unchanged): buffer argument ARG of ELEMENTS (vector)
 * elements holds the run's contents rotated left by kd_audit_rotation elements; a buffer that
 * cannot rotate (0 from it: fewer than 2 elements) is seeded with kd_audit_seed(SEED, k), k
 * its index of docs/PROTOCOL.md's "Inputs". */
size_t kd_audit_rotation(unsigned long long seed, size_t arg, size_t elements);
/* A buffer of more bytes keeps the run's contents in an audit (its rotation would hold a second
 * copy). */
#define KD_AUDIT_MAX_BYTES (1ull << 30)
/* What `audit` reads back of a buffer of BYTES (ELEMENT bytes a (vector) element), computed
 * alike by every harness and by kerndiff: all of it up to KD_AUDIT_WHOLE_BYTES; of a larger
 * one, `count` chunks of `chunk` bytes (whole elements, about KD_AUDIT_CHUNK_BYTES), one in each
 * of KD_AUDIT_CHUNKS equal stretches of `pitch` bytes, `first` bytes into the first (drawn from
 * SEED, so the kernel cannot know which of its elements are read: the same places for both
 * sides' buffers of one size, so they compare). Reading back 256 KiB, not the buffer, makes an
 * audit's cost independent of the buffers' size (bench/audit_overhead.sh): a kernel that skips
 * its work, or caches by address, leaves nearly every element wrong, so nearly every chunk. */
#define KD_AUDIT_WHOLE_BYTES (256ull << 10)
#define KD_AUDIT_CHUNKS 256u
#define KD_AUDIT_CHUNK_BYTES 1024u
typedef struct kd_audit_sample {
    size_t first, pitch, chunk, count;
} kd_audit_sample;
kd_audit_sample kd_audit_sample_of(unsigned long long seed, size_t bytes, size_t element);
static inline size_t kd_audit_sample_bytes(const kd_audit_sample *s) { return s->chunk * s->count; }
unsigned long long kd_audit_seed(unsigned long long seed, size_t input_index);
/* `check`'s bounds guard (docs/PROTOCOL.md): every buffer is allocated with this many bytes
 * after its end, set to KD_BOUNDS_GUARD_BYTE before each run of `check` and read back after
 * it; a byte changed there is a write past the buffer's end (a launch whose sizes were
 * guessed wrong). At least 64 KiB, a quarter of the buffer up to 16 MiB: a kernel that
 * overruns by a row or a block lands in it; a wild write far beyond may not. */
size_t kd_bounds_guard_bytes(size_t bytes);
#define KD_BOUNDS_GUARD_BYTE 0xCB
/* %-encodes spaces, '%' and control bytes so a path is one word; decode reverses it in place.
 * Encode returns malloc'd text, NULL when out of memory (the harness uses it too, and keeps
 * its own replies rather than kerndiff's out-of-memory exit). */
char *kd_proto_encode(const char *s);
/* `mode single` (both 0), `mode batched B` (*batch = B > 0) or `mode sustained MS` (*sustained_ms
 * = MS, 1..KD_PROTO_MAX_SUSTAINED_MS): false for anything else. One parse for every harness. */
bool kd_proto_mode(const kd_words *w, unsigned *batch, unsigned *sustained_ms);
void kd_proto_decode(char *s);

#endif
