#include "static/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "static/cubin.h"
#include "static/ptx.h"
#include "static/symbols.h"
#include "util/xalloc.h"

enum { DEFAULT_BLOCK_THREADS = 256 };

/* Finds the one PTX entry that is `kernel`. A template kernel without template arguments
 * is fine when it was instantiated once; several instances need the user to pick. */
static int find_entry(const char *ptx, const char *kernel, kd_static_result *out, kd_strbuf *error)
{
    char **names;
    size_t count;
    kd_ptx_entry_names(ptx, &names, &count);
    size_t matches = 0;
    kd_strbuf candidates = {0};
    for (size_t i = 0; i < count; i++) {
        char *demangled = kd_demangle(names[i]);
        if (kd_symbol_matches(demangled, kernel)) {
            kd_sb_printf(&candidates, "%s%s", matches ? ", " : "", demangled);
            if (matches++ == 0) {
                out->entry = kd_xstrdup(names[i]);
                out->demangled = demangled;
                continue;
            }
        }
        free(demangled);
    }
    kd_ptx_names_free(names, count);
    int rc = 0;
    if (matches == 0) {
        kd_sb_printf(error,
                     "kernel '%s' has no entry in the PTX; if it is a template, instantiate it "
                     "(template __global__ void %s<float>(...);) or pass --fn '%s<TYPE>'",
                     kernel, kernel, kernel);
        rc = -1;
    } else if (matches > 1) {
        kd_sb_printf(error, "kernel '%s' has %zu instances: %s; pick one with --fn 'NAME<ARGS>'",
                     kernel, matches, kd_sb_str(&candidates));
        rc = -1;
    }
    kd_sb_free(&candidates);
    return rc;
}

/* A thread count at the start of `text` ("256", "256, 2"), or 0 when it is not a plain
 * number (a macro name, say). */
static int leading_thread_count(const char *text)
{
    if (!text)
        return 0;
    char *end;
    long v = strtol(text, &end, 0);
    while (*end == ' ')
        end++;
    return v > 0 && v <= 1024 && (*end == '\0' || *end == ',') ? (int)v : 0;
}

/* The thread count for the occupancy estimate and where it came from, in the launch
 * model's order of precedence; __launch_bounds__'s first argument is the block size the
 * kernel promises to run with. */
static void choose_block(const kd_static_input *req, kd_static_result *out)
{
    int annotated = leading_thread_count(req->annotated_block);
    int bounded = leading_thread_count(req->launch_bounds);
    if (req->block_threads > 0) {
        out->block_threads = req->block_threads;
        out->block_origin = req->block_origin ? req->block_origin : "--block";
    } else if (annotated) {
        out->block_threads = annotated;
        out->block_origin = "annotation";
    } else if (bounded) {
        out->block_threads = bounded;
        out->block_origin = "__launch_bounds__";
    } else {
        out->block_threads = DEFAULT_BLOCK_THREADS;
        out->block_origin = "default";
    }
}

/* A launcher's side: every entry of the module, each kernel it may launch. */
static int all_entries(const kd_static_input *req, kd_static_result *out, kd_strbuf *error)
{
    char **names;
    size_t count;
    kd_ptx_entry_names(req->ptx, &names, &count);
    kd_strbuf demangled = {0};
    /* A launcher that only calls a library has no kernel of its own to analyse. */
    kd_sb_printf(&demangled, "launcher %s:%s", req->kernel, count ? "" : " no kernels in the file");
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        char *d = kd_demangle(names[i]);
        kd_sb_printf(&demangled, "%s %s", i ? "," : "", d);
        free(d);
        char *body = kd_ptx_entry_body(req->ptx, names[i]);
        if (body)
            kd_ptx_histogram(body, &out->ptx_ops, &out->ptx_families);
        else
            rc = -1;
        free(body);
        kd_resources r;
        if (kd_resources_parse(req->ptxas_log, names[i], &r) == 0) {
            kd_resources *sum = &out->resources;
            sum->found = true;
            sum->registers = r.registers > sum->registers ? r.registers : sum->registers;
            sum->barriers = r.barriers > sum->barriers ? r.barriers : sum->barriers;
            sum->shared_static = r.shared_static > sum->shared_static ? r.shared_static : sum->shared_static;
            sum->stack_frame = r.stack_frame > sum->stack_frame ? r.stack_frame : sum->stack_frame;
            sum->spill_stores += r.spill_stores;
            sum->spill_loads += r.spill_loads;
        }
    }
    if (rc != 0)
        kd_sb_printf(error, "cannot read the PTX of launcher '%s'", req->kernel);
    out->entry = kd_xstrdup("(launcher)");
    out->demangled = kd_sb_take(&demangled);
    out->launcher = true;
    out->entries = names;
    out->entry_count = count;
    return rc;
}

