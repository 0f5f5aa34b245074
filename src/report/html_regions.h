/* html_regions.h — the Regions section of the HTML report (report/html_regions.c): per
 * region, cycles per instance of v1 and v2 as bars with p10-p90 whiskers (svg id
 * chart-regions) and the table; then one block of each side on a shared time axis, a row
 * per warp and a bar per region instance (chart-region-timeline), from the slices of the
 * last recorded launch that the region pass keeps (kd_region_profile.slices, the same the
 * --trace writer reads). */
#ifndef KD_REPORT_HTML_REGIONS_H
#define KD_REPORT_HTML_REGIONS_H

#include <stdio.h>

#include "diff/comparison.h"

/* c->regions_run must be set. */
void kd_html_regions(FILE *out, const kd_comparison *c);

#endif
