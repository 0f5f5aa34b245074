/* fuzz_heat.c — libFuzzer target for the rank heat reader (rank/heat_json.c), what
 * `kerndiff rank --merge DIR` reads from each shard's file: any bytes must be refused with a
 * reason, or read into a heat that frees cleanly; a heat 0 of 1 (what a one-shard merge hands
 * on as it is) must also make a report (kd_rank_finish) without a crash or a read out of
 * bounds. The reader takes a path: the bytes are given as an in-memory file (memfd). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rank/rank.h"

static void check_heat(kd_rank_heat *h)
{
    if (h->heats == 0 || h->heat >= h->heats || !h->baseline)
        abort(); /* the reader refuses these */
    for (size_t i = 0; i < h->count; i++) {
        const kd_rank_entry *e = &h->entries[i];
        if (!e->name || !e->path || (e->ngpus && !e->gpus))
            abort();
        for (size_t g = 0; g < e->ngpus; g++)
            for (size_t k = 0; k < e->gpus[g].n; k++)
                if (!(e->gpus[g].base[k] > 0) || !(e->gpus[g].cand[k] > 0))
                    abort(); /* samples are positive */
    }
    if (h->heat == 0 && h->heats == 1) {
        kd_rank_opts o = {.top = 3, .confidence = 0.95, .min_effect_pct = 0};
        kd_rank_heat *heats[] = {h};
        kd_rank_result *r = kd_rank_finish(heats, 1, &o);
        if (!r || r->count > h->count)
            abort(); /* one row per candidate at most */
        kd_rank_result_free(r);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("heat", 0);
        if (fd < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    kd_rank_heat h;
    char *why = NULL;
    if (kd_rank_heat_read(path, &h, &why) == 0) {
        if (why)
            abort(); /* only a refusal says why */
        check_heat(&h);
        kd_rank_heat_free(&h);
    } else if (!why || !*why) {
        abort(); /* a refusal always says why */
    }
    free(why);
    return 0;
}
