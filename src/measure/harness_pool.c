#include "measure/harness_pool.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "util/env.h"
#include "util/progress.h"
#include "util/xalloc.h"
#include "wire/client.h"
#include "measure/measure_msgs.h"

typedef struct spare {
    bool held;
    bool kept;   /* a previous point's child, reset: not one started ahead */
    kd_child child;
    char **argv; /* its own copy, NULL-ended: the point's argv is freed with the point */
} spare;

static struct {
    bool open;       /* a sweep runs, and KERNDIFF_SWEEP_FRESH is not set */
    bool keep;       /* children are reset and kept (not with KERNDIFF_SWEEP_FRESH=ahead) */
    bool said;       /* a sweep runs: its one trace line about fresh children was said */
    size_t followers;
    spare spares[KD_POOL_ROLES];
    spare handed;    /* the timing pass's shared child, for the counter pass */
    kd_child retired[KD_POOL_ROLES];
    size_t nretired;
    kd_harness_pool_stats stats;
    kd_harness_pool_kept kept;
} pool;

/* While a spare waits, its kd_child's side must not point into a finished point. */
static const char *const idle_label[KD_POOL_ROLES] = {"v1 (started ahead)", "v2 (started ahead)",
                                                      "v1 and v2 (started ahead)"};

/* KERNDIFF_SWEEP_FRESH: unset or 0 (children kept), ahead (none kept: started ahead), else fresh. */
static const char *sweep_fresh(void)
{
    const char *v = kd_env_nonempty(KD_ENV_SWEEP_FRESH);
    return v && strcmp(v, "0") != 0 ? v : NULL;
}

void kd_harness_pool_point(size_t followers)
{
    if (!pool.open && !pool.said) {
        const char *fresh = sweep_fresh();
        pool.open = !fresh || strcmp(fresh, "ahead") == 0;
        pool.keep = !fresh;
        pool.said = true;
        if (pool.keep)
            kd_trace("sweep: one harness per role serves every point (reset between points, each build loaded once)");
        else
            kd_trace("sweep: each point sets up its own harnesses%s",
                     pool.open ? " (KERNDIFF_SWEEP_FRESH=ahead: the next point's are started ahead, once this one's "
                                 "timing is done)"
                               : " (KERNDIFF_SWEEP_FRESH: none started ahead)");
    }
    pool.followers = followers;
}

static void free_argv(spare *s)
{
    for (size_t i = 0; s->argv && s->argv[i]; i++)
        free(s->argv[i]);
    free(s->argv);
    s->argv = NULL;
}

static void drop(spare *s)
{
    if (!s->held)
        return;
    kd_child_stop(&s->child);
    free_argv(s);
    s->held = s->kept = false;
}

static void hold(spare *s, const char *const *argv)
{
    size_t n = 0;
    while (argv[n])
        n++;
    s->argv = kd_xcalloc(n + 1, sizeof *s->argv);
    for (size_t i = 0; i < n; i++)
        s->argv[i] = kd_xstrdup(argv[i]);
    s->held = true;
}

bool kd_harness_pool_keep(int role, kd_child *c, const char *const *argv, int timeout_ms)
{
    if (!pool.open || !pool.keep || pool.followers == 0 || role < 0 || role >= KD_POOL_ROLES ||
        pool.spares[role].held || !argv)
        return false;
    if (kd_wire_reset(c, timeout_ms) != KD_REPLY_OK) {
        kd_trace("harness %s: reset refused, not kept", c->side ? c->side : "?");
        return false;
    }
    const char *resets = kd_proto_value(&c->words, 1, "resets");
    kd_trace("harness %s: reset (resets=%s), kept for the next point", c->side ? c->side : "?", resets ? resets : "?");
    spare *s = &pool.spares[role];
    s->child = *c;
    s->child.side = idle_label[role]; /* its label belonged to this point */
    s->kept = true;
    hold(s, argv);
    memset(c, 0, sizeof *c);
    pool.kept.kept++;
    return true;
}

bool kd_harness_pool_retire(kd_child *c)
{
    if (!pool.open || pool.nretired == KD_POOL_ROLES)
        return false;
    kd_child_send(c, "quit");
    c->side = "a previous point's harness"; /* its label belonged to that point */
    pool.retired[pool.nretired++] = *c;
    memset(c, 0, sizeof *c);
    return true;
}

void kd_harness_pool_reap(void)
{
    for (size_t i = 0; i < pool.nretired; i++)
        kd_child_stop(&pool.retired[i]);
    pool.nretired = 0;
}

