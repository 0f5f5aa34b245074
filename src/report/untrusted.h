/* untrusted.h — the one filter every renderer puts text through that kerndiff did not
 * write: file names, kernel and buffer names, option values, strings read back from a
 * saved JSON document, and the sentences that quote them. A terminal must not act on them
 * (escape sequences, bidirectional overrides) and a Markdown table must not be broken by
 * them; what they say is kept, written out visibly (util/text.h, kd_escape_text). HTML has
 * its own escaping (kd_xml_text), after this one where both apply. */
#ifndef KD_REPORT_UNTRUSTED_H
#define KD_REPORT_UNTRUSTED_H

#include "util/strbuf.h"

/* The escaped copies made while rendering, freed together. Zero-initialise. */
typedef struct kd_untrusted {
    char **kept;
    size_t count;
} kd_untrusted;

/* One-line text (a name, a path, a value): controls, newline and tab written out. Returns
 * text itself when nothing needed escaping, else a copy that lives until kd_untrusted_free.
 * NULL reads as "". */
const char *kd_untrusted_name(kd_untrusted *u, const char *text);
/* The same for a Markdown table cell or code span: '|' and '`' written out too. */
const char *kd_untrusted_md(kd_untrusted *u, const char *text);
/* A sentence kerndiff made that may quote such text, over one or more lines: controls
 * written out, newlines kept. */
const char *kd_untrusted_text(kd_untrusted *u, const char *text);
/* kd_untrusted_text for Markdown: '|' and '`' written out too (kerndiff's own sentences
 * have neither), so a quoted value cannot open a code span, end a fence or split a row;
 * '<' and a link's ']' as entities, so it opens no HTML tag and no link. */
const char *kd_untrusted_md_text(kd_untrusted *u, const char *text);
/* Words in a Markdown table cell outside a code span (a candidate's failure reason): one
 * line, '|' and '`' written out, '<' and a link's ']' as entities. */
const char *kd_untrusted_md_cell(kd_untrusted *u, const char *text);
void kd_untrusted_free(kd_untrusted *u);

/* Appends a name to a sentence being made (the *_text.c builders). */
void kd_sb_untrusted(kd_strbuf *out, const char *text);
/* Filters a sentence built in sb in place (kd_untrusted_text's rule). */
void kd_untrusted_fix(kd_strbuf *sb);
/* The same with kd_untrusted_md_text's rule. */
void kd_untrusted_fix_md(kd_strbuf *sb);

#endif
