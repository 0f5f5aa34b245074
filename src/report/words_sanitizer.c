/* The words of sanitizer/'s messages (sanitizer/sanitizer_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "sanitizer/sanitizer_msgs.h"

const kd_wording kd_wording_sanitizer[] = {
    {0, 0, NULL},
};
