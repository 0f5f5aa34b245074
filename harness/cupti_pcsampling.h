/* cupti_pcsampling.h — where a kernel's warps wait, per instruction (issue 31 item 2): one
 * launch with CUPTI's PC sampling on (cupti_pcsampling.h: kernel-serialized collection,
 * start/stop around the launch, every stall reason), written as a hot-spot record
 * (docs/HOTSPOTS.md): per sampled PC its function, its offset and its samples by stall
 * reason. libcupti is loaded with dlopen, as harness/cupti_timer.c does; this header names
 * no CUDA type, so that a file using harness/cuda_driver.h's declarations can include it. */
#ifndef KD_HARNESS_CUPTI_PCSAMPLING_H
#define KD_HARNESS_CUPTI_PCSAMPLING_H

#include <stddef.h>
#include <stdio.h>

struct kd_server;
struct kd_words;

typedef struct kd_pcs kd_pcs;

/* Loads CUPTI and turns PC sampling on in ctx (a CUcontext) with a period of 2^period_log2
 * cycles (5..31; 0: CUPTI's default). CUPTI sees the cubins of modules loaded after this
 * call for certain; open before loading the module where you can. NULL with the reason in why. */
kd_pcs *kd_pcs_open(void *ctx, unsigned period_log2, char *why, size_t why_len);
/* Samples one call of launch(arg) (a launch and a wait) and appends the samples. 0, or -1
 * with the reason in why (launch's own non-zero result is returned as is). */
int kd_pcs_sample(kd_pcs *p, int (*launch)(void *arg), void *arg, char *why, size_t why_len);
typedef struct kd_pcs_totals {
    size_t pcs;                /* sampled PCs */
    unsigned long long samples, dropped;
} kd_pcs_totals;

/* Turns sampling off, collects what CUPTI still holds, writes the record to out (NULL: none;
 * kernel names the record's kernel line, NULL: the most sampled function), fills totals
 * (may be NULL) and frees p. 0, or -1 with the reason in why. */
int kd_pcs_finish(kd_pcs *p, const char *kernel, FILE *out, kd_pcs_totals *totals, char *why, size_t why_len);

/* The harness's `hotspots PATH [period=N]` command (docs/PROTOCOL.md): samples one launch of
 * the current slot's kernel through launch_and_wait and writes the record to PATH, then
 * counts each instruction's executions in one more launch (harness/cupti_sass.h: exec lines,
 * or a comment saying why not); replies `ok hotspots pcs=N samples=M dropped=D executed=E`
 * or `err hotspots REASON`. ctx is a CUcontext of device `device`. */
void kd_pcs_command(struct kd_server *s, struct kd_words *w, void *ctx, int device, const char *kernel,
                    void (*launch_and_wait)(struct kd_server *s, int check_run));

#endif
