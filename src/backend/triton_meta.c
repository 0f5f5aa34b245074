/* triton_meta.c — a Triton kernel's meta-parameters: the settings given (--call, --arg,
 * annotations, a replayed launch), the @triton.autotune config chosen or pinned (--config),
 * every constexpr's value (backend/triton_constexpr.h says from where), and the values
 * @triton.heuristics computes (evaluated by the helper). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/triton.h"
#include "backend/triton_constexpr.h"
#include "backend/triton_msgs.h"
#include "launch/expr.h"
#include "launch/spec.h"
#include "source/annotation.h"
#include "source/pykernels.h"
#include "source/roles.h"
#include "util/outcome.h"
#include "util/xalloc.h"

enum { DEFAULT_WARPS = 4, DEFAULT_STAGES = 3 };

/* --- settings: --call vN:NAME=V, then --arg NAME=V, then `# kerndiff: NAME=V` ---------------- */

/* The value of the last NAME=VALUE entry of `list` (later entries win), malloc'd. */
static char *from_list(const kd_strlist *list, const char *name)
{
    const char *found = NULL;
    size_t nlen = strlen(name);
    for (size_t i = 0; i < list->count; i++)
        if (strncmp(list->items[i], name, nlen) == 0 && list->items[i][nlen] == '=')
            found = list->items[i] + nlen + 1;
    return found ? kd_xstrdup(found) : NULL;
}

/* A value the captured launch fixes (a constexpr, a specialised scalar, num_warps, num_stages),
 * as text meta_value reads, or NULL: it wins over flags and annotations, since the replay is of
 * the program's own kernel (issue 30: "compile each side with exactly those settings"). */
static char *captured_setting(const kd_side *side, const char *name)
{
    json_t *t = kd_triton_replay_section(side);
    json_t *v = json_object_get(json_object_get(t, "constexprs"), name);
    if (!v && (strcmp(name, "num_warps") == 0 || strcmp(name, "num_stages") == 0))
        v = json_object_get(t, name);
    char *text = NULL;
    if (json_is_boolean(v))
        text = kd_xstrdup(json_is_true(v) ? "True" : "False");
    else if (json_is_integer(v))
        text = kd_xasprintf("%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        text = kd_xasprintf("%.17g", json_real_value(v));
    else if (json_is_string(v))
        text = kd_xasprintf("'%s'", json_string_value(v));
    json_decref(t);
    return text;
}

/* The text of a setting for this side, malloc'd; NULL when none is given. */
char *kd_triton_setting_text(const kd_launch_options *launch, const kd_side *side, const char *name)
{
    int s = side->label[1] == '2'; /* "v1" / "v2" */
    char *captured = captured_setting(side, name);
    if (captured)
        return captured;
    char *text = from_list(&launch->call[s].params, name);
    if (!text)
        text = from_list(&launch->scalars, name);
    if (!text) {
        const char *a = kd_annotation_get(&side->annotations, name);
        text = a ? kd_xstrdup(a) : NULL;
    }
    return text;
}

/* --- the kernel's meta-parameters ----------------------------------------------------------- */

void kd_triton_meta_free(kd_triton_meta *m)
{
    json_decref(m->kernel);
    json_decref(m->constexprs);
    json_decref(m->computed);
    json_decref(m->origins);
}

/* A constexpr's value: a number when the text reads as one (16K, 1<<10), else a string. */
static json_t *meta_value(const char *text)
{
    double v;
    if (strcmp(text, "True") == 0 || strcmp(text, "False") == 0)
        return json_boolean(text[0] == 'T');
    if (kd_expr_eval(text, &(kd_vars){NULL, 0}, &v, NULL, 0) != 0) {
        size_t n = strlen(text); /* a quoted Python string default: 'relu' */
        if (n >= 2 && (text[0] == '\'' || text[0] == '"') && text[n - 1] == text[0])
            return json_stringn(text + 1, n - 2);
        return json_string(text);
    }
    return v == floor(v) && fabs(v) < 9007199254740992.0 ? json_integer((json_int_t)v) : json_real(v);
}

/* The autotune config the given values (--arg, --call, annotations) select: the first
 * whose meta-parameters all agree with them; -1 when none is given or none agrees. */
static int given_config(const kd_launch_options *launch, const kd_side *side, json_t *configs)
{
    size_t i;
    json_t *cfg;
    json_array_foreach(configs, i, cfg) {
        const char *key;
        json_t *v;
        bool all = true, any = false;
        json_object_foreach(json_object_get(cfg, "meta"), key, v) {
            char *given = kd_triton_setting_text(launch, side, key);
            if (given) {
                json_t *g = meta_value(given);
                any = true;
                all = all && json_equal(g, v);
                json_decref(g);
            }
            free(given);
        }
        if (any && all)
            return (int)i;
    }
    return -1;
}

/* The config --config names: "K" (1-based) or "NAME=VALUE,..." matching its meta-parameters
 * and num_warps/num_stages/num_ctas; -1 when none does (the pipeline then chooses). */
int kd_triton_pinned_config(const char *pin, json_t *configs)
{
    char *end;
    long k = strtol(pin, &end, 10);
    if (*pin && !*end)
        return k >= 1 && (size_t)k <= json_array_size(configs) ? (int)k - 1 : -1;
    if (!strchr(pin, '='))
        return -1; /* no NAME=VALUE at all (",,,"): it names nothing */
    size_t i;
    json_t *cfg;
    json_array_foreach(configs, i, cfg) {
        bool all = true;
        char *items = kd_xstrdup(pin), *save = NULL;
        for (char *item = strtok_r(items, ",", &save); item && all; item = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(item, '=');
            if (!eq) {
                all = false;
                break;
            }
            *eq = '\0';
            json_t *have = json_object_get(json_object_get(cfg, "meta"), item);
            if (!have)
                have = json_object_get(cfg, item);
            json_t *want = meta_value(eq + 1);
            all = have && json_equal(have, want);
            json_decref(want);
        }
        free(items);
        if (all)
            return (int)i;
    }
    return -1;
}

/* "BLOCK=256, num_warps=8": a config's meta-parameters, then its options. */
char *kd_triton_describe_config(json_t *cfg)
{
    kd_strbuf sb = {0};
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(cfg, "meta"), key, v) {
        char *text = json_dumps(v, JSON_ENCODE_ANY);
        kd_sb_printf(&sb, "%s%s=%s", sb.len ? ", " : "", key, text ? text : "?");
        free(text);
    }
    static const char *const options[] = {"num_warps", "num_stages", "num_ctas"};
    for (size_t i = 0; i < sizeof options / sizeof *options; i++)
        if (json_is_integer(json_object_get(cfg, options[i])))
            kd_sb_printf(&sb, "%s%s=%lld", sb.len ? ", " : "", options[i],
                         (long long)json_integer_value(json_object_get(cfg, options[i])));
    return kd_sb_take(&sb);
}

