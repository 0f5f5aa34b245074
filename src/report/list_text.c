#include "report/list_text.h"

#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report/launch_text.h"
#include "diff/pipeline.h"
#include "report/diag_text.h"
#include "report/untrusted.h"
#include "source/compiled.h"
#include "source/kinds.h"
#include "source/pykernels.h"
#include "source/roles.h"

typedef struct lister {
    const char *path;
    const kd_annotations *notes;
    const kd_diff_options *opts;
    const kd_launch_options *given;
    kd_strbuf *out;
    kd_untrusted safe;
} lister;

static const char *safe(lister *l, const char *text) { return kd_untrusted_name(&l->safe, text); }

/* The launch `kerndiff` would use for kernel k: the diff's own resolution (kd_list_launch: the
 * front end's preparation, the file's annotations and the launch flags; there is no side, so
 * no --call). Returns 0, or -1 with why not in `why` (the spec as a refusal leaves it). */
static int build_launch(lister *l, const kd_kernel *k, kd_listed_launch *out, kd_strbuf *why)
{
    kd_list_launch(l->opts, l->path, k, l->notes, out);
    if (out->refused.id) {
        kd_strbuf said = {0};
        kd_diag_text(&out->refused, &said);
        const char *text = kd_sb_str(&said);
        kd_sb_puts(why, strncmp(text, "kerndiff: ", 10) == 0 ? text + 10 : text);
        kd_sb_free(&said);
    } else if (out->launch_error) {
        kd_sb_puts(why, out->launch_error);
    }
    return out->described ? 0 : -1;
}

/* That launch, then what it assumed. */
static void launch_lines(lister *l, const kd_kernel *k)
{
    kd_listed_launch launch;
    kd_strbuf geometry = {0}, args = {0};
    const kd_launch_spec *spec_p = &launch.spec;
    if (build_launch(l, k, &launch, &geometry) != 0) {
        kd_sb_printf(l->out, "  launch: not launchable as described: %s\n", kd_untrusted_text(&l->safe, kd_sb_str(&geometry)));
    } else {
        kd_launch_geometry_text(spec_p, &geometry);
        kd_launch_args_text(spec_p, &args);
        kd_sb_printf(l->out, "  launch: %s\n          %s\n", kd_sb_str(&geometry), kd_sb_str(&args));
        if (*spec_p->assumed)
            kd_sb_printf(l->out, "  assumed: %s\n", kd_untrusted_text(&l->safe, spec_p->assumed));
        if (k->frontend_info && launch.abi.fixed) /* what only Triton's compile fixes */
            kd_sb_puts(l->out, "  not built: smem and specialised scalars are Triton's compile's (see a diff)\n");
    }
    kd_listed_launch_free(&launch);
    kd_sb_free(&geometry);
    kd_sb_free(&args);
}

/* Whether parameter j of every instance has the same use as the first's. */
static bool same_use_everywhere(const kd_kernel_list *instances, size_t j)
{
    kd_buffer_use first = kd_param_buffer_use(&instances->items[0].params[j], NULL);
    for (size_t i = 1; i < instances->count; i++)
        if (instances->items[i].nparams <= j || kd_param_buffer_use(&instances->items[i].params[j], NULL) != first)
            return false;
    return true;
}

/* One kernel's parameters, as the launch will read them. A template's roles are those of
 * its first compiled instance (`instances`, may be empty): the template's own `T *` says
 * nothing about what the compiled code does with it. */
