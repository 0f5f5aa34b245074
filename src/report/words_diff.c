/* The words of diff/'s messages (diff/diff_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "diff/diff_msgs.h"

const kd_wording kd_wording_diff[] = {
    /* diff/pipeline.c (R27) */
    {KD_MSG_DIFF_ARCH_WANTS_SM, 1, "kerndiff: --arch wants sm_XX (e.g. sm_90), got '{0}'"},
    {KD_MSG_DIFF_CANNOT_READ_AGAIN, 2, "kerndiff: {0}: cannot read {1} again"},
    {KD_MSG_DIFF_SIDE_SAYS, 2, "kerndiff: {0}: {1}"},
    {KD_MSG_DIFF_STATIC_FAILED, 3, "kerndiff: {0} ({1}): {2}"},
    {KD_MSG_DIFF_GIT_NO_FILE, 2,
     "kerndiff: cannot read '{0}': {1} (one file means git mode: its committed version against the working copy; two "
     "files are compared with each other; kerndiff --help)"},
    {KD_MSG_DIFF_NO_TMPDIR, 0, "kerndiff: cannot create a private temporary folder"},
    {KD_MSG_DIFF_SAYS, 1, "kerndiff: {0}"},
    /* as report/kernels_text.c's line in the report, for the exit status's reason */
    {KD_MSG_DIFF_NEEDS_ONE_KERNEL, 1, "kerndiff: timing needs one kernel: --fn NAME ({0})"},
    /* the same with kernels_text.c's needs clause (kd_kernels_needs_clause) */
    {KD_MSG_DIFF_NEEDS_ONE_KERNEL_ARGS, 3,
     "kerndiff: timing needs one kernel: --fn NAME ({0}), and {1} (no value given or in the file for {2})"},
    {KD_MSG_DIFF_NEEDS_ONE_KERNEL_EACH, 3,
     "kerndiff: timing needs one kernel: --fn NAME ({0}), and the values the chosen kernel's launch needs: {1} (no "
     "value given or in the file for {2})"},
    {KD_MSG_DIFF_TEMPLATE_NOT_INSTANTIATED, 3,
     "kerndiff: {0} ({1}): template kernel '{2}' has no compiled instance, not compared (the others are); "
     "instantiate it (template __global__ void {2}<...>(...);) to compare it"},
    {KD_MSG_DIFF_DESCRIPTOR_NOT_COMPARED, 3,
     "kerndiff: {0} ({1}): kernel '{2}' takes tensor descriptors, which only its caller makes: not compared (the "
     "others are); --fn {2} --from 'CMD' compares it with the launch a program makes"},
    {KD_MSG_DIFF_CALLERS_FOUND, 5,
     "kerndiff: {1} does not launch {0} itself{2}; its callers, best first ({4}; run from {3}):"},
    {KD_MSG_DIFF_CALLERS_FOUND_ANY, 4,
     "kerndiff: {0} launches none of its kernels itself{1}; their callers, best first, each with the kernel its "
     "launch gives ({3}; run from {2}):"},
    {KD_MSG_DIFF_CALLERS_NONE_ANY, 5,
     "kerndiff: {0} launches none of its kernels itself, and no test, benchmark or script in {1} reaches them ({2} "
     "Python files read{3}){4}: the launches are described; to take one from a program that makes it: --fn NAME "
     "--from 'CMD'"},
    {KD_MSG_DIFF_CALLER_JAX, 3,
     "kerndiff: {1} launches {0} through jax_triton.triton_call (line {2}), a JAX launch: kerndiff captures PyTorch "
     "and CUDA launches, not JAX's, so the launch is described (give the values that call passes with --arg "
     "NAME=VALUE or a `# kerndiff:` line)"},
    {KD_MSG_DIFF_CALLER, 5, "kerndiff:   {0}. {1} {2}: --fn {4} --from {3}"},
    {KD_MSG_DIFF_CALLER_CALLS, 1, "calls {0}"},
    {KD_MSG_DIFF_CALLER_IMPORTS, 0, "imports the module (runs the whole file)"},
    {KD_MSG_DIFF_CALLER_WHY_NO_GPU, 1, "not run: no GPU: {0}; on a GPU the first is run with capture"},
    {KD_MSG_DIFF_CALLER_WHY_NO_RUN, 0, "not run: --no-run"},
    {KD_MSG_DIFF_CALLER_WHY_FLAGS, 1, "not run: {0} describes the launch"},
    {KD_MSG_DIFF_CALLERS_NONE, 7,
     "kerndiff: {1} does not launch {0} itself, and no test, benchmark or script in {2} reaches it ({3} Python files "
     "read{4}){5}: the launch is described; to take it from a program that makes it: --fn {6} --from 'CMD'"},
    {KD_MSG_DIFF_CALLERS_CAPPED, 1, ", stopped at the bound on {0}"},
    {KD_MSG_DIFF_CALLERS_NEAREST, 1, "; the likeliest ({0}) do not import it as written"},
    {KD_MSG_DIFF_CALLERS_ELSEWHERE, 1,
     "; the torch.ops that reach the kernel are registered for other devices only ({0}): on an NVIDIA GPU they "
     "run another kernel"},
    {KD_MSG_DIFF_CALLER_WRAPPERS, 1, " (only through {0})"},
    {KD_MSG_DIFF_CALLER_NOTHING, 0, ""},
    {KD_MSG_DIFF_CALLER_TAKEN, 4,
     "kerndiff: {0}: launch taken from {1}, its 1st launch ({2}; the same as --fn {0} --from {3})"},
    {KD_MSG_DIFF_CALLER_FAILED, 4,
     "kerndiff: {0}: its caller {1} did not give the launch: {2}; the launch is described instead (--fn {0} --from "
     "{3} runs it yourself)"},
    {KD_MSG_DIFF_LIST_NOT_PREPARED, 1, "the front end could not prepare the launch of '{0}'"},
    {KD_MSG_DIFF_PASS_NOT_RUN, 2, "kerndiff: {0}: not run: nothing is measured this run ({1}); static diff only"},
    {KD_MSG_DIFF_PASS_NOT_RUN_BARE, 1, "kerndiff: {0}: not run: nothing is measured this run; static diff only"},
    {0, 0, NULL},
};
