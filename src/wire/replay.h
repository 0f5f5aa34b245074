/* replay.h (wire) — a replayed launch (launch/replay.h) told to a harness slot: the
 * composition of docs/PROTOCOL.md's "Replayed launches" (`arg I bytes`, the allocations as
 * buffer arguments after the parameters, `fill`, `patch`), so that wire/ stays the one place
 * that writes the protocol. kd_wire_describe calls it for a side whose `replay` is set. */
#ifndef KD_WIRE_REPLAY_H
#define KD_WIRE_REPLAY_H

#include "launch/replay.h"
#include "wire/child.h"

/* After `load`: the captured parameters, side->spec's buffers (one per captured allocation,
 * as launch/replay.c made them) as arguments P.., their captured contents, the pointer words
 * and the geometry. share[j] >= 0 (slot 1 only): buffer j uses slot 0's buffer share[j]
 * (not filled: it holds slot 0's contents). Returns KD_REPLY_OK or the failing reply's status;
 * *doing says what was being done. */
kd_reply_status kd_wire_send_replay(kd_child *c, const kd_replay *r, const kd_launch_spec *spec, const int *share,
                                    int timeout_ms, const char **doing);

#endif
