/* strlist.h — a growable list of borrowed strings (argv entries, paths). */
#ifndef KD_UTIL_STRLIST_H
#define KD_UTIL_STRLIST_H

#include <stddef.h>

typedef struct kd_strlist {
    char **items;
    size_t count;
} kd_strlist;

/* Appends s (not copied). Never fails (out of memory ends the command,
 * util/xalloc.h). */
void kd_strlist_push(kd_strlist *list, const char *s);

#endif
