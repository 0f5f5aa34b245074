#include "util/strlist.h"

#include "util/xalloc.h"

void kd_strlist_push(kd_strlist *list, const char *s)
{
    list->items = kd_xreallocarray(list->items, list->count + 1, sizeof *list->items);
    list->items[list->count++] = (char *)s;
}