static void param_lines(lister *l, const kd_kernel *k, const kd_kernel_list *instances)
{
    const kd_kernel *roles = instances->count && instances->items[0].nparams == k->nparams ? &instances->items[0] : k;
    /* a scalar's value as that kernel's launch takes it (launch_text.h): one rule for both */
    kd_listed_launch launch;
    kd_strbuf refusal = {0}; /* said by launch_lines */
    bool built = build_launch(l, roles, &launch, &refusal) == 0;
    kd_sb_free(&refusal);
    const kd_launch_spec *spec = &launch.spec;
    for (size_t j = 0; j < k->nparams; j++) {
        const kd_param *p = &k->params[j], *r = &roles->params[j];
        const char *name = *p->name ? safe(l, p->name) : "(unnamed)";
        kd_param_role role = kd_param_role_of(r);
        /* A Triton parameter declares no type: it is the launch's (a scalar's from its value, a
           buffer's from its dtype= or NAME=f16[...] setting), as the diff compiles it. */
        const char *type = p->type, *pointee = p->pointee;
        kd_strbuf typed = {0};
        if (k->frontend_info && !p->is_pointer && launch.kernel && j < launch.kernel->nparams)
            type = launch.kernel->params[j].type;
        if (k->frontend_info && p->is_pointer && j < spec->nargs && spec->args[j].name &&
            strcmp(spec->args[j].name, p->name) == 0 && spec->args[j].type.base != KD_DT_UNKNOWN) {
            pointee = kd_dtype_name(spec->args[j].type.base);
            kd_sb_printf(&typed, "%s%s *", p->is_const ? "const " : "", pointee);
            type = kd_sb_str(&typed);
        }
        bool descriptor = strcmp(p->type, KD_TYPE_TENSOR_DESCRIPTOR) == 0;
        kd_sb_printf(l->out, "  %-24s %-12s %s", safe(l, type), name,
                     descriptor ? "tensor descriptor (its caller makes it: the launch is taken with --from)"
                                : kd_launch_param_role_word(spec, built, j, role));
        kd_sb_free(&typed);
        if (p->is_pointer) {
            const char *why = "";
            kd_param_buffer_use(r, &why);
            /* a Triton pointer declares no const: its "const" is that the source never stores
               through it (the Triton helper reads its tl.store calls) */
            if (k->frontend_info && r->access == KD_ACCESS_UNKNOWN && r->use == KD_USE_DEFAULT)
                why = r->is_const ? "never stored through in the source" : "stored through in the source";
            kd_sb_printf(l->out, " of %s", safe(l, pointee));
            if (*why)
                kd_sb_printf(l->out, " (%s%s)", why,
                             roles != k && !same_use_everywhere(instances, j) ? "; differs by instance" : "");
        }
        if ((role == KD_ROLE_SCALAR || role == KD_ROLE_LENGTH) && !p->default_value)
            kd_launch_param_note(spec, built, j, p->name, l->out);
        if (p->default_value)
            kd_sb_printf(l->out, " (default %s)", safe(l, p->default_value));
        kd_sb_puts(l->out, "\n");
    }
    kd_listed_launch_free(&launch);
}

/* A header's path as the user knows it: relative to the listed file's folder when it lies
 * under it ("h5_include/kernels.cuh"), else as found. */
static const char *header_name(lister *l, const char *header)
{
    char *real = realpath(l->path, NULL);
    char *slash = real ? strrchr(real, '/') : NULL;
    const char *shown = header;
    if (slash) {
        size_t len = (size_t)(slash - real) + 1;
        if (strncmp(header, real, len) == 0 && header[len])
            shown = header + len;
    }
    free(real);
    return safe(l, shown);
}

/* Where the kernel lives: its line (and the header that declares it), the PTX entry, or
 * the compiled code only. A .ptx or .cubin entry has no line. */
static void where_text(lister *l, const kd_kernel *k)
{
    if (k->from_compiled)
        kd_sb_printf(l->out, "found in the compiled code, not in the source (declared through a macro?): %s; "
                             "parameters named by position",
                     k->signature ? safe(l, k->signature) : "no C++ signature, types from the PTX .entry");
    else if (k->line > 0 && k->header)
        kd_sb_printf(l->out, "line %d of %s", k->line, header_name(l, k->header));
    else if (k->line > 0)
        kd_sb_printf(l->out, "line %d", k->line);
    else if (k->signature)
        kd_sb_printf(l->out, ".entry, compiled as %s", safe(l, k->signature));
    else
        kd_sb_puts(l->out, ".entry");
    if (k->is_launcher)
        kd_sb_puts(l->out, ", launcher");
    if (k->extern_c)
        kd_sb_puts(l->out, ", extern \"C\"");
    if (k->launch_bounds)
        kd_sb_printf(l->out, ", __launch_bounds__(%s)", safe(l, k->launch_bounds));
}

/* The text --arg or a `# kerndiff: NAME=VALUE` annotation gives constexpr `name` (the diff's
 * order: the last --arg of that name, then the annotation; list has no --call), borrowed, or
 * NULL; *from says which. Only where the value comes from: the value the launch resolved is in
 * its constants (kd_listed_launch.abi). */
static const char *given_value(lister *l, const char *name, const char **from)
{
    size_t len = strlen(name);
    const char *found = NULL;
    for (size_t i = 0; l->given && i < l->given->scalars.count; i++)
        if (strncmp(l->given->scalars.items[i], name, len) == 0 && l->given->scalars.items[i][len] == '=')
            found = l->given->scalars.items[i] + len + 1;
    *from = found ? "--arg" : NULL;
    if (!found && l->notes && (found = kd_annotation_get(l->notes, name)))
        *from = "the file's annotation";
    return found;
}

/* Whether constexpr v of the kernel (its helper description `info`) has no value from a flag,
 * an annotation, its default, the file's call, an autotune config or a heuristic: the order
 * the diff resolves it in (backend/triton_constexpr.h). */
