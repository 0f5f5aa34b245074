#include "workflow/watch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compile/deps.h"
#include "diff/pipeline.h"
#include "util/fs.h"
#include "util/outcome.h"
#include "workflow/workflow_msgs.h"

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

/* 0 when `path` can be read as an input (a regular file within the cap, readable), else -1
 * with errno (kd_read_error words it). */
static int readable_input(const char *path)
{
    return kd_check_input(path) == 0 && access(path, R_OK) == 0 ? 0 : -1;
}

/* Every watched file must be readable before the first run: a file missing from the start
 * never changes (newest_change stays -1 while it is missing), so the loop would wait for
 * ever after the first run's "cannot read". Each side that fails is said; KD_OK or
 * KD_FAIL_INPUT. */
static int check_watched(const kd_diff_options *opts)
{
    if (opts->git_file) {
        if (readable_input(opts->git_file) == 0)
            return KD_OK;
        kd_say(KD_MSG_WORKFLOW_WATCH_NO_GIT_FILE, KD_DIAG_NO_SIDE, KD_S(opts->git_file), KD_S(kd_read_error(errno)));
        return KD_FAIL_INPUT;
    }
    int rc = KD_OK;
    for (int s = 0; s < 2; s++)
        if (readable_input(opts->files[s]) != 0) {
            kd_say(KD_MSG_WORKFLOW_WATCH_NO_FILE, s + 1, KD_I(s + 1), KD_S(opts->files[s]), KD_S(kd_read_error(errno)));
            rc = KD_FAIL_INPUT;
        }
    return rc;
}

int kd_watch_loop(const kd_diff_options *opts, const kd_watch_view *view, int argc, char **argv)
{
    int checked = check_watched(opts);
    if (checked != KD_OK)
        return checked;
    double speedups[TREND];
    kd_verdict verdicts[TREND];
    int runs = 0, shown = 0, rc = KD_OK;
    for (;;) {
        long long seen = newest_change(opts);
        view->run_started(view->ctx, ++runs);
        kd_comparison c;
        rc = kd_compare_files(opts, &c);
        c.argc = argc;
        c.argv = argv;
        /* The gate is said after each run; watching goes on whatever it says. */
        view->result(view->ctx, &c, rc);
        if (c.timed) {
            if (shown == TREND) {
                memmove(speedups, speedups + 1, (TREND - 1) * sizeof *speedups);
                memmove(verdicts, verdicts + 1, (TREND - 1) * sizeof *verdicts);
                shown--;
            }
            speedups[shown] = c.timing.speedup.ratio;
            verdicts[shown++] = c.timing.verdict;
            view->trend(view->ctx, speedups, verdicts, shown);
        }
        kd_comparison_free(&c);
        view->waiting(view->ctx);
        long long now;
        while ((now = newest_change(opts)) == seen) {
            struct timespec pause = {0, POLL_MS * 1000000L};
            nanosleep(&pause, NULL);
        }
        if (now < 0) {
            kd_say0(KD_MSG_WORKFLOW_WATCH_UNREADABLE, KD_DIAG_NO_SIDE);
            return rc == KD_OK ? KD_FAIL_INPUT : rc;
        }
    }
}

int kd_watch_run(const kd_diff_options *opts, const struct kd_render_options *render, int argc, char **argv)
{
    kd_watch_view view = kd_watch_terminal_view(render);
    return kd_watch_loop(opts, &view, argc, argv);
}
