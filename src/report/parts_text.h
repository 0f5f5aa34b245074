/* parts_text.h — the lines of `kerndiff --version` that say where kerndiff found its parts
 * (the CUDA tools, the harnesses, the Triton helper), from wire/locate's kd_find_parts. */
#ifndef KD_REPORT_PARTS_TEXT_H
#define KD_REPORT_PARTS_TEXT_H

#include "util/strbuf.h"

/* "  cuobjdump           /usr/local/cuda/bin/cuobjdump\n", one line a part; a missing one
 * says what goes without it. */
void kd_parts_text(kd_strbuf *out);

#endif
