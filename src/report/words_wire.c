/* The words of wire/'s messages (wire/wire_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "wire/wire_msgs.h"

const kd_wording kd_wording_wire[] = {
    /* The failure of a harness child (wire/child.h's kd_child_failure): e2e suites grep these. */
    {KD_MSG_WIRE_CHILD_NO_FAILURE, 0, "no failure"},
    {KD_MSG_WIRE_CHILD_ERR, 1, "{0}"},
    {KD_MSG_WIRE_CHILD_TIMEOUT, 0, "the harness did not answer in time (a hung kernel?) and was killed"},
    {KD_MSG_WIRE_CHILD_SIGNAL, 2, "the harness was killed by signal {0:d} ({1})"},
    {KD_MSG_WIRE_CHILD_SIGNAL_WORDS, 3, "the harness was killed by signal {0:d} ({1}); its last words: {2}"},
    {KD_MSG_WIRE_CHILD_EXIT, 1, "the harness exited with status {0:d}"},
    {KD_MSG_WIRE_CHILD_EXIT_WORDS, 2, "the harness exited with status {0:d}; its last words: {1}"},
    {KD_MSG_WIRE_CHILD_GARBLED, 1, "the harness broke the protocol: it answered '{0}'"},
    {KD_MSG_WIRE_CHILD_WHILE, 2, "{0}: {1}"},
    {KD_MSG_WIRE_CHILD_NO_PIPES, 1, "cannot create pipes: {0}"},
    {KD_MSG_WIRE_CHILD_NO_FORK, 1, "cannot fork: {0}"},
    {KD_MSG_WIRE_PROTOCOL_VERSION, 2, "the harness speaks protocol {0}, kerndiff speaks {1:d}: reinstall kerndiff"},
    {KD_MSG_WIRE_NEEDS_MEMORY, 1, " (this launch needs {0:.2f} GiB of GPU memory: reduce --n or --buf)"},
    {KD_MSG_WIRE_COUNTERS_MALFORMED, 0, "the harness answered `counters` with a malformed reply"},
    {KD_MSG_WIRE_COUNTERS_VALUES, 1, "the harness answered `counters` without {0:d} values per kernel"},
    {0, 0, NULL},
};
