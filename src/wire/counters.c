#include "wire/counters.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/protocol.h"
#include "wire/wire_msgs.h"
#include "util/xalloc.h"

/* "v,v,..." into n values; false when the count differs or a value is not a number. */
static bool parse_values(const char *text, double *out, size_t n)
{
    const char *p = text;
    for (size_t m = 0; m < n; m++) {
        if (!strncmp(p, "nan", 3)) {
            out[m] = NAN;
            p += 3;
        } else {
            char *end;
            errno = 0;
            out[m] = strtod(p, &end);
            if (end == p || errno == ERANGE || !isfinite(out[m]))
                return false;
            p = end;
        }
        if (*p != (m + 1 < n ? ',' : '\0'))
            return false;
        p += *p == ',';
    }
    return true;
}

/* kernels=K0,K1,...: exactly `ranges` names, %-decoded, "-" for none. */
static bool parse_kernels(const char *text, kd_wire_counters_reply *out)
{
    char *copy = kd_xstrdup(text), *save = NULL;
    size_t k = 0;
    for (char *name = strtok_r(copy, ",", &save); name && k < out->ranges; name = strtok_r(NULL, ",", &save), k++) {
        kd_proto_decode(name);
        out->kernels[k] = kd_xstrdup(strcmp(name, "-") ? name : "");
    }
    free(copy);
    return k == out->ranges;
}

static kd_wire_counters_status parse_reply(const kd_words *w, size_t n, kd_wire_counters_reply *out, kd_strbuf *why)
{
    const char *ranges = kd_proto_value(w, 2, "ranges"), *passes = kd_proto_value(w, 2, "passes");
    const char *replay = kd_proto_value(w, 2, "replay"), *kernels = kd_proto_value(w, 2, "kernels");
    char *end = NULL;
    unsigned long r = ranges ? strtoul(ranges, &end, 10) : 0;
    if (!ranges || *end || r == 0 || r > 64 || !passes || !replay || !kernels || w->count < 2 ||
        strcmp(w->word[1], "counters")) {
        kd_diag d = {0};
        kd_diag_set0(&d, KD_MSG_WIRE_COUNTERS_MALFORMED, KD_DIAG_NO_SIDE);
        kd_diag_append_words(&d, why);
        kd_diag_free(&d);
        return KD_WIRE_COUNTERS_FAILED;
    }
    out->ranges = r;
    out->passes = strtoul(passes, NULL, 10);
    const char *phase[3] = {kd_proto_value(w, 2, "setup_ms"), kd_proto_value(w, 2, "passes_ms"),
                            kd_proto_value(w, 2, "evaluate_ms")};
    double *ms[3] = {&out->setup_ms, &out->passes_ms, &out->evaluate_ms};
    for (size_t i = 0; i < 3; i++)
        *ms[i] = phase[i] ? strtod(phase[i], NULL) : -1;
    snprintf(out->replay, sizeof out->replay, "%s", replay);
    const char *cupti = kd_proto_value(w, 2, "cupti"), *l2 = kd_proto_value(w, 2, "l2");
    unsigned long version = cupti ? strtoul(cupti, &end, 10) : 0;
    out->cupti_version = cupti && !*end && version < 1000000 ? (unsigned)version : 0;
    /* only the three words the protocol has: anything else would reach the report */
    if (l2 && (!strcmp(l2, "cupti") || !strcmp(l2, "harness") || !strcmp(l2, "none")))
        snprintf(out->l2, sizeof out->l2, "%s", l2);
    out->kernels = kd_xcalloc(r, sizeof *out->kernels);
    out->values = kd_xcalloc(r * (n ? n : 1), sizeof *out->values);
    bool ok = parse_kernels(kernels, out);
    for (size_t k = 0; ok && k < r; k++) {
        char key[16];
        snprintf(key, sizeof key, "r%zu", k);
        const char *values = kd_proto_value(w, 2, key);
        ok = values && parse_values(values, &out->values[k * n], n);
    }
    if (!ok) {
        kd_diag d = {0};
        kd_diag_set(&d, KD_MSG_WIRE_COUNTERS_VALUES, KD_DIAG_NO_SIDE, KD_U(n));
        kd_diag_append_words(&d, why);
        kd_diag_free(&d);
        return KD_WIRE_COUNTERS_FAILED;
    }
    return KD_WIRE_COUNTERS_OK;
}

/* err counters unavailable|unknown MESSAGE (the message is the rest of the line); FAILED,
 * with nothing said, for any other err. */
static kd_wire_counters_status parse_refusal(const kd_child *c, kd_strbuf *why)
{
    const kd_words *w = &c->words;
    if (w->count < 3 || strcmp(w->word[1], "counters"))
        return KD_WIRE_COUNTERS_FAILED;
    kd_wire_counters_status st = !strcmp(w->word[2], "unavailable") ? KD_WIRE_COUNTERS_UNAVAILABLE
                                 : !strcmp(w->word[2], "unknown")   ? KD_WIRE_COUNTERS_UNKNOWN
                                                                    : KD_WIRE_COUNTERS_FAILED;
    for (size_t i = 3; st != KD_WIRE_COUNTERS_FAILED && i < w->count; i++)
        kd_sb_printf(why, "%s%s", i > 3 ? " " : "", w->word[i]);
    return st;
}

/* The names as the protocol's one word: "a,b,c". */
static void join_names(const char *const *names, size_t n, kd_strbuf *list)
{
    for (size_t i = 0; i < n; i++)
        kd_sb_printf(list, "%s%s", i ? "," : "", names[i]);
}

kd_wire_counters_status kd_wire_counters(kd_child *c, const char *const *names, size_t n, int timeout_ms,
                                         kd_wire_counters_reply *out, kd_strbuf *why)
{
    memset(out, 0, sizeof *out);
    kd_strbuf list = {0};
    join_names(names, n, &list);
    kd_reply_status st = kd_child_call(c, timeout_ms, "counters %s", kd_sb_str(&list));
    kd_sb_free(&list);
    kd_wire_counters_status result = KD_WIRE_COUNTERS_FAILED;
    if (st == KD_REPLY_OK)
        result = parse_reply(&c->words, n, out, why);
    else if (st != KD_REPLY_ERR || (result = parse_refusal(c, why)) == KD_WIRE_COUNTERS_FAILED) {
        kd_child_failure_words(c, st, "collecting counters", why);
        result = KD_WIRE_COUNTERS_FAILED;
    }
    if (result != KD_WIRE_COUNTERS_OK)
        kd_wire_counters_free(out);
    return result;
}

void kd_wire_counters_free(kd_wire_counters_reply *r)
{
    for (size_t k = 0; r->kernels && k < r->ranges; k++)
        free(r->kernels[k]);
    free(r->kernels);
    free(r->values);
    memset(r, 0, sizeof *r);
}

void kd_wire_send_prepare_counters(kd_child *c, const char *const *names, size_t n)
{
    kd_strbuf list = {0};
    join_names(names, n, &list);
    kd_child_send(c, "prepare-counters %s", kd_sb_str(&list));
    kd_sb_free(&list);
}

kd_reply_status kd_wire_prepare_counters_reply(kd_child *c, int timeout_ms, double *ms)
{
    kd_reply_status st = kd_child_receive(c, timeout_ms);
    const char *v = st == KD_REPLY_OK ? kd_proto_value(&c->words, 2, "ms") : NULL;
    *ms = v ? strtod(v, NULL) : -1;
    return st;
}
