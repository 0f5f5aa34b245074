#include "sanitizer/sanitize_pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch/replay.h"
#include "util/env.h"
#include "util/fs.h"
#include "util/strlist.h"

/* The sanitizer makes a kernel 10-100x slower; every reply gets this much more time. */
#define SLOWDOWN 100

static const char *const tool_names[KD_SAN_TOOLS] = {"memcheck", "racecheck", "initcheck", "synccheck"};

const char *kd_san_tool_name(kd_san_tool t) { return (unsigned)t < KD_SAN_TOOLS ? tool_names[t] : "?"; }

unsigned kd_san_tools_parse(const char *list)
{
    unsigned mask = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        unsigned found = 0;
        for (int t = 0; t < KD_SAN_TOOLS; t++)
            if (strlen(tool_names[t]) == n && strncmp(p, tool_names[t], n) == 0)
                found = 1u << t;
        if (!found)
            return 0;
        mask |= found;
        p += n + (p[n] == ',');
    }
    return mask;
}

const char *kd_find_sanitizer(const char *requested)
{
    if (requested)
        return access(requested, X_OK) == 0 ? requested : NULL;
    const char *env = kd_env_nonempty(KD_ENV_COMPUTE_SANITIZER);
    if (env)
        return access(env, X_OK) == 0 ? env : NULL;
    static char found[4096];
    const char *path = kd_env(KD_ENV_PATH);
    for (const char *p = path ? path : ""; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(found, sizeof found, "%.*s/compute-sanitizer", (int)n, p);
        if (n && access(found, X_OK) == 0)
            return found;
        p += n + (p[n] == ':');
    }
    return access("/usr/local/cuda/bin/compute-sanitizer", X_OK) == 0 ? "/usr/local/cuda/bin/compute-sanitizer" : NULL;
}

/* One tool: the harness under the sanitizer, its log read back. */
static int run_tool(const kd_sanitize_request *r, kd_san_tool tool, kd_sanitize_side *out, kd_strbuf *why)
{
    const char *sanitizer = r->sanitizer;
    const kd_harness_side *side = r->side;
    char name[64];
    snprintf(name, sizeof name, "%s.%s.log", side->label, tool_names[tool]);
    char *log_path = kd_path_join(r->workdir, name);
    kd_strlist argv = {0};
    const char *fixed[] = {sanitizer, "--tool", tool_names[tool], "--log-file", log_path, "--print-limit", "100",
                           "--report-api-errors", "no"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        kd_strlist_push(&argv, fixed[i]);
    for (const char *const *a = side->harness_argv; *a; a++)
        kd_strlist_push(&argv, *a);
    kd_strlist_push(&argv, NULL);
    kd_child c;
    int rc = kd_child_start(&c, side->label, (const char *const *)argv.items, why);
    free(argv.items);
    if (rc == 0) {
        int timeout = r->o->timeout_ms * SLOWDOWN;
        unsigned long long bytes;
        rc = kd_harness_describe(&c, side, r->o->seed, timeout, NULL, why);
        if (rc == 0) {
            kd_wire_send_setup_guarded(&c);
            rc = kd_wire_setup_reply(&c, kd_launch_spec_bytes(side->spec), &bytes, why);
        }
        const char *list = NULL;
        if (rc == 0 && kd_wire_buffers(&c, timeout, &list) == KD_REPLY_OK && list && !out->nbuffers)
            out->nbuffers = kd_san_buffers(list, side->spec, side->replay ? side->replay->cap.nparams : 0, out->buffers,
                                           sizeof out->buffers / sizeof *out->buffers);
        /* A faulting kernel ends the harness: what the sanitizer saw is in its log. */
        if (rc == 0)
            kd_wire_once(&c, timeout);
        kd_child_stop(&c);
    }
    char *log = rc == 0 ? kd_read_output(log_path, NULL) : NULL;
    if (rc == 0 && !log) {
        kd_sb_printf(why, "%s wrote no log (%s): is it compute-sanitizer?", sanitizer, log_path);
        rc = -1;
    }
    if (rc == 0) {
        kd_san_parse(log, &out->report[tool]);
        kd_san_note_launch(&out->report[tool], side->spec);
    }
    if (rc == 0 && !out->report[tool].summary_seen) {
        kd_sb_printf(why, "%s --tool %s ended before its summary (killed by the --timeout?)", sanitizer, tool_names[tool]);
        rc = -1;
    }
    out->ran[tool] = rc == 0;
    free(log);
    unlink(log_path);
    free(log_path);
    return rc;
}

int kd_sanitize_side_run(const kd_sanitize_request *r, kd_sanitize_side *out, kd_strbuf *why)
{
    for (int t = 0; t < KD_SAN_TOOLS; t++)
        if ((r->tools & (1u << t)) && run_tool(r, (kd_san_tool)t, out, why) != 0)
            return -1;
    return 0;
}

size_t kd_sanitize_findings(const kd_sanitize_side *s)
{
    size_t n = 0;
    for (int t = 0; t < KD_SAN_TOOLS; t++)
        n += s->report[t].count;
    return n;
}

void kd_sanitize_side_free(kd_sanitize_side *s)
{
    kd_launch_spec_free(&s->launch);
    for (int t = 0; t < KD_SAN_TOOLS; t++)
        kd_san_report_free(&s->report[t]);
    memset(s, 0, sizeof *s);
}
