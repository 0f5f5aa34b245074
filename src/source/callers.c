/* The project's callers of a library module's kernel (source/callers.h). */
#include "source/callers.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util/spawn.h"
#include "util/xalloc.h"
#include "wire/locate.h"

enum { CALLERS_TIMEOUT_MS = 60000, CALLERS_MAX = 64 };

void kd_caller_quote(const char *word, kd_strbuf *out)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@%";
    if (*word && strspn(word, plain) == strlen(word)) {
        kd_sb_puts(out, word);
        return;
    }
    kd_sb_puts(out, "'");
    for (const char *p = word; *p; p++) {
        if (*p == '\'')
            kd_sb_puts(out, "'\\''");
        else
            kd_sb_printf(out, "%c", *p);
    }
    kd_sb_puts(out, "'");
}

static int kind_order(const char *kind)
{
    static const char *const order[] = {"test", "self", "benchmark", "script"};
    for (int i = 0; i < 4; i++)
        if (kind && strcmp(kind, order[i]) == 0)
            return i;
    return 9;
}

static int by_rank(const void *a, const void *b)
{
    const kd_caller *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    if (x->affinity != y->affinity)
        return x->affinity < y->affinity ? -1 : 1;
    int kx = kind_order(x->kind), ky = kind_order(y->kind);
    if (kx != ky)
        return kx < ky ? -1 : 1;
    int f = strcmp(x->file, y->file);
    if (f)
        return f;
    return (x->line > y->line) - (x->line < y->line);
}

static char *dup_or_null(json_t *v) { return json_is_string(v) ? kd_xstrdup(json_string_value(v)) : NULL; }

/* A JSON array's strings joined by ", " ("" none). */
static char *joined(json_t *list)
{
    kd_strbuf sb = {0};
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
        if (json_is_string(v))
            kd_sb_printf(&sb, "%s%s", sb.len ? ", " : "", json_string_value(v));
    char *out = sb.len ? kd_sb_take(&sb) : kd_xstrdup("");
    kd_sb_free(&sb);
    return out;
}

