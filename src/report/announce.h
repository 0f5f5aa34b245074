/* announce.h — results worth seeing before the run ends, worded: the verdict, said as soon
 * as the timing has decided it (diff/runtime.h's verdict hook), before the slower passes. */
#ifndef KD_REPORT_ANNOUNCE_H
#define KD_REPORT_ANNOUNCE_H

#include "diff/comparison.h"

/* The timing's headline as an announcement (util/progress.h: a line unless quiet or stderr is
 * not a terminal). main installs it: kd_runtime_on_verdict(kd_announce_verdict). */
void kd_announce_verdict(const kd_comparison *c);

#endif
