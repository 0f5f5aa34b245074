#include "regions/instrument.h"
#include "regions/regions_msgs.h"

#include "source/scan.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The markers that name something, what they name and what follows the name. */
static const struct marker {
    const char *open;
    bool group;     /* a KD_REGION_GROUP name, not a region's */
    char after;     /* ')' or the ',' before the group's warps */
} markers[] = {
    {"KD_REGION_BEGIN(", false, ')'},
    {"KD_REGION_END(", false, ')'},
    {"KD_REGION(", false, ')'},
    {"KD_REGION_GROUP(", true, ','},
};

static bool known(const kd_strlist *names, const char *name, size_t len)
{
    for (size_t i = 0; i < names->count; i++)
        if (strlen(names->items[i]) == len && strncmp(names->items[i], name, len) == 0)
            return true;
    return false;
}

int kd_regions_scan(const char *text, const char *side, kd_region_names *names, kd_diag *why)
{
    for (const char *p = text; (p = strstr(p, "KD_REGION")) != NULL; p++) {
        /* Part of a longer identifier (MY_KD_REGION...) is not a marker. */
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        const struct marker *m = NULL;
        for (size_t i = 0; i < sizeof markers / sizeof *markers && !m; i++)
            if (strncmp(p, markers[i].open, strlen(markers[i].open)) == 0)
                m = &markers[i];
        if (!m)
            continue;
        const char *open = p + strlen(m->open);
        while (*open == ' ' || *open == '\t')
            open++;
        size_t len = 0;
        while (isalnum((unsigned char)open[len]) || open[len] == '_')
            len++;
        const char *close = open + len;
        while (*close == ' ' || *close == '\t')
            close++;
        if (len == 0 || isdigit((unsigned char)open[0]) || *close != m->after) {
            size_t shown = strcspn(p, "\n");
            char *excerpt = kd_xstrndup(p, shown < 60 ? shown : 60);
            kd_diag_set(why, m->group ? KD_MSG_REGIONS_GROUP_NEEDS_NAME : KD_MSG_REGIONS_MARKER_NEEDS_NAME,
                        KD_DIAG_NO_SIDE, KD_S(side), KD_S(excerpt));
            free(excerpt);
            return -1;
        }
        kd_strlist *list = m->group ? &names->groups : &names->regions;
        if (known(list, open, len))
            continue;
        /* Region ids are 7 bits of a record (127: the calibration region's); group ids 8
         * bits of a warp's header (0: no group). */
        size_t most = m->group ? KD_REGION_MAX_GROUPS : KD_REGION_CALIBRATION_ID - 1;
        if (list->count == most) {
            kd_diag_set(why, m->group ? KD_MSG_REGIONS_TOO_MANY_GROUPS : KD_MSG_REGIONS_TOO_MANY_REGIONS,
                        KD_DIAG_NO_SIDE, KD_S(side), KD_U(most));
            return -1;
        }
        kd_strlist_push(list, kd_xstrndup(open, len));
    }
    return 0;
}

void kd_regions_wrapper_prologue(const kd_region_names *names, kd_region_markers form, kd_strbuf *out)
{
    kd_sb_puts(out, "#define KERNDIFF_REGIONS 1\n");
    if (form == KD_MARKERS_EVERY_BLOCK)
        kd_sb_puts(out, "#define KD_REGION_EVERY_BLOCK 1\n");
    if (form == KD_MARKERS_BRANCHED)
        kd_sb_puts(out, "#define KD_REGION_BRANCHED 1\n");
    for (size_t i = 0; i < names->regions.count; i++)
        kd_sb_printf(out, "#define KD_REGION_ID_%s %zu\n", names->regions.items[i], i + 1);
    for (size_t i = 0; i < names->groups.count; i++)
        kd_sb_printf(out, "#define KD_REGION_GROUP_ID_%s %zu\n", names->groups.items[i], i + 1);
    kd_sb_printf(out, "#define KD_REGION_ID_kd_calibrate %d\n", KD_REGION_CALIBRATION_ID);
    /* Before the user's code: every kernel body declares a context of this header's type. */
    kd_sb_puts(out, "#include <kerndiff/regions.h>\n");
}

void kd_regions_instrument_source(const char *text, size_t len, const char *path, kd_strbuf *out)
{
    size_t *bodies, count;
    kd_scan_kernel_bodies(text, len, &bodies, &count);
    /* The same line numbers and file name as the original: the context goes on the line
     * of the brace, and #line names the user's file. */
    kd_sb_printf(out, "#line 1 \"%s\"\n", path);
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        kd_sb_append(out, text + at, bodies[i] + 1 - at);
        kd_sb_puts(out, " KD_REGION_KERNEL_CONTEXT ");
        at = bodies[i] + 1;
    }
    kd_sb_append(out, text + at, len - at);
    if (len == 0 || text[len - 1] != '\n')
        kd_sb_puts(out, "\n");
    free(bodies);
}

void kd_regions_wrapper_epilogue(kd_strbuf *out)
{
    kd_sb_printf(out,
                 "#include <kerndiff/regions.h>\n"
                 "extern \"C\" __global__ void %s(void)\n"
                 "{\n"
                 "    KD_REGION_KERNEL_CONTEXT\n"
                 "    for (int i = 0; i < 32; i++) {\n"
                 "        KD_REGION_BEGIN(kd_calibrate);\n"
                 "        KD_REGION_END(kd_calibrate);\n"
                 "    }\n"
                 "}\n",
                 KD_REGION_CALIBRATION_KERNEL);
}