int kd_callers_parse(const char *json, kd_callers *out, kd_strbuf *why)
{
    memset(out, 0, sizeof *out);
    json_error_t e;
    json_t *doc = json_loads(json, 0, &e);
    json_t *list = json_object_get(doc, "candidates");
    if (!json_is_object(doc) || !json_is_array(list) || !json_is_string(json_object_get(doc, "root"))) {
        kd_sb_printf(why, "the callers' list is not the helper's JSON%s%s", doc ? "" : ": ", doc ? "" : e.text);
        json_decref(doc);
        return -1;
    }
    out->root = kd_xstrdup(json_string_value(json_object_get(doc, "root")));
    kd_strbuf w = {0};
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(doc, "wrappers"), i, v)
        if (json_is_string(v))
            kd_sb_printf(&w, "%s%s", w.len ? ", " : "", json_string_value(v));
    out->wrappers = w.len ? kd_sb_take(&w) : kd_xstrdup("");
    kd_sb_free(&w);
    out->found = json_integer_value(json_object_get(doc, "found"));
    out->scanned = json_integer_value(json_object_get(doc, "scanned"));
    out->capped = dup_or_null(json_object_get(doc, "capped"));
    out->nearest = joined(json_object_get(doc, "nearest"));
    out->elsewhere = joined(json_object_get(doc, "elsewhere"));
    size_t n = json_array_size(list) < CALLERS_MAX ? json_array_size(list) : CALLERS_MAX;
    out->items = kd_xcalloc(n ? n : 1, sizeof *out->items);
    json_array_foreach(list, i, v) {
        if (i >= n)
            break;
        json_t *argv = json_object_get(v, "argv");
        const char *file = json_string_value(json_object_get(v, "file"));
        long long rank = json_integer_value(json_object_get(v, "rank"));
        if (!file || !json_is_array(argv) || !json_array_size(argv) || rank < 1 || rank > 3) {
            kd_sb_printf(why, "the callers' list has a candidate without its file, rank or command (#%zu)", i + 1);
            kd_callers_free(out);
            json_decref(doc);
            return -1;
        }
        kd_caller *c = &out->items[out->count++];
        c->file = kd_xstrdup(file);
        c->test = dup_or_null(json_object_get(v, "test"));
        c->line = (int)json_integer_value(json_object_get(v, "line"));
        c->rank = (int)rank;
        c->kind = dup_or_null(json_object_get(v, "kind"));
        json_t *depth = json_object_get(v, "depth");
        c->depth = json_is_integer(depth) && json_integer_value(depth) >= 0 && json_integer_value(depth) < 1000
                       ? (int)json_integer_value(depth) : 0;
        c->affinity = json_integer_value(json_object_get(v, "affinity")) == 0 &&
                      json_is_integer(json_object_get(v, "affinity")) ? 0 : 1;
        kd_strbuf via = {0}, cmd = {0};
        size_t j;
        json_t *x;
        json_array_foreach(json_object_get(v, "via"), j, x)
            if (json_is_string(x))
                kd_sb_printf(&via, "%s%s()", j ? " -> " : "", json_string_value(x));
        c->via = via.len ? kd_sb_take(&via) : kd_xstrdup("");
        kd_sb_free(&via);
        json_array_foreach(json_object_get(v, "kernels"), j, x)
            if (json_is_string(x))
                kd_strlist_push(&c->kernels, kd_xstrdup(json_string_value(x)));
        json_array_foreach(argv, j, x) {
            const char *word = json_is_string(x) ? json_string_value(x) : "";
            kd_strlist_push(&c->argv, kd_xstrdup(word));
            if (j)
                kd_sb_puts(&cmd, " ");
            kd_caller_quote(word, &cmd);
        }
        kd_strlist_push(&c->argv, NULL);
        c->command = kd_sb_take(&cmd);
        kd_sb_free(&cmd);
        c->name = c->test ? kd_xasprintf("%s::%s", c->file, c->test) : kd_xstrdup(c->file);
    }
    qsort(out->items, out->count, sizeof *out->items, by_rank);
    json_decref(doc);
    return 0;
}

int kd_callers_find(const char *python, const char *file, const char *kernel, kd_callers *out, kd_strbuf *why)
{
    memset(out, 0, sizeof *out);
    char *helper = kd_harness_path("kerndiff-triton.py");
    if (!helper || !python) {
        kd_sb_puts(why, "kerndiff-triton.py or a Python interpreter is not found");
        free(helper);
        return -1;
    }
    const char *argv[] = {python, helper, "callers", file, "", kernel, NULL}; /* kernel NULL: ends there */
    kd_spawn_result r;
    int rc = -1;
    if (kd_spawn(argv, NULL, CALLERS_TIMEOUT_MS, &r) != 0)
        kd_sb_printf(why, "%s cannot be started: %s", python, strerror(errno));
    else {
        if (r.timed_out || r.signal || r.exit_code != 0)
            kd_sb_printf(why, "kerndiff-triton.py callers %s (status %d)", r.timed_out ? "took too long" : "failed",
                         r.signal ? 128 + r.signal : r.exit_code);
        else
            rc = kd_callers_parse(kd_sb_str(&r.out), out, why);
        kd_spawn_result_free(&r);
    }
    free(helper);
    return rc;
}

void kd_callers_free(kd_callers *c)
{
    for (size_t i = 0; i < c->count; i++) {
        kd_caller *k = &c->items[i];
        for (size_t j = 0; j < k->argv.count; j++)
            free(k->argv.items[j]);
        free(k->argv.items);
        for (size_t j = 0; j < k->kernels.count; j++)
            free(k->kernels.items[j]);
        free(k->kernels.items);
        free(k->file);
        free(k->test);
        free(k->kind);
        free(k->via);
        free(k->command);
        free(k->name);
    }
    free(c->items);
    free(c->root);
    free(c->wrappers);
    free(c->capped);
    free(c->nearest);
    free(c->elsewhere);
    memset(c, 0, sizeof *c);
}
