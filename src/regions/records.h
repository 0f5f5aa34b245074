/* records.h — the file the harness's `regions` command writes (docs/PROTOCOL.md) and what
 * the host reads from it: the record layout of include/kerndiff/regions.h, per launch.
 * The writer (harness/cuda_harness.c) and the reader (records.c) share these definitions.
 *
 *   header:   u32 magic "KDRG", u32 version (1), u32 warps, u32 capacity, u32 launches,
 *             u32 warps per block (warp w is warp w % this of block w / this)
 *   launches: u32 counts[warps], u64 headers[2 * warps], u64 records[warps * capacity]
 *
 * A record: bit 63..57 region id, bit 56 end (1) or begin (0), bits 55..0 %clock64. A
 * warp's header: %globaltimer at its first record, then %smid << 32 | the low 32 bits of
 * %clock64 at that record. Ring: record k of a warp sits at k % capacity; a warp that wrote
 * count > capacity records kept the newest `capacity`. */
#ifndef KD_REGIONS_RECORDS_H
#define KD_REGIONS_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#define KD_REGION_MAGIC 0x4752444bu /* "KDRG" little-endian */
#define KD_REGION_VERSION 1u
#define KD_REGION_CLOCK_BITS 56
#define KD_REGION_MAX_ID 127

typedef struct kd_region_file_header {
    uint32_t magic, version, warps, capacity, launches, warps_per_block;
} kd_region_file_header;

static inline unsigned kd_region_record_id(uint64_t r) { return (unsigned)(r >> 57); }
static inline int kd_region_record_is_end(uint64_t r) { return (int)((r >> KD_REGION_CLOCK_BITS) & 1); }
static inline uint64_t kd_region_record_clock(uint64_t r) { return r & ((1ull << KD_REGION_CLOCK_BITS) - 1); }

/* Bytes of one launch's block in the file. */
static inline size_t kd_region_launch_bytes(uint32_t warps, uint32_t capacity)
{
    return (size_t)warps * (4 + 16 + 8 * (size_t)capacity);
}

#endif
