/* The words of backend/triton*.c's messages (backend/triton_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "backend/triton_msgs.h"

#define BUILT_FILES "kernel.ptx/kernel.cubin/metadata.json"
#define NO_HELPER_HINT "build it with `make`, or set KERNDIFF_HARNESS_DIR"
#define NO_PYTHON_HINT                                                                                                 \
    "the Python that reads Triton files: install Python 3 with Triton (pip install triton), or pass --python PATH"

/* One sentence for the diff's refusal and `kerndiff list`'s word on the same launch. */
#define CONSTEXPR_NEEDS_VALUE(name, kernel, file)                                                                      \
    "tl.constexpr '" name "' of kernel '" kernel "' needs a value: --arg " name "=VALUE, `# kerndiff: " name           \
    "=VALUE` in " file ", or a default in the signature"

const kd_wording kd_wording_triton[] = {
    {KD_MSG_TRITON_NO_HELPER, 2, "kerndiff: {0}: cannot find {1} beside kerndiff (" NO_HELPER_HINT ")"},
    {KD_MSG_TRITON_NO_HELPER_NO_SIDE, 1, "kerndiff: cannot find {0} beside kerndiff (" NO_HELPER_HINT ")"},
    {KD_MSG_TRITON_NO_PYTHON, 3, "kerndiff: {0}: cannot run {1} ({2}), " NO_PYTHON_HINT},
    {KD_MSG_TRITON_NO_PYTHON_NO_SIDE, 2, "kerndiff: cannot run {0} ({1}), " NO_PYTHON_HINT},
    {KD_MSG_TRITON_HELPER_TOOK_TOO_LONG, 3, "kerndiff: {0}: {1}: {2} took too long"},
    {KD_MSG_TRITON_HELPER_TOOK_TOO_LONG_NO_SIDE, 2, "kerndiff: {0}: {1} took too long"},
    {KD_MSG_TRITON_HELPER_CRASHED, 3, "kerndiff: {0}: {1}: {2} crashed"},
    {KD_MSG_TRITON_HELPER_CRASHED_NO_SIDE, 2, "kerndiff: {0}: {1} crashed"},
    {KD_MSG_TRITON_HELPER_NO_TRITON, 4, "kerndiff: {0}: {1} with {2}: {3}"},
    {KD_MSG_TRITON_HELPER_NO_TRITON_NO_SIDE, 3, "kerndiff: {0} with {1}: {2}"},
    {KD_MSG_TRITON_HELPER_COMPILE, 3, "kerndiff: {0}: {1} failed; Triton said:\n{2}"},
    {KD_MSG_TRITON_HELPER_COMPILE_NO_SIDE, 2, "kerndiff: {0} failed; Triton said:\n{1}"},
    {KD_MSG_TRITON_HELPER_INPUT, 2, "kerndiff: {0}: {1}"},
    {KD_MSG_TRITON_HELPER_INPUT_NO_SIDE, 1, "kerndiff: {0}"},
    {KD_MSG_TRITON_HELPER_STATUS, 5, "kerndiff: {0}: {1}: {2} exited with status {3}:\n{4}"},
    {KD_MSG_TRITON_HELPER_STATUS_NO_SIDE, 4, "kerndiff: {0}: {1} exited with status {2}:\n{3}"},
    {KD_MSG_TRITON_CANNOT_READ, 3, "kerndiff: {0}: cannot read '{1}': {2}"},
    {KD_MSG_TRITON_CANNOT_READ_NO_SIDE, 2, "kerndiff: cannot read '{0}': {1}"},
    {KD_MSG_TRITON_LIST_UNREADABLE, 1, "kerndiff: {0}"},
    {KD_MSG_TRITON_ARG_TYPE, 4, "kerndiff: {0}: argument '{1}' of {2} has Triton type {3}, which kerndiff cannot pass yet"},
    {KD_MSG_TRITON_CAPTURE_MALFORMED, 3, "kerndiff: {0}: the captured launch of {1} is malformed ({2})"},
    {KD_MSG_TRITON_NO_DESCRIPTION, 1, "kerndiff: {0}: the kernel's description is missing"},
    {KD_MSG_TRITON_BAD_WARPS, 3,
     "kerndiff: {0}: num_warps must be a power of two from 1 to 32 and num_stages at least 1 (got {1} and {2})"},
    {KD_MSG_TRITON_CONSTEXPR_NEEDS_VALUE, 4, "kerndiff: {0}: " CONSTEXPR_NEEDS_VALUE("{1}", "{2}", "{3}")},
    {KD_MSG_TRITON_CONSTEXPRS_NEED_VALUES, 4,
     "kerndiff: {0}: the tl.constexprs {1} of kernel '{2}' need values: --arg NAME=VALUE for each, `# kerndiff: "
     "NAME=VALUE ...` in {3}, or defaults in the signature"},
    {KD_MSG_TRITON_CAPTURE_UNREADABLE, 2, "kerndiff: {0}: the captured launch in {1} cannot be read"},
    {KD_MSG_TRITON_NOT_CAPTURED, 3,
     "kerndiff: {0}: the launch of {1} was not taken from the user's code: {2}; it is described by flags, annotations "
     "and defaults instead (each assumed value is in the build line)"},
    {KD_MSG_TRITON_CONFIG_NONE, 4, "kerndiff: {0}: --config {1} names none of {2}'s autotune configs: {3}"},
    {KD_MSG_TRITON_CONFIG_NO_CONFIGS, 3,
     "kerndiff: {0}: --config {1} names none of {2}'s autotune configs (it has none written in the file)"},
    {KD_MSG_TRITON_OUT_OF_MEMORY, 0, "kerndiff: out of memory"},
    {KD_MSG_TRITON_HEURISTICS_NOT_JSON, 2, "kerndiff: {0}: the helper's @triton.heuristics values are not JSON: {1}"},
    {KD_MSG_TRITON_CANNOT_WRITE, 3, "kerndiff: {0}: cannot write {1}: {2}"},
    {KD_MSG_TRITON_NO_BUILD_FOLDER, 2, "kerndiff: {0}: cannot create a private build folder: {1}"},
    {KD_MSG_TRITON_BUILD_LEFT_NOTHING, 2,
     "kerndiff: {0}: Triton's build left no usable " BUILT_FILES " in {1} (rerun with --no-cache)"},
    {KD_MSG_TRITON_DESCRIPTOR, 3,
     "kerndiff: {0}: kernel '{1}' takes tensor descriptors ({2}), which its caller makes on the host and whose "
     "block shape and type only a launch fixes: take the launch from a program that makes it, "
     "--fn {1} --from 'CMD'"},
    {KD_MSG_TRITON_CAPTURE_LEFT_NOTHING, 2, "kerndiff: {0}: the captured launch left no usable " BUILT_FILES " in {1}"},
    {KD_MSG_TRITON_LIST_NEEDS_VALUE, 3, CONSTEXPR_NEEDS_VALUE("{0}", "{1}", "{2}")},
    {KD_MSG_TRITON_LIST_NEED_VALUES, 3,
     "the tl.constexprs {0} of kernel '{1}' need values: --arg NAME=VALUE for each, `# kerndiff: NAME=VALUE ...` in "
     "{2}, or defaults in the signature"},
    {KD_MSG_TRITON_LIST_NEEDS_BLOCK, 4,
     CONSTEXPR_NEEDS_VALUE("{0}", "{1}", "{2}") " (a diff that times nothing, with no GPU, assumes {3})"},
    {KD_MSG_TRITON_RUN_NOT_TAKEN, 4,
     "kerndiff: {0}: --run '{1}' gave no launch of {2}: {3}. A launch asked for is never replaced by a guessed one: "
     "fix the program (or --capture-timeout, --capture-nth), or drop --run to describe the launch"},
    {0, 0, NULL},
};
