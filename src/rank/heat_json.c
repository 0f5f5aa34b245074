/* A heat's result as JSON (rank/rank.h): what `kerndiff rank --shard I/N --json FILE` writes
 * and `--merge DIR` reads back. Every sample is kept (17 significant digits), so that the
 * merged report is the one a single process makes. */
#include "rank/rank.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"
#include "util/xalloc.h"

#define HEAT_FORMAT 1

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
        json_array_append_new(devices, json_pack("{s:i, s:s}", "index", h->devices[i].index, "name", h->devices[i].name));
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

static int bad(char **why, const char *what)
{
    *why = kd_xstrdup(what);
    return -1;
}

static void read_static(json_t *o, kd_rank_static *s)
{
    *s = (kd_rank_static){-1, -1, -1};
    json_t *v;
    if ((v = json_object_get(o, "registers")))
        s->registers = (int)json_integer_value(v);
    if ((v = json_object_get(o, "spill_bytes")))
        s->spill_bytes = (long)json_integer_value(v);
    if ((v = json_object_get(o, "occupancy")))
        s->occupancy = json_number_value(v);
}

static int read_samples(json_t *g, kd_rank_gpu_samples *s, char **why)
{
    json_t *base = json_object_get(g, "base"), *cand = json_object_get(g, "cand"), *round = json_object_get(g, "round");
    if (!json_is_array(base) || !json_is_array(cand) || !json_is_array(round) || json_array_size(base) != json_array_size(cand) ||
        json_array_size(base) != json_array_size(round))
        return bad(why, "a candidate's samples are not three arrays of one length (base, cand, round)");
    s->gpu = (int)json_integer_value(json_object_get(g, "gpu"));
    s->n = json_array_size(base);
    s->base = kd_xcalloc(s->n + 1, sizeof *s->base);
    s->cand = kd_xcalloc(s->n + 1, sizeof *s->cand);
    s->round = kd_xcalloc(s->n + 1, sizeof *s->round);
    for (size_t i = 0; i < s->n; i++) {
        s->base[i] = json_number_value(json_array_get(base, i));
        s->cand[i] = json_number_value(json_array_get(cand, i));
        s->round[i] = (unsigned)json_integer_value(json_array_get(round, i));
        if (!(s->base[i] > 0) || !(s->cand[i] > 0))
            return bad(why, "a sample is not a positive number");
    }
    return 0;
}

static int read_entry(json_t *o, kd_rank_entry *e, char **why)
{
    const char *name = json_string_value(json_object_get(o, "name")), *path = json_string_value(json_object_get(o, "path"));
    const char *gate = json_string_value(json_object_get(o, "gate")), *reason = json_string_value(json_object_get(o, "reason"));
    json_t *gpus = json_object_get(o, "gpus");
    if (!name || !path || !gate || kd_rank_status_parse(gate) < 0 || !json_is_array(gpus))
        return bad(why, "a candidate lacks its name, path, gate status or samples");
    e->name = kd_xstrdup(name);
    e->path = kd_xstrdup(path);
    e->reason = reason ? kd_xstrdup(reason) : NULL;
    e->gate = (kd_rank_status)kd_rank_status_parse(gate);
    e->index = (size_t)json_integer_value(json_object_get(o, "index"));
    e->dropped = json_is_true(json_object_get(o, "dropped"));
    e->left_round = (unsigned)json_integer_value(json_object_get(o, "left_round"));
    read_static(json_object_get(o, "static"), &e->stat);
    e->ngpus = json_array_size(gpus);
    e->gpus = kd_xcalloc(e->ngpus + 1, sizeof *e->gpus);
    for (size_t g = 0; g < e->ngpus; g++)
        if (read_samples(json_array_get(gpus, g), &e->gpus[g], why) != 0)
            return -1;
    return 0;
}

int kd_rank_heat_read(const char *path, kd_rank_heat *h, char **why)
{
    memset(h, 0, sizeof *h);
    *why = NULL;
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root) {
        size_t len = strlen(err.text) + 64;
        *why = kd_xmalloc(len);
        snprintf(*why, len, "not JSON (line %d: %s)", err.line, err.text);
        return -1;
    }
    int rc = -1;
    json_t *entries = json_object_get(root, "candidates"), *devices = json_object_get(root, "devices");
    const char *seed = json_string_value(json_object_get(root, "seed"));
    if (json_integer_value(json_object_get(root, "kerndiff_rank_heat")) != HEAT_FORMAT || !json_is_array(entries) || !seed) {
        bad(why, "not a kerndiff rank heat (kerndiff rank --shard I/N --json FILE writes one)");
        goto out;
    }
    h->heat = (unsigned)json_integer_value(json_object_get(root, "heat"));
    h->heats = (unsigned)json_integer_value(json_object_get(root, "heats"));
    h->seed = strtoull(seed, NULL, 10);
    h->family = (size_t)json_integer_value(json_object_get(root, "family"));
    h->baseline = kd_xstrdup(json_string_value(json_object_get(root, "baseline")) ? json_string_value(json_object_get(root, "baseline")) : "");
    h->rounds = (unsigned)json_integer_value(json_object_get(root, "rounds"));
    h->samples = (size_t)json_integer_value(json_object_get(root, "samples"));
    h->gate_ms = json_number_value(json_object_get(root, "gate_ms"));
    h->race_ms = json_number_value(json_object_get(root, "race_ms"));
    snprintf(h->stop, sizeof h->stop, "%s", json_string_value(json_object_get(root, "stop")) ? json_string_value(json_object_get(root, "stop")) : "");
    read_static(json_object_get(root, "base_static"), &h->base_stat);
    h->ndevices = json_array_size(devices);
    h->devices = kd_xcalloc(h->ndevices + 1, sizeof *h->devices);
    for (size_t i = 0; i < h->ndevices; i++) {
        json_t *d = json_array_get(devices, i);
        h->devices[i].index = (int)json_integer_value(json_object_get(d, "index"));
        const char *name = json_string_value(json_object_get(d, "name"));
        snprintf(h->devices[i].name, sizeof h->devices[i].name, "%s", name ? name : "");
    }
    if (h->heats == 0 || h->heat >= h->heats) {
        bad(why, "its heat number is not below its heat count");
        goto out;
    }
    h->entries = kd_xcalloc(json_array_size(entries) + 1, sizeof *h->entries);
    for (size_t i = 0; i < json_array_size(entries); i++) {
        h->count++;
        if (read_entry(json_array_get(entries, i), &h->entries[i], why) != 0)
            goto out;
    }
    rc = 0;
out:
    json_decref(root);
    if (rc != 0)
        kd_rank_heat_free(h);
    return rc;
}
