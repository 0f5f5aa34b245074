/* triton_prepare.c — the Triton backend's prepare: a side's launch taken from the capture
 * (the compiled kernel's arguments, the ABI, the launch's values, its description and
 * launch_source), or described from flags and annotations when it could not be taken, and the
 * compiled kernel's scalar types before the first launch description. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend/triton.h"
#include "backend/triton_msgs.h"
#include "launch/spec.h"
#include "source/annotation.h"
#include "source/pykernels.h"
#include "util/fs.h"
#include "util/outcome.h"
#include "util/xalloc.h"

/* The C type of a scalar of Triton's compiled signature ("i32" -> "int"); NULL: unsupported. */
static const char *scalar_c_type(const char *triton_type)
{
    static const struct { const char *triton, *c; } types[] = {
        {"i1", "int"}, {"i8", "int"}, {"i16", "int"}, {"i32", "int"}, {"u1", "int"}, {"u8", "unsigned int"},
        {"u16", "unsigned int"}, {"u32", "unsigned int"}, {"i64", "long long"}, {"u64", "unsigned long long"},
        {"fp32", "float"}, {"f32", "float"}, {"fp64", "double"}, {"f64", "double"},
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(types[i].triton, triton_type) == 0)
            return types[i].c;
    return NULL;
}

/* line: the file's line of an annotation kept from the file; KD_ANNOTATION_CAPTURED for a
 * value of the captured launch (the launch line says "captured" for it). */
static void add_annotation(kd_annotations *a, const char *key, const char *value, int line)
{
    a->items = kd_xreallocarray(a->items, a->count + 1, sizeof *a->items);
    a->items[a->count++] = (kd_annotation){kd_xstrdup(key), kd_xstrdup(value), line};
}

/* The captured bytes of pointer argument `a` (launch.json's args[].data): the file the helper
 * names for it (data/NAME.bin in the capture's folder, nothing else), with exactly the
 * buffer's bytes (count x element size). Returns its path, or NULL with why not in `why`. */
static char *captured_data(const char *folder, json_t *a, const char *name, kd_strbuf *why)
{
    json_t *data = json_object_get(a, "data");
    const char *not_kept = json_string_value(json_object_get(data, "not_kept"));
    const char *file = json_string_value(json_object_get(data, "file"));
    long long count = json_integer_value(json_object_get(a, "count")),
              size = json_integer_value(json_object_get(a, "element_size")),
              bytes = json_integer_value(json_object_get(data, "bytes"));
    char expected[300];
    snprintf(expected, sizeof expected, "data/%s.bin", name);
    if (!json_is_object(data)) {
        kd_sb_puts(why, "the capture kept no data for it");
        return NULL;
    }
    if (not_kept) {
        kd_sb_puts(why, not_kept);
        return NULL;
    }
    if (!file || strcmp(file, expected) != 0 || !name[0] ||
        strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(name)) {
        kd_sb_puts(why, "its data file is not the capture's own");
        return NULL;
    }
    if (count <= 0 || size <= 0 || count > LLONG_MAX / size || bytes != count * size) {
        kd_sb_printf(why, "its %lld bytes are not %lld elements of %lld bytes", bytes, count, size);
        return NULL;
    }
    char *path = kd_path_join(folder, file);
    struct stat st;
    if (!path || lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || (long long)st.st_size != bytes) {
        kd_sb_puts(why, "its data file is missing or has another size");
        free(path);
        return NULL;
    }
    return path;
}

/* The side as the captured launch has it: the compiled kernel's arguments (constexprs and
 * values Triton specialised away are gone), Triton's block, shared memory, scratch and
 * constexprs, and the grid, buffer sizes and scalar values of the launch, which take the
 * place of the file's annotations (flags still override them). Prints why on failure. */
