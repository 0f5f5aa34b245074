/* hotspots_pass.h — one side's hot-spot profile, end to end: its own harness child samples
 * one launch (`hotspots PATH`, harness/cupti_pcsampling_cmd.c), nvdisasm lists its cubin
 * with line info, and the record, the listing and the side's source become a kd_hs_profile.
 * The glue that feeds it from a comparison and stores the result (a kd_passes[] entry) is
 * the comparison's; a failure says at which step (kd_hs_step) with the child's or the
 * tool's own words in why, and report/hotspots_text.c words the step. */
#ifndef KD_HOTSPOTS_HOTSPOTS_PASS_H
#define KD_HOTSPOTS_HOTSPOTS_PASS_H

#include "hotspots/hotspots.h"
#include "util/strbuf.h"
#include "wire/client.h"

typedef enum kd_hs_step {
    KD_HS_STEP_NONE = 0,
    KD_HS_STEP_NOT_CUBIN,   /* the side is not loaded from a cubin (a launcher): nothing to list */
    KD_HS_STEP_HARNESS,     /* starting or describing the side's harness child */
    KD_HS_STEP_SAMPLING,    /* the child's `hotspots` command failed (why: its reply) */
    KD_HS_STEP_RECORD,      /* the record could not be read (err says the line) */
    KD_HS_STEP_NVDISASM,    /* nvdisasm is missing or failed (why: its stderr) */
    KD_HS_STEP_SOURCE,      /* the source could not be read (the profile is kept, without text) */
} kd_hs_step;

typedef struct kd_hotspots_request {
    const kd_harness_side *side;   /* load_kind "cubin", built with -lineinfo */
    const char *source_path;       /* the side's source file, NULL: lines without text */
    const char *workdir;           /* the private folder: the record is written there */
    unsigned period;               /* log2 of the sampling period in cycles (5..31), 0: CUPTI's default */
    unsigned long long seed;       /* the buffers' seed, as the timing used */
    int timeout_ms;
} kd_hotspots_request;

typedef struct kd_hotspots_failure {
    kd_hs_step step;
    kd_hs_error record;  /* for KD_HS_STEP_RECORD */
    kd_strbuf why;       /* the child's, nvdisasm's or the system's words */
} kd_hotspots_failure;

/* The step's name, for a note's value ("nvdisasm"); kd_hs_step_named reverses it (NONE when unknown). */
const char *kd_hs_step_name(kd_hs_step step);
kd_hs_step kd_hs_step_named(const char *name);

/* 0 with out filled (finished), or -1 with f set (f->why to be freed by the caller either way).
 * KD_HS_STEP_SOURCE returns 0: the profile is usable without the text. */
int kd_hotspots_record(const kd_hotspots_request *r, kd_hs_profile *out, kd_hotspots_failure *f);

#endif
