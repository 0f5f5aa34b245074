/* collect.h — `kerndiff app`: each side is a command, run --runs times alternating with the
 * other side under libkerndiff-inject.so (CUDA_INJECTION64_PATH), or an nsys SQLite export,
 * read once. Commands run through /bin/sh -c, hyperfine's convention (the user writes one
 * string per command); --no-shell splits them at blanks instead. Their stdout is discarded
 * and their stderr kept for the message when one fails. */
#ifndef KD_APP_COLLECT_H
#define KD_APP_COLLECT_H

#include <stdbool.h>

#include "app/model.h"

typedef struct kd_app_options {
    int runs;               /* --runs (3) */
    bool no_shell;          /* -N/--no-shell */
    const char *range;      /* --range NAME: only this NVTX range */
    double steps;           /* --steps (0: from the ranges, else unknown) */
    int top;                /* --top K kernels shown (terminal, Markdown); 0: all */
} kd_app_options;

void kd_app_options_default(kd_app_options *o);

/* Collects both sides into c->sides (labels borrowed from `inputs`), then diffs them.
 * Returns KD_EXIT_OK, or an exit status after a message on stderr naming the side:
 * KD_EXIT_RUNTIME when a command failed (exit status, signal, its last stderr lines;
 * nothing is compared), KD_EXIT_INPUT for an unreadable profile, KD_EXIT_TOOL when the
 * injection library is missing. Free c with kd_app_comparison_free in every case. */
int kd_app_collect(const char *const inputs[2], const kd_app_options *o, double fail_if_slower_pct,
                   kd_app_comparison *c);

#endif
