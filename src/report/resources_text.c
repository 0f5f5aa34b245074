#include "report/resources_text.h"

bool kd_resources_known(const kd_comparison *c)
{
    return c->side[0].stat.resources.found && c->side[1].stat.resources.found;
}

void kd_resources_unknown_text(const kd_comparison *c, kd_strbuf *out)
{
    bool known[2] = {c->side[0].stat.resources.found, c->side[1].stat.resources.found};
    if (known[0] && known[1])
        return;
    /* The static pass reads a Triton or .cubin side's resources with cuobjdump; without it
     * that is the reason. Otherwise the build's report had no entry for the kernel. */
    const char *why = c->sass_note.present && c->sass_note.id == KD_SASS_NO_CUOBJDUMP
                          ? "cuobjdump not found"
                          : "the build reported none for the kernel";
    if (!known[0] && !known[1])
        kd_sb_printf(out, "resources unknown (%s)", why);
    else
        kd_sb_printf(out, "resources of %s unknown (%s)", known[0] ? "v2" : "v1", why);
}
