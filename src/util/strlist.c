#include "util/strlist.h"

#include <stdlib.h>

int kd_strlist_push(kd_strlist *list, const char *s)
{
    char **items = realloc(list->items, (list->count + 1) * sizeof *items);
    if (!items)
        return -1;
    list->items = items;
    list->items[list->count++] = (char *)s;
    return 0;
}
