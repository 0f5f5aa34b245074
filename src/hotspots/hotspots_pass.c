#include "hotspots/hotspots_pass.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/spawn.h"
#include "wire/child.h"
#include "wire/locate.h"
#include "wire/protocol.h"

/* nvdisasm on a large cubin takes seconds; more than this is a hung tool. */
enum { NVDISASM_TIMEOUT_MS = 120000 };

static const char *const step_names[] = {
    [KD_HS_STEP_NONE] = "none",         [KD_HS_STEP_NOT_CUBIN] = "not_cubin", [KD_HS_STEP_HARNESS] = "harness",
    [KD_HS_STEP_SAMPLING] = "sampling", [KD_HS_STEP_RECORD] = "record",       [KD_HS_STEP_NVDISASM] = "nvdisasm",
    [KD_HS_STEP_SOURCE] = "source",
};

const char *kd_hs_step_name(kd_hs_step step)
{
    return (size_t)step < sizeof step_names / sizeof *step_names ? step_names[step] : "none";
}

kd_hs_step kd_hs_step_named(const char *name)
{
    for (size_t k = 0; name && k < sizeof step_names / sizeof *step_names; k++)
        if (!strcmp(step_names[k], name))
            return (kd_hs_step)k;
    return KD_HS_STEP_NONE;
}

static int sample(const kd_hotspots_request *r, const char *path, kd_hotspots_failure *f)
{
    kd_child c;
    if (kd_child_start(&c, r->side->label, r->side->harness_argv, &f->why) != 0) {
        f->step = KD_HS_STEP_HARNESS;
        return -1;
    }
    int rc = kd_harness_describe(&c, r->side, r->seed, r->timeout_ms, NULL, &f->why);
    if (rc == 0) {
        kd_wire_send_setup(&c);
        unsigned long long bytes;
        rc = kd_wire_setup_reply(&c, kd_launch_spec_bytes(r->side->spec), &bytes, &f->why);
    }
    if (rc != 0) {
        f->step = KD_HS_STEP_HARNESS;
    } else {
        char *encoded = kd_proto_encode(path);
        kd_reply_status st = encoded ? (r->period ? kd_child_call(&c, r->timeout_ms, "hotspots %s period=%u", encoded, r->period)
                                                  : kd_child_call(&c, r->timeout_ms, "hotspots %s", encoded))
                                     : KD_REPLY_GARBLED;
        free(encoded);
        if (st != KD_REPLY_OK) {
            kd_child_failure_words(&c, st, NULL, &f->why);
            f->step = KD_HS_STEP_SAMPLING;
            rc = -1;
        }
    }
    kd_child_stop(&c);
    return rc;
}

static char *listing(const char *cubin, kd_hotspots_failure *f)
{
    char *tool = kd_cuda_tool_path("nvdisasm");
    const char *argv[] = {tool ? tool : "nvdisasm", "--print-line-info", "-c", cubin, NULL};
    kd_spawn_result res = {0};
    char *text = NULL;
    if (kd_spawn(argv, NULL, NVDISASM_TIMEOUT_MS, &res) != 0)
        kd_sb_puts(&f->why, errno == ENOENT ? "nvdisasm not found" : strerror(errno));
    else if (res.timed_out || res.signal || res.exit_code != 0)
        kd_sb_puts(&f->why, res.err.len ? kd_sb_str(&res.err) : res.timed_out ? "timed out" : "failed");
    else
        text = kd_sb_take(&res.out);
    if (!text)
        f->step = KD_HS_STEP_NVDISASM;
    kd_spawn_result_free(&res);
    free(tool);
    return text;
}

int kd_hotspots_record(const kd_hotspots_request *r, kd_hs_profile *out, kd_hotspots_failure *f)
{
    memset(out, 0, sizeof *out);
    f->step = KD_HS_STEP_NONE;
    if (!r->side->load_kind || strcmp(r->side->load_kind, "cubin") != 0) {
        f->step = KD_HS_STEP_NOT_CUBIN;
        return -1;
    }
    char name[32];
    snprintf(name, sizeof name, "%s.hotspots", r->side->label);
    char *path = kd_path_join(r->workdir, name);
    int rc = sample(r, path, f);
    size_t len;
    char *record = rc == 0 ? kd_read_output(path, &len) : NULL;
    if (rc == 0 && !record) {
        kd_sb_puts(&f->why, kd_read_error(errno));
        f->step = KD_HS_STEP_SAMPLING;
        rc = -1;
    }
    if (rc == 0 && kd_hs_record_parse(record, out, &f->record) != 0) {
        f->step = KD_HS_STEP_RECORD;
        rc = -1;
    }
    char *text = rc == 0 ? listing(r->side->load_path, f) : NULL;
    if (rc == 0 && !text) {
        kd_hs_profile_free(out);
        rc = -1;
    }
    if (rc == 0) {
        kd_hs_attach_sass(out, text);
        char *source = r->source_path ? kd_read_file(r->source_path, &len) : NULL;
        if (r->source_path && !source) {
            kd_sb_puts(&f->why, kd_read_error(errno));
            f->step = KD_HS_STEP_SOURCE;
        }
        kd_hs_profile_finish(out, source);
        free(source);
    }
    free(text);
    free(record);
    unlink(path);
    free(path);
    return rc;
}
