/* A heat's result as JSON (rank/rank.h): what `kerndiff rank --shard I/N --json FILE` writes
 * and `--merge DIR` reads back. Every sample is kept (17 significant digits), so that the
 * merged report is the one a single process makes. */
#include "rank/rank.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"
#include "util/xalloc.h"

/* 2: the candidate set (names and content hashes) and the baseline's hash, so that the merge
 * can match every shard against one set of files. */
#define HEAT_FORMAT 2

static json_t *static_json(const kd_rank_static *s)
{
    return json_pack("{s:i, s:I, s:f}", "registers", s->registers, "spill_bytes", (json_int_t)s->spill_bytes,
                     "occupancy", s->occupancy);
}

static json_t *doubles(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_real(v[i]));
    return a;
}

static json_t *entry_json(const kd_rank_entry *e)
{
    json_t *gpus = json_array();
    for (size_t g = 0; g < e->ngpus; g++) {
        const kd_rank_gpu_samples *s = &e->gpus[g];
        json_t *rounds = json_array();
        for (size_t i = 0; i < s->n; i++)
            json_array_append_new(rounds, json_integer(s->round[i]));
        json_array_append_new(gpus, json_pack("{s:i, s:o, s:o, s:o}", "gpu", s->gpu, "base", doubles(s->base, s->n),
                                              "cand", doubles(s->cand, s->n), "round", rounds));
    }
    return json_pack("{s:s, s:s, s:I, s:s, s:s?, s:o, s:b, s:i, s:o}", "name", e->name, "path", e->path, "index",
                     (json_int_t)e->index, "gate", kd_rank_status_name(e->gate), "reason", e->reason, "static",
                     static_json(&e->stat), "dropped", e->dropped, "left_round", (int)e->left_round, "gpus", gpus);
}

int kd_rank_heat_write(const kd_rank_heat *h, const char *path)
{
    json_t *devices = json_array(), *entries = json_array();
    for (size_t i = 0; i < h->ndevices; i++)
        json_array_append_new(devices, json_pack("{s:i, s:s, s:i}", "index", h->devices[i].index, "name", h->devices[i].name,
                                                         "harness_starts", (int)h->devices[i].harness_starts));
    for (size_t i = 0; i < h->count; i++)
        json_array_append_new(entries, entry_json(&h->entries[i]));
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)h->seed);
    json_t *root = json_pack("{s:i, s:i, s:i, s:s, s:I, s:s, s:o, s:o, s:i, s:I, s:s, s:o}", "kerndiff_rank_heat",
                             HEAT_FORMAT, "heat", (int)h->heat, "heats", (int)h->heats, "seed", seed, "family",
                             (json_int_t)h->family, "baseline", h->baseline ? h->baseline : "", "base_static",
                             static_json(&h->base_stat), "devices", devices, "rounds", (int)h->rounds, "samples",
                             (json_int_t)h->samples, "stop", h->stop, "candidates", entries);
    if (!root)
        return errno = EINVAL, -1;
    json_t *members = json_array();
    for (size_t i = 0; i < h->nmembers; i++)
        json_array_append_new(members, json_pack("{s:s, s:s}", "path", h->members[i].path, "sha256", h->members[i].sha256));
    json_object_set_new(root, "candidate_set", members);
    json_object_set_new(root, "baseline_sha256", json_string(h->base_sha256));
    json_object_set_new(root, "gate_ms", json_real(h->gate_ms));
    json_object_set_new(root, "race_ms", json_real(h->race_ms));
    /* whole or not at all (util/fs.h: a temporary file renamed, removed if a signal ends the
     * shard first): a shard killed while writing leaves no half file for the merge */
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
    json_decref(root);
    if (!text)
        return errno = ENOMEM, -1;
    int rc = kd_write_file(path, text, strlen(text));
    int saved = errno;
    free(text);
    errno = saved;
    return rc;
}

/* ---- reading: every field checked as `compare` checks a saved run ---------------------------
 * A shard's file is edited, truncated or from another rank as easily as a saved run: a value
 * of the wrong type, out of its range or implausible is refused with the field named, never
 * read as 0 or merged. */

/* The physical bounds of one sample (ns per launch), those of a saved run (workflow/saved.c):
 * below a nanosecond no launch completes, above an hour the watchdog would have stopped it. */
#define SAMPLE_MIN_NS 1.0
#define SAMPLE_MAX_NS 3.6e12
/* The race's rounds at most (race.h: 200 by default; --max-rounds may ask more). */
#define MAX_ROUND 10000000u

static int bad(char **why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(*why);
    *why = kd_xstrdup(buf);
    return -1;
}

/* Where an integer field may lie: [lo, hi]; absent is refused unless optional (then the value is
 * left as it was); where: the field's place, for the reason ("candidates[2]."). */