static int apply_capture(kd_side *side, json_t *launch_json)
{
    json_t *md = json_object_get(launch_json, "metadata");
    kd_kernel *compiled = kd_xcalloc(1, sizeof *compiled);
    compiled->name = kd_xstrdup(side->kernel_info->name);
    compiled->qualified = kd_xstrdup(side->kernel_info->qualified);
    compiled->line = side->kernel_info->line;
    compiled->frontend_info = side->kernel_info->frontend_info ? kd_xstrdup(side->kernel_info->frontend_info) : NULL;
    json_t *args = json_object_get(launch_json, "args");
    compiled->params = kd_xcalloc(json_array_size(args) + 1, sizeof *compiled->params);
    kd_annotations captured = {0};
    kd_strlist fill = {0}; /* per compiled parameter: the captured data file, or NULL */
    json_t *grid = json_object_get(launch_json, "grid");
    char text[128];
    snprintf(text, sizeof text, "%lld,%lld,%lld", (long long)json_integer_value(json_array_get(grid, 0)),
             (long long)json_integer_value(json_array_get(grid, 1)), (long long)json_integer_value(json_array_get(grid, 2)));
    add_annotation(&captured, "grid", text, KD_ANNOTATION_CAPTURED);
    size_t i;
    json_t *a;
    int rc = KD_OK;
    json_array_foreach(args, i, a) {
        const char *name = json_string_value(json_object_get(a, "name"));
        const char *kind = json_string_value(json_object_get(a, "kind"));
        if (!name || !kind) {
            rc = KD_FAIL_TOOL;
            break;
        }
        kd_param *p = &compiled->params[compiled->nparams++];
        p->name = kd_xstrdup(name);
        const kd_param *source = NULL;
        for (size_t j = 0; j < side->kernel_info->nparams; j++)
            if (strcmp(side->kernel_info->params[j].name, name) == 0)
                source = &side->kernel_info->params[j];
        if (strcmp(kind, "pointer") == 0) {
            const char *dtype = json_string_value(json_object_get(a, "dtype"));
            p->is_pointer = true;
            p->is_const = source ? source->is_const : false;
            p->pointee = kd_xstrdup("float");
            p->type = kd_xstrdup(p->is_const ? "const float *" : "float *");
            snprintf(text, sizeof text, "%s[%lld]", dtype ? dtype : "?",
                     (long long)json_integer_value(json_object_get(a, "count")));
            /* the program's own bytes seed it (its clocks follow its data); said per buffer */
            kd_strbuf not_kept = {0};
            char *path = side->captured ? captured_data(side->captured, a, name, &not_kept) : NULL;
            kd_strlist_push(&fill, path);
            json_object_set_new(a, "data", path ? json_pack("{s:b, s:I}", "captured", 1, "bytes",
                                                            json_integer_value(json_object_get(a, "count")) *
                                                                json_integer_value(json_object_get(a, "element_size")))
                                                : json_pack("{s:b, s:s}", "captured", 0, "why", kd_sb_str(&not_kept)));
            kd_sb_free(&not_kept);
        } else {
            kd_strlist_push(&fill, NULL);
            const char *type = scalar_c_type(json_string_value(json_object_get(a, "type")));
            if (!type) {
                kd_say(KD_MSG_TRITON_ARG_TYPE, kd_triton_side_no(side->label), KD_S(side->label), KD_S(name),
                       KD_S(compiled->name),
                       KD_S(json_string_value(json_object_get(a, "type"))));
                rc = KD_FAIL_INPUT;
                break;
            }
            p->type = kd_xstrdup(type);
            json_t *v = json_object_get(a, "value");
            if (json_is_integer(v))
                snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
            else if (json_is_boolean(v))
                snprintf(text, sizeof text, "%d", json_is_true(v));
            else
                snprintf(text, sizeof text, "%.17g", json_number_value(v));
        }
        add_annotation(&captured, name, text, KD_ANNOTATION_CAPTURED);
    }
    if (rc != KD_OK) {
        if (rc == KD_FAIL_TOOL)
            kd_say(KD_MSG_TRITON_CAPTURE_MALFORMED, kd_triton_side_no(side->label), KD_S(side->label),
                   KD_S(compiled->name),
                   KD_S(side->captured));
        kd_kernel_free(compiled);
        free(compiled);
        kd_annotations_free(&captured);
        for (size_t j = 0; j < fill.count; j++)
            free(fill.items[j]);
        free(fill.items);
        return rc;
    }
    /* The file's own annotations stay where the launch says nothing (num_warps is Triton's) */
    for (size_t j = 0; j < side->annotations.count; j++)
        if (!kd_annotation_get(&captured, side->annotations.items[j].key))
            add_annotation(&captured, side->annotations.items[j].key, side->annotations.items[j].value,
                           side->annotations.items[j].line);
    kd_annotations_free(&side->annotations);
    side->annotations = captured;
    side->abi.fixed = true;
    for (size_t j = 0; j < side->abi.fill.count; j++)
        free(side->abi.fill.items[j]);
    free(side->abi.fill.items);
    side->abi.fill = fill;
    kd_triton_read_abi(side, md);
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(launch_json, "constexprs"), key, v)
        if (json_is_number(v) || json_is_boolean(v))
            kd_launch_abi_set(&side->abi, key, json_is_boolean(v) ? json_is_true(v) : json_number_value(v));
    kd_launch_abi_set(&side->abi, "num_warps", (double)json_integer_value(json_object_get(md, "num_warps")));
    kd_launch_abi_set(&side->abi, "num_stages", (double)json_integer_value(json_object_get(md, "num_stages")));
    free(side->abi.default_grid);
    side->abi.default_grid = NULL;
    side->compiled = compiled;
    side->kernel_info = compiled;
    return KD_OK;
}

