/* triton_build.c — the Triton build: the compile spec Triton's JIT would make for this launch
 * (an integer equal to 1 becomes a constexpr and leaves the argument list, integers divisible
 * by 16 and every pointer get tt.divisibility=16), compiled ahead of time by the helper into
 * the build cache (compile/cache.h) or taken from it, cuobjdump's resources, the build line;
 * a captured launch's own cubin; and the instrumented build for --regions (Proton's scopes). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/triton.h"
#include "backend/triton_msgs.h"
#include "compile/build.h"
#include "compile/cache.h"
#include "launch/dtype.h"
#include "launch/spec.h"
#include "source/pykernels.h"
#include "util/fs.h"
#include "util/outcome.h"
#include "util/xalloc.h"

#define RECIPE "kerndiff-triton-build-1"

enum { BUILD_TIMEOUT_MS = 600000 };

static const char *const artifacts[] = {"kernel.ptx", "kernel.cubin", "metadata.json", "resources.txt"};
enum { N_ARTIFACTS = sizeof artifacts / sizeof *artifacts };

static int dump_resources(const kd_frontend_options *opts, const kd_side *side, const char *dir);

/* The signature Triton's JIT would make for this launch (see the top of the file). Integers
 * equal to 1 are folded into constexprs and listed in `folded`. */
static json_t *make_spec(const kd_build_target *c, const kd_side *side, const kd_triton_meta *m, kd_strlist *folded)
{
    json_t *sig = json_object(), *divisible = json_array(), *constexprs = json_deep_copy(m->constexprs);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(m->kernel, "params"), i, p) {
        const char *name = json_string_value(json_object_get(p, "name"));
        const char *kind = json_string_value(json_object_get(p, "kind"));
        const kd_launch_arg *a = kd_triton_launch_arg(side, name);
        const kd_param *param = NULL;
        for (size_t j = 0; j < side->kernel_info->nparams; j++)
            if (strcmp(side->kernel_info->params[j].name, name) == 0)
                param = &side->kernel_info->params[j];
        if (strcmp(kind, "constexpr") == 0) {
            json_object_set_new(sig, name, json_string("constexpr"));
        } else if (strcmp(kind, "pointer") == 0) {
            /* no launch (a value missing, no GPU): the element type the source implies (an
               index buffer's int), else Triton's float32 */
            kd_type_info pointee = {.base = KD_DT_F32};
            if (!a && param && param->pointee && !kd_type_parse(param->pointee, &pointee))
                pointee.base = KD_DT_F32;
            kd_dtype t = a ? a->type.base : pointee.base;
            char text[16];
            snprintf(text, sizeof text, "*%s", kd_dtype_triton_name(t));
            json_object_set_new(sig, name, json_string(text));
            json_array_append_new(divisible, json_string(name));
        } else if (param && strcmp(param->type, "float") == 0) {
            json_object_set_new(sig, name, json_string("fp32"));
        } else if (a && a->value == 1) {
            json_object_set_new(sig, name, json_string("constexpr"));
            json_object_set_new(constexprs, name, json_integer(1));
            kd_strlist_push(folded, name);
        } else {
            bool wide = (param && strcmp(param->type, "long long") == 0) ||
                        (a && (a->value > 2147483647.0 || a->value < -2147483648.0));
            json_object_set_new(sig, name, json_string(wide ? "i64" : "i32"));
            if (a && fmod(a->value, 16) == 0)
                json_array_append_new(divisible, json_string(name));
        }
    }
    return json_pack("{s:o, s:o, s:o, s:i, s:i, s:i}", "signature", sig, "constexprs", constexprs, "divisible",
                     divisible, "arch", atoi(c->arch + 3), "num_warps", m->num_warps, "num_stages", m->num_stages);
}

/* The cache key: the recipe, the helper, the interpreter and Triton's version, the source
 * and the local modules it imports, the kernel and the full compile spec. */
static void compute_key(const kd_frontend_options *opts, const kd_side *side, const kd_triton_meta *m,
                        const char *version,
                        const char *spec, char key[65])
{
    kd_hash h;
    kd_triton_hash_inputs(&h, RECIPE, opts, side, version, m->kernel);
    kd_hash_str(&h, side->kernel_info->name);
    kd_hash_str(&h, spec);
    kd_hash_hex(&h, key);
}