static bool constexpr_unset(lister *l, json_t *info, json_t *v)
{
    const char *name = json_string_value(json_object_get(v, "name")), *from;
    if (!name || given_value(l, name, &from) || json_string_value(json_object_get(v, "default")) ||
        json_string_value(json_object_get(v, "call_value")))
        return false;
    size_t j;
    json_t *x;
    json_array_foreach(json_object_get(info, "configs"), j, x)
        if (json_object_get(json_object_get(x, "meta"), name))
            return false;
    json_array_foreach(json_object_get(info, "heuristics"), j, x)
        if (json_string_value(json_object_get(x, "name")) && strcmp(json_string_value(json_object_get(x, "name")), name) == 0)
            return false;
    return !kd_param_named_count(name);
}

/* A Triton kernel (its frontend_info is the helper's description): where its launch comes
 * from, its constexprs and where each value comes from, its autotune configs, the file's
 * jitted helpers. Nothing for other kernels. */
static void triton_text(lister *l, const kd_kernel *k)
{
    json_t *info = k->frontend_info ? json_loads(k->frontend_info, 0, NULL) : NULL;
    json_t *launches = json_object_get(info, "launches");
    if (!json_is_array(launches)) {
        json_decref(info);
        return;
    }
    size_t i;
    json_t *v;
    if (json_array_size(launches)) {
        kd_sb_puts(l->out, "  launched by the file at line");
        json_array_foreach(launches, i, v)
            kd_sb_printf(l->out, "%s %lld", i ? "," : "", (long long)json_integer_value(v));
        kd_sb_puts(l->out, ": a diff takes the launch from there (Triton's JIT, on a GPU with torch);"
                           " without one it is described as below\n");
    } else if (json_array_size(json_object_get(info, "launches_unreached"))) {
        /* a call inside a function that running the file never calls (a library's wrapper):
         * the diff cannot take the launch from the file, so it is not said to */
        kd_sb_puts(l->out, "  launched at line");
        json_array_foreach(json_object_get(info, "launches_unreached"), i, v) {
            const char *in = json_string_value(json_object_get(v, "in"));
            kd_sb_printf(l->out, "%s %lld", i ? "," : "", (long long)json_integer_value(json_object_get(v, "line")));
            if (in)
                kd_sb_printf(l->out, " (in %s())", safe(l, in));
        }
        kd_sb_puts(l->out, ", which running the file does not reach: the launch is described as below (flags, "
                           "annotations, defaults), or taken from a program that makes it with --run 'CMD'\n");
    } else {
        kd_sb_puts(l->out, "  not launched by the file: the launch is described as below (flags, annotations, defaults)\n");
    }
    json_t *configs = json_object_get(info, "configs"), *heuristics = json_object_get(info, "heuristics");
    const char *sep = "  constexprs: ";
    size_t unset_blocks = 0; /* the tile axes assumed together (kd_pykernels_assumed_block) */
    json_array_foreach(json_object_get(info, "params"), i, v) {
        const char *kind = json_string_value(json_object_get(v, "kind")), *name = json_string_value(json_object_get(v, "name"));
        if (kind && name && strcmp(kind, "constexpr") == 0 && kd_pykernels_block_like(name) && constexpr_unset(l, info, v))
            unset_blocks += kd_pykernels_tile_axes(json_integer_value(json_object_get(v, "tile_dims")));
    }
    json_array_foreach(json_object_get(info, "params"), i, v) {
        const char *kind = json_string_value(json_object_get(v, "kind"));
        const char *name = json_string_value(json_object_get(v, "name"));
        if (!kind || !name || strcmp(kind, "constexpr") != 0)
            continue;
        const char *dflt = json_string_value(json_object_get(v, "default"));
        const char *call = json_string_value(json_object_get(v, "call_value"));
        bool tuned = false, computed = false;
        size_t j;
        json_t *x;
        json_array_foreach(configs, j, x)
            tuned = tuned || json_object_get(json_object_get(x, "meta"), name);
        json_array_foreach(heuristics, j, x)
            computed = computed || (json_string_value(json_object_get(x, "name")) &&
                                    strcmp(json_string_value(json_object_get(x, "name")), name) == 0);
        kd_sb_printf(l->out, "%s%s", sep, safe(l, name));
        const char *given_from = NULL;
        const char *given = given_value(l, name, &given_from);
        if (given) /* the diff's order (triton_constexpr.h): what flags or annotations give wins */
            kd_sb_printf(l->out, "=%s (%s)", safe(l, given), given_from);
        else if (dflt)
            kd_sb_printf(l->out, "=%s (default)", safe(l, dflt));
        else if (call)
            kd_sb_printf(l->out, "=%s (the file's call)", safe(l, call));
        else if (tuned)
            kd_sb_puts(l->out, " (autotune)");
        else if (computed)
            kd_sb_puts(l->out, " (@triton.heuristics)");
        else if (kd_param_named_count(name)) /* the diff's rule (triton_constexpr.c) */
            kd_sb_puts(l->out, " (the element count, --n)");
        else if (kd_pykernels_block_like(name))
            kd_sb_printf(l->out, " (needs a value: --arg %s=VALUE; a static diff with no GPU assumes %d)", safe(l, name),
                         kd_pykernels_assumed_block(unset_blocks ? unset_blocks : 1));
        else
            kd_sb_printf(l->out, " (needs a value: --arg %s=VALUE)", safe(l, name));
        sep = ", ";
    }
    if (strcmp(sep, ", ") == 0)
        kd_sb_puts(l->out, "\n");
    json_t *from = json_array_get(json_object_get(info, "configs_from"), 0);
    if (json_array_size(configs) || from) {
        kd_sb_printf(l->out, "  autotune: %zu config%s%s%s%s", json_array_size(configs),
                     json_array_size(configs) == 1 ? "" : "s", from ? " from " : "",
                     from ? safe(l, json_string_value(from)) : "", json_array_size(configs) ? ":" : "");
        json_array_foreach(configs, i, v) {
            kd_sb_printf(l->out, "%s %zu:", i ? ";" : "", i + 1);
            const char *key;
            json_t *x;
            json_object_foreach(json_object_get(v, "meta"), key, x) {
                char *text = json_dumps(x, JSON_ENCODE_ANY);
                kd_sb_printf(l->out, " %s=%s", safe(l, key), text ? safe(l, text) : "?");
                free(text);
            }
            static const char *const options[] = {"num_warps", "num_stages", "num_ctas"};
            for (size_t o = 0; o < sizeof options / sizeof *options; o++)
                if (json_is_integer(json_object_get(v, options[o])))
                    kd_sb_printf(l->out, " %s=%lld", options[o], (long long)json_integer_value(json_object_get(v, options[o])));
        }
        kd_sb_puts(l->out, "\n");
    }
    if (json_array_size(json_object_get(info, "helpers"))) {
        kd_sb_puts(l->out, "  jitted helpers (inlined into kernels, not kernels):");
        json_array_foreach(json_object_get(info, "helpers"), i, v)
            kd_sb_printf(l->out, " %s", safe(l, json_string_value(v)));
        kd_sb_puts(l->out, "\n");
    }
    json_decref(info);
}

