/* locate.h — where the harness programs are: $KERNDIFF_HARNESS_DIR, else beside the
 * kerndiff binary (the build folder), else ../libexec/kerndiff from it (an installation). */
#ifndef KD_HARNESS_LOCATE_H
#define KD_HARNESS_LOCATE_H

/* The path of harness program `name` ("kerndiff-harness"), malloc'd; NULL if not found. */
char *kd_harness_path(const char *name);

/* The folder holding kerndiff's public headers (<kerndiff/launcher.h>):
 * $KERNDIFF_INCLUDE_DIR, else ../include from the binary (build tree and installation). */
char *kd_include_dir(void);

#endif
