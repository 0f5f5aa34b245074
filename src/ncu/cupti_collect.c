#include "ncu/cupti_collect.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/harness_pool.h"
#include "ncu/metrics.h"
#include "wire/counters.h"
#include "util/progress.h"
#include "util/strlist.h"
#include "util/xalloc.h"

bool kd_cupti_is_launch_fact(const char *ncu_name)
{
    return !strncmp(ncu_name, "launch__", 8) || !strcmp(ncu_name, "sm__maximum_warps_per_active_cycle_pct");
}

static bool listed(const kd_strlist *l, const char *name)
{
    for (size_t i = 0; i < l->count; i++)
        if (!strcmp(l->items[i], name))
            return true;
    return false;
}

/* The counters to ask the harness for: the table's (launch facts left out), then the --metrics
 * names not among them, less any in `drop` (extras CUPTI did not know). */
static void counter_names(const kd_cupti_options *o, const kd_strlist *drop, kd_strlist *out)
{
    for (const char *const *m = kd_ncu_request_list(o->full); *m; m++)
        if (!kd_cupti_is_launch_fact(*m))
            kd_strlist_push(out, *m);
    for (size_t i = 0; o->extra && i < o->extra->count; i++) {
        const char *name = o->extra->items[i];
        if (!listed(out, name) && !listed(drop, name) && !kd_cupti_is_launch_fact(name))
            kd_strlist_push(out, name);
    }
}

void kd_cupti_counter_names(const kd_cupti_options *o, kd_strlist *out)
{
    kd_strlist none = {0};
    counter_names(o, &none, out);
}

/* A pass per metric group, each a launch after its restore and flush, plus CUPTI's own work:
 * as generous as ncu's bound (ncu/ncu_run.h), without ncu's start-up. */
static int counters_timeout_ms(const kd_cupti_options *o)
{
    double passes = o->full ? 256 : 64;
    double ms = 30000.0 + (double)o->timeout_ms + passes * 2 * o->launch_ns / 1e6;
    return ms < INT_MAX ? (int)ms : INT_MAX;
}

/* Appends one field to a row being built. */
static void field(char **row, size_t *k, const char *text) { row[(*k)++] = kd_xstrdup(text); }

static void number_field(char **row, size_t *k, double v)
{
    char text[64] = "";
    if (isfinite(v))
        snprintf(text, sizeof text, "%.17g", v);
    field(row, k, text);
}

/* The table's header: Kernel Name, the counters, the launch facts, with no units (base units). */
static void make_header(const kd_strlist *names, const kd_cupti_options *o, kd_ncu_table *t)
{
    t->ncolumns = 1 + names->count + o->nfacts;
    t->columns = kd_xcalloc(t->ncolumns, sizeof *t->columns);
    t->units = kd_xcalloc(t->ncolumns, sizeof *t->units);
    size_t k = 0;
    field(t->columns, &k, "Kernel Name");
    for (size_t i = 0; i < names->count; i++)
        field(t->columns, &k, names->items[i]);
    for (size_t i = 0; i < o->nfacts; i++)
        field(t->columns, &k, o->facts[i].metric);
    for (k = 0; k < t->ncolumns; k++)
        t->units[k] = kd_xstrdup("");
}

/* One row per kernel of the reply; launch facts only for a one-kernel launch (a pipeline's
 * kernels each have their own). */
static void add_rows(const kd_wire_counters_reply *r, const kd_strlist *names, const kd_cupti_options *o,
                     const char *entry, kd_ncu_table *t)
{
    t->rows = kd_xrealloc(t->rows, (t->nrows + r->ranges) * sizeof *t->rows);
    for (size_t g = 0; g < r->ranges; g++) {
        char **row = kd_xcalloc(t->ncolumns, sizeof *row);
        size_t k = 0;
        field(row, &k, r->kernels[g][0] ? r->kernels[g] : entry ? entry : "?");
        for (size_t i = 0; i < names->count; i++)
            number_field(row, &k, r->values[g * names->count + i]);
        for (size_t i = 0; i < o->nfacts; i++)
            number_field(row, &k, r->ranges == 1 ? o->facts[i].value : NAN);
        t->rows[t->nrows++] = row;
    }
}

/* Every counter of the table must have a value (as ncu_run.c's check of its columns); a launch
 * fact the caller could not give is absent (a pipeline's, the shared-memory occupancy limit). */
static kd_cupti_collect_status check_values(const kd_cupti_options *o, kd_ncu_result *out, kd_strbuf *why)
{
    size_t missing = 0;
    for (const char *const *m = kd_ncu_request_list(o->full); *m; m++)
        if (!kd_cupti_is_launch_fact(*m) && kd_ncu_column(&out->table, *m) < 0)
            kd_sb_printf(why, "%s%s", missing++ ? ", " : "CUPTI gave no values for: ", *m);
    return missing ? KD_CUPTI_COLLECT_UNKNOWN : KD_CUPTI_COLLECT_OK;
}

