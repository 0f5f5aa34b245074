/* resources_text.h — a resource report that is missing, in words: registers, spills and
 * shared memory nobody reported (no cuobjdump for a Triton or .cubin side, no ptxas entry)
 * are unknown, and so is the occupancy made from them; the renderers say so and why instead
 * of showing 0 or "cannot launch". */
#ifndef KD_REPORT_RESOURCES_TEXT_H
#define KD_REPORT_RESOURCES_TEXT_H

#include <stdbool.h>
#include "diff/comparison.h"
#include "util/strbuf.h"

/* Whether both sides' resources were reported. */
bool kd_resources_known(const kd_comparison *c);
/* "resources unknown (cuobjdump not found)", "resources of v2 unknown (...)": appended to out;
 * nothing when kd_resources_known. */
void kd_resources_unknown_text(const kd_comparison *c, kd_strbuf *out);

#endif
