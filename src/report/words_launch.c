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
    /* launch/spec.c's refusals (e2e launch suites grep these). */
    {KD_MSG_SPEC_ENTRY_FORM, 3, "{0} {1}: expected NAME={2}"},
    {KD_MSG_SPEC_NO_PARAM, 5, "{0} {1}: kernel '{2}' has no parameter '{3}' (its parameters: {4})"},
    {KD_MSG_SPEC_BUFFER_NOT_SCALAR, 4,
     "{0} {1}: '{2}' is a buffer ({3}), not a scalar; set its element count with --buf {2}=COUNT"},
    {KD_MSG_SPEC_SCALAR_NOT_BUFFER, 4,
     "{0} {1}: '{2}' is a scalar ({3}), not a buffer; give its value with --arg {2}=VALUE"},
    {KD_MSG_SPEC_SCALAR_TYPE, 2,
     "scalar parameter '{0}' has type '{1}', which kerndiff cannot pass: change the type to a plain number type, or "
     "launch it with a custom launcher (include/kerndiff/launcher.h)"},
    {KD_MSG_SPEC_SCALAR_VECTOR, 2,
     "scalar parameter '{0}' is a vector ({1}), which kerndiff cannot pass by value: pass its lanes as separate "
     "parameters, or launch it with a custom launcher (include/kerndiff/launcher.h)"},
    {KD_MSG_SPEC_DESCRIPTOR, 2,
     "parameter '{0}' is a tensor descriptor, which the caller makes from its tensors and no flag can give: "
     "take the launch from a program that makes it, --fn {1} --from 'CMD'"},
    {KD_MSG_SPEC_NOT_WHOLE, 4,
     "scalar parameter '{0}' ({1}) needs a whole number, but its value (from {2}) is {3:.17g}: give it one with "
     "--arg {0}=VALUE"},
    {KD_MSG_SPEC_NOT_WHOLE_N, 4,
     "scalar parameter '{0}' ({1}) needs a whole number, but its value (from {2}) is {3:.17g}: give it one with "
     "--arg {0}=VALUE or choose a smaller --n"},
    {KD_MSG_SPEC_OUT_OF_RANGE, 6,
     "scalar parameter '{0}' ({1}) holds {2:.0f}..{3:.0f}, but its value (from {4}) is {5:.0f}: give it one with "
     "--arg {0}=VALUE"},
    {KD_MSG_SPEC_OUT_OF_RANGE_N, 6,
     "scalar parameter '{0}' ({1}) holds {2:.0f}..{3:.0f}, but its value (from {4}) is {5:.0f}: give it one with "
     "--arg {0}=VALUE or choose a smaller --n"},
    {0, 0, NULL},
};
