/* replay_pass.h — `--launch FILE`'s own check (issue 30 item 2): each side, alone in a
 * harness child, runs the replayed launch once on the captured data and its outputs are
 * compared with what the program's own kernel computed (the capture's contents after the
 * launch), into kd_comparison.replay. A row of diff/passes.c's table, after the timing. */
#ifndef KD_DIFF_REPLAY_PASS_H
#define KD_DIFF_REPLAY_PASS_H

#include "diff/passes.h"

extern const kd_pass kd_replay_pass;

#endif
