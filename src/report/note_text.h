/* note_text.h — the sentence of every note (diff/notes.h), for the terminal, Markdown and
 * HTML renderers and the JSON's `text`, so that they say the same thing. */
#ifndef KD_REPORT_NOTE_TEXT_H
#define KD_REPORT_NOTE_TEXT_H

#include <stdbool.h>
#include "diff/notes.h"
#include "util/strbuf.h"

/* Appends the note's sentence to out; returns false (appending nothing) when there is no note. */
bool kd_note_text(const kd_note *n, kd_strbuf *out);

#endif
