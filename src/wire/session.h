/* session.h — bringing a harness child to the point where it can launch: hello, load,
 * arguments, geometry and seed, then setup. Shared by the timing pass and the counter pass,
 * which runs the same harness under ncu. */
#ifndef KD_HARNESS_SESSION_H
#define KD_HARNESS_SESSION_H

#include "wire/child.h"
#include "launch/spec.h"
#include "util/strbuf.h"

typedef struct kd_harness_side {
    const char *label;                 /* "v1" / "v2" */
    const char *const *harness_argv;   /* the child to start */
    const char *load_kind;             /* "cubin" or "launcher" */
    const char *load_path;             /* the cubin or shared object */
    const char *load_symbol;           /* entry or launcher symbol */
    const kd_launch_spec *spec;
} kd_harness_side;

typedef struct kd_device_info {
    char name[128];
    int sm, sms, driver;
    long l2_bytes;
} kd_device_info;

enum { KD_HARNESS_START_MS = 120000 }; /* CUDA start-up, module loading, large allocations */

/* hello (the protocol version checked), load, every argument, geometry and seed. Returns 0,
 * or -1 with "what it was doing: what happened" in why. `info` may be NULL. */
int kd_harness_describe(kd_child *c, const kd_harness_side *side, unsigned long long seed, int timeout_ms,
                        kd_device_info *info, kd_strbuf *why);

/* Reads the reply to `setup` (sent with kd_child_send, so both sides can set up at once).
 * Returns 0 with the device bytes allocated, or -1 with the reason in why (for an
 * allocation failure, with how much the launch needs). */
int kd_harness_setup_reply(kd_child *c, const kd_launch_spec *spec, unsigned long long *bytes, kd_strbuf *why);

#endif
