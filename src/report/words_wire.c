/* The words of wire/'s messages (wire/wire_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "wire/wire_msgs.h"

const kd_wording kd_wording_wire[] = {
    {0, 0, NULL},
};