void kd_triton_configs(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_side *side,
                          kd_strlist *out, int *given)
{
    *given = -1;
    const kd_kernel *k = side->kernel_info;
    json_t *info = k && k->frontend_info ? json_loads(k->frontend_info, 0, NULL) : NULL;
    /* A launch taken from the user's code carries Triton's own autotune choice. */
    json_t *configs = kd_triton_captures(opts,
                                         info) || kd_triton_replayed(side) ? NULL : json_object_get(info, "configs");
    size_t i;
    json_t *cfg;
    json_array_foreach(configs, i, cfg)
        kd_strlist_push(out, kd_triton_describe_config(cfg));
    *given = opts->config ? kd_triton_pinned_config(opts->config, configs) : given_config(launch, side, configs);
    json_decref(info);
}

/* The config to build: the pipeline's choice (side->config), else the given one, else the first. */
static json_t *choose_config(const kd_launch_options *launch, const kd_side *side, json_t *configs)
{
    int chosen = side->config >= 0 ? side->config : given_config(launch, side, configs);
    return json_array_get(configs, chosen >= 0 ? (size_t)chosen : 0);
}

/* An option's value (num_warps ...): given, else the autotune config's, else Triton's default;
 * *origin says which, for the build line (an assumed value is said, never silent). */
static int int_setting(const kd_launch_options *launch, const kd_side *side, const char *name, json_t *config, int fallback,
                       const char **origin)
{
    char *text = kd_triton_setting_text(launch, side, name), *captured = captured_setting(side, name);
    bool configured = json_is_integer(json_object_get(config, name));
    int v = text ? atoi(text) : configured ? (int)json_integer_value(json_object_get(config, name)) : fallback;
    *origin = captured ? "the captured launch's"
              : text   ? "given"
              : configured ? "the autotune config's"
                           : "Triton's default, nothing in the file or flags says otherwise";
    free(captured);
    free(text);
    return v;
}

/* Resolves every meta-parameter of the side's kernel. With static_only (nothing will be timed:
 * no GPU), a BLOCK constexpr that nothing gives is assumed (KD_TRITON_ASSUMED_BLOCK) and said; otherwise
 * it is refused. Prints the reason on failure. */
