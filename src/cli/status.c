#include "cli/status.h"

#include "cli/exit_codes.h"
#include "report/gate_text.h"
#include "report/model_text.h"

int kd_exit_code(kd_outcome outcome)
{
    switch (outcome) {
    case KD_OK: return KD_EXIT_OK;
    case KD_FAIL_USAGE: return KD_EXIT_USAGE;
    case KD_FAIL_INPUT: return KD_EXIT_INPUT;
    case KD_FAIL_BUILD: return KD_EXIT_BUILD;
    case KD_FAIL_RUNTIME: return KD_EXIT_RUNTIME;
    case KD_FAIL_TOOL: return KD_EXIT_TOOL;
    case KD_FAIL_SANITIZER: return KD_EXIT_SANITIZER;
    }
    return KD_EXIT_TOOL; /* not an outcome: kerndiff's own fault */
}

int kd_comparison_status(const kd_comparison *c, kd_outcome outcome, kd_strbuf *why)
{
    if (outcome != KD_OK || c->gate.result == KD_GATE_PASSED)
        return kd_exit_code(outcome);
    /* A gate that could not be judged fails closed, with the real reason. */
    if (c->gate.result == KD_GATE_NOT_MEASURED)
        kd_gate_not_evaluated_text(c, why);
    else
        kd_gate_reason(&c->gate, why);
    switch (c->gate.result) {
    case KD_GATE_SLOWER: return KD_EXIT_SLOWER;
    case KD_GATE_OUTPUTS_DIFFER: return KD_EXIT_MISMATCH;
    case KD_GATE_NOT_MEASURED: case KD_GATE_PASSED: break;
    }
    return KD_EXIT_RUNTIME;
}
