/* The simulated backend: the documented test seam (docs/ARCHITECTURE.md). When
 * KERNDIFF_SIMULATE="V1SPEC;V2SPEC" is set it takes the inputs the CUDA backend takes, builds
 * them the same way, and runs them in kerndiff-sim-harness, which speaks the protocol and
 * returns synthetic samples drawn as each side's spec says. */
#include "backend/registry.h"
#include "util/env.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const char *specs(void)
{
    const char *s = kd_env(KD_ENV_SIMULATE);
    return s && *s ? s : NULL;
}

static bool claims_simulated(const char *path)
{
    (void)path;
    return specs() != NULL;
}

/* One side's spec from "V1SPEC;V2SPEC" (one spec alone serves both sides). */
static char *side_spec(const char *all, int side)
{
    const char *sep = strchr(all, ';');
    if (!sep)
        return kd_xstrdup(all);
    return side == 0 ? kd_xstrndup(all, (size_t)(sep - all)) : kd_xstrdup(sep + 1);
}

static int sim_harness(int side, kd_argv *argv, kd_strbuf *why)
{
    if (kd_backend_find_harness("kerndiff-sim-harness", argv, why) != 0)
        return -1;
    /* Alone: the side's spec; both: v1's spec for slot 0, v2's for slot 1. */
    argv->items[1] = side_spec(specs(), side < 0 ? 0 : side);
    if (side < 0)
        argv->items[2] = side_spec(specs(), 1);
    return 0;
}

const kd_backend kd_backend_sim = {
    .name = "sim",
    .simulated = true,
    .claims = claims_simulated,
    .harness = sim_harness,
};
