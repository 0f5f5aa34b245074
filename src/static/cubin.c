#include "static/cubin.h"

#include <stdlib.h>
#include <string.h>

#include "static/symbols.h"
#include "util/xalloc.h"

void kd_cubin_function_names(const char *usage, kd_strlist *names)
{
    for (const char *p = usage; p && (p = strstr(p, "Function ")) != NULL;) {
        const char *name = p + 9, *end = name + strcspn(name, ":\n");
        if (*end != ':')
            break;
        kd_strlist_push(names, kd_xstrndup(name, (size_t)(end - name)));
        p = end + 1;
    }
}

char *kd_cubin_symbol(const char *usage, const char *kernel)
{
    kd_strlist names = {0};
    kd_cubin_function_names(usage, &names);
    char *found = NULL;
    for (size_t i = 0; i < names.count && !found; i++)
        if (strcmp(names.items[i], kernel) == 0)
            found = kd_xstrdup(kernel);
    for (size_t i = 0; i < names.count && !found; i++) {
        char *demangled = kd_demangle(names.items[i]);
        if (kd_symbol_matches(demangled, kernel))
            found = kd_xstrdup(names.items[i]);
        free(demangled);
    }
    for (size_t i = 0; i < names.count; i++)
        free(names.items[i]);
    free(names.items);
    return found ? found : kd_xstrdup(kernel);
}
