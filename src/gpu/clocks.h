/* clocks.h — --lock-clocks: lock the GPU's SM clock for the run, through NVML, and put it
 * back however kerndiff ends (normal exit, error, SIGINT/SIGTERM/SIGHUP). Root only.
 * Never use it on a GPU you share or borrow: other people's work runs at your clock. */
#ifndef KD_GPU_CLOCKS_H
#define KD_GPU_CLOCKS_H

#include "util/strbuf.h"

/* Locks to the default applications clock (the base clock; the maximum clock when NVML
 * has no default) and registers the reset. 0 with *mhz, or -1 with the reason in why. */
int kd_clocks_lock(unsigned *mhz, kd_strbuf *why);

#endif
