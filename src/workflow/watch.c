#include "workflow/watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compile/deps.h"
#include "util/outcome.h"
#include "diff/compare.h"
#include "report/gate_text.h"
#include "report/model_text.h"
#include "report/report.h"
#include "report/note_text.h"
#include "util/text.h"

enum { TREND = 8, POLL_MS = 300 };

/* The newest modification time among both sources and everything they include. */
static long long newest_change(const kd_diff_options *opts)
{
    long long newest = 0;
    const char *files[2] = {opts->git_file ? opts->git_file : opts->files[0], opts->git_file ? NULL : opts->files[1]};
    for (int s = 0; s < 2 && files[s]; s++) {
        kd_strlist deps = {0};
        if (kd_collect_includes(files[s], &opts->frontend.include_dirs, &deps) != 0)
            return -1;
        for (size_t i = 0; i < deps.count; i++) {
            struct stat st;
            if (stat(deps.items[i], &st) == 0) {
                long long t = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
                newest = t > newest ? t : newest;
            }
            free(deps.items[i]);
        }
        free(deps.items);
    }
    return newest;
}

static void print_trend(const double *speedups, const kd_verdict *verdicts, int n)
{
    printf("trend (oldest first):");
    for (int i = 0; i < n; i++)
        printf(" %.3fx%s", speedups[i], verdicts[i] == KD_VERDICT_FASTER ? "+" : verdicts[i] == KD_VERDICT_SLOWER ? "-" : "~");
    printf("   (+ faster, - slower, ~ no significant difference)\n");
}

int kd_watch_run(const kd_diff_options *opts, const kd_render_options *render, int argc, char **argv)
{
    double speedups[TREND];
    kd_verdict verdicts[TREND];
    int runs = 0, shown = 0, rc = KD_OK;
    for (;;) {
        long long seen = newest_change(opts);
        printf("== run %d\n", ++runs);
        kd_comparison c;
        rc = kd_compare_files(opts, &c);
        c.argc = argc;
        c.argv = argv;
        if (c.analysed)
            kd_render_terminal(stdout, &c, render);
        kd_strbuf why = {0};
        if (rc != KD_OK && kd_note_text(&c.runtime_note, &why))
            kd_text_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
        kd_sb_free(&why);
        /* The gate is said after each run; watching goes on whatever it says. */
        if (rc == KD_OK && c.gate.result != KD_GATE_PASSED) {
            /* a gate not judged names itself and the real reason, as the exit message does */
            if (c.gate.result == KD_GATE_NOT_MEASURED)
                kd_gate_not_evaluated_text(&c, &why);
            else
                kd_gate_reason(&c.gate, &why);
            kd_text_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
        }
        kd_sb_free(&why);
        if (c.timed) {
            if (shown == TREND) {
                memmove(speedups, speedups + 1, (TREND - 1) * sizeof *speedups);
                memmove(verdicts, verdicts + 1, (TREND - 1) * sizeof *verdicts);
                shown--;
            }
            speedups[shown] = c.timing.speedup.ratio;
            verdicts[shown++] = c.timing.verdict;
            print_trend(speedups, verdicts, shown);
        }
        kd_comparison_free(&c);
        printf("watching for changes (Ctrl-C to stop)...\n");
        fflush(stdout);
        long long now;
        while ((now = newest_change(opts)) == seen) {
            struct timespec pause = {0, POLL_MS * 1000000L};
            nanosleep(&pause, NULL);
        }
        if (now < 0) {
            kd_text_fprintf(stderr, "kerndiff: a watched file can no longer be read; stopping\n");
            return rc == KD_OK ? KD_FAIL_INPUT : rc;
        }
    }
}
