/* stderr_text.h — a message that may quote a file name, an option's value or a tool's output,
 * formatted and written to a stream through report/untrusted's filter (issue 29: words only in
 * report/). It is util/text.h's former kd_text_fprintf, moved up to the floor that words
 * things; below report/ messages are said through util/diag.h instead. */
#ifndef KD_REPORT_STDERR_TEXT_H
#define KD_REPORT_STDERR_TEXT_H

#include <stdio.h>

/* fprintf, the whole formatted message written with kd_untrusted_text's rule: its lines stay
 * lines and nothing in it reaches the terminal as a control sequence. */
void kd_untrusted_fprintf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* util/progress.h's status sink (main.c installs it: kd_trace_set_status_sink): the one-line
 * status "[kerndiff 1.2s] text" redrawn in place on stderr ("\r", ESC[K, no newline), text
 * through the same filter; text NULL erases it. */
void kd_status_to_stderr(double seconds, const char *text);

#endif
