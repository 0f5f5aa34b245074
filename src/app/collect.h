/* collect.h — `kerndiff app`: each side is a command, run --runs times alternating with the
 * other side under libkerndiff-inject.so (CUDA_INJECTION64_PATH), or an nsys SQLite export,
 * read once. Commands run through /bin/sh -c, hyperfine's convention (the user writes one
 * string per command); --no-shell splits them into words instead (app/command.h). Their
 * stdout is discarded and their stderr kept for the message when one fails.
 *
 * With --at REF, both sides are the one command: v1 runs in a checkout of REF
 * (git/worktree.h), v2 in the current folder, or in a checkout of REF2 with a second --at.
 * --prepare CMD then runs once in each side's folder, v1 first, before any run (a build). */
#ifndef KD_APP_COLLECT_H
#define KD_APP_COLLECT_H

#include <stdbool.h>

#include "app/app_model.h"

typedef struct kd_app_options {
    int runs;               /* --runs (3) */
    bool no_shell;          /* -N/--no-shell */
    const char *range;      /* --range NAME: only this NVTX range */
    double steps;           /* --steps (0: from the ranges, else unknown) */
    int top;                /* --top K kernels shown (terminal, Markdown); 0: all */
    const char *at[2];      /* --at REF [--at REF2]: v1's and v2's revisions (NULL: the current folder) */
    const char *prepare;    /* --prepare CMD, run in each side's folder before the runs (with --at) */
} kd_app_options;

void kd_app_options_default(kd_app_options *o);

/* Collects both sides into c->sides (labels borrowed from `inputs`, or made with --at),
 * then diffs them. With o->at[0], inputs[0] and inputs[1] are the same command.
 * Returns KD_OK, or a kd_outcome (util/outcome.h) after a message on stderr naming the side:
 * KD_FAIL_RUNTIME when a command failed (exit status, signal, its last stderr lines;
 * nothing is compared), KD_FAIL_BUILD when --prepare failed (likewise), KD_FAIL_INPUT for
 * an unreadable profile, a command with an unclosed quote (-N), a revision that cannot be
 * checked out; KD_FAIL_TOOL when the injection library or git is missing. Free c with
 * kd_app_comparison_free in every case. */
int kd_app_collect(const char *const inputs[2], const kd_app_options *o, double fail_if_slower_pct,
                   kd_app_comparison *c);

#endif
