/* annotation.h — launch settings a kernel file carries for itself, in comment lines such as
 *     // kerndiff: block=256 grid=ceil(n/256) n=16M inputs=g_idata
 * so that each version (and each git revision) brings its own geometry. Later lines
 * override earlier ones for the same key. Values run to the next blank; no quoting.
 * Beside what the comments say, what the code says about its launch (source/geometry.h:
 * dynamic shared memory, sized shared arrays, buffer extents) is read from the same text.
 *
 * Keys: the settings (n, block, grid, smem), buffer roles (inputs=, outputs=, inouts=:
 * comma-separated pointer parameters), signature= (.ptx/.cubin), libs= (launchers),
 * Triton's num_warps/num_stages/num_ctas, and NAME=VALUE for any parameter (or template or
 * Triton constexpr parameter) of a kernel of the file. Any other key is a mistake that
 * kd_annotations_unknown finds. */
#ifndef KD_SOURCE_ANNOTATION_H
#define KD_SOURCE_ANNOTATION_H

#include <stdbool.h>
#include <stddef.h>

#include "source/geometry.h"

#define KD_ANNOTATION_CAPTURED (-1)

typedef struct kd_annotation {
    char *key;
    char *value;
    int line;   /* 1-based, for error messages; KD_ANNOTATION_CAPTURED: not written in the file but
                   taken from the user's own launch (a Triton side's captured launch) */
} kd_annotation;

typedef struct kd_annotations {
    kd_annotation *items;
    size_t count;
    kd_file_geometry geometry; /* read from the same text (owned) */
} kd_annotations;

/* What an annotation says a buffer is for. */
typedef enum kd_annotated_role {
    KD_ANNOTATED_NONE,
    KD_ANNOTATED_IN,     /* inputs=: seeded, not compared */
    KD_ANNOTATED_OUT,    /* outputs=: poisoned, compared */
    KD_ANNOTATED_INOUT,  /* inouts=: seeded, compared */
} kd_annotated_role;

/* Text need not be NUL-terminated. */
void kd_annotations_parse(const char *text, size_t len, kd_annotations *out);
/* The comment that starts an annotation line in a file like path, for messages that tell
 * the user to write one: "#" in Python (.py), else "//". */
const char *kd_annotation_comment(const char *path);
/* The value for key, or NULL. */
const char *kd_annotation_get(const kd_annotations *a, const char *key);
/* The role inputs=/outputs=/inouts= give parameter param (NONE: not listed); *line is the
 * annotation's line when listed. */
kd_annotated_role kd_annotation_role(const kd_annotations *a, const char *param, int *line);
/* The first annotation whose key kerndiff does not know: not a key above, not a parameter
 * of a kernel the file defines, and not one of also[0..nalso) (the chosen kernel's
 * parameters and constants). NULL: every key is known. */
const kd_annotation *kd_annotations_unknown(const kd_annotations *a, const char *const *also, size_t nalso);
/* The keys that mean a setting (*count of them), for messages and suggestions. */
const char *const *kd_annotation_setting_keys(size_t *count);
void kd_annotations_free(kd_annotations *a);

#endif
