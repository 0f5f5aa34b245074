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
    kd_child child;
    char **argv; /* its own copy, NULL-ended: the point's argv is freed with the point */
} spare;

static struct {
    bool open;       /* a sweep runs, and KERNDIFF_SWEEP_FRESH is not set */
    bool said;       /* a sweep runs: its one trace line about fresh children was said */
    size_t followers;
    spare spares[KD_POOL_ROLES];
    kd_child retired[KD_POOL_ROLES];
    size_t nretired;
    kd_harness_pool_stats stats;
} pool;

/* While a spare waits, its kd_child's side must not point into a finished point. */
static const char *const idle_label[KD_POOL_ROLES] = {"v1 (started ahead)", "v2 (started ahead)",
                                                      "v1 and v2 (started ahead)"};

static bool fresh_requested(void)
{
    const char *v = kd_env_nonempty(KD_ENV_SWEEP_FRESH);
    return v && strcmp(v, "0") != 0;
}

void kd_harness_pool_point(size_t followers)
{
    if (!pool.open && !pool.said) {
        pool.open = !fresh_requested();
        pool.said = true;
        kd_trace("sweep: each point sets up its own harnesses (protocol 2 cannot re-size a set-up child)%s",
                 pool.open ? "; the next point's are started ahead, once this one's timing is done"
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
    s->held = false;
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
    pool.open = pool.said = false;
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
            pool.stats.taken++;
            kd_trace("harness %s: the one started ahead", label);
            return 0;
        }
        if (same) {
            pool.stats.replaced++;
            kd_say(KD_MSG_MEASURE_SPARE_NOT_READY, KD_DIAG_NO_SIDE, KD_S(label));
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
    for (int r = 0; r < KD_POOL_ROLES; r++) {
        spare *s = &pool.spares[r];
        if (!argv[r] || s->held)
            continue;
        kd_strbuf why = {0};
        if (start(&s->child, idle_label[r], argv[r], &why) == 0) {
            s->held = true;
            size_t n = 0;
            while (argv[r][n])
                n++;
            s->argv = kd_xcalloc(n + 1, sizeof *s->argv);
            for (size_t i = 0; i < n; i++)
                s->argv[i] = kd_xstrdup(argv[r][i]);
        } /* else: the next point starts its own, and says why if that fails too */
        kd_sb_free(&why);
    }
    kd_trace("the next point's harnesses started ahead");
}

kd_harness_pool_stats kd_harness_pool_stats_get(void)
{
    return pool.stats;
}
