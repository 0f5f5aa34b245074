/* A launch made from a capture (launch/replay.h). */
#include "launch/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <stdbool.h>

#include "capture/capture_msgs.h"
#include "launch/launch_msgs.h"
#include "util/fs.h"
#include "util/xalloc.h"

static char *blob_path(const char *dir, size_t j, const char *which)
{
    char name[64];
    snprintf(name, sizeof name, "replay-alloc-%zu.%s", j, which);
    return kd_path_join(dir, name);
}

/* Whether two extracted files hold the same bytes (both of `bytes` bytes). */
static bool same_file(const char *a, const char *b, uint64_t bytes)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    unsigned char ba[1 << 16], bb[1 << 16];
    for (uint64_t done = 0; same && done < bytes;) {
        size_t n = bytes - done < sizeof ba ? (size_t)(bytes - done) : sizeof ba;
        same = fread(ba, 1, n, fa) == n && fread(bb, 1, n, fb) == n && memcmp(ba, bb, n) == 0;
        done += n;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* The parameter whose value is a pointer word at its own start (a plain T* parameter). */
static const kd_capture_pointer *pointer_at(const kd_capture *cap, uint32_t word)
{
    for (size_t k = 0; k < cap->npointers; k++)
        if (cap->pointers[k].word == word)
            return &cap->pointers[k];
    return NULL;
}

static int extract_all(kd_replay *r, const char *dir, kd_diag *err)
{
    const kd_capture *cap = &r->cap;
    for (size_t j = 0; j < cap->nallocs; j++) {
        const kd_capture_alloc *a = &cap->allocs[j];
        kd_replay_buffer *b = &r->buffers[j];
        b->bytes = a->span_end - a->span_start;
        char name[32];
        snprintf(name, sizeof name, "allocation %zu", j);
        b->name = kd_xstrdup(name);
        b->before_path = blob_path(dir, j, "before");
        if (kd_capture_extract(cap, j, KD_CAPTURE_BEFORE, b->before_path, err) != 0)
            return -1;
        const kd_capture_blob *before = &a->blob[KD_CAPTURE_BEFORE], *after = &a->blob[KD_CAPTURE_AFTER];
        /* the writer stores an unchanged "after" once: the same blob as "before" */
        if (!after->present || (after->offset == before->offset && after->stored == before->stored))
            continue;
        b->after_path = blob_path(dir, j, "after");
        if (kd_capture_extract(cap, j, KD_CAPTURE_AFTER, b->after_path, err) != 0)
            return -1;
        b->changed = after->crc_raw != before->crc_raw || !same_file(b->before_path, b->after_path, b->bytes);
        if (!b->changed) {
            unlink(b->after_path);
            free(b->after_path);
            b->after_path = NULL;
        }
    }
    return 0;
}

/* "void ns::k<float>(float*, int)" -> "k<float>": the name --fn takes, from the demangled
 * name (its return type, namespaces and parameter list dropped). */
static char *plain_name(const char *demangled)
{
    const char *end = demangled + strlen(demangled);
    int depth = 0;
    for (const char *p = demangled; *p; p++) { /* the parameter list: the first '(' outside <> */
        depth += *p == '<' ? 1 : *p == '>' ? -1 : 0;
        if (*p == '(' && depth == 0) {
            end = p;
            break;
        }
    }
    const char *start = demangled;
    depth = 0;
    for (const char *p = demangled; p < end; p++) {
        depth += *p == '<' ? 1 : *p == '>' ? -1 : 0;
        if (depth == 0 && (*p == ' ' || (*p == ':' && p[1] == ':')))
            start = p + (*p == ' ' ? 1 : 2);
    }
    return kd_xstrndup(start, (size_t)(end - start));
}

/* A cluster launch's grid is made of whole clusters (the harness launches it in them): no
 * cluster, or every dimension non-zero and dividing the grid's. */
static bool clusters_fit(const kd_capture *cap)
{
    if (!cap->cluster[0] && !cap->cluster[1] && !cap->cluster[2])
        return true;
    for (int d = 0; d < 3; d++)
        if (!cap->cluster[d] || cap->grid[d] % cap->cluster[d])
            return false;
    return true;
}

int kd_replay_open(const char *path, const char *dir, kd_replay *r, kd_diag *err)
{
    memset(r, 0, sizeof *r);
    if (kd_capture_open(path, &r->cap, err) != 0)
        return -1;
    r->nbuffers = r->cap.nallocs;
    r->buffers = kd_xcalloc(r->nbuffers ? r->nbuffers : 1, sizeof *r->buffers);
    r->data_bytes = kd_capture_data_bytes(&r->cap);
    r->kernel_name = plain_name(r->cap.demangled && *r->cap.demangled ? r->cap.demangled : r->cap.kernel);
    if (r->cap.nparams > KD_LAUNCH_MAX_ARGS || r->cap.nparams + r->cap.nallocs > KD_LAUNCH_MAX_ARGS) {
        kd_diag_set(err, KD_MSG_REPLAY_TOO_MANY, KD_DIAG_NO_SIDE, KD_S(path), KD_U(r->cap.nparams),
                    KD_U(r->cap.nallocs), KD_U(KD_LAUNCH_MAX_ARGS));
        kd_replay_free(r);
        return -1;
    }
    if (!clusters_fit(&r->cap)) {
        char grid[48], cluster[48];
        snprintf(grid, sizeof grid, "%ux%ux%u", r->cap.grid[0], r->cap.grid[1], r->cap.grid[2]);
        snprintf(cluster, sizeof cluster, "%ux%ux%u", r->cap.cluster[0], r->cap.cluster[1], r->cap.cluster[2]);
        kd_diag_set(err, KD_MSG_REPLAY_CLUSTER, KD_DIAG_NO_SIDE, KD_S(path), KD_S(grid), KD_S(cluster));
        kd_replay_free(r);
        return -1;
    }
    if (extract_all(r, dir, err) != 0) {
        kd_replay_free(r);
        return -1;
    }
    return 0;
}

void kd_replay_free(kd_replay *r)
{
    for (size_t j = 0; j < r->nbuffers; j++) {
        kd_replay_buffer *b = &r->buffers[j];
        if (b->before_path)
            unlink(b->before_path);
        if (b->after_path)
            unlink(b->after_path);
        free(b->before_path);
        free(b->after_path);
        free(b->name);
    }
    free(r->buffers);
    free(r->kernel_name);
    kd_capture_free(&r->cap);
    memset(r, 0, sizeof *r);
}

const unsigned char *kd_replay_param(const kd_replay *r, size_t i, size_t *bytes)
{
    if (i >= r->cap.nparams) {
        *bytes = 0;
        return NULL;
    }
    *bytes = r->cap.params[i].size;
    return r->cap.param_data + r->cap.params[i].offset;
}

/* The size of a parameter as declared, or 0 when kerndiff cannot tell (a struct, a T). */
static size_t declared_size(const kd_param *p)
{
    if (p->is_pointer)
        return sizeof(void *);
    kd_type_info t;
    return kd_type_parse(p->type, &t) ? kd_dtype_size(t.base) * (size_t)t.lanes : 0;
}

/* A Triton launch (the capture's Triton section, docs/CAPTURE.md): the compiled kernel's
 * parameters are the source's but its constexprs (not in k) and the scalars Triton specialised
 * to constants (in k, "constexpr" in the captured signature), followed by Triton's scratch
 * pointers. k's parameters must be the captured kernel's, by name, in order: a v2 whose
 * signature changed is refused here, naming the first difference. *nscratch: the scratch
 * pointers; -1: no section or not a Triton side, 0 with the check done, or -2 with *err set. */
static int triton_layout(const kd_replay *r, const kd_kernel *k, const char *label, int side, kd_diag *err)
{
    /* Only a Triton side (a .py, whose kernel the helper described) is compiled from the
     * section; a .ptx/.cubin/.cu side takes the captured buffer as it is, scratch included. */
    json_t *t = r->cap.triton && k->frontend_info ? json_loads(r->cap.triton, 0, NULL) : NULL;
    if (!t)
        return -1;
    json_t *params = json_object_get(t, "params");
    size_t user = 0, ki = 0, i;
    json_t *p;
    int rc = 0;
    json_array_foreach(params, i, p) {
        const char *name = json_string_value(json_object_get(p, "name"));
        const char *type = json_string_value(json_object_get(p, "type"));
        if (json_is_true(json_object_get(p, "constexpr")))
            continue; /* a tl.constexpr: never a parameter of k */
        bool specialised = type && strcmp(type, "constexpr") == 0;
        if (ki < k->nparams && name && k->params[ki].name && strcmp(k->params[ki].name, name) == 0) {
            ki++;
        } else if (!specialised) {
            kd_diag_set(err, KD_MSG_CAPTURE_TRITON_SIGNATURE, side, KD_S(label), KD_S(k->name), KD_U(user + 1),
                        KD_S(ki < k->nparams && k->params[ki].name ? k->params[ki].name : "(none)"), KD_S(name ? name : "?"));
            rc = -2;
            break;
        }
        user += !specialised;
    }
    if (rc == 0 && ki < k->nparams) { /* k has more parameters than the captured kernel */
        kd_diag_set(err, KD_MSG_CAPTURE_TRITON_SIGNATURE, side, KD_S(label), KD_S(k->name), KD_U(user + 1),
                    KD_S(k->params[ki].name ? k->params[ki].name : "?"), KD_S("(none)"));
        rc = -2;
    }
    size_t scratch = (size_t)json_integer_value(json_object_get(t, "scratch_pointers"));
    if (rc == 0 && user + scratch != r->cap.nparams) {
        kd_diag_set(err, KD_MSG_REPLAY_PARAM_COUNT, side, KD_S(label), KD_S(k->name), KD_U(user + scratch),
                    KD_S(r->cap.demangled), KD_U(r->cap.nparams));
        rc = -2;
    }
    json_decref(t);
    return rc;
}

/* The layout check: the side's kernel takes the captured parameter buffer as it is. */
static int check_layout(const kd_replay *r, const kd_kernel *k, int side, kd_diag *err)
{
    const kd_capture *cap = &r->cap;
    const char *label = side == 2 ? "v2" : "v1";
    int triton = triton_layout(r, k, label, side, err);
    if (triton != -1)
        return triton == 0 ? 0 : -1;
    if (k->nparams != cap->nparams) {
        kd_diag_set(err, KD_MSG_REPLAY_PARAM_COUNT, side, KD_S(label), KD_S(k->name), KD_U(k->nparams), KD_S(cap->demangled),
                    KD_U(cap->nparams));
        return -1;
    }
    for (size_t i = 0; i < k->nparams; i++) {
        const kd_param *p = &k->params[i];
        char unnamed[24];
        const char *name = p->name && *p->name ? p->name : (snprintf(unnamed, sizeof unnamed, "#%zu", i), unnamed);
        size_t want = declared_size(p);
        if (want && want != cap->params[i].size) {
            kd_diag_set(err, KD_MSG_REPLAY_PARAM_SIZE, side, KD_S(label), KD_U(i), KD_S(name), KD_S(p->type), KD_U(want),
                        KD_U(cap->params[i].size));
            return -1;
        }
        /* a scalar the program passed a device pointer in: the kernels do not agree */
        if (want && !p->is_pointer && want == 8 && pointer_at(cap, cap->params[i].offset)) {
            kd_diag_set(err, KD_MSG_REPLAY_PARAM_POINTER, side, KD_S(label), KD_U(i), KD_S(name), KD_S(p->type));
            return -1;
        }
    }
    return 0;
}

/* A Triton side's dynamic shared memory (its compiled kernel's, "compiled_shared" in its
 * description, backend/triton_build.c: as Triton's launcher passes it) and scratch ("compiled_scratch"),
 * after the buffers: one KD_ROLE_SCRATCH argument per trailing scratch
 * pointer that needs bytes (size per program x the grid's programs, as Triton's launcher
 * allocates), in the order of the pointers; wire/replay.c passes that pointer as the harness's
 * zeroed workspace instead of the program's word. */
static void add_triton_compiled(const kd_replay *r, const kd_kernel *kernel, kd_launch_spec *spec)
{
    static const char *const names[2] = {"(global scratch)", "(profile scratch)"};
    size_t n = kd_capture_triton_scratch(&r->cap);
    json_t *info = r->cap.triton && kernel->frontend_info ? json_loads(kernel->frontend_info, 0, NULL) : NULL;
    json_t *sizes = json_object_get(info, "compiled_scratch");
    json_t *shared = json_object_get(info, "compiled_shared");
    if (json_is_integer(shared) && json_integer_value(shared) >= 0 &&
        (unsigned long long)json_integer_value(shared) != spec->dynamic_smem) { /* Triton's launcher passes `shared` */
        spec->dynamic_smem = (unsigned long long)json_integer_value(shared);
        spec->smem_origin = "compiler";
    }
    unsigned long long programs = (unsigned long long)spec->grid[0] * spec->grid[1] * spec->grid[2];
    for (size_t k = 0; k < n && k < 2 && json_is_array(sizes); k++) {
        json_int_t bytes = json_integer_value(json_array_get(sizes, k));
        if (bytes <= 0)
            continue;
        spec->args = kd_xrealloc(spec->args, (spec->nargs + 1) * sizeof *spec->args);
        kd_launch_arg *a = &spec->args[spec->nargs++];
        memset(a, 0, sizeof *a);
        a->name = kd_xstrdup(names[k]);
        a->role = KD_ROLE_SCRATCH;
        a->type = (kd_type_info){KD_DT_U8, 1};
        a->count = (unsigned long long)bytes * programs;
        a->origin = "compiler";
    }
    json_decref(info);
}

int kd_replay_spec(const kd_replay *r, const kd_kernel *kernel, int side, kd_launch_spec *spec, kd_diag *err)
{
    memset(spec, 0, sizeof *spec);
    if (check_layout(r, kernel, side, err) != 0)
        return -1;
    const kd_capture *cap = &r->cap;
    /* each buffer is typed and named by the first plain pointer parameter that points at its
       start (float *y: elements of float, "y"), so a difference is said as y[i] */
    kd_type_info type[KD_LAUNCH_MAX_ARGS];
    const char *name[KD_LAUNCH_MAX_ARGS] = {0};
    for (size_t j = 0; j < r->nbuffers; j++)
        type[j] = (kd_type_info){KD_DT_U8, 1};
    for (size_t i = 0; i < kernel->nparams && i < cap->nparams; i++) {
        const kd_param *p = &kernel->params[i];
        const kd_capture_pointer *w = p->is_pointer ? pointer_at(cap, cap->params[i].offset) : NULL;
        if (!w || name[w->alloc] || w->offset != cap->allocs[w->alloc].span_start)
            continue;
        kd_type_info t;
        size_t size = p->pointee && kd_type_parse(p->pointee, &t) ? kd_dtype_size(t.base) * (size_t)t.lanes : 0;
        if (size && r->buffers[w->alloc].bytes % size == 0)
            type[w->alloc] = t;
        name[w->alloc] = p->name && *p->name ? p->name : NULL;
    }
    spec->args = kd_xcalloc(r->nbuffers ? r->nbuffers : 1, sizeof *spec->args);
    spec->nargs = r->nbuffers;
    for (size_t j = 0; j < r->nbuffers; j++) {
        const kd_replay_buffer *b = &r->buffers[j];
        kd_launch_arg *a = &spec->args[j];
        a->name = kd_xstrdup(name[j] ? name[j] : b->name);
        a->role = b->changed ? KD_ROLE_INOUT : KD_ROLE_INPUT;
        a->type = type[j];
        a->count = b->bytes / (kd_dtype_size(type[j].base) * (size_t)type[j].lanes);
        a->origin = "captured";
    }
    for (int d = 0; d < 3; d++) {
        spec->grid[d] = cap->grid[d];
        spec->block[d] = cap->block[d];
    }
    spec->dynamic_smem = cap->smem;
    spec->grid_origin = spec->block_origin = spec->smem_origin = spec->n_origin = "captured";
    add_triton_compiled(r, kernel, spec);
    /* a replayed launch has no n (the capture gives every size): the elements of its first
       compared buffer stand for it where a count is asked (JSON's launch.n, at least 1) */
    spec->n = 1;
    for (size_t j = spec->nargs; j-- > 0;)
        if (spec->args[j].role != KD_ROLE_SCRATCH && spec->args[j].count &&
            (spec->args[j].role == KD_ROLE_INOUT || spec->n == 1))
            spec->n = spec->args[j].count;
    return 0;
}

int kd_replay_match_outputs(const kd_replay *r, const kd_launch_spec *spec, const unsigned char *outputs, size_t len,
                            kd_replay_match *m, kd_diag *err)
{
    memset(m, 0, sizeof *m);
    m->same = true;
    size_t at = 0;
    for (size_t j = 0; j < r->nbuffers; j++) {
        const kd_replay_buffer *b = &r->buffers[j];
        if (!b->changed)
            continue;
        if (len - at < b->bytes) {
            kd_diag_set(err, KD_MSG_REPLAY_OUTPUTS_SHORT, KD_DIAG_NO_SIDE, KD_U(len), KD_U(at + b->bytes));
            return -1;
        }
        size_t got = 0;
        unsigned char *want = (unsigned char *)kd_read_output(b->after_path, &got);
        if (!want || got != b->bytes) {
            free(want);
            kd_diag_set(err, KD_MSG_REPLAY_AFTER_UNREADABLE, KD_DIAG_NO_SIDE, KD_S(b->after_path));
            return -1;
        }
        m->compared = true;
        if (m->same && memcmp(outputs + at, want, b->bytes) != 0) {
            kd_type_info t = j < spec->nargs ? spec->args[j].type : (kd_type_info){KD_DT_U8, 1};
            size_t size = kd_dtype_size(t.base) * (size_t)t.lanes;
            size_t e = 0;
            while ((e + 1) * size <= b->bytes && memcmp(outputs + at + e * size, want + e * size, size) == 0)
                e++;
            m->same = false;
            m->buffer = j;
            m->element = e;
            m->got = kd_dtype_load(t.base, outputs + at + e * size, 0); /* its first lane */
            m->want = kd_dtype_load(t.base, want + e * size, 0);
        }
        free(want);
        at += b->bytes;
    }
    return 0;
}
