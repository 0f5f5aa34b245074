/* fuzz_hotspots.c — libFuzzer target for the hot-spot record reader (hotspots/profile.c,
 * docs/HOTSPOTS.md) and what is built from it. The input is up to three texts separated by
 * NUL bytes: the record, an nvdisasm listing, the source. Any record must be refused with a
 * reason and its line, or read into a profile that takes the listing and the source, makes
 * its per-line table and diffs against itself, all without a crash or a read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hotspots/hotspots.h"

/* The next NUL-ended piece of the input, copied to its exact size (ASan sees a read past it). */
static char *piece(const uint8_t **data, size_t *size)
{
    const uint8_t *nul = memchr(*data, 0, *size);
    size_t n = nul ? (size_t)(nul - *data) : *size;
    char *s = malloc(n + 1);
    if (!s)
        abort();
    memcpy(s, *data, n);
    s[n] = '\0';
    *data += nul ? n + 1 : n;
    *size -= nul ? n + 1 : n;
    return s;
}

static void check_profile(const kd_hs_profile *p)
{
    uint64_t sampled = 0, in_lines = 0, executed = 0, executed_in_lines = 0;
    size_t placed = 0;
    for (size_t k = 0; k < p->insn_count; k++)
        sampled += p->insns[k].samples, executed += p->insns[k].executed;
    if (sampled != p->sampled || executed != p->executed || (executed && !p->has_executed))
        abort(); /* the sums over pc lines and exec lines */
    for (size_t l = 0; l < p->line_count; l++)
        executed_in_lines += p->lines[l].executed;
    if (executed_in_lines != p->executed)
        abort();
    for (size_t l = 0; l < p->line_count; l++) {
        const kd_hs_line *ln = &p->lines[l];
        in_lines += ln->samples;
        for (size_t i = 0; i < ln->insn_count; i++)
            if (ln->insn[i] >= p->insn_count)
                abort();
        placed += ln->insn_count;
        if (ln->text && !(ln->line >= 1 && ln->line <= p->src_count))
            abort();
    }
    if (in_lines != p->sampled || placed != p->insn_count)
        abort(); /* every instruction on exactly one line */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *record = piece(&data, &size);
    char *listing = piece(&data, &size);
    char *source = size ? piece(&data, &size) : NULL;
    kd_hs_profile p;
    kd_hs_error err;
    if (kd_hs_record_parse(record, &p, &err) == 0) {
        if (err.code != KD_HS_OK || p.insn_count == 0)
            abort();
        size_t found = kd_hs_attach_sass(&p, listing);
        if (found > p.insn_count)
            abort(); /* each sampled PC is placed once */
        kd_hs_profile_finish(&p, source);
        check_profile(&p);
        for (size_t r = 0; r < p.reason_count; r++)
            (void)kd_hs_reason_short(p.reasons[r]);
        kd_hs_diff d;
        kd_hs_diff_build(&p, &p, &d);
        for (size_t r = 0; r < d.row_count; r++)
            if (d.rows[r].delta != 0)
                abort(); /* a profile against itself moves nothing */
        kd_hs_diff_free(&d);
    } else if (err.code == KD_HS_OK || err.line == 0 || p.insn_count || p.insns || p.reasons || p.kernel) {
        abort(); /* a refusal names its reason and line, and leaves nothing */
    }
    kd_hs_profile_free(&p);
    free(record);
    free(listing);
    free(source);
    return 0;
}
