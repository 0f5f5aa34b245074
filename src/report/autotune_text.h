/* autotune_text.h — the sentence of an autotuned kernel's choice (backend/side.h's
 * kd_autotune, made by diff/autotune.c as data), one builder for the terminal, Markdown and
 * the JSON's `summary`, so that they say the same thing:
 *   "autotune: config 2 of 3 (BLOCK=256, num_warps=8) was fastest, 41.2us vs 55.0us/60.3us
 *    (each timed briefly alone; --arg of its meta-parameters picks one)" */
#ifndef KD_REPORT_AUTOTUNE_TEXT_H
#define KD_REPORT_AUTOTUNE_TEXT_H

#include <stdbool.h>

#include "backend/side.h"
#include "util/strbuf.h"

/* Appends the sentence to out; returns false (appending nothing) when the kernel is not
 * autotuned or no choice was made. */
bool kd_autotune_text(const kd_autotune *t, kd_strbuf *out);

#endif