typedef struct int_range {
    long long lo, hi;
    bool optional;
    const char *where;
} int_range;

static int int_field(json_t *o, const char *key, const int_range *r, long long *out, char **why)
{
    long long lo = r->lo, hi = r->hi;
    bool optional = r->optional;
    const char *where = r->where;
    json_t *v = json_object_get(o, key);
    if (!v && optional)
        return 0;
    if (!json_is_integer(v))
        return bad(why, "%s%s is %s, not an integer", where, key, v ? "of another type" : "missing");
    json_int_t x = json_integer_value(v);
    if (x < lo || x > hi)
        return bad(why, "%s%s is %lld, not between %lld and %lld", where, key, (long long)x, lo, hi);
    *out = x;
    return 0;
}

static const char *string_field(json_t *o, const char *key, bool optional, const char *where, char **why)
{
    json_t *v = json_object_get(o, key);
    if ((!v || json_is_null(v)) && optional)
        return "";
    if (!json_is_string(v)) {
        bad(why, "%s%s is %s, not a string", where, key, v ? "of another type" : "missing");
        return NULL;
    }
    return json_string_value(v);
}

static bool is_sha256(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
            return false;
    return n == 64;
}

static int read_static(json_t *o, kd_rank_static *s, const char *where, char **why)
{
    *s = (kd_rank_static){-1, -1, -1};
    if (!json_is_object(o))
        return bad(why, "%sstatic is missing or not an object", where);
    long long regs = -1, spills = -1;
    if (int_field(o, "registers", &(int_range){-1, 255, false, where}, &regs, why) != 0 ||
        int_field(o, "spill_bytes", &(int_range){-1, 1LL << 40, false, where}, &spills, why) != 0)
        return -1;
    json_t *occ = json_object_get(o, "occupancy");
    if (!json_is_number(occ) || !(json_number_value(occ) == -1 || (json_number_value(occ) >= 0 && json_number_value(occ) <= 1)))
        return bad(why, "%soccupancy is not a fraction between 0 and 1 (or -1, unknown)", where);
    s->registers = (int)regs;
    s->spill_bytes = (long)spills;
    s->occupancy = json_number_value(occ);
    return 0;
}

static int read_samples(json_t *g, kd_rank_gpu_samples *s, const char *where, char **why)
{
    json_t *base = json_object_get(g, "base"), *cand = json_object_get(g, "cand"), *round = json_object_get(g, "round");
    if (!json_is_array(base) || !json_is_array(cand) || !json_is_array(round) || json_array_size(base) != json_array_size(cand) ||
        json_array_size(base) != json_array_size(round))
        return bad(why, "%ssamples are not three arrays of one length (base, cand, round)", where);
    long long gpu = 0;
    if (int_field(g, "gpu", &(int_range){0, 1023, false, where}, &gpu, why) != 0)
        return -1;
    s->gpu = (int)gpu;
    size_t n = json_array_size(base);
    s->base = kd_xcalloc(n + 1, sizeof *s->base);
    s->cand = kd_xcalloc(n + 1, sizeof *s->cand);
    s->round = kd_xcalloc(n + 1, sizeof *s->round);
    for (size_t i = 0; i < n; i++) {
        json_t *b = json_array_get(base, i), *c = json_array_get(cand, i), *r = json_array_get(round, i);
        json_t *sides[2] = {b, c};
        for (int k = 0; k < 2; k++) {
            double v = json_number_value(sides[k]);
            if (!json_is_number(sides[k]) || !(v >= SAMPLE_MIN_NS && v <= SAMPLE_MAX_NS))
                return bad(why, "%s%s[%zu] is %s%.6g ns, not a plausible kernel time (between 1 ns and one hour)",
                           where, k ? "cand" : "base", i, json_is_number(sides[k]) ? "" : "not a number: ",
                           json_is_number(sides[k]) ? v : 0.0);
        }
        if (!json_is_integer(r) || json_integer_value(r) < 0 || json_integer_value(r) > (json_int_t)MAX_ROUND)
            return bad(why, "%sround[%zu] is not a round number (an integer from 0)", where, i);
        s->base[i] = json_number_value(b);
        s->cand[i] = json_number_value(c);
        s->round[i] = (unsigned)json_integer_value(r);
        s->n = i + 1;
    }
    return 0;
}

