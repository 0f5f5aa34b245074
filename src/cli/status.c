#include "cli/status.h"

#include "cli/exit_codes.h"
#include "report/model_text.h"

int kd_comparison_status(const kd_comparison *c, int rc, kd_strbuf *why)
{
    if (rc != KD_EXIT_OK || c->gate.result == KD_GATE_PASSED)
        return rc;
    kd_gate_reason(&c->gate, why);
    switch (c->gate.result) {
    case KD_GATE_SLOWER: return KD_EXIT_SLOWER;
    case KD_GATE_OUTPUTS_DIFFER: return KD_EXIT_MISMATCH;
    case KD_GATE_NOT_MEASURED: case KD_GATE_PASSED: break;
    }
    return KD_EXIT_RUNTIME;
}