/* Runs the helper's build into dir, then cuobjdump for the resources. */
static int compile_into(const kd_frontend_options *opts, const kd_side *side, const char *spec, const char *dir)
{
    char *abs_path = realpath(side->path, NULL);
    kd_spawn_result r;
    int rc = kd_triton_run_helper(opts, side->label,
                                  (const char *const[5]){"build", abs_path ? abs_path : side->path, side->kernel_info->name,
                                               spec, dir},
                                  BUILD_TIMEOUT_MS, &r);
    free(abs_path);
    if (rc != KD_OK)
        return rc;
    if (r.exit_code != 0 || r.signal) {
        kd_strbuf doing = {0};
        kd_sb_printf(&doing, "Triton's compile of %s (%s)", side->kernel_info->name, side->path);
        rc = kd_triton_helper_failed(&r, side->label, kd_sb_str(&doing), opts);
        kd_sb_free(&doing);
    }
    kd_spawn_result_free(&r);
    if (rc != KD_OK)
        return rc;
    return dump_resources(opts, side, dir);
}

/* dir/resources.txt: cuobjdump's resource usage of dir/kernel.cubin (Triton's n_regs needs a
 * GPU; the cubin says the same without one). */
static int dump_resources(const kd_frontend_options *opts, const kd_side *side, const char *dir)
{
    int rc = KD_OK;
    kd_spawn_result r;
    char *cubin = kd_path_join(dir, "kernel.cubin"), *resources = kd_path_join(dir, "resources.txt");
    const char *cuobjdump = kd_find_cuobjdump(kd_find_nvcc(opts->nvcc));
    const char *argv[] = {cuobjdump, "--dump-resource-usage", cubin, NULL};
    /* Without cuobjdump the resources are missing (the report says so), not the build. */
    bool dumped = cuobjdump && cubin && kd_spawn(argv, NULL, KD_TRITON_LIST_TIMEOUT_MS, &r) == 0;
    const char *text = dumped && r.exit_code == 0 ? kd_sb_str(&r.out) : "";
    if (!resources || kd_write_file(resources, text, strlen(text)) != 0) {
        kd_say(KD_MSG_TRITON_CANNOT_WRITE, kd_triton_side_no(side->label), KD_S(side->label),
               KD_S(resources ? resources : dir),
               KD_S(strerror(errno)));
        rc = KD_FAIL_TOOL;
    }
    if (dumped)
        kd_spawn_result_free(&r);
    free(cubin);
    free(resources);
    return rc;
}

/* The build's artifacts from dir into b, and its metadata.json into *meta_out (owned). */
static int load_artifacts(kd_build *b, const char *dir, bool from_cache, json_t **meta_out)
{
    b->dir = kd_xstrdup(dir);
    b->from_cache = from_cache;
    char *ptx = kd_path_join(dir, "kernel.ptx"), *res = kd_path_join(dir, "resources.txt"),
         *md = kd_path_join(dir, "metadata.json");
    b->cubin_path = kd_path_join(dir, "kernel.cubin");
    b->ptx = ptx ? kd_read_file(ptx, NULL) : NULL;
    b->ptxas_log = res ? kd_read_file(res, NULL) : NULL;
    json_t *meta_json = md ? json_load_file(md, 0, NULL) : NULL;
    free(ptx);
    free(res);
    free(md);
    if (!b->dir || !b->cubin_path || !b->ptx || !b->ptxas_log || !json_is_object(meta_json)) {
        json_decref(meta_json);
        return -1;
    }
    const char *entry = json_string_value(json_object_get(meta_json, "name"));
    b->entry = entry ? kd_xstrdup(entry) : NULL;
    *meta_out = meta_json;
    return 0;
}

/* The launch facts the metadata fixes. */
void kd_triton_read_abi(kd_side *side, const json_t *meta_json)
{
    side->abi.dynamic_smem = (unsigned long long)json_integer_value(json_object_get(meta_json, "shared"));
    side->abi.nscratch = (unsigned)json_integer_value(json_object_get(meta_json, "scratch_pointers"));
    side->abi.scratch_bytes[0] = (unsigned long long)json_integer_value(json_object_get(meta_json, "global_scratch_size"));
    side->abi.scratch_bytes[1] = (unsigned long long)json_integer_value(json_object_get(meta_json, "profile_scratch_size"));
    side->abi.block_threads = 32u * (unsigned)json_integer_value(json_object_get(meta_json, "num_warps"));
    /* a replayed launch (launch/replay.h) sizes this side's scratch and shared memory from its
     * compiled kernel: v2's body may need more (or other) than the program's kernel did */
    json_t *info = kd_triton_replayed(side) && side->compiled && side->compiled->frontend_info
                       ? json_loads(side->compiled->frontend_info, 0, NULL)
                       : NULL;
    if (json_is_object(info)) {
        json_object_set_new(info, "compiled_scratch",
                            json_pack("[I,I]", (json_int_t)side->abi.scratch_bytes[0], (json_int_t)side->abi.scratch_bytes[1]));
        json_object_set_new(info, "compiled_shared", json_integer((json_int_t)side->abi.dynamic_smem));
        char *text = json_dumps(info, JSON_COMPACT);
        if (text) {
            free(side->compiled->frontend_info);
            side->compiled->frontend_info = text;
        }
    }
    json_decref(info);
}