static int read_entry(json_t *o, kd_rank_entry *e, size_t family, size_t at, char **why)
{
    char where[64];
    snprintf(where, sizeof where, "candidates[%zu].", at);
    if (!json_is_object(o))
        return bad(why, "candidates[%zu] is not an object", at);
    const char *name = string_field(o, "name", false, where, why), *path = name ? string_field(o, "path", false, where, why) : NULL;
    const char *gate = path ? string_field(o, "gate", false, where, why) : NULL;
    const char *reason = gate ? string_field(o, "reason", true, where, why) : NULL;
    if (!reason)
        return -1;
    if (!*name || !*path)
        return bad(why, "%sname or path is empty", where);
    int status = kd_rank_status_parse(gate);
    /* a heat's gate is what the gate and the race found; faster/slower/dropped are the
     * report's (rank/finish.c), never a shard's */
    if (status < 0 || status == KD_RANK_FASTER || status == KD_RANK_SLOWER || status == KD_RANK_DROPPED)
        return bad(why, "%sgate is '%s', not one a shard writes (same, incorrect, build_failed, sanitizer, "
                        "run_failed, untimed)", where, gate);
    /* a timed candidate has no reason: one with a reason failed somewhere and is never ranked */
    if (status == KD_RANK_SAME && *reason)
        return bad(why, "%sgate is 'same' but it has a failure's reason (%.80s)", where, reason);
    long long index = 0, left_round = 0;
    json_t *dropped = json_object_get(o, "dropped"), *gpus = json_object_get(o, "gpus");
    if (int_field(o, "index", &(int_range){0, family ? (long long)family - 1 : -1, false, where}, &index, why) != 0 ||
        int_field(o, "left_round", &(int_range){0, MAX_ROUND, false, where}, &left_round, why) != 0)
        return -1;
    if (!json_is_boolean(dropped))
        return bad(why, "%sdropped is not true or false", where);
    if (!json_is_array(gpus) || json_array_size(gpus) > 1024)
        return bad(why, "%sgpus is not an array of samples per GPU", where);
    e->name = kd_xstrdup(name);
    e->path = kd_xstrdup(path);
    e->reason = *reason ? kd_xstrdup(reason) : NULL;
    e->gate = (kd_rank_status)status;
    e->index = (size_t)index;
    e->dropped = json_is_true(dropped);
    e->left_round = (unsigned)left_round;
    if (read_static(json_object_get(o, "static"), &e->stat, where, why) != 0)
        return -1;
    e->gpus = kd_xcalloc(json_array_size(gpus) + 1, sizeof *e->gpus);
    for (size_t g = 0; g < json_array_size(gpus); g++) {
        e->ngpus = g + 1;
        char gwhere[96];
        snprintf(gwhere, sizeof gwhere, "%sgpus[%zu].", where, g);
        if (read_samples(json_array_get(gpus, g), &e->gpus[g], gwhere, why) != 0)
            return -1;
    }
    return 0;
}

static int read_members(json_t *set, kd_rank_heat *h, char **why)
{
    if (!json_is_array(set) || json_array_size(set) != h->family)
        return bad(why, "candidate_set is not an array of the rank's %zu candidates", h->family);
    h->members = kd_xcalloc(h->family + 1, sizeof *h->members);
    for (size_t i = 0; i < h->family; i++) {
        json_t *m = json_array_get(set, i);
        char where[64];
        snprintf(where, sizeof where, "candidate_set[%zu].", i);
        const char *path = string_field(m, "path", false, where, why);
        const char *sha = path ? string_field(m, "sha256", false, where, why) : NULL;
        if (!sha)
            return -1;
        if (!*path || (*sha && !is_sha256(sha)))
            return bad(why, "%s is not a path and a SHA-256", where);
        for (size_t k = 0; k < i; k++)
            if (!strcmp(h->members[k].path, path))
                return bad(why, "candidate_set lists %s twice", path);
        h->members[i].path = kd_xstrdup(path);
        snprintf(h->members[i].sha256, sizeof h->members[i].sha256, "%s", sha);
        h->nmembers = i + 1;
    }
    return 0;
}