void kd_harness_pool_end(void)
{
    kd_harness_pool_reap();
    for (int r = 0; r < KD_POOL_ROLES; r++)
        if (pool.spares[r].held) {
            pool.stats.dropped++;
            drop(&pool.spares[r]);
        }
    pool.open = pool.said = pool.keep = false;
    pool.followers = 0;
}

static bool same_argv(char *const *held, const char *const *argv)
{
    size_t i = 0;
    for (; argv[i]; i++)
        if (!held[i] || strcmp(held[i], argv[i]) != 0)
            return false;
    return !held[i];
}

/* A spare has been sent nothing: anything on its stdout (end of file, above all) means it
 * is gone, or broken. */
static bool alive(const kd_child *c)
{
    struct pollfd p = {.fd = c->from_child, .events = POLLIN};
    return c->from_child >= 0 && poll(&p, 1, 0) == 0;
}

static int start(kd_child *c, const char *label, const char *const *argv, kd_strbuf *why)
{
    int rc = kd_child_start(c, label, argv, why);
    if (rc == 0)
        pool.stats.started++;
    return rc;
}

int kd_harness_pool_take(int role, kd_child *c, const char *label, const char *const *argv, kd_strbuf *why)
{
    spare *s = role >= 0 && role < KD_POOL_ROLES ? &pool.spares[role] : NULL;
    if (s && s->held) {
        bool same = same_argv(s->argv, argv);
        /* hello waits for its start-up to end (a CUDA context): one that died on the way is
         * found here, not at the point's first command. A second hello is harmless. */
        kd_device_info info;
        kd_strbuf ignored = {0};
        bool ready = same && alive(&s->child) && kd_wire_hello(&s->child, &info, &ignored) == 0;
        kd_sb_free(&ignored);
        if (ready) {
            *c = s->child;
            c->side = label;
            free_argv(s);
            s->held = false;
            if (s->kept)
                pool.kept.reused++;
            else
                pool.stats.taken++;
            kd_trace("harness %s: %s", label, s->kept ? "kept from the previous point" : "the one started ahead");
            s->kept = false;
            return 0;
        }
        if (same) {
            pool.stats.replaced++;
            kd_say(s->kept ? KD_MSG_MEASURE_KEPT_NOT_READY : KD_MSG_MEASURE_SPARE_NOT_READY, KD_DIAG_NO_SIDE,
                   KD_S(label));
        } else {
            pool.stats.dropped++;
        }
        drop(s);
    }
    if (pool.said) /* in a sweep: each start said, for the count (a single diff stays as it was) */
        kd_trace("harness %s: started", label);
    return start(c, label, argv, why);
}

void kd_harness_pool_start_ahead(const char *const *const argv[KD_POOL_ROLES])
{
    if (!pool.open || pool.followers == 0)
        return;
    unsigned started = 0;
    for (int r = 0; r < KD_POOL_ROLES; r++) {
        spare *s = &pool.spares[r];
        if (!argv[r] || s->held)
            continue;
        kd_strbuf why = {0};
        if (start(&s->child, idle_label[r], argv[r], &why) == 0) {
            hold(s, argv[r]);
            started++;
        } /* else: the next point starts its own, and says why if that fails too */
        kd_sb_free(&why);
    }
    if (started)
        kd_trace("the next point's harnesses started ahead");
}

bool kd_harness_pool_hand_over(kd_child *c, const char *const *argv)
{
    const char *fresh = kd_env_nonempty(KD_ENV_COUNTERS_FRESH);
    if (pool.open || pool.handed.held || !argv || (fresh && strcmp(fresh, "0") != 0))
        return false;
    pool.handed.child = *c;
    pool.handed.child.side = "v1 and v2 (the timing pass's)"; /* its label belonged to the pass */
    hold(&pool.handed, argv);
    memset(c, 0, sizeof *c);
    return true;
}

bool kd_harness_pool_take_handed(const char *const *argv, const char *label, kd_child *c)
{
    spare *s = &pool.handed;
    if (!s->held)
        return false;
    if (!same_argv(s->argv, argv) || !alive(&s->child)) {
        drop(s);
        return false;
    }
    *c = s->child;
    c->side = label;
    free_argv(s);
    s->held = false;
    return true;
}

void kd_harness_pool_drop_handed(void)
{
    drop(&pool.handed);
}

kd_harness_pool_stats kd_harness_pool_stats_get(void)
{
    return pool.stats;
}

kd_harness_pool_kept kd_harness_pool_kept_get(void)
{
    return pool.kept;
}