/* side->launch_source for a captured launch: where it was taken, whether from the cache, the
 * grid, each argument (a tensor's dtype, shape, strides; a scalar's value), the constexprs,
 * the JIT's resources and the autotuner's choice. */
static char *capture_source(json_t *launch_json, const kd_triton_capture_how *how, const char *run_command)
{
    json_t *md = json_object_get(launch_json, "metadata");
    json_t *o = json_pack("{s:s, s:b, s:O*, s:O*, s:O*, s:O*, s:O*}", "from", run_command ? "captured from --run" : "captured",
                          "cached", how->cached, "where", json_object_get(launch_json, "where"), "grid",
                          json_object_get(launch_json, "grid"), "args", json_object_get(launch_json, "args"),
                          "constexprs", json_object_get(launch_json, "constexprs"), "autotune",
                          json_object_get(launch_json, "autotune"));
    if (o && md)
        json_object_set_new(o, "jit", json_pack("{s:O*, s:O*, s:O*, s:O*, s:O*, s:O*}", "n_regs",
                                                json_object_get(md, "n_regs"), "n_spills", json_object_get(md, "n_spills"),
                                                "shared", json_object_get(md, "shared"), "num_warps",
                                                json_object_get(md, "num_warps"), "num_stages",
                                                json_object_get(md, "num_stages"), "triton_version",
                                                json_object_get(md, "triton_version")));
    if (o && run_command)
        json_object_set_new(o, "run", json_string(run_command));
    if (o && how->recaptured)
        json_object_set_new(o, "recaptured", json_string(how->recaptured));
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

/* side->launch_source for a described launch, with why it was not taken (NULL: the file has
 * no launch of its own, or --no-capture). */
static char *described_source(const char *not_captured)
{
    json_t *o = json_pack("{s:s, s:s?}", "from", "described", "not_captured", not_captured);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

/* "; data: the program's own (captured) for x, y; seeded at random: z (not kept: ...)": the
 * buffers' contents as apply_capture decided them (args[].data). */
static void describe_data(json_t *launch_json, kd_strbuf *sb)
{
    const char *sep = "; data: the program's own (captured) for ";
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(launch_json, "args"), i, a)
        if (json_is_true(json_object_get(json_object_get(a, "data"), "captured"))) {
            kd_sb_printf(sb, "%s%s", sep, json_string_value(json_object_get(a, "name")));
            sep = ", ";
        }
    sep = "; seeded at random: ";
    json_array_foreach(json_object_get(launch_json, "args"), i, a) {
        json_t *data = json_object_get(a, "data");
        if (json_is_false(json_object_get(data, "captured"))) {
            kd_sb_printf(sb, "%s%s (%s)", sep, json_string_value(json_object_get(a, "name")),
                         json_string_value(json_object_get(data, "why")));
            sep = ", ";
        }
    }
}

/* "Triton 3.6.0 JIT, the launch at softmax.py:212 (taken from the file's own call): grid
 * 132x1x1, num_warps=8 num_stages=4 shared=98336 B, 60 registers, 0 spills; BLOCK_SIZE=1024;
 * autotune: Triton chose config 2 of 4 (4 timed)" */
static char *describe_capture(const kd_frontend_options *opts, json_t *launch_json, const kd_triton_capture_how *how)
{
    kd_strbuf from = {0};
    kd_sb_puts(&from, opts->run_command ? "--run's program" : "the file's own call");
    if (how->cached)
        kd_sb_puts(&from, how->data_files ? "; cached capture, with its data" : "; cached capture");
    else if (how->recaptured)
        kd_sb_printf(&from, "; recaptured: the cached capture's data did not verify, %s", how->recaptured);
    json_t *md = json_object_get(launch_json, "metadata"), *where = json_object_get(launch_json, "where");
    json_t *grid = json_object_get(launch_json, "grid");
    kd_strbuf sb = {0};
    const char *file = json_string_value(json_object_get(where, "file"));
    const char *base = file ? strrchr(file, '/') : NULL;
    kd_sb_printf(&sb, "Triton %s JIT, the launch at %s:%lld (taken from %s): grid %lldx%lldx%lld, num_warps=%lld "
                 "num_stages=%lld shared=%lld B, %lld registers, %lld spills (the JIT's)",
                 json_string_value(json_object_get(md, "triton_version")), base ? base + 1 : file ? file : "?",
                 (long long)json_integer_value(json_object_get(where, "line")),
                 kd_sb_str(&from),
                 (long long)json_integer_value(json_array_get(grid, 0)), (long long)json_integer_value(json_array_get(grid, 1)),
                 (long long)json_integer_value(json_array_get(grid, 2)), (long long)json_integer_value(json_object_get(md, "num_warps")),
                 (long long)json_integer_value(json_object_get(md, "num_stages")), (long long)json_integer_value(json_object_get(md, "shared")),
                 (long long)json_integer_value(json_object_get(md, "n_regs")), (long long)json_integer_value(json_object_get(md, "n_spills")));
    const char *key, *sep = "; ";
    json_t *v;
    json_object_foreach(json_object_get(launch_json, "constexprs"), key, v) {
        char *t = json_dumps(v, JSON_ENCODE_ANY);
        kd_sb_printf(&sb, "%s%s=%s", sep, key, t ? t : "?");
        free(t);
        sep = " ";
    }
    describe_data(launch_json, &sb);
    kd_sb_free(&from);
    json_t *tune = json_object_get(launch_json, "autotune");
    if (tune && json_is_true(json_object_get(tune, "pinned")))
        kd_sb_printf(&sb, "; autotune: the config --config %s names, of %lld", opts->config ? opts->config : "?",
                     (long long)json_integer_value(json_object_get(tune, "configs")));
    else if (tune)
        kd_sb_printf(&sb, "; autotune: Triton's autotuner chose among %lld configs (%lld timed in this run)",
                     (long long)json_integer_value(json_object_get(tune, "configs")),
                     (long long)json_integer_value(json_object_get(tune, "tried")));
    return kd_sb_take(&sb);
}

/* A copy of the source kernel: the compiled one starts as it and loses folded parameters. */
static kd_kernel *copy_kernel(const kd_kernel *k)
{
    kd_kernel *c = kd_xcalloc(1, sizeof *c);
    c->name = kd_xstrdup(k->name);
    c->qualified = kd_xstrdup(k->qualified);
    c->line = k->line;
    c->frontend_info = k->frontend_info ? kd_xstrdup(k->frontend_info) : NULL;
    c->params = kd_xcalloc(k->nparams + 1, sizeof *c->params);
    for (size_t i = 0; i < k->nparams; i++) {
        const kd_param *p = &k->params[i];
        kd_param *q = &c->params[c->nparams++];
        *q = *p; /* then its own copies of the strings */
        q->name = kd_xstrdup(p->name);
        q->type = kd_xstrdup(p->type);
        q->pointee = p->pointee ? kd_xstrdup(p->pointee) : NULL;
        q->default_value = p->default_value ? kd_xstrdup(p->default_value) : NULL;
    }
    return c;
}

/* "the launch of K was not taken from the user's code: WHY ...", on stderr, once the build (or
 * the preparation) has said whether it refuses: a refusal comes first, since its first line
 * names the flag that fixes it (issue 27). The why is launch_source's "not_captured". */
void kd_triton_say_not_captured(const kd_side *side)
{
    json_t *source = side->launch_source ? json_loads(side->launch_source, 0, NULL) : NULL;
    const char *why = json_string_value(json_object_get(source, "not_captured"));
    if (why && side->kernel_info)
        kd_say(KD_MSG_TRITON_NOT_CAPTURED, kd_triton_side_no(side->label), KD_S(side->label),
               KD_S(side->kernel_info->name),
               KD_S(why));
    json_decref(source);
}

/* Before the first launch description: the block (32 x num_warps), the constexprs as
 * constants, and scalar types from the values given (Triton types a scalar by its value). */
int kd_triton_prepare(const kd_frontend_options *opts, const kd_launch_options *launch, kd_side *side)
{
    if (!side->kernel_info)
        return KD_OK;
    json_t *info = side->kernel_info->frontend_info ? json_loads(side->kernel_info->frontend_info, 0, NULL) : NULL;
    bool capture = !kd_triton_replayed(side) && kd_triton_captures(opts, info);
    bool launched_by_file = json_array_size(json_object_get(info, "launches")) > 0;
    json_decref(info);
    if (capture) {
        kd_strbuf why = {0};
        kd_triton_capture_how how;
        if (kd_triton_capture_launch(opts, side, &how, &why) == 0) {
            char *path = kd_path_join(side->captured, "launch.json");
            json_t *launch_json = path ? json_load_file(path, 0, NULL) : NULL;
            free(path);
            int rc = json_is_object(launch_json) ? apply_capture(side, launch_json) : KD_FAIL_TOOL;
            if (rc == KD_OK) {
                free(side->build_note);
                side->build_note = describe_capture(opts, launch_json, &how);
                free(side->launch_source);
                side->launch_source = capture_source(launch_json, &how, opts->run_command);
            } else if (!launch_json) {
                kd_say(KD_MSG_TRITON_CAPTURE_UNREADABLE, kd_triton_side_no(side->label), KD_S(side->label),
                       KD_S(side->captured));
            }
            json_decref(launch_json);
            kd_sb_free(&why);
            free(how.recaptured);
            return rc;
        }
        free(how.recaptured);
        if (opts->run_command) { /* the user asked for this program's launch: no guess instead */
            kd_say(KD_MSG_TRITON_RUN_NOT_TAKEN, kd_triton_side_no(side->label), KD_S(side->label),
                   KD_S(opts->run_command),
                   KD_S(side->kernel_info->name), KD_S(kd_sb_str(&why)));
            kd_sb_free(&why);
            return KD_FAIL_INPUT;
        }
        /* Kept for the build's note, and said on stderr by the build (kd_triton_say_not_captured): the
         * launch is now an assumption. */
        free(side->build_note);
        free(side->launch_source);
        side->launch_source = described_source(kd_sb_str(&why));
        kd_strbuf note = {0};
        kd_sb_printf(&note, "launch described, not taken from the user's code (%s)", kd_sb_str(&why));
        side->build_note = kd_sb_take(&note);
        kd_sb_free(&why);
    } else {
        free(side->launch_source);
        side->launch_source = described_source(NULL);
    }
    kd_triton_meta m;
    int rc = kd_triton_resolve_meta(launch, side, true, &m); /* whether an assumed block may stay: the build's to say */
    free(side->unset_block);
    side->unset_block = NULL;
    const char *origin_name;
    json_t *origin;
    json_object_foreach(rc == KD_OK && !launched_by_file && !kd_triton_replayed(side) ? m.origins : NULL, origin_name,
                        origin)
        if (!side->unset_block && json_is_string(origin) && strcmp(json_string_value(origin), "assumed") == 0) {
            side->unset_block = kd_xstrdup(origin_name);
            side->unset_block_value = (int)json_integer_value(json_object_get(m.constexprs, origin_name));
        }
    if (rc != KD_OK)
        kd_triton_say_not_captured(side); /* after the refusal: its first line names the flag that fixes it */
    json_t *configs = json_object_get(m.kernel, "configs");
    if (rc == KD_OK && opts->config && kd_triton_pinned_config(opts->config, configs) < 0) {
        kd_strbuf list = {0};
        size_t i;
        json_t *cfg;
        json_array_foreach(configs, i, cfg) {
            char *text = kd_triton_describe_config(cfg);
            kd_sb_printf(&list, "%s%zu: %s", i ? "; " : "", i + 1, text);
            free(text);
        }
        if (list.len)
            kd_say(KD_MSG_TRITON_CONFIG_NONE, kd_triton_side_no(side->label), KD_S(side->label), KD_S(opts->config),
                   KD_S(side->kernel_info->name), KD_S(kd_sb_str(&list)));
        else
            kd_say(KD_MSG_TRITON_CONFIG_NO_CONFIGS, kd_triton_side_no(side->label), KD_S(side->label),
                   KD_S(opts->config),
                   KD_S(side->kernel_info->name));
        kd_sb_free(&list);
        rc = KD_FAIL_INPUT;
    }
    if (rc == KD_OK) {
        kd_kernel *compiled = copy_kernel(side->kernel_info);
        for (size_t i = 0; i < compiled->nparams; i++) {
            kd_param *p = &compiled->params[i];
            if (p->is_pointer || strcmp(p->type, KD_TYPE_TENSOR_DESCRIPTOR) == 0)
                continue;
            char *text = kd_triton_setting_text(launch, side, p->name);
            json_t *param = NULL;
            size_t j;
            json_t *q;
            json_array_foreach(json_object_get(m.kernel, "params"), j, q)
                if (strcmp(json_string_value(json_object_get(q, "name")), p->name) == 0)
                    param = q;
            const char *type = kd_pykernels_scalar_type(json_string_value(json_object_get(param, "annotation")),
                                                        text ? text : p->default_value);
            free(text);
            free(p->type);
            p->type = kd_xstrdup(type);
        }
        side->abi.fixed = true;
        side->abi.block_threads = 32u * (unsigned)m.num_warps;
        /* A heuristic may compute the BLOCK the grid divides by. The first description
         * only feeds the build (values, dtypes), so a one-program grid stands in; the
         * build sets the real default once the heuristics are known. */
        bool stand_in = m.heuristics_pending && !side->abi.default_grid;
        kd_triton_set_constants(side, &m);
        if (stand_in) { /* over the cdiv(n,BLOCK) kd_triton_set_constants may have made of a BLOCK the heuristics may change */
            free(side->abi.default_grid);
            side->abi.default_grid = kd_xstrdup("1");
        }
        side->compiled = compiled;
        side->kernel_info = compiled;
    }
    kd_triton_meta_free(&m);
    return rc;
}
