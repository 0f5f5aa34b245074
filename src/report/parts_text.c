#include "report/parts_text.h"

#include "wire/locate.h"

void kd_parts_text(kd_strbuf *out)
{
    kd_part parts[KD_PARTS_MAX];
    size_t n = kd_find_parts(parts);
    kd_sb_puts(out, "parts:\n");
    for (size_t i = 0; i < n; i++) {
        if (parts[i].path)
            kd_sb_printf(out, "  %-22s %s\n", parts[i].name, parts[i].path);
        else
            kd_sb_printf(out, "  %-22s not found (needed for %s)\n", parts[i].name, parts[i].needed_for);
    }
    kd_parts_free(parts, n);
}
