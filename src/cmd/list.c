/* `kerndiff list FILE`: the kernels a file defines, each with its launch and its buffers'
 * roles (report/list_text.h words them). */
#include "cmd/cmd.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/exit_codes.h"
#include "cli/status.h"
#include "diff/pipeline.h"
#include "report/fit.h"
#include "report/list_text.h"
#include "source/compiled.h"

int kd_cmd_list(const kd_cmd_args *a)
{
    const kd_options *opts = a->opts;
    const char *path = opts->diff.files[0];
    kd_kernel_list list = {0};
    kd_annotations notes = {0};
    char *ptx = NULL;
    int rc = kd_exit_code(kd_list_file(&opts->diff, path, &list, &notes, &ptx));
    if (rc == KD_EXIT_OK) {
        kd_strbuf text = {0};
        kd_list_text(path, &list, &notes, ptx, &opts->diff, &text);
        if (opts->render.full) /* --verbose: whole lines; else within the width (report/fit.h) */
            fputs(kd_sb_str(&text), stdout);
        else
            kd_fit_write(stdout, kd_sb_str(&text), text.len, kd_fit_width(stdout));
        kd_sb_free(&text);
    }
    free(ptx);
    kd_kernel_list_free(&list);
    kd_annotations_free(&notes);
    return rc;
}
