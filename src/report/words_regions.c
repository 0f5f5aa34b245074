/* The words of regions/'s messages (regions/regions_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "regions/regions_msgs.h"

const kd_wording kd_wording_regions[] = {
    {0, 0, NULL},
};
