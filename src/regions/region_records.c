#include "regions/region_records.h"

/* A device record's clock, counted from clock0 (wraps of the 32-bit clock undone). */
static uint64_t extended_clock(uint64_t device_record, uint32_t clock0)
{
    return (uint64_t)clock0 + (uint32_t)((uint32_t)device_record - clock0);
}

static uint64_t file_record(uint64_t device_record, uint32_t clock0)
{
    uint32_t tag = (uint32_t)(device_record >> 32); /* id << 1 | end */
    return (uint64_t)(tag >> 1) << 57 | (uint64_t)(tag & 1) << KD_REGION_CLOCK_BITS |
           extended_clock(device_record, clock0);
}

uint32_t kd_region_merge_streams(const uint64_t *const streams[2], const uint32_t counts[2], uint32_t capacity,
                                 uint32_t clock0, uint64_t *ring)
{
    uint32_t divergent = counts[0] & KD_REGION_DIVERGENT;
    uint32_t written[2] = {counts[0] & ~KD_REGION_DIVERGENT, counts[1]};
    /* Each stream's kept records, oldest first: record k of stream s at k % capacity. */
    uint32_t next[2], end[2];
    for (int s = 0; s < 2; s++) {
        end[s] = written[s];
        next[s] = written[s] > capacity ? written[s] - capacity : 0;
    }
    uint64_t total = (uint64_t)written[0] + written[1];
    uint64_t kept = (uint64_t)(end[0] - next[0]) + (end[1] - next[1]);
    /* Merge by clock, dropping the oldest beyond `capacity`; record j of the merged (total)
     * sequence goes to j % capacity, as the file's ring has it. */
    uint64_t index = total - kept;
    while (next[0] < end[0] || next[1] < end[1]) {
        int s;
        if (next[0] == end[0])
            s = 1;
        else if (next[1] == end[1])
            s = 0;
        else
            s = extended_clock(streams[1][next[1] % capacity], clock0) <
                        extended_clock(streams[0][next[0] % capacity], clock0)
                    ? 1
                    : 0;
        uint64_t r = streams[s][next[s]++ % capacity];
        if (total - index <= capacity)
            ring[index % capacity] = file_record(r, clock0);
        index++;
    }
    uint64_t count = total > ~KD_REGION_DIVERGENT ? ~KD_REGION_DIVERGENT : total;
    return (uint32_t)count | divergent;
}
