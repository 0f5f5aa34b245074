/* proton.h — Proton's profile scratch buffer (Triton 3.5+, `triton.profiler.language`
 * scopes) as kerndiff's region record file (records.h), so that a Triton side's regions
 * are read, tabled and traced like CUDA C's. The layout (docs/ARCHITECTURE.md, "Triton
 * sides"), per CTA at cta * cta_bytes:
 *
 *   u32 0xdeadbeef, u32 CTA id, u32 %smid, u32 B (circular buffer bytes, all warps),
 *   u64 %globaltimer at start, before and after the copy-out,
 *   u32 words[warps] (32-bit words each warp wrote, not capped),
 *   then each warp's segment of B / warps bytes: 8-byte records, record k at k % capacity.
 *   A record: word 0 bit 31 end, bits 30..23 scope id, bits 10..0 the clock's bits 42..32;
 *   word 1 the clock's low 32 bits.
 *
 * Region id = scope id + 1. Pure functions over bytes: the harness calls them after each
 * launch, the unit tests over buffers they build. */
#ifndef KD_REGIONS_PROTON_H
#define KD_REGIONS_PROTON_H

#include <stddef.h>
#include <stdint.h>

#define KD_PROTON_PREAMBLE 0xdeadbeefu
#define KD_PROTON_HEADER_BYTES(warps) (40 + 4 * (size_t)(warps))

/* The records each warp's segment holds, from the first CTA's header: a power of two, or
 * 0 with what is wrong in why (no preamble, a buffer that does not fit cta_bytes, a
 * segment that is not a power of two of records). */
uint32_t kd_proton_capacity(const unsigned char *scratch, size_t cta_bytes, uint32_t warps_per_cta, char *why,
                            size_t why_len);

/* One launch's scratch (in: `ctas` CTAs of `cta_bytes`) as the record file's launch block (records.h:
 * counts, headers, records of ctas * warps_per_cta warps with `capacity` records each) into
 * out, of kd_region_launch_bytes(ctas * warps_per_cta, capacity) bytes (all written). A warp's
 * header: the CTA's start %globaltimer; its SM, and as clock the CTA's earliest kept record
 * (Proton records no clock at the start). Returns 0, or -1
 * with what is wrong in why (a CTA without its preamble or with another buffer size, a
 * scope id beyond the record file's ids). */
typedef struct kd_proton_scratch {
    const unsigned char *data; /* the launch's profile scratch, CTA after CTA */
    size_t cta_bytes;          /* each CTA's part */
    uint32_t ctas, warps_per_cta;
} kd_proton_scratch;
int kd_proton_to_records(const kd_proton_scratch *in, uint32_t capacity, unsigned char *out, char *why,
                         size_t why_len);

#endif
