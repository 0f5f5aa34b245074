/* The words of compile/'s messages (compile/compile_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "compile/compile_msgs.h"

const kd_wording kd_wording_compile[] = {
    {0, 0, NULL},
};