static void add_checks(kd_sass_checks *sum, const kd_sass_checks *c)
{
    sum->local_loads += c->local_loads;
    sum->local_stores += c->local_stores;
    sum->global_loads += c->global_loads;
    sum->global_loads_128 += c->global_loads_128;
    sum->global_loads_64 += c->global_loads_64;
    sum->global_stores += c->global_stores;
    sum->global_stores_128 += c->global_stores_128;
    sum->global_stores_64 += c->global_stores_64;
    sum->barriers += c->barriers;
    sum->memory_barriers += c->memory_barriers;
}

/* The SASS histograms from the build's disassembly (compile/build runs cuobjdump, and
 * keeps its output in the cache entry). Without cuobjdump or a disassembly, there are none. */
static void disassemble(const kd_static_input *req, kd_static_result *out)
{
    if (!req->cuobjdump || !req->sass)
        return;
    /* A launcher's side sums every kernel; a kernel's side is its one entry. */
    char *const *functions = out->launcher ? out->entries : &out->entry;
    size_t n = out->launcher ? out->entry_count : 1;
    out->sass_present = true;
    for (size_t i = 0; i < n && out->sass_present; i++) {
        char *text = kd_sass_function_text(req->sass, functions[i]);
        kd_sass_checks checks;
        out->sass_present = text != NULL;
        if (out->sass_present) {
            kd_sass_histogram(text, &out->sass_ops, &out->sass_families, &checks);
            add_checks(&out->sass_checks, &checks);
        } else
            out->sass_missing_function = functions[i];
        free(text);
    }
}

int kd_static_analyze_input(const kd_static_input *req, kd_static_result *out, kd_strbuf *error)
{
    memset(out, 0, sizeof *out);
    if (req->launcher) {
        if (all_entries(req, out, error) != 0)
            return -1;
        out->block_origin = "launcher";
        disassemble(req, out);
        return 0;
    }
    /* A cubin given as input has no PTX: its entry is the kernel's name, its PTX table empty. */
    bool no_ptx = !*req->ptx;
    if (no_ptx) { /* a .cubin: the mangled symbol the user's name means (static/cubin.h) */
        out->entry = kd_cubin_symbol(req->ptxas_log, req->kernel);
        out->demangled = kd_demangle(out->entry);
    } else if (find_entry(req->ptx, req->kernel, out, error) != 0) {
        return -1;
    }
    char *body = no_ptx ? kd_xstrdup("") : kd_ptx_entry_body(req->ptx, out->entry);
    if (!body) {
        kd_sb_printf(error, "cannot read the PTX body of %s", out->entry);
        return -1;
    }
    kd_ptx_histogram(body, &out->ptx_ops, &out->ptx_families);
    free(body);
    kd_resources_parse(req->ptxas_log, out->entry, &out->resources);
    choose_block(req, out);
    /* Clamped so the sum cannot overflow; anything this large cannot launch anyway. */
    long dynamic = req->dynamic_smem > (1ULL << 40) ? 1L << 40 : (long)req->dynamic_smem;
    out->shared_per_block = out->resources.shared_static + dynamic;
    if (req->limits && out->resources.found)
        out->occupancy_valid = kd_occupancy_compute(req->limits, out->block_threads,
                                                    out->resources.registers,
                                                    out->shared_per_block,
                                                    &out->occupancy) == 0;
    disassemble(req, out);
    return 0;
}

void kd_static_result_free(kd_static_result *r)
{
    free(r->entry);
    free(r->demangled);
    kd_ptx_names_free(r->entries, r->entry_count);
    kd_hist_free(&r->ptx_ops);
    kd_hist_free(&r->ptx_families);
    kd_hist_free(&r->sass_ops);
    kd_hist_free(&r->sass_families);
    memset(r, 0, sizeof *r);
}
