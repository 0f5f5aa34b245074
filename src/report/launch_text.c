#include "report/launch_text.h"

#include <stdbool.h>
#include <string.h>

#include "report/replay_text.h"
#include "report/untrusted.h"

/* "64", "64x2" or "64x2x3": trailing dimensions of 1 are left out. */
static void dims(kd_strbuf *out, const unsigned d[3])
{
    kd_sb_printf(out, "%u", d[0]);
    if (d[1] != 1 || d[2] != 1)
        kd_sb_printf(out, "x%u", d[1]);
    if (d[2] != 1)
        kd_sb_printf(out, "x%u", d[2]);
}

/* with_n false: a launch replayed from a capture, which has no n (the capture gives every size). */
static void geometry_text(const kd_launch_spec *s, bool with_n, kd_strbuf *out)
{
    kd_sb_puts(out, "grid ");
    dims(out, s->grid);
    /* origins name an option or an annotation and may quote its value */
    kd_sb_puts(out, " (");
    kd_sb_untrusted(out, s->grid_origin);
    kd_sb_puts(out, ")  block ");
    dims(out, s->block);
    kd_sb_puts(out, " (");
    kd_sb_untrusted(out, s->block_origin);
    kd_sb_printf(out, ")  smem %llu B (", s->dynamic_smem);
    kd_sb_untrusted(out, s->smem_origin);
    kd_sb_puts(out, ")");
    if (!with_n)
        return;
    kd_sb_printf(out, "  n %llu (", s->n);
    kd_sb_untrusted(out, s->n_origin);
    kd_sb_puts(out, ")");
}

void kd_launch_geometry_text(const kd_launch_spec *s, kd_strbuf *out) { geometry_text(s, true, out); }

void kd_launch_args_text(const kd_launch_spec *s, kd_strbuf *out)
{
    for (size_t i = 0; i < s->nargs; i++) {
        const kd_launch_arg *a = &s->args[i];
        kd_strbuf safe = {0}; /* the parameter's name and origin, from the user's source and options */
        kd_sb_untrusted(&safe, *a->name ? a->name : "(unnamed)");
        const char *name = kd_sb_str(&safe);
        kd_strbuf origin = {0};
        kd_sb_untrusted(&origin, a->origin);
        if (i)
            kd_sb_puts(out, "  ");
        switch (a->role) {
        case KD_ROLE_INPUT:
        case KD_ROLE_OUTPUT:
        case KD_ROLE_INOUT:
            kd_sb_printf(out, "%s: %llu %s", name, a->count, kd_dtype_name(a->type.base));
            if (a->type.lanes > 1)
                kd_sb_printf(out, "x%d", a->type.lanes);
            kd_sb_printf(out, " %s (%s)", a->role == KD_ROLE_INPUT ? "in" : a->role == KD_ROLE_OUTPUT ? "out" : "in-out",
                         kd_sb_str(&origin));
            break;
        case KD_ROLE_STREAM:
            kd_sb_printf(out, "%s: the harness's stream", name);
            break;
        default: /* whole numbers exactly (they are exact up to 2^53), others as typed */
            if (a->value == (double)(long long)a->value)
                kd_sb_printf(out, "%s = %lld (%s)", name, (long long)a->value, kd_sb_str(&origin));
            else
                kd_sb_printf(out, "%s = %.9g (%s)", name, a->value, kd_sb_str(&origin));
            break;
        }
        kd_sb_free(&safe);
        kd_sb_free(&origin);
    }
}

/* A side's geometry, arguments and what was assumed from its code, or why it has none
 * (returned in geometry). */
static void side_text(const kd_comparison *c, int s, kd_strbuf *geometry, kd_strbuf *args, kd_strbuf *assumed)
{
    const kd_side *side = &c->side[s];
    if (side->launch_error) {
        /* The runtime note below says the same reason with the side and the kernel: said
         * once there, not again here. */
        const kd_note *n = &c->runtime_note;
        if (n->present && n->id == KD_RUNTIME_UNLAUNCHABLE && n->detail && !strcmp(n->detail, side->launch_error)) {
            kd_sb_puts(geometry, "not launchable as described (see below)");
            return;
        }
        kd_sb_puts(geometry, "not launchable as described: ");
        kd_sb_untrusted(geometry, side->launch_error);
        return;
    }
    geometry_text(&side->launch, !side->replay, geometry);
    const unsigned *cluster = side->replay ? side->replay->cap.cluster : NULL;
    if (cluster && (cluster[0] || cluster[1] || cluster[2])) /* replayed in the program's clusters */
        kd_sb_printf(geometry, "  cluster %ux%ux%u (captured)", cluster[0], cluster[1], cluster[2]);
    kd_launch_args_text(&side->launch, args);
    if (side->launch.assumed[0])
        kd_sb_untrusted(assumed, side->launch.assumed);
}