int kd_triton_resolve_meta(const kd_launch_options *launch, const kd_side *side, bool static_only, kd_triton_meta *m)
{
    memset(m, 0, sizeof *m);
    const kd_kernel *k = side->kernel_info;
    m->kernel = k && k->frontend_info ? json_loads(k->frontend_info, 0, NULL) : NULL;
    m->constexprs = json_object();
    m->origins = json_object();
    if (!m->kernel) {
        kd_say(KD_MSG_TRITON_NO_DESCRIPTION, kd_triton_side_no(side->label), KD_S(side->label));
        return KD_FAIL_TOOL;
    }
    json_t *config = choose_config(launch, side, json_object_get(m->kernel, "configs"));
    m->num_warps = int_setting(launch, side, "num_warps", config, DEFAULT_WARPS, &m->warps_origin);
    m->num_stages = int_setting(launch, side, "num_stages", config, DEFAULT_STAGES, &m->stages_origin);
    if (m->num_warps < 1 || m->num_warps > 32 || (m->num_warps & (m->num_warps - 1)) || m->num_stages < 1) {
        kd_say(KD_MSG_TRITON_BAD_WARPS, kd_triton_side_no(side->label), KD_S(side->label), KD_I(m->num_warps),
               KD_I(m->num_stages));
        return KD_FAIL_INPUT;
    }
    size_t i, nmissing = 0, nassumed = 0, tile_dims = 0;
    json_t *p;
    kd_strbuf missing = {0};
    const char *assumed[8];
    json_array_foreach(json_object_get(m->kernel, "params"), i, p) {
        if (strcmp(json_string_value(json_object_get(p, "kind")), "constexpr") != 0)
            continue;
        const char *name = json_string_value(json_object_get(p, "name"));
        char *text = kd_triton_setting_text(launch, side, name);
        json_t *value = NULL;
        switch (kd_triton_constexpr_from(m->kernel, p, config, text != NULL)) {
        case KD_CONSTEXPR_GIVEN:
            value = meta_value(text);
            break;
        case KD_CONSTEXPR_CONFIG:
            value = json_incref(json_object_get(json_object_get(config, "meta"), name));
            break;
        case KD_CONSTEXPR_DEFAULT:
            value = meta_value(json_string_value(json_object_get(p, "default")));
            break;
        case KD_CONSTEXPR_CALL: /* the value the file's own call passes (its launch could not be taken) */
            value = meta_value(json_string_value(json_object_get(p, "call_value")));
            json_object_set_new(m->origins, name, json_incref(json_array_get(json_object_get(m->kernel, "launches"), 0)));
            break;
        case KD_CONSTEXPR_LENGTH: { /* the element count, as an integer parameter of that name would be: --n */
            double count = 0;
            const char *n_text = launch->n ? launch->n : kd_annotation_get(&side->annotations, "n");
            if (kd_expr_eval(n_text ? n_text : "1M", &(kd_vars){NULL, 0}, &count, NULL, 0) == 0 && count >= 1)
                value = json_integer((json_int_t)count);
            break;
        }
        case KD_CONSTEXPR_HEURISTIC:
            m->heuristics_pending = true; /* computed at the build, from the launch's values */
            free(text);
            continue;
        case KD_CONSTEXPR_NONE:
            break;
        }
        free(text);
        if (!value && static_only && kd_pykernels_block_like(name)) {
            assumed[nassumed < 8 ? nassumed++ : 7] = name; /* sized below, once all are known */
            tile_dims += kd_pykernels_tile_axes(json_integer_value(json_object_get(p, "tile_dims")));
            continue;
        }
        if (!value) { /* every one named, so that one run says all the user must give */
            kd_sb_printf(&missing, "%s%s", nmissing++ ? ", " : "", name);
            continue;
        }
        json_object_set_new(m->constexprs, name, value);
    }
    /* a tile of several assumed block sizes stays one block's size (kd_pykernels_assumed_block) */
    for (size_t a = 0; a < nassumed; a++) {
        json_object_set_new(m->constexprs, assumed[a], json_integer(kd_pykernels_assumed_block(tile_dims)));
        json_object_set_new(m->origins, assumed[a], json_string("assumed"));
    }
    if (nmissing == 1)
        kd_say(KD_MSG_TRITON_CONSTEXPR_NEEDS_VALUE, kd_triton_side_no(side->label), KD_S(side->label),
               KD_S(kd_sb_str(&missing)),
               KD_S(k->name), KD_S(side->path));
    else if (nmissing > 1)
        kd_say(KD_MSG_TRITON_CONSTEXPRS_NEED_VALUES, kd_triton_side_no(side->label), KD_S(side->label),
               KD_S(kd_sb_str(&missing)),
               KD_S(k->name), KD_S(side->path));
    kd_sb_free(&missing);
    return nmissing ? KD_FAIL_INPUT : KD_OK;
}