static void kernel_text(lister *l, const kd_kernel *k, const char *ptx)
{
    kd_sb_printf(l->out, "%s%s  (", safe(l, k->qualified), k->is_template ? "<...>" : "");
    where_text(l, k);
    kd_sb_puts(l->out, ")\n");
    kd_kernel_list instances = {0};
    if (k->is_template && ptx)
        kd_compiled_instances(k, ptx, &instances);
    if (k->is_template) {
        kd_sb_printf(l->out, "  template <%s>; instances:", k->template_params ? safe(l, k->template_params) : "");
        for (size_t j = 0; j < k->ninstantiations; j++)
            kd_sb_printf(l->out, " %s<%s>", safe(l, k->name), safe(l, k->instantiations[j]));
        /* none written out, but compiled: instantiated by the host code that launches them */
        for (size_t j = 0; !k->ninstantiations && j < instances.count; j++)
            kd_sb_printf(l->out, " %s", safe(l, instances.items[j].name));
        kd_sb_printf(l->out, "%s\n", k->ninstantiations ? ""
                                      : instances.count ? " (made by the code that launches it)"
                                                        : " none (pick one with --fn 'NAME<TYPE>')");
    }
    param_lines(l, k, &instances);
    triton_text(l, k);
    /* each compiled instance with the launch it would get (its types are the instance's);
       the template's own launch when none was compiled */
    for (size_t i = 0; i < instances.count; i++) {
        kd_sb_printf(l->out, "  instance %s, compiled as %s\n", safe(l, instances.items[i].name),
                     safe(l, instances.items[i].signature));
        launch_lines(l, &instances.items[i]);
    }
    if (instances.count == 0)
        launch_lines(l, k);
    kd_kernel_list_free(&instances);
}

void kd_list_text(const char *path, const kd_kernel_list *kernels, const kd_annotations *notes, const char *ptx,
                  const kd_diff_options *opts, kd_strbuf *out)
{
    lister l = {.path = path, .notes = notes, .opts = opts, .given = &opts->launch, .out = out};
    if (kernels->count == 0)
        kd_sb_printf(out, "%s: no %s kernels\n", safe(&l, path),
                     kd_source_kind_of(path) == KD_SOURCE_TRITON ? "@triton.jit" : "__global__");
    for (size_t i = 0; i < kernels->count; i++)
        kernel_text(&l, &kernels->items[i], ptx);
    kd_untrusted_free(&l.safe);
}