/* "Triton 3.6.0: num_warps=4 num_stages=3 shared=2048 B; BLOCK=1024; specialised stride=1" */
static char *describe_build(const char *version, const kd_triton_meta *m, const kd_side *side, const kd_strlist *folded,
                            bool gpu)
{
    kd_strbuf sb = {0};
    json_t *section = kd_triton_replay_section(side);
    kd_sb_printf(&sb, "Triton %s %s: num_warps=%d (%s) num_stages=%d (%s) shared=%llu B", version,
                 section ? "as its JIT compiled the captured launch (its specialization and options)" : "ahead of time",
                 m->num_warps, m->warps_origin, m->num_stages, m->stages_origin, side->abi.dynamic_smem);
    json_decref(section);
    const char *key;
    json_t *v;
    json_object_foreach(m->constexprs, key, v) {
        char *text = json_dumps(v, JSON_ENCODE_ANY);
        json_t *origin = json_object_get(m->origins, key);
        kd_sb_printf(&sb, " %s=%s", key, text ? text : "?");
        if (json_is_integer(origin))
            kd_sb_printf(&sb, " (from the file's call at line %lld%s)", (long long)json_integer_value(origin),
                         gpu ? "" : "; not captured: no GPU");
        else if (origin)
            kd_sb_printf(&sb, " (assumed: the file gives no value kerndiff can read, and no launch was captured (no "
                         "GPU); the static diff is of this build: --arg %s=VALUE for your code's)", key);
        free(text);
    }
    const char *sep = "; from @triton.heuristics: ";
    json_object_foreach(m->computed, key, v) {
        kd_sb_printf(&sb, "%s%s", sep, key);
        sep = ", ";
    }
    for (size_t i = 0; i < folded->count; i++)
        kd_sb_printf(&sb, "%s%s=1", i ? ", " : "; specialised as constexpr: ", folded->items[i]);
    return kd_sb_take(&sb);
}

/* JSON launch_source.constexpr_origins of a described launch: each constexpr whose value came from
 * the file's call ({"value", "from": "the file's call", "line"}) or was assumed ({"value",
 * "from": "assumed"}), as the build line says them. */
static void note_origins(kd_side *side, const kd_triton_meta *m)
{
    if (!json_object_size(m->origins) || !side->launch_source)
        return;
    json_t *source = json_loads(side->launch_source, 0, NULL), *out = json_object();
    const char *key;
    json_t *origin;
    json_object_foreach(m->origins, key, origin) {
        json_t *v = json_object_get(m->constexprs, key);
        json_object_set_new(out, key, json_is_integer(origin)
                                          ? json_pack("{s:O*, s:s, s:O}", "value", v, "from", "the file's call", "line", origin)
                                          : json_pack("{s:O*, s:s}", "value", v, "from", "assumed"));
    }
    char *text = NULL;
    if (json_is_object(source) && json_object_set_new(source, "constexpr_origins", out) == 0)
        text = json_dumps(source, JSON_COMPACT);
    else
        json_decref(out);
    json_decref(source);
    if (text) {
        free(side->launch_source);
        side->launch_source = text;
    }
}

/* The compiled kernel loses the parameters folded into constexprs. */
static void drop_folded(kd_kernel *k, const kd_strlist *folded)
{
    size_t kept = 0;
    for (size_t i = 0; i < k->nparams; i++) {
        bool gone = false;
        for (size_t j = 0; j < folded->count && !gone; j++)
            gone = strcmp(k->params[i].name, folded->items[j]) == 0;
        if (!gone) {
            k->params[kept++] = k->params[i];
            continue;
        }
        free(k->params[i].name);
        free(k->params[i].type);
        free(k->params[i].pointee);
        free(k->params[i].default_value);
    }
    k->nparams = kept;
}

