/* app_capture.h — the command that captures a kernel of `kerndiff app`'s table (issue 30
 * item 4): `kerndiff capture --fn NAME -o FILE.kdcap -- CMD`, so that the loop "profile the
 * program, pick the hot kernel, change it, compare" needs no hand-written launch. Made
 * once here and shown by every view of the app report; each view escapes it for its medium
 * (terminal, Markdown, HTML), JSON writes it as it is. */
#ifndef KD_REPORT_APP_CAPTURE_H
#define KD_REPORT_APP_CAPTURE_H

#include <stdbool.h>

#include "app/app_model.h"
#include "util/strbuf.h"

/* Appends to out the shell line that captures row r's kernel from the program of the side
 * that launched it (v2's where both did), every word quoted for a POSIX shell: the kernel's
 * name as --fn takes it, FILE made from its name ("fused.kdcap"), and the side's command —
 * its words where it has nothing a shell would read (`./prog 3`), else `/bin/sh -c 'CMD'`,
 * as `kerndiff app` ran it. false (out unchanged) when no side that launched the kernel has
 * a command that runs here: an nsys profile, or (--at) a revision's temporary checkout. */
bool kd_app_capture_command(const kd_app_comparison *c, const kd_app_row *r, kd_strbuf *out);

#endif
