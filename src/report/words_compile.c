/* The words of compile/'s messages (compile/compile_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "compile/compile_msgs.h"

const kd_wording kd_wording_compile[] = {
    {KD_MSG_COMPILE_HINT_FIX, 1, "Fix the error in {0}, or check -I/-D/--nvcc-flag."},
    {KD_MSG_COMPILE_HINT_INCLUDE_NEAR, 2, "{0} is not on the include path; it lies in {1}: add -I {1}"},
    {KD_MSG_COMPILE_HINT_INCLUDE_NONE, 2, "{0} is not on the include path, nor near {1}: add -I FOLDER where it lies"},
    {KD_MSG_COMPILE_HINT_FLAG, 1,
     "nvcc's errors ask for {0}, a flag the project's own build likely passes: add --nvcc-flag {0}"},
    {0, 0, NULL},
};
