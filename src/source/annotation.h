/* annotation.h — launch settings a kernel file carries for itself, in comment lines such as
 *     // kerndiff: block=256 grid=ceil(n/256) n=16M
 * so that each version (and each git revision) brings its own geometry. Later lines
 * override earlier ones for the same key. Values run to the next blank; no quoting. */
#ifndef KD_SOURCE_ANNOTATION_H
#define KD_SOURCE_ANNOTATION_H

#include <stddef.h>

typedef struct kd_annotation {
    char *key;
    char *value;
    int line;   /* 1-based, for error messages */
} kd_annotation;

typedef struct kd_annotations {
    kd_annotation *items;
    size_t count;
} kd_annotations;

/* Text need not be NUL-terminated. */
void kd_annotations_parse(const char *text, size_t len, kd_annotations *out);
/* The comment that starts an annotation line in a file like path, for messages that tell
 * the user to write one: "#" in Python (.py), else "//". */
const char *kd_annotation_comment(const char *path);
/* The value for key, or NULL. */
const char *kd_annotation_get(const kd_annotations *a, const char *key);
void kd_annotations_free(kd_annotations *a);

#endif
