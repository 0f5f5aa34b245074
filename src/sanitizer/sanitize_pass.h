/* pass.h — the sanitizer pass (`--sanitize`): each side's harness once under
 * compute-sanitizer, before timing, with a hole after every buffer (`setup guard`) so that
 * an overrun lands outside every allocation; the findings read from its log and explained
 * with the buffers' places (`buffers`). Also the explanation of a fault seen in another
 * pass: the faulting side re-run under memcheck. */
#ifndef KD_SANITIZER_PASS_H
#define KD_SANITIZER_PASS_H

#include <stdbool.h>
#include "sanitizer/report.h"
#include "util/strbuf.h"
#include "wire/client.h"

typedef enum kd_san_tool { KD_SAN_MEMCHECK, KD_SAN_RACECHECK, KD_SAN_INITCHECK, KD_SAN_SYNCCHECK, KD_SAN_TOOLS } kd_san_tool;

const char *kd_san_tool_name(kd_san_tool t);
/* "memcheck,racecheck" -> a mask of 1 << kd_san_tool; 0 on an unknown name. */
unsigned kd_san_tools_parse(const char *list);

typedef struct kd_sanitize_options {
    unsigned tools;           /* --sanitize[=...]: 0 = off */
    bool warn;                /* --sanitize-warn: report and go on */
    const char *program;      /* --compute-sanitizer PATH, else compute-sanitizer on PATH */
    const char *n;            /* --sanitize-n COUNT: the element count of the sanitized launch (NULL: the timed one) */
    /* --no-launch-memcheck: time a launch kerndiff assumed (a guessed size, grid or shared
     * memory) without running it once under memcheck first (issue 39: reads past a buffer's
     * end are what the bounds guard cannot see). */
    bool no_launch_memcheck;
    int timeout_ms;
    unsigned long long seed;
} kd_sanitize_options;

/* What one side's runs found. */
typedef struct kd_sanitize_side {
    kd_launch_spec launch;    /* --sanitize-n: the smaller launch it ran (owned; nargs 0: the timed one) */
    kd_san_report report[KD_SAN_TOOLS];
    bool ran[KD_SAN_TOOLS];
    kd_san_buffer buffers[64];
    size_t nbuffers;
} kd_sanitize_side;

/* The program to run: o->program, else compute-sanitizer beside nvcc or on PATH; NULL if none. */
const char *kd_find_sanitizer(const char *requested);

/* What one side's sanitizer run is: the program, the side's harness, the tools (a mask of
 * 1u << kd_san_tool), the options and the folder its logs go to. */
typedef struct kd_sanitize_request {
    const char *sanitizer;
    const kd_harness_side *side;
    unsigned tools;
    const kd_sanitize_options *o;
    const char *workdir;
} kd_sanitize_request;

/* Runs every tool in r->tools on one side. Returns 0, or -1 with what failed in why (the
 * findings of a kernel that faults are a result, not a failure). */
int kd_sanitize_side_run(const kd_sanitize_request *r, kd_sanitize_side *out, kd_strbuf *why);
void kd_sanitize_side_free(kd_sanitize_side *s);
size_t kd_sanitize_findings(const kd_sanitize_side *s);

#endif
