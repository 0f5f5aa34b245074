/* `kerndiff capture --fn NAME [--nth K] [--continue] -o FILE -- CMD ARGS...` (issue 30 item
 * 1): the program run with the injection library in capture mode and its K-th launch of the
 * kernel written to FILE (app/capture_run.h), which `kerndiff --launch FILE V1 V2` replays.
 * Everything it says is a message (app/capture_msgs.h, worded in report/words_app.c). */
#include "cmd/cmd.h"

#include <stdio.h>

#include "app/capture_msgs.h"
#include "app/capture_run.h"
#include "capture/file.h"
#include "cli/status.h"

int kd_cmd_capture(const kd_cmd_args *a)
{
    const kd_options *opts = a->opts;
    const kd_frontend_options *fe = &opts->diff.frontend;
    kd_capture_run_request req = {
        .argv = opts->capture.argv,
        .fn = opts->diff.fn[0],
        .nth = fe->capture_nth > 0 ? (unsigned long long)fe->capture_nth : 1,
        .keep_going = opts->capture.keep_going,
        .out_path = opts->capture.out,
        .timeout_s = fe->capture_timeout_s,
    };
    kd_diag err = {0};
    if (kd_capture_run(&req, &err) != 0) {
        kd_diag_say(&err);
        kd_outcome outcome = kd_capture_run_outcome(err.id);
        kd_diag_free(&err);
        return kd_exit_code(outcome);
    }
    /* what was captured, read back from the file as --launch will read it */
    kd_capture cap;
    if (kd_capture_open(req.out_path, &cap, &err) != 0) {
        kd_diag_say(&err);
        kd_diag_free(&err);
        return kd_exit_code(KD_FAIL_RUNTIME);
    }
    char grid[48], block[48];
    snprintf(grid, sizeof grid, "%u,%u,%u", cap.grid[0], cap.grid[1], cap.grid[2]);
    snprintf(block, sizeof block, "%u,%u,%u", cap.block[0], cap.block[1], cap.block[2]);
    kd_say(KD_MSG_CAPTURE_RUN_DONE, KD_DIAG_NO_SIDE, KD_U(cap.nth), KD_S(cap.demangled), KD_S(cap.api), KD_S(grid),
           KD_S(block), KD_U(kd_capture_data_bytes(&cap)), KD_S(req.out_path));
    kd_capture_free(&cap);
    return kd_exit_code(KD_OK);
}
