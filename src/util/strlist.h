/* strlist.h — a growable list of borrowed strings (argv entries, paths). */
#ifndef KD_UTIL_STRLIST_H
#define KD_UTIL_STRLIST_H

#include <stddef.h>

typedef struct kd_strlist {
    char **items;
    size_t count;
} kd_strlist;

/* Appends s (not copied). Returns 0, -1 on allocation failure. */
int kd_strlist_push(kd_strlist *list, const char *s);

#endif