/* What both builds start from: Triton's version, the meta-parameters and the compile spec
 * Triton's JIT would make for this launch. */
typedef struct compile_plan {
    char *version;
    kd_triton_meta m;
    kd_strlist folded; /* parameters Triton specialised as constexprs */
    json_t *spec;
    json_t *meta_json; /* the build's metadata, once built */
} compile_plan;

/* Fills *p (to be freed with plan_free whatever it returns); prints why it fails. */
static int plan_build(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_build_target *c,
                      kd_side *side, compile_plan *p)
{
    *p = (compile_plan){0};
    int rc = kd_triton_version(opts, side, true, &p->version);
    if (rc == KD_OK)
        rc = kd_triton_resolve_meta(launch, side, !c->times, &p->m); /* times: a GPU, or the simulated harness */
    if (rc == KD_OK)
        rc = kd_triton_apply_heuristics(opts, launch, side, &p->m);
    if (rc == KD_OK)
        p->spec = make_spec(c, side, &p->m, &p->folded);
    json_t *section = p->spec ? kd_triton_replay_section(side) : NULL;
    if (section) /* the JIT's own specialization: the helper compiles exactly what the program ran */
        json_object_set(p->spec, "specialization", json_object_get(section, "specialization"));
    json_decref(section);
    return rc;
}

static void plan_free(compile_plan *p)
{
    json_decref(p->spec);
    json_decref(p->meta_json);
    kd_triton_meta_free(&p->m);
    free(p->folded.items);
    free(p->version);
}

/* The build of p's spec: from the cache, or compiled into a new folder of its own named after `folder`
 * (kd_build_folder: a later build in the process keeps off it), its artifacts into b and its metadata into p->meta_json. */
static int build_spec(const kd_frontend_options *opts, const kd_side *side, compile_plan *p, const char *folder,
                      kd_build *b)
{
    char *spec_text = p->spec ? json_dumps(p->spec, JSON_COMPACT | JSON_SORT_KEYS) : NULL, *entry = NULL, *dir = NULL;
    if (!spec_text) {
        kd_say0(KD_MSG_TRITON_OUT_OF_MEMORY, KD_DIAG_NO_SIDE);
        return KD_FAIL_TOOL;
    }
    compute_key(opts, side, &p->m, p->version, spec_text, b->key);
    entry = kd_cache_entry(b->key);
    static const bool required[N_ARTIFACTS] = {true, true, true, true};
    const kd_cache_layout layout = {artifacts, required, N_ARTIFACTS};
    bool cached = !opts->no_cache && kd_cache_usable(entry, b->key, &layout, &b->note);
    int rc = KD_OK;
    if (!cached) {
        dir = kd_build_folder(folder); /* its own: a later build in the process keeps off it */
        if (!dir) {
            kd_say(KD_MSG_TRITON_NO_BUILD_FOLDER, kd_triton_side_no(side->label), KD_S(side->label),
                   KD_S(strerror(errno)));
            rc = KD_FAIL_TOOL;
        } else if ((rc = compile_into(opts, side, spec_text, dir)) == KD_OK && entry) {
            kd_cache_store(dir, entry, &layout);
        }
    }
    if (rc == KD_OK && load_artifacts(b, cached ? entry : dir, cached, &p->meta_json) != 0) {
        kd_say(KD_MSG_TRITON_BUILD_LEFT_NOTHING, kd_triton_side_no(side->label), KD_S(side->label),
               KD_S(cached ? entry : dir));
        rc = KD_FAIL_TOOL;
    }
    free(spec_text);
    free(entry);
    free(dir);
    return rc;
}

/* The build of a captured launch: the JIT's own cubin and PTX, and cuobjdump's resources. */
static int captured_build(const kd_frontend_options *opts, kd_side *side)
{
    int rc = dump_resources(opts, side, side->captured);
    json_t *meta_json = NULL;
    if (rc == KD_OK && load_artifacts(&side->build, side->captured, false, &meta_json) != 0) {
        kd_say(KD_MSG_TRITON_CAPTURE_LEFT_NOTHING, kd_triton_side_no(side->label), KD_S(side->label),
               KD_S(side->captured));
        rc = KD_FAIL_TOOL;
    }
    json_decref(meta_json);
    if (rc == KD_OK) {
        /* The build's key: its content (the JIT's cubin and the launch it was taken with). */
        kd_triton_capture_digest(side->captured, side->build.key);
        kd_build_disassemble(kd_find_cuobjdump(kd_find_nvcc(opts->nvcc)), &side->build);
    }
    return rc;
}

