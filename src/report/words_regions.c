/* The words of regions/'s messages (regions/regions_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "regions/regions_msgs.h"

const kd_words kd_words_regions[] = {
    {0, 0, NULL},
};
