#include "cli/status.h"

#include "cli/exit_codes.h"

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
    case KD_FAIL_NOT_EVALUATED: return KD_EXIT_NOT_EVALUATED;
    }
    return KD_EXIT_TOOL; /* not an outcome: kerndiff's own fault */
}

int kd_outputs_status(int failures)
{
    return failures > 0 ? KD_EXIT_TOOL : KD_EXIT_OK;
}

int kd_comparison_status(const kd_comparison *c, kd_outcome outcome, int output_failures, bool *gate_failed)
{
    *gate_failed = false;
    if (outcome != KD_OK)
        return kd_exit_code(outcome);
    if (output_failures > 0)
        return kd_outputs_status(output_failures); /* a report nobody received comes first */
    /* A gate that could not be judged fails closed, with its own status (never a pass, and
     * not a crash: CI tells "no GPU here" from "the kernel broke"). */
    switch (c->gate.result) {
    case KD_GATE_PASSED: return KD_EXIT_OK;
    case KD_GATE_SLOWER: *gate_failed = true; return KD_EXIT_SLOWER;
    case KD_GATE_OUTPUTS_DIFFER: *gate_failed = true; return KD_EXIT_MISMATCH;
    case KD_GATE_NOT_MEASURED: break;
    }
    *gate_failed = true;
    return KD_EXIT_NOT_EVALUATED;
}

int kd_app_status(const kd_app_comparison *c, kd_outcome outcome, int output_failures, bool *gate_failed)
{
    *gate_failed = false;
    if (outcome != KD_OK)
        return kd_exit_code(outcome);
    if (output_failures > 0)
        return kd_outputs_status(output_failures);
    if (c->gate == KD_APP_GATE_SLOWER) {
        *gate_failed = true;
        return KD_EXIT_SLOWER;
    }
    return KD_EXIT_OK;
}
