/* records.h — the file the harness's `regions` command writes (docs/PROTOCOL.md) and what
 * the host reads from it: the record layout of include/kerndiff/regions.h, per launch.
 * The writer (harness/cuda_harness.c) and the reader (records.c) share these definitions.
 *
 *   header:   u32 magic "KDRG", u32 version (3), u32 warps, u32 capacity, u32 launches,
 *             u32 warps per block, u32 block stride, u32 blocks: one block in `stride`
 *             recorded (those whose index is a multiple of it), so file warp w is warp
 *             w % (warps per block) of block (w / warps per block) * stride; `blocks` is the
 *             grid's, recorded or not
 *   launches: u32 counts[warps], u64 headers[4 * warps], u64 records[warps * capacity]
 *
 * A record: bit 63..57 region id, bit 56 end (1) or begin (0), bits 55..0 the SM clock. A
 * warp's header, four words: %globaltimer at its start; a word of the low 32 bits of the
 * clock there, %smid in bits 32..47, and from KD_REGION_GROUP the warp's group id in bits
 * 48..55 (0: none) and its group's warps in bits 56..63; %globaltimer when its kernel
 * context ended, and the low 32 bits of the clock there (both 0 when unknown: a Proton side,
 * a warp with no kernel context). Start and end place a warp on the time axis and measure
 * the SM clock of that very launch. Ring: record k of a warp sits at k % capacity; a warp that
 * wrote count > capacity records kept the newest `capacity`. A count with bit 31 set (KD_REGION_DIVERGENT) marks a
 * warp whose lanes recorded differently: its records are not to be read.
 *
 * On the GPU (include/kerndiff/regions.h) each warp writes two streams of compact records
 * (its kernel context's and the fallback's: 32-bit %clock, id << 1 | end); the harness
 * merges them into this file's ring with kd_region_merge_streams. */
#ifndef KD_REGIONS_RECORDS_H
#define KD_REGIONS_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#define KD_REGION_MAGIC 0x4752444bu /* "KDRG" little-endian */
#define KD_REGION_VERSION 3u
#define KD_REGION_CLOCK_BITS 56
#define KD_REGION_MAX_ID 127
#define KD_REGION_DIVERGENT 0x80000000u

typedef struct kd_region_file_header {
    uint32_t magic, version, warps, capacity, launches, warps_per_block, block_stride, blocks;
} kd_region_file_header;

static inline unsigned kd_region_record_id(uint64_t r) { return (unsigned)(r >> 57); }
static inline int kd_region_record_is_end(uint64_t r) { return (int)((r >> KD_REGION_CLOCK_BITS) & 1); }
static inline uint64_t kd_region_record_clock(uint64_t r) { return r & ((1ull << KD_REGION_CLOCK_BITS) - 1); }

/* The words of a warp's header. */
enum { KD_REGION_HEADER_START_NS, KD_REGION_HEADER_START, KD_REGION_HEADER_END_NS, KD_REGION_HEADER_END_CLOCK,
       KD_REGION_HEADER_WORDS };

static inline unsigned kd_region_header_sm(uint64_t word) { return (unsigned)(word >> 32 & 0xffff); }
static inline unsigned kd_region_header_group(uint64_t word) { return (unsigned)(word >> 48 & 0xff); }
static inline unsigned kd_region_header_group_warps(uint64_t word) { return (unsigned)(word >> 56); }

/* Bytes of one launch's block in the file. */
static inline size_t kd_region_launch_bytes(uint32_t warps, uint32_t capacity)
{
    return (size_t)warps * (4 + 8 * KD_REGION_HEADER_WORDS + 8 * (size_t)capacity);
}

/* One warp's device streams as the file's ring. `streams[s]` is stream s's ring of
 * `capacity` device records (clock | (id << 1 | end) << 32) of which it wrote counts[s];
 * clock0 is the warp's header clock (low 32 bits). Writes the newest `capacity` records of
 * both streams, in clock order, into ring[] (file records, clocks extended from 32 bits
 * counting from clock0, so spans up to 2^32 cycles are exact) and returns the file's count
 * for the warp (counts[0] + counts[1], with KD_REGION_DIVERGENT kept). */
uint32_t kd_region_merge_streams(const uint64_t *const streams[2], const uint32_t counts[2], uint32_t capacity,
                                 uint32_t clock0, uint64_t *ring);

#endif
