#include "gpu/clocks.h"

#include <unistd.h>

#include "gpu/nvml.h"
#include "util/cleanup.h"

static kd_nvml *locked;

/* Runs from kd_on_exit, also inside a signal handler: NVML is not async-signal-safe, but
 * a GPU left locked is worse than the small risk of a reset that does not complete. */
static void reset_clocks(void)
{
    if (!locked)
        return;
    kd_nvml_reset_clocks(locked);
    kd_nvml_close(locked);
    locked = NULL;
}

int kd_clocks_lock(unsigned *mhz, kd_strbuf *why)
{
    if (geteuid() != 0) {
        kd_sb_puts(why, "--lock-clocks needs root (NVML refuses to change clocks otherwise)");
        return -1;
    }
    char reason[256];
    kd_nvml *n = kd_nvml_open(NULL, reason, sizeof reason);
    if (!n) {
        kd_sb_printf(why, "--lock-clocks: %s", reason);
        return -1;
    }
    if (kd_nvml_default_sm_clock(n, mhz) != 0 && kd_nvml_max_sm_clock(n, mhz) != 0) {
        kd_sb_puts(why, "--lock-clocks: NVML reports no SM clock to lock to");
        kd_nvml_close(n);
        return -1;
    }
    /* Registered before locking, so that a signal arriving in between still resets. */
    locked = n;
    if (kd_on_exit(reset_clocks) != 0 || kd_nvml_lock_clocks(n, *mhz) != 0) {
        kd_sb_printf(why, "--lock-clocks: NVML refused to lock the SM clock at %u MHz", *mhz);
        reset_clocks();
        return -1;
    }
    return 0;
}