void kd_triton_set_constants(kd_side *side, const kd_triton_meta *m)
{
    const char *key;
    json_t *v;
    kd_launch_abi_set(&side->abi, "num_warps", m->num_warps);
    kd_launch_abi_set(&side->abi, "num_stages", m->num_stages);
    const char *block_name = NULL;
    json_object_foreach(m->constexprs, key, v) {
        if (json_is_number(v))
            kd_launch_abi_set(&side->abi, key, json_number_value(v));
        if (json_is_number(v) && strstr(key, "BLOCK"))
            block_name = block_name ? "" : key; /* "": more than one, no default grid */
    }
    free(side->abi.default_grid);
    side->abi.default_grid = NULL;
    if (block_name && *block_name) {
        kd_strbuf grid = {0};
        kd_sb_printf(&grid, "cdiv(n,%s)", block_name);
        side->abi.default_grid = kd_sb_take(&grid);
    }
}

/* @triton.heuristics: the meta-parameters its lambdas compute, evaluated by the helper (no
 * import, only safe forms) against what is known of this launch: its scalars, the
 * constexprs, and the values given. A value given (--arg, annotation) wins, as an explicit
 * choice. The results join the constexprs, and the launch's constants for its grid. */
int kd_triton_apply_heuristics(const kd_frontend_options *opts, const kd_launch_options *launch, kd_side *side,
                               kd_triton_meta *m)
{
    if (!m->heuristics_pending)
        return KD_OK;
    json_t *pending = json_array(), *values = json_deep_copy(m->constexprs);
    size_t i;
    json_t *h;
    json_array_foreach(json_object_get(m->kernel, "heuristics"), i, h)
        if (!json_object_get(m->constexprs, json_string_value(json_object_get(h, "name"))))
            json_array_append(pending, h);
    json_t *p;
    json_array_foreach(json_object_get(m->kernel, "params"), i, p) {
        const char *name = json_string_value(json_object_get(p, "name"));
        const kd_launch_arg *a = kd_triton_launch_arg(side, name);
        char *text = a ? NULL : kd_triton_setting_text(launch, side, name);
        if (a && (a->role == KD_ROLE_LENGTH || a->role == KD_ROLE_SCALAR))
            json_object_set_new(values, name, a->value == floor(a->value) ? json_integer((json_int_t)a->value)
                                                                          : json_real(a->value));
        else if (text && strcmp(json_string_value(json_object_get(p, "kind")), "pointer") != 0)
            json_object_set_new(values, name, meta_value(text));
        free(text);
    }
    int rc = KD_OK;
    json_t *spec = json_pack("{s:s, s:O, s:O}", "kernel", side->kernel_info->name, "heuristics", pending, "values", values);
    char *text = spec ? json_dumps(spec, JSON_COMPACT) : NULL;
    json_decref(spec);
    json_decref(values);
    kd_spawn_result r;
    if (!text) {
        kd_say0(KD_MSG_TRITON_OUT_OF_MEMORY, KD_DIAG_NO_SIDE);
        rc = KD_FAIL_TOOL;
    } else if ((rc = kd_triton_run_helper(opts, side->label, (const char *const[5]){"heuristics", text},
                                          KD_TRITON_LIST_TIMEOUT_MS, &r)) ==
                    KD_OK) {
        json_t *computed = r.exit_code == 0 && !r.signal ? json_loads(kd_sb_str(&r.out), 0, NULL) : NULL;
        if (r.exit_code != 0 || r.signal)
            rc = kd_triton_helper_failed(&r, side->label, "@triton.heuristics", opts);
        else if (!json_is_object(computed)) {
            kd_say(KD_MSG_TRITON_HEURISTICS_NOT_JSON, kd_triton_side_no(side->label), KD_S(side->label),
                   KD_S(kd_sb_str(&r.out)));
            rc = KD_FAIL_TOOL;
        } else {
            json_object_update(m->constexprs, computed);
            m->computed = json_incref(computed);
            kd_triton_set_constants(side, m);
        }
        json_decref(computed);
        kd_spawn_result_free(&r);
    }
    json_decref(pending);
    free(text);
    return rc;
}

const kd_launch_arg *kd_triton_launch_arg(const kd_side *side, const char *name)
{
    for (size_t i = 0; !side->launch_error && i < side->launch.nargs; i++)
        if (strcmp(side->launch.args[i].name, name) == 0)
            return &side->launch.args[i];
    return NULL;
}
