/* instrument.h — the instrumented build of include/kerndiff/regions.h: which regions a
 * source marks, and what the build's wrapper adds around the user's file. */
#ifndef KD_REGIONS_INSTRUMENT_H
#define KD_REGIONS_INSTRUMENT_H

#include <stdbool.h>

#include "regions/names.h"
#include "util/diag.h"
#include "util/strbuf.h"

/* The reserved id of the calibration region (an empty region, to measure a record's cost). */
#define KD_REGION_CALIBRATION_ID 127
#define KD_REGION_CALIBRATION_KERNEL "kd_region_calibrate"

/* The most warp group names a side may have: their ids are 8 bits of a warp's header. */
#define KD_REGION_MAX_GROUPS 255

/* Appends to names->regions every region NAME in KD_REGION_BEGIN(NAME), KD_REGION_END(NAME)
 * and KD_REGION(NAME) of `text`, and to names->groups every NAME of KD_REGION_GROUP(NAME, W),
 * once each, in order of first use: NAME gets id = its position + 1 in its list. Comments
 * are not skipped: a marker in a comment gets an id it never uses, which costs nothing.
 * Returns 0, or -1 with *why set (regions/regions_msgs.h, naming `side`, "v1" or "v2") for a
 * name that is not an identifier or more names than ids (126 regions, 255 groups). */
int kd_regions_scan(const char *text, const char *side, kd_region_names *names, kd_diag *why);

/* What a marker does in a block that does not record (include/kerndiff/regions.h). */
typedef enum kd_region_markers {
    KD_MARKERS_PREDICATED,  /* sampled blocks: the marker's store is predicated off there */
    KD_MARKERS_BRANCHED,    /* sampled blocks: the marker branches around the record there
                               (KD_REGION_BRANCHED; fewer registers, dearer records) */
    KD_MARKERS_EVERY_BLOCK, /* --region-blocks all: every block records, no test
                               (KD_REGION_EVERY_BLOCK) */
} kd_region_markers;

/* Before the user's code: KERNDIFF_REGIONS, one KD_REGION_ID_<name> define per region and
 * one KD_REGION_GROUP_ID_<name> per warp group, the markers' define and the header.
 * After it: the calibration kernel (32 empty regions in one warp). */
void kd_regions_wrapper_prologue(const kd_region_names *names, kd_region_markers form, kd_strbuf *out);
void kd_regions_wrapper_epilogue(kd_strbuf *out);

/* The user's file (`len` bytes of `text`, read from `path`) as the instrumented build
 * compiles it: KD_REGION_KERNEL_CONTEXT (a record context in registers) right after the `{`
 * of every kernel body, on the same line, under `#line 1 "path"`. */
void kd_regions_instrument_source(const char *text, size_t len, const char *path, kd_strbuf *out);

#endif
