/* kd-hotspots-diff [--markdown|--json|--html] V1.rec V1.sass V1.src V2.rec V2.sass V2.src —
 * the hot-spot diff of two recorded sides (src/hotspots, report/hotspots_*.c), terminal by
 * default. The GPU test's driver (tests/gpu/hotspots.sh) until `kerndiff --hotspots` runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotspots/hotspots.h"
#include "report/hotspots_report.h"
#include "util/fs.h"

static int load(kd_hs_profile *p, const char *side, char **path)
{
    size_t len;
    char *rec = kd_read_file(path[0], &len), *sass = kd_read_file(path[1], &len), *src = kd_read_file(path[2], &len);
    int rc = 0;
    kd_hs_error err;
    if (!rec || !sass || !src) {
        fprintf(stderr, "kd-hotspots-diff: cannot read %s's %s\n", side, !rec ? path[0] : !sass ? path[1] : path[2]);
        rc = -1;
    } else if (kd_hs_record_parse(rec, p, &err) != 0) {
        kd_strbuf sb = {0};
        kd_hotspots_error_text(&sb, side, path[0], &err);
        fprintf(stderr, "kd-hotspots-diff: %s\n", kd_sb_str(&sb));
        kd_sb_free(&sb);
        rc = -1;
    } else {
        size_t found = kd_hs_attach_sass(p, sass);
        if (found < p->insn_count)
            fprintf(stderr, "kd-hotspots-diff: %s: %zu of %zu sampled PCs are not in %s\n", side, p->insn_count - found,
                    p->insn_count, path[1]);
        kd_hs_profile_finish(p, src);
    }
    free(rec), free(sass), free(src);
    return rc;
}

int main(int argc, char **argv)
{
    const char *format = "terminal";
    int first = 1;
    if (argc > 1 && !strncmp(argv[1], "--", 2))
        format = argv[1] + 2, first = 2;
    if (argc - first != 6) {
        fprintf(stderr, "usage: kd-hotspots-diff [--markdown|--json|--html] V1.rec V1.sass V1.src V2.rec V2.sass V2.src\n");
        return 2;
    }
    kd_hs_profile p[2];
    if (load(&p[0], "v1", argv + first) != 0 || load(&p[1], "v2", argv + first + 3) != 0)
        return 1;
    kd_hs_diff d;
    kd_hs_diff_build(&p[0], &p[1], &d);
    if (!strcmp(format, "markdown")) {
        kd_hotspots_markdown(stdout, &d);
    } else if (!strcmp(format, "json")) {
        json_t *j = kd_hotspots_json(&d);
        json_dumpf(j, stdout, JSON_INDENT(2));
        putchar('\n');
        json_decref(j);
    } else if (!strcmp(format, "html")) {
        kd_hotspots_html(stdout, &d);
    } else {
        kd_hotspots_terminal(stdout, &d, false);
    }
    kd_hs_diff_free(&d);
    kd_hs_profile_free(&p[0]);
    kd_hs_profile_free(&p[1]);
    return 0;
}