static kd_cupti_collect_status from_wire(kd_wire_counters_status st)
{
    return st == KD_WIRE_COUNTERS_UNAVAILABLE ? KD_CUPTI_COLLECT_UNAVAILABLE
           : st == KD_WIRE_COUNTERS_UNKNOWN   ? KD_CUPTI_COLLECT_UNKNOWN
                                              : KD_CUPTI_COLLECT_FAILED;
}

/* Whether every name in "a,b" (an `unknown` refusal) is a --metrics name: those are guesses. */
static bool only_extras(const char *unknown, const kd_cupti_options *o, kd_strlist *names)
{
    char *copy = kd_xstrdup(unknown), *save = NULL;
    bool all = true;
    for (char *n = strtok_r(copy, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
        bool table = false;
        for (const char *const *m = kd_ncu_request_list(o->full); *m && !table; m++)
            table = !strcmp(*m, n);
        all = all && !table && o->extra && listed(o->extra, n);
        if (all)
            kd_strlist_push(names, kd_xstrdup(n));
    }
    free(copy);
    return all;
}

static kd_cupti_collect_status collect(kd_child *c, const kd_cupti_options *o, const kd_harness_side *side,
                                       kd_ncu_result *out, kd_strbuf *why)
{
    kd_strlist names = {0}, dropped = {0};
    counter_names(o, &dropped, &names);
    kd_cupti_collect_status st = KD_CUPTI_COLLECT_OK;
    for (int rep = 0; rep < o->repeats && st == KD_CUPTI_COLLECT_OK; rep++) {
        kd_wire_counters_reply r;
        kd_strbuf refusal = {0};
        kd_wire_counters_status ws =
            kd_wire_counters(c, (const char *const *)names.items, names.count, counters_timeout_ms(o), &r, &refusal);
        if (ws == KD_WIRE_COUNTERS_UNKNOWN && rep == 0 && only_extras(kd_sb_str(&refusal), o, &dropped)) {
            /* --metrics names CUPTI does not know: said like ncu's missing columns, not fatal. */
            kd_sb_free(&refusal);
            free(names.items);
            names = (kd_strlist){0};
            counter_names(o, &dropped, &names);
            rep--;
            continue;
        }
        if (ws != KD_WIRE_COUNTERS_OK) {
            if (ws == KD_WIRE_COUNTERS_UNKNOWN)
                kd_sb_puts(why, "CUPTI does not know ");
            kd_sb_puts(why, kd_sb_str(&refusal));
            kd_sb_free(&refusal);
            st = from_wire(ws);
            break;
        }
        kd_sb_free(&refusal);
        if (r.setup_ms >= 0) /* where the harness's time went (bench/full_diff.sh reads it) */
            kd_trace("counters %s: %zu kernel(s), %zu passes (%s replay); in the harness: setup %.0f ms, passes %.0f "
                     "ms, evaluation %.0f ms", side->label, r.ranges, r.passes, r.replay, r.setup_ms, r.passes_ms,
                     r.evaluate_ms);
        else
            kd_trace("counters %s: %zu kernel(s), %zu passes (%s replay)", side->label, r.ranges, r.passes, r.replay);
        if (rep == 0) {
            make_header(&names, o, &out->table);
            out->kernels_per_launch = r.ranges;
            out->cupti_version = r.cupti_version;
            snprintf(out->replay, sizeof out->replay, "%s", r.replay);
            snprintf(out->l2, sizeof out->l2, "%s", r.l2);
        } else if (r.ranges != out->kernels_per_launch) {
            kd_sb_printf(why, "the launch ran %zu kernels, then %zu", out->kernels_per_launch, r.ranges);
            st = KD_CUPTI_COLLECT_FAILED;
        }
        if (st == KD_CUPTI_COLLECT_OK)
            add_rows(&r, &names, o, side->load_symbol, &out->table);
        kd_wire_counters_free(&r);
    }
    if (st == KD_CUPTI_COLLECT_OK)
        st = check_values(o, out, why);
    if (st == KD_CUPTI_COLLECT_OK && dropped.count) {
        kd_strbuf missing = {0};
        for (size_t i = 0; i < dropped.count; i++)
            kd_sb_printf(&missing, "%s%s", i ? ", " : "", dropped.items[i]);
        out->missing_extra = kd_sb_take(&missing);
    }
    for (size_t i = 0; i < dropped.count; i++)
        free(dropped.items[i]);
    free(dropped.items);
    free(names.items);
    return st;
}

kd_cupti_collect_status kd_cupti_collect(const kd_cupti_options *o, const kd_harness_side *side,
                                         unsigned long long seed, kd_ncu_result *out, kd_strbuf *why)
{
    memset(out, 0, sizeof *out);
    out->repeats = o->repeats;
    kd_child c;
    if (kd_child_start(&c, side->label, side->harness_argv, why) != 0)
        return KD_CUPTI_COLLECT_FAILED;
    unsigned long long bytes;
    kd_cupti_collect_status st = KD_CUPTI_COLLECT_FAILED;
    if (kd_harness_describe(&c, side, seed, o->timeout_ms, NULL, why) == 0) {
        kd_wire_send_setup(&c);
        if (kd_wire_setup_reply(&c, kd_launch_spec_bytes(side->spec), &bytes, why) == 0)
            st = collect(&c, o, side, out, why);
    }
    kd_child_stop(&c);
    return st;
}

/* A fresh child holding both sides: started, described, seeded and set up as the timing
 * pass's was. False with why and *side on a failure. */
static bool start_both(kd_child *c, const kd_cupti_both_request *req, kd_strbuf *why, int *side)
{
    const kd_harness_side *sides = req->sides;
    int timeout = req->o[0].timeout_ms;
    unsigned long long bytes;
    if (kd_child_start(c, sides[0].label, req->argv, why) != 0)
        return false;
    bool ready = kd_wire_hello(c, NULL, why) == 0 && kd_wire_describe(c, 0, &sides[0], NULL, timeout, why) == 0 &&
                 (*side = 1, kd_wire_describe(c, 1, &sides[1], NULL, timeout, why) == 0);
    if (ready && kd_wire_seed(c, req->seed, timeout) != KD_REPLY_OK) {
        kd_child_failure_words(c, KD_REPLY_ERR, "describing the launch", why);
        ready = false;
    }
    if (ready) {
        *side = 0;
        kd_wire_send_setup(c);
        ready = kd_wire_setup_reply(c, kd_launch_spec_bytes(sides[0].spec) + kd_launch_spec_bytes(sides[1].spec),
                                    &bytes, why) == 0;
    }
    if (!ready)
        kd_child_stop(c);
    return ready;
}

/* Each side's counters in c, which holds both (slots 0 and 1). */
static kd_cupti_collect_status collect_sides(kd_child *c, const kd_cupti_both_request *req, kd_ncu_result out[2],
                                             kd_strbuf *why, int *side)
{
    const kd_cupti_options *o = req->o;
    kd_cupti_collect_status st = KD_CUPTI_COLLECT_FAILED;
    for (int s = 0; s < 2; s++) {
        *side = s;
        out[s].repeats = o[s].repeats;
        kd_reply_status rs = kd_child_call(c, o[s].timeout_ms, "side %d", s);
        if (rs != KD_REPLY_OK) {
            kd_child_failure_words(c, rs, NULL, why);
            st = KD_CUPTI_COLLECT_FAILED;
            break;
        }
        st = collect(c, &o[s], &req->sides[s], &out[s], why);
        if (st != KD_CUPTI_COLLECT_OK)
            break;
    }
    return st;
}

kd_cupti_collect_status kd_cupti_collect_both(const kd_cupti_both_request *req, kd_ncu_result out[2], kd_strbuf *why,
                                              int *side)
{
    memset(out, 0, 2 * sizeof *out);
    *side = 0;
    kd_child c;
    /* The timing pass's child first: the sides are there already, set up and warm. Any
     * failure there is tried again in a fresh child, whose answer stands (a CUPTI that will
     * not profile in a process that traces kernels would be refused there and not here). */
    if (kd_harness_pool_take_handed(req->argv, req->sides[0].label, &c)) {
        kd_trace("counter pass v1, v2 (CUPTI, in the timing pass's harness)");
        kd_strbuf first = {0};
        kd_cupti_collect_status st = collect_sides(&c, req, out, &first, side);
        kd_child_stop(&c);
        if (st == KD_CUPTI_COLLECT_OK) {
            kd_sb_free(&first);
            return st;
        }
        kd_trace("counters in the timing pass's harness: %s; a fresh harness tries", kd_sb_str(&first));
        kd_sb_free(&first);
        for (int s = 0; s < 2; s++)
            kd_ncu_result_free(&out[s]);
        memset(out, 0, 2 * sizeof *out);
        *side = 0;
    }
    kd_trace("counter pass v1, v2 (CUPTI, in one harness)");
    if (!start_both(&c, req, why, side))
        return KD_CUPTI_COLLECT_FAILED;
    kd_cupti_collect_status st = collect_sides(&c, req, out, why, side);
    kd_child_stop(&c);
    return st;
}
