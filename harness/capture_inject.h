/* capture_inject.h — the capture mode of libkerndiff-inject.so (issue 30 item 1).
 *
 * `kerndiff capture` runs the user's program with this library injected and
 * $KERNDIFF_CAPTURE_DIR set; InitializeInjection (inject.c) then hands over to
 * kd_capture_start, which subscribes to CUPTI's launch callbacks and, at the K-th launch of
 * the kernel named by $KERNDIFF_CAPTURE_FN, writes the raw capture folder: a text manifest,
 * the parameter buffer and every reachable allocation's contents before and after the launch.
 * A kernel node of a CUDA graph counts as a launch each time the graph runs, and is captured
 * around the node itself (docs/CAPTURE.md, "CUDA graphs").
 * The folder's layout is /work/briefs/s2/capture-raw.md (packed by src/capture/ into the
 * capture file, docs/CAPTURE.md).
 *
 * Environment: KERNDIFF_CAPTURE_DIR (the folder), KERNDIFF_CAPTURE_FN (mangled name, or
 * demangled with or without parameter list / return type, template instance included; a
 * plain identifier matches every instance of that name), KERNDIFF_CAPTURE_NTH (K, default 1),
 * KERNDIFF_CAPTURE_CONTINUE=1 (let the program finish), KERNDIFF_CAPTURE_MAX_BYTES (cap on
 * the allocations' total, default 4 GiB). */
#ifndef KD_HARNESS_CAPTURE_INJECT_H
#define KD_HARNESS_CAPTURE_INJECT_H

/* Starts capture mode in this process; `cupti_lib` is dlopen'ed libcupti or NULL. Returns 1
 * (what InitializeInjection returns: the program runs whatever happens; the folder says what
 * went wrong). */
int kd_capture_start(const char *dir, void *cupti_lib);

/* Whether `want` (KERNDIFF_CAPTURE_FN) names the kernel `mangled`, whose demangled form is
 * `demangled` (NULL when it is not a C++ name). */
int kd_capture_name_matches(const char *want, const char *mangled, const char *demangled);

#endif
