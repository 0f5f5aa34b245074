/* The words of regions/'s messages (regions/regions_msgs.h; report/diag_text.h says the format). */
#include "report/diag_text.h"
#include "regions/regions_msgs.h"

const kd_wording kd_wording_regions[] = {
    {KD_MSG_REGIONS_MARKER_NEEDS_NAME, 2, "kerndiff: {0}: a region marker needs an identifier: {1}"},
    {KD_MSG_REGIONS_GROUP_NEEDS_NAME, 2,
     "kerndiff: {0}: a warp group needs an identifier and its warps (KD_REGION_GROUP(name, 4)): {1}"},
    {KD_MSG_REGIONS_TOO_MANY_REGIONS, 2, "kerndiff: {0}: more than {1} region names"},
    {KD_MSG_REGIONS_TOO_MANY_GROUPS, 2, "kerndiff: {0}: more than {1} warp group names"},
    {0, 0, NULL},
};
