#include "measure/brief.h"

#include "measure/stats.h"

enum { WARMUP_MS = 500, TIMED_SAMPLES = 20 };

int kd_time_briefly(kd_child *c, const char *what, int timeout_ms, double *median_ns, kd_strbuf *why)
{
    kd_warmup_result w;
    kd_reply_status st = kd_wire_warmup(c, WARMUP_MS, timeout_ms, &w);
    if (st == KD_REPLY_OK)
        st = kd_wire_mode(c, 0, timeout_ms);
    double samples[TIMED_SAMPLES];
    kd_time_block block = {.samples = samples};
    if (st == KD_REPLY_OK)
        st = kd_wire_time(c, TIMED_SAMPLES, timeout_ms + TIMED_SAMPLES, &block);
    if (st != KD_REPLY_OK) {
        kd_sb_printf(why, "timing %s: ", what);
        kd_child_failure_words(c, st, NULL, why);
        return -1;
    }
    kd_summary s;
    if (kd_summarize(samples, TIMED_SAMPLES, &s) != 0) { /* only when no sample is a number */
        kd_sb_printf(why, "timing %s: the harness sent no sample that is a number", what);
        return -1;
    }
    *median_ns = s.median;
    return 0;
}

int kd_time_side_briefly(const kd_harness_side *side, unsigned long long seed, int timeout_ms, double *median_ns,
                         kd_strbuf *why)
{
    kd_child c;
    if (kd_child_start(&c, side->label, side->harness_argv, why) != 0)
        return -1;
    unsigned long long bytes;
    int rc = kd_harness_describe(&c, side, seed, timeout_ms, NULL, why);
    if (rc == 0) {
        kd_wire_send_setup(&c);
        rc = kd_wire_setup_reply(&c, kd_launch_spec_bytes(side->spec), &bytes, why);
    }
    if (rc == 0)
        rc = kd_time_briefly(&c, "the kernel", timeout_ms, median_ns, why);
    kd_child_stop(&c);
    return rc;
}
