#include "regions/proton.h"

#include <stdio.h>
#include <string.h>

#include "regions/region_records.h"

static uint32_t u32_at(const unsigned char *p, size_t offset)
{
    uint32_t v;
    memcpy(&v, p + offset, sizeof v);
    return v;
}

static uint64_t u64_at(const unsigned char *p, size_t offset)
{
    uint64_t v;
    memcpy(&v, p + offset, sizeof v);
    return v;
}

/* The circular buffer's bytes B from a CTA's header, or 0 when the header is not Proton's
 * or B does not fit the CTA's share of the scratch. */
static uint32_t buffer_bytes(const unsigned char *cta, size_t cta_bytes, uint32_t warps)
{
    if (cta_bytes < KD_PROTON_HEADER_BYTES(warps) || u32_at(cta, 0) != KD_PROTON_PREAMBLE)
        return 0;
    uint32_t b = u32_at(cta, 12);
    return KD_PROTON_HEADER_BYTES(warps) + b <= cta_bytes ? b : 0;
}

uint32_t kd_proton_capacity(const unsigned char *scratch, size_t cta_bytes, uint32_t warps_per_cta, char *why,
                            size_t why_len)
{
    uint32_t b = warps_per_cta ? buffer_bytes(scratch, cta_bytes, warps_per_cta) : 0;
    uint32_t capacity = warps_per_cta ? b / warps_per_cta / 8 : 0;
    if (!b) {
        snprintf(why, why_len, "the profile scratch has no Proton header of %u warps in its first %zu bytes "
                 "(preamble 0x%08x): the kernel did not write it", warps_per_cta, cta_bytes,
                 cta_bytes >= 4 ? u32_at(scratch, 0) : 0);
        return 0;
    }
    if (!capacity || (capacity & (capacity - 1)) || (uint64_t)capacity * 8 * warps_per_cta != b) {
        snprintf(why, why_len, "Proton's buffer of %u bytes for %u warps is not a power of two of 8-byte records "
                 "per warp", b, warps_per_cta);
        return 0;
    }
    return capacity;
}

/* Proton's record as the file's: id + 1, the end bit, the 43-bit clock. */
static uint64_t file_record(uint32_t tag, uint32_t clock_low)
{
    uint64_t clock = (uint64_t)(tag & 0x7ffu) << 32 | clock_low;
    uint64_t id = ((tag >> 23) & 0xffu) + 1;
    return id << 57 | (uint64_t)(tag >> 31) << KD_REGION_CLOCK_BITS | clock;
}

int kd_proton_to_records(const kd_proton_scratch *in, uint32_t capacity, unsigned char *out, char *why,
                         size_t why_len)
{
    const unsigned char *scratch = in->data;
    size_t cta_bytes = in->cta_bytes;
    uint32_t ctas = in->ctas, warps_per_cta = in->warps_per_cta;
    size_t warps = (size_t)ctas * warps_per_cta;
    uint32_t *counts = (uint32_t *)out;
    uint64_t *headers = (uint64_t *)(out + 4 * warps), *records = headers + KD_REGION_HEADER_WORDS * warps;
    const uint32_t want = capacity * 8 * warps_per_cta;
    memset(out, 0, kd_region_launch_bytes((uint32_t)warps, capacity));
    for (uint32_t c = 0; c < ctas; c++) {
        const unsigned char *cta = scratch + (size_t)c * cta_bytes;
        uint32_t b = buffer_bytes(cta, cta_bytes, warps_per_cta);
        if (b != want) {
            snprintf(why, why_len, "CTA %u of the profile scratch has %s (the kernel did not write it, or wrote "
                     "another layout)", c, b ? "another buffer size than CTA 0" : "no Proton header");
            return -1;
        }
        const unsigned char *segments = cta + KD_PROTON_HEADER_BYTES(warps_per_cta);
        /* Proton records no clock at the CTA's start: its earliest kept record stands in. */
        uint64_t first_clock = UINT64_MAX;
        for (uint32_t w = 0; w < warps_per_cta; w++) {
            size_t slot = (size_t)c * warps_per_cta + w;
            uint32_t written = u32_at(cta, 40 + 4 * w) / 2;
            uint32_t kept = written < capacity ? written : capacity;
            const unsigned char *segment = segments + (size_t)w * capacity * 8;
            counts[slot] = written;
            for (uint32_t k = written - kept; k < written; k++) {
                size_t at = (size_t)(k % capacity) * 8;
                uint32_t tag = u32_at(segment, at);
                if (((tag >> 23) & 0xffu) + 1 > KD_REGION_MAX_ID) {
                    snprintf(why, why_len, "a Proton record names scope %u; at most %u scopes can be recorded",
                             (tag >> 23) & 0xffu, KD_REGION_MAX_ID);
                    return -1;
                }
                uint64_t r = file_record(tag, u32_at(segment, at + 4));
                records[slot * capacity + k % capacity] = r;
                if (kd_region_record_clock(r) < first_clock)
                    first_clock = kd_region_record_clock(r);
            }
        }
        uint64_t sm = u32_at(cta, 8), start_ns = u64_at(cta, 16);
        for (uint32_t w = 0; w < warps_per_cta; w++) {
            size_t slot = (size_t)c * warps_per_cta + w;
            uint64_t *header = headers + KD_REGION_HEADER_WORDS * slot; /* Proton records no end: left 0 */
            header[KD_REGION_HEADER_START_NS] = start_ns;
            header[KD_REGION_HEADER_START] = sm << 32 | (uint32_t)(first_clock == UINT64_MAX ? 0 : first_clock);
        }
    }
    return 0;
}
