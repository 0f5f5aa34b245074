/* call.h — one side's launch settings from `--call vN:KEY=VALUE,...` (repeatable).
 *
 * Entries are separated by a comma at the top level that starts a new `KEY=`; any other
 * comma belongs to the value, so `block=16,16`, `grid=64,2,block=256` and
 * `s=min(a,b)` read as written. Only grid and block take several comma-separated
 * dimensions; a stray piece after any other value, or an entry without `=`, is an error
 * that names it. Repeated --call flags for one side merge: a later key wins. */
#ifndef KD_LAUNCH_CALL_H
#define KD_LAUNCH_CALL_H

#include "util/strbuf.h"
#include "util/strlist.h"

typedef struct kd_call_settings {
    char *n, *grid, *block, *smem; /* owned; NULL when not given */
    kd_strlist params;             /* owned "NAME=VALUE" strings, later entries win */
} kd_call_settings;

/* Merges the settings in `text` (without the "vN:" prefix) into `into`. Returns 0, or -1
 * with a one-line reason in `error` (into is left as it was before the bad entry). */
int kd_call_parse(const char *text, kd_call_settings *into, kd_strbuf *error);
void kd_call_settings_free(kd_call_settings *s);

#endif