/* What the launch check said of each side whose launch was assumed (diff/comparison.h). */
static void launch_check_text(const kd_comparison *c, const char *indent, kd_strbuf *out)
{
    static const char *const said[] = {
        [KD_LAUNCH_CHECK_CLEAN] = "ran once under memcheck before timing: no access outside its buffers",
        [KD_LAUNCH_CHECK_FINDINGS] = "ran once under memcheck before timing: accesses outside its buffers (below)",
        [KD_LAUNCH_CHECK_NO_SANITIZER] = "not run under memcheck first (no compute-sanitizer found: it comes with "
                                         "the CUDA toolkit, or pass --compute-sanitizer PATH): a read past a "
                                         "buffer's end goes unseen",
        [KD_LAUNCH_CHECK_UNCHECKED] = "not run under memcheck first",
        [KD_LAUNCH_CHECK_SKIPPED] = "not run under memcheck first: --no-launch-memcheck",
    };
    bool same = c->launch_check[0] == c->launch_check[1];
    for (int s = 0; s < (same ? 1 : 2); s++) {
        kd_launch_check k = c->launch_check[s];
        if (k == KD_LAUNCH_CHECK_NONE)
            continue;
        kd_sb_printf(out, "%s%-7s checked: %s", indent, same ? "" : s ? "v2:" : "v1:", said[k]);
        if (k == KD_LAUNCH_CHECK_UNCHECKED) {
            kd_sb_puts(out, " (");
            kd_sb_untrusted(out, c->launch_check_why ? c->launch_check_why : "unknown");
            kd_sb_puts(out, "): a read past a buffer's end goes unseen");
        }
        kd_sb_puts(out, "\n");
    }
}

void kd_launch_block_text(const kd_comparison *c, const char *indent, kd_strbuf *out)
{
    kd_strbuf geometry[2] = {{0}}, args[2] = {{0}}, assumed[2] = {{0}};
    for (int s = 0; s < 2; s++)
        side_text(c, s, &geometry[s], &args[s], &assumed[s]);
    bool same = !strcmp(kd_sb_str(&geometry[0]), kd_sb_str(&geometry[1])) &&
                !strcmp(kd_sb_str(&args[0]), kd_sb_str(&args[1])) &&
                !strcmp(kd_sb_str(&assumed[0]), kd_sb_str(&assumed[1]));
    for (int s = 0; s < (same ? 1 : 2); s++) {
        kd_sb_printf(out, "%s%-7s %s\n", indent, same ? "v1, v2:" : s ? "v2:" : "v1:", kd_sb_str(&geometry[s]));
        if (args[s].len)
            kd_sb_printf(out, "%s%-7s %s\n", indent, "", kd_sb_str(&args[s]));
        if (assumed[s].len)
            kd_sb_printf(out, "%s%-7s assumed: %s\n", indent, "", kd_sb_str(&assumed[s]));
    }
    launch_check_text(c, indent, out);
    kd_strbuf from = {0};
    kd_replay_origin_text(c, &from); /* --launch: where the launch came from */
    if (from.len)
        kd_sb_printf(out, "%s%-7s %s\n", indent, "from:", kd_sb_str(&from));
    kd_sb_free(&from);
    for (int s = 0; s < 2; s++) {
        kd_sb_free(&geometry[s]);
        kd_sb_free(&args[s]);
        kd_sb_free(&assumed[s]);
    }
}

/* The why of spec->assumed's phrase "NAME = VALUE: WHY (--arg NAME=VALUE)", or NULL. */
static bool assumed_why(const char *assumed, const char *name, kd_strbuf *why)
{
    kd_strbuf head = {0}, tail = {0};
    kd_sb_printf(&head, "%s = ", name);
    kd_sb_printf(&tail, " (--arg %s=VALUE)", name);
    bool found = false;
    for (const char *p = assumed; !found && (p = strstr(p, kd_sb_str(&head))) != NULL; p++) {
        if (p != assumed && strncmp(p - 2, "; ", 2) != 0)
            continue;
        const char *colon = strstr(p, ": "), *end = strstr(p, kd_sb_str(&tail));
        if (!colon || !end || colon > end)
            continue;
        kd_sb_printf(why, "%.*s", (int)(end - colon - 2), colon + 2);
        found = true;
    }
    kd_sb_free(&head);
    kd_sb_free(&tail);
    return found;
}

void kd_launch_param_note(const kd_launch_spec *spec, bool built, size_t j, const char *name, kd_strbuf *out)
{
    if (!built) {
        if (kd_launch_spec_needs(spec, name)) {
            kd_sb_puts(out, " (needs --arg ");
            kd_sb_untrusted(out, name);
            kd_sb_puts(out, "=VALUE)");
        }
        return;
    }
    if (j >= spec->nargs || !spec->args[j].origin || strcmp(spec->args[j].origin, "assumed") != 0)
        return;
    kd_strbuf why = {0};
    kd_sb_printf(out, " (assumed %.17g", spec->args[j].value);
    if (assumed_why(spec->assumed, name, &why)) {
        kd_sb_puts(out, ": ");
        kd_sb_untrusted(out, kd_sb_str(&why));
    }
    kd_sb_puts(out, ")");
    kd_sb_free(&why);
}

const char *kd_launch_param_role_word(const kd_launch_spec *spec, bool built, size_t j, kd_param_role role)
{
    bool shape = built && role == KD_ROLE_LENGTH && j < spec->nargs && spec->args[j].origin &&
                 strcmp(spec->args[j].origin, "assumed") == 0;
    return kd_param_role_name(shape ? KD_ROLE_SCALAR : role);
}
