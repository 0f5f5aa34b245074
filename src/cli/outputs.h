/* outputs.h — the files a request would write (--json, --save, --markdown, --html, --csv,
 * --trace, --ncu-report's reports, capture -o), by every command that writes (a diff,
 * compare, app, capture, rank: in one process, --shard, --slurm, --merge), checked before
 * anything runs, so that kerndiff never writes over the user's work:
 *   - none may be one of the inputs (the same file by device and inode, or by real path):
 *     a diff's files; compare's saved runs; a rank's baseline and every candidate (a
 *     folder's too, and those DIR's manifest names for --merge DIR / --only-shard); app's
 *     exports or commands and every file a command's words (and --prepare's) name, its
 *     program found through PATH; capture's program (through PATH and links, as it is
 *     run) and every file its command line names (a script an interpreter reads, a
 *     --opt=FILE value);
 *   - none may be inside a folder the command reads whole (--merge DIR; --slurm-dir DIR);
 *   - none may carry a source extension (.cu .cuh .py .ptx .cubin .h .hpp .c .cpp ...);
 *   - none may be a file git tracks (asked with an argument vector, hooks and fsmonitor
 *     off: `git ls-files --error-unmatch` in the file's folder);
 * each unless --force; and no two outputs may be the same file (never: one would lose). */
#ifndef KD_CLI_OUTPUTS_H
#define KD_CLI_OUTPUTS_H

#include <stdbool.h>

#include "cli/options.h"
#include "report/formats.h"

/* 0 when every output may be written; else prints the reason (the option, the path and
 * what to do) to stderr and returns KD_EXIT_USAGE. Also makes a write past `ulimit -f` a
 * failed write that is said (util/output.h: kd_output_catch_xfsz), from then on. */
int kd_outputs_check(const kd_options *opts);

/* One document on standard output at most (a bare --json, --markdown ... or '-'): two would
 * run into each other (the JSON no longer parses). 0, or KD_EXIT_USAGE after saying which two. */
int kd_outputs_one_on_stdout(const kd_options *opts);

/* Whether the path ends in an extension of a source or kernel file (case-insensitive): a
 * report is never written there without --force, and an optional value (--json [FILE])
 * never takes such a word. */
bool kd_outputs_source_name(const char *path);

/* The documents the options ask for, as report/formats.h's requests (option, FILE), one per
 * format option in the table's order (--json, --save, --trace, --markdown, --html, --csv ...),
 * request i being slot i. Options not given have a NULL path (kd_formats_write skips them).
 * Returns how many (at most max). */
enum { KD_OUTPUTS_MAX = KD_FORMAT_OPTIONS_MAX };
size_t kd_outputs_requests(const kd_options *opts, kd_format_request *out, size_t max);
/* A command that failed before writing its report: the files it was asked for are said not
 * written (report/formats.h kd_formats_unwritten); nothing when a report was written. */
void kd_outputs_unwritten(const kd_options *opts);

#endif
