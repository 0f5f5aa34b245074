/* fuzz_scan.c — libFuzzer target for the kernel scanner: arbitrary bytes (not
 * NUL-terminated) must scan without crashing, leaking or reading past `size`, and every
 * kernel found must be found again by its own names. The same bytes as a file's text
 * (NUL-terminated, as kd_read_file gives it) go through the region marker scan, whose
 * names must be identifiers within the id ranges. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regions/instrument.h"
#include "source/scan.h"

static void check_kernel(const kd_kernel_list *list, const kd_kernel *k)
{
    /* A name may be shared by overloads, so the lookup may return a sibling, but never
     * nothing and never a kernel of another name. */
    const kd_kernel *by_name = kd_kernel_find(list, k->name);
    const kd_kernel *by_qualified = kd_kernel_find(list, k->qualified);
    if (!by_name || !by_qualified)
        abort();
    if (strcmp(by_name->name, k->name) != 0 && strcmp(by_name->qualified, k->name) != 0)
        abort();
    if (k->line < 1 || (k->is_template != (k->template_params != NULL)))
        abort();
    for (size_t i = 0; i < k->nparams; i++) {
        const kd_param *p = &k->params[i];
        if (!p->name || !p->type || p->is_pointer != (p->pointee != NULL))
            abort();
    }
    for (size_t i = 0; i < k->ninstantiations; i++)
        if (!k->instantiations[i])
            abort();
}

static void check_names(const kd_strlist *names, size_t most)
{
    if (names->count > most)
        abort();
    for (size_t i = 0; i < names->count; i++) {
        const char *n = names->items[i];
        if (!*n || (*n >= '0' && *n <= '9') || strspn(n, "_0123456789abcdefghijklmnopqrstuvwxyz"
                                                        "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(n))
            abort();
    }
}

static void scan_region_markers(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    kd_region_names names = {0};
    kd_diag why = {0};
    if (kd_regions_scan(text, "v1", &names, &why) == 0) {
        check_names(&names.regions, KD_REGION_CALIBRATION_ID - 1);
        check_names(&names.groups, KD_REGION_MAX_GROUPS);
    } else if (!why.id) {
        abort(); /* a refusal says why */
    }
    kd_region_names_free(&names);
    kd_diag_free(&why);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy, so ASan flags any read past the end. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    if (size)
        memcpy(text, data, size);

    kd_kernel_list list;
    if (kd_scan_source(text, size, &list) == 0) {
        for (size_t i = 0; i < list.count; i++)
            check_kernel(&list, &list.items[i]);
        (void)kd_kernel_find(&list, "");
        (void)kd_kernel_find(&list, NULL);
        kd_kernel_list_free(&list);
    }
    free(text);
    scan_region_markers(data, size);
    return 0;
}