static int read_root(json_t *root, kd_rank_heat *h, char **why)
{
    json_t *entries = json_object_get(root, "candidates"), *devices = json_object_get(root, "devices");
    if (!json_is_object(root) || !json_is_integer(json_object_get(root, "kerndiff_rank_heat")))
        return bad(why, "not a kerndiff rank heat (kerndiff rank --shard I/N --json FILE writes one)");
    if (json_integer_value(json_object_get(root, "kerndiff_rank_heat")) != HEAT_FORMAT)
        return bad(why, "a rank heat of format %lld, not %d (written by another kerndiff version): re-run the shard",
                   (long long)json_integer_value(json_object_get(root, "kerndiff_rank_heat")), HEAT_FORMAT);
    long long heat = 0, heats = 0, family = 0, rounds = 0, samples = 0;
    const char *seed = string_field(root, "seed", false, "", why);
    if (!seed)
        return -1;
    char *end = NULL;
    errno = 0;
    unsigned long long seed_value = strtoull(seed, &end, 10);
    if (!*seed || *end || errno || *seed == '-')
        return bad(why, "seed is '%.40s', not a number", seed);
    if (int_field(root, "heats", &(int_range){1, 10000, false, ""}, &heats, why) != 0 ||
        int_field(root, "heat", &(int_range){0, heats - 1, false, ""}, &heat, why) != 0 ||
        int_field(root, "family", &(int_range){1, 10000000, false, ""}, &family, why) != 0 ||
        int_field(root, "rounds", &(int_range){0, MAX_ROUND, false, ""}, &rounds, why) != 0 ||
        int_field(root, "samples", &(int_range){0, 1LL << 50, false, ""}, &samples, why) != 0)
        return -1;
    h->heat = (unsigned)heat;
    h->heats = (unsigned)heats;
    h->seed = seed_value;
    h->family = (size_t)family;
    h->rounds = (unsigned)rounds;
    h->samples = (size_t)samples;
    const char *baseline = string_field(root, "baseline", false, "", why);
    const char *base_sha = baseline ? string_field(root, "baseline_sha256", false, "", why) : NULL;
    const char *stop = base_sha ? string_field(root, "stop", false, "", why) : NULL;
    if (!stop)
        return -1;
    if (*base_sha && !is_sha256(base_sha))
        return bad(why, "baseline_sha256 is not a SHA-256");
    h->baseline = kd_xstrdup(baseline);
    snprintf(h->base_sha256, sizeof h->base_sha256, "%s", base_sha);
    snprintf(h->stop, sizeof h->stop, "%s", stop);
    json_t *times[2] = {json_object_get(root, "gate_ms"), json_object_get(root, "race_ms")};
    for (int k = 0; k < 2; k++)
        if (!json_is_number(times[k]) || !(json_number_value(times[k]) >= 0) || !isfinite(json_number_value(times[k])))
            return bad(why, "%s is not a time in ms", k ? "race_ms" : "gate_ms");
    h->gate_ms = json_number_value(times[0]);
    h->race_ms = json_number_value(times[1]);
    if (read_static(json_object_get(root, "base_static"), &h->base_stat, "base_", why) != 0)
        return -1;
    if (!json_is_array(devices) || json_array_size(devices) > 1024)
        return bad(why, "devices is not an array");
    h->devices = kd_xcalloc(json_array_size(devices) + 1, sizeof *h->devices);
    for (size_t i = 0; i < json_array_size(devices); i++) {
        json_t *d = json_array_get(devices, i);
        long long index = 0;
        const char *name = string_field(d, "name", false, "devices[].", why);
        if (!name || int_field(d, "index", &(int_range){0, 1023, false, "devices[]."}, &index, why) != 0)
            return -1;
        h->devices[i].index = (int)index;
        json_t *starts = json_object_get(d, "harness_starts"); /* absent in heats written before it */
        if (json_is_integer(starts) && json_integer_value(starts) >= 0 && json_integer_value(starts) <= 0x7fffffff)
            h->devices[i].harness_starts = (unsigned)json_integer_value(starts);
        snprintf(h->devices[i].name, sizeof h->devices[i].name, "%s", name);
        h->ndevices = i + 1;
    }
    if (read_members(json_object_get(root, "candidate_set"), h, why) != 0)
        return -1;
    if (!json_is_array(entries) || json_array_size(entries) > h->family)
        return bad(why, "candidates is not an array of at most the rank's %zu candidates", h->family);
    h->entries = kd_xcalloc(json_array_size(entries) + 1, sizeof *h->entries);
    for (size_t i = 0; i < json_array_size(entries); i++) {
        h->count++;
        kd_rank_entry *e = &h->entries[i];
        if (read_entry(json_array_get(entries, i), e, h->family, i, why) != 0)
            return -1;
        if (strcmp(e->path, h->members[e->index].path) != 0)
            return bad(why, "candidates[%zu] is %s, but candidate %zu of the rank's set is %s", i, e->path, e->index,
                       h->members[e->index].path);
        for (size_t k = 0; k < i; k++)
            if (h->entries[k].index == e->index)
                return bad(why, "candidate %s is listed twice", e->path);
    }
    return 0;
}

int kd_rank_heat_read(const char *path, kd_rank_heat *h, char **why)
{
    memset(h, 0, sizeof *h);
    *why = NULL;
    size_t len = 0;
    char *text = kd_read_file(path, &len); /* a FIFO or a device: refused, never read */
    if (!text) {
        bad(why, "%s", kd_read_error(errno));
        return -1;
    }
    json_error_t err;
    json_t *root = json_loadb(text, len, 0, &err);
    free(text);
    if (!root) {
        bad(why, "not JSON (line %d: %s)", err.line, err.text);
        return -1;
    }
    int rc = read_root(root, h, why);
    json_decref(root);
    if (rc != 0) {
        kd_rank_heat_free(h);
        if (!*why)
            *why = kd_xstrdup("unreadable");
    }
    return rc;
}