/* Whether the kernel takes tensor descriptors, said when it does: a build ahead of time
 * would need each one's block shape and element type, which only the caller's launch fixes
 * (Triton's signature "tensordesc<fp16[64, 64]>"). */
static bool takes_descriptors(const kd_side *side)
{
    if (!kd_kernel_takes_descriptors(side->kernel_info))
        return false;
    kd_strbuf names = {0};
    for (size_t i = 0; i < side->kernel_info->nparams; i++)
        if (strcmp(side->kernel_info->params[i].type, KD_TYPE_TENSOR_DESCRIPTOR) == 0)
            kd_sb_printf(&names, "%s%s", names.len ? ", " : "", side->kernel_info->params[i].name);
    kd_say(KD_MSG_TRITON_DESCRIPTOR, kd_triton_side_no(side->label), KD_S(side->label), KD_S(side->kernel_info->name),
           KD_S(kd_sb_str(&names)));
    kd_sb_free(&names);
    return true;
}

int kd_triton_build(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_build_target *c,
                        kd_side *side)
{
    if (side->captured)
        return captured_build(opts, side);
    if (takes_descriptors(side))
        return KD_FAIL_INPUT;
    compile_plan p;
    int rc = plan_build(opts, launch, c, side, &p);
    if (rc == KD_OK)
        rc = build_spec(opts, side, &p, side->label, &side->build);
    kd_triton_say_not_captured(side);
    if (rc == KD_OK) {
        kd_triton_read_abi(side, p.meta_json);
        for (size_t i = 0; i < p.folded.count; i++)
            kd_launch_abi_set(&side->abi, p.folded.items[i], 1);
        drop_folded(side->compiled, &p.folded);
        char *described = describe_build(p.version, &p.m, side, &p.folded, c->gpu);
        if (side->build_note) { /* why the launch was not taken from the user's code */
            kd_strbuf both = {0};
            kd_sb_printf(&both, "%s; %s", described, side->build_note);
            free(described);
            described = kd_sb_take(&both);
        }
        free(side->build_note);
        side->build_note = described;
        note_origins(side, &p.m);
        /* Triton's cache entry holds no disassembly: cuobjdump runs here, every time. */
        kd_build_disassemble(kd_find_cuobjdump(kd_find_nvcc(opts->nvcc)), &side->build);
    }
    plan_free(&p);
    return rc;
}

/* --regions: the same compile with Proton's instrumentation on (scripts/kerndiff-triton.py
 * build, "instrument"): the kernel's triton.profiler.language scopes record into per-warp
 * buffers that the harness reads back (regions/proton.h). The names come from the build, by
 * Proton's scope id; the launch differs by Proton's shared memory and profile scratch. */
int kd_triton_build_instrumented(const kd_instrumented_build *b)
{
    const kd_frontend_options *opts = b->opts;
    const kd_build_target *c = b->target;
    kd_side *side = b->side;
    compile_plan p;
    int rc = plan_build(opts, b->launch, c, side, &p);
    if (p.spec) {
        /* Proton sizes its buffers from the shared memory a block may opt into (48 KiB: any GPU). */
        json_object_set_new(p.spec, "instrument", json_true());
        json_object_set_new(p.spec, "max_shared", json_integer(c->limits ? c->limits->max_smem_per_block : 48 * 1024));
    }
    if (rc == KD_OK)
        rc = build_spec(opts, side, &p, b->folder, b->out);
    if (rc == KD_OK && !json_is_true(json_object_get(p.meta_json, "proton"))) {
        kd_note_set(b->skip, KD_REGIONS_NO_PROTON, KD_NOTE_NO_SIDE, p.version, NULL, NULL);
    } else if (rc == KD_OK) {
        size_t i;
        json_t *name;
        json_array_foreach(json_object_get(p.meta_json, "scopes"), i, name)
            kd_strlist_push(&b->regions->regions, kd_xstrdup(json_string_value(name)));
        side->regions_smem = (unsigned long long)json_integer_value(json_object_get(p.meta_json, "shared"));
        side->regions_profile_scratch =
            (unsigned long long)json_integer_value(json_object_get(p.meta_json, "profile_scratch_size"));
        if (!b->regions->regions.count)
            kd_note_set(b->skip, KD_REGIONS_NO_SCOPES, KD_NOTE_NO_SIDE, NULL, NULL, NULL);
    }
    plan_free(&p);
    return rc;
}
