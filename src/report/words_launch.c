/* The words of launch/'s messages (launch/launch_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "launch/launch_msgs.h"

const kd_wording kd_wording_launch[] = {
    /* a launch replayed from a capture (launch/replay.h) */
    {KD_MSG_REPLAY_TOO_MANY, 4,
     "kerndiff: {0}: the captured launch has {1} parameters and reaches {2} allocations; a harness takes {3} "
     "arguments in all"},
    {KD_MSG_REPLAY_PARAM_COUNT, 5,
     "kerndiff: {0}: {1} takes {2} parameters, the captured kernel {3} took {4}: the captured launch cannot be "
     "replayed on it (is --fn the captured kernel, and the file its version?)"},
    {KD_MSG_REPLAY_PARAM_SIZE, 6,
     "kerndiff: {0}: parameter {1} '{2}' ({3}) is {4} bytes, the captured kernel's parameter {1} was {5} bytes: "
     "the captured launch cannot be replayed on this version (its parameters must keep their sizes)"},
    {KD_MSG_REPLAY_PARAM_POINTER, 4,
     "kerndiff: {0}: parameter {1} '{2}' ({3}) is not a pointer, but the program passed a device pointer there: "
     "the captured launch cannot be replayed on this version"},
    {KD_MSG_REPLAY_OUTPUTS_SHORT, 2,
     "kerndiff: the replayed launch's outputs are {0} bytes, the captured allocations it changed need {1}"},
    {KD_MSG_REPLAY_AFTER_UNREADABLE, 1, "kerndiff: cannot read the program's result extracted to {0}"},
    {KD_MSG_REPLAY_CLUSTER, 3,
     "kerndiff: {0}: the captured grid {1} is not made of its clusters of {2} blocks (each dimension a multiple): "
     "no GPU ran this launch, the file is corrupt"},
    {0, 0, NULL},
};
