/* spec.c — from a kernel's signature, its file's annotations and the command line to one
 * concrete launch (see spec.h for the precedence).
 *
 * Settings are resolved in dependency order, each seeing the values resolved before it:
 *     n  →  scalars (n, earlier scalars)  →  block (n, scalars)  →  grid, smem, buffer
 *     counts (n, scalars, block)
 * so `// kerndiff: block=tile*32 grid=ceil(n/block) A=n*n` works whatever the order of
 * the words in the file.
 *
 * Names: the built-in `n` and `block` win over parameters of the same name in
 * expressions, and the annotation keys n, block, grid and smem always mean the settings,
 * never a parameter of that name, so `// kerndiff: n=16M` cannot hand a kernel's `int n`
 * a different count from the one its buffers were sized with. An annotation key may name
 * a parameter of any kernel of the file (a file carries keys for each of its kernels); a
 * key that names nothing is an error, like an unknown --buf/--arg name: most likely a typo
 * that silence would turn into a wrong launch.
 *
 * What the user leaves unset may come from the kernel's code (source/geometry.h, carried
 * by the annotations): every such value is said in the spec's `assumed`. */
#include "launch/spec.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch_msgs.h"
#include "util/diag.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include "launch/expr.h"

#define DEFAULT_N 1048576ULL
#define DEFAULT_BLOCK "256"
#define MAX_THREADS_PER_BLOCK 1024.0

/* CUDA's limits per dimension (x, y, z). */
static const double block_limits[3] = {1024, 1024, 64};
static const double grid_limits[3] = {2147483647.0, 65535, 65535};
static const char *const dim_names[3] = {"x", "y", "z"};

/* Where a setting's text came from: decides how errors quote it. */
typedef struct setting {
    const char *text;   /* NULL: not given */
    const char *origin; /* "--grid", "--buf", "annotation" ... */
    const char *key;    /* "grid", or the parameter's name */
    int line;           /* annotations: the line, for the message */
    bool keyed;         /* command-line NAME=VALUE (--buf, --arg) */
} setting;

typedef struct builder {
    const kd_launch_request *req;
    kd_launch_spec *out;
    kd_strbuf *error;
    kd_var *vars; /* n, then the scalars as they get values, then block */
    size_t nvars;
    const kd_kernel_geometry *geo; /* what the kernel's code says, or NULL */
} builder;

/* Records what was assumed from the code (spec.h: `assumed`). */
static void assume(builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void assume(builder *b, const char *fmt, ...)
{
    char *text = b->out->assumed;
    size_t used = strlen(text), room = sizeof b->out->assumed;
    if (used && used + 2 < room) {
        memcpy(text + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    if (used + 1 < room)
        vsnprintf(text + used, room - used, fmt, ap);
    va_end(ap);
}

static const char *comment_of(const builder *b) { return b->req->comment ? b->req->comment : "//"; }

/* b->error gets report/'s words for message `id` (launch_msgs.h's KD_MSG_SPEC_*, worded in
 * report/words_launch.c): b->error still travels up as text. */
#define spec_error(b, id, ...)                                                                                         \
    spec_error_args((b), (id), (const kd_diag_arg[]){__VA_ARGS__},                                                     \
                    sizeof((const kd_diag_arg[]){__VA_ARGS__}) / sizeof(kd_diag_arg))
static void spec_error_args(builder *b, int id, const kd_diag_arg *args, size_t nargs)
{
    kd_diag d = {0};
    kd_diag_set_args(&d, id, KD_DIAG_NO_SIDE, args, nargs);
    kd_diag_append_words(&d, b->error);
    kd_diag_free(&d);
}

/* Quotes a setting as the user wrote it, so the message points at the right place. */
static void describe(const builder *b, kd_strbuf *sb, const setting *s)
{
    if (s->line == KD_ANNOTATION_CAPTURED)
        kd_sb_printf(sb, "the captured launch's %s=%s", s->key, s->text);
    else if (s->line)
        kd_sb_printf(sb, "`%s kerndiff: %s=%s` (line %d)", comment_of(b), s->key, s->text, s->line);
    else if (s->keyed)
        kd_sb_printf(sb, "%s %s=%s", s->origin, s->key, s->text);
    else
        kd_sb_printf(sb, "%s %s", s->origin, s->text);
}

static bool is_setting_key(const char *key)
{
    return strcmp(key, "n") == 0 || strcmp(key, "block") == 0 || strcmp(key, "grid") == 0 ||
           strcmp(key, "smem") == 0;
}

static bool from_annotation(const kd_annotations *a, const char *key, setting *s)
{
    for (size_t i = 0; a && i < a->count; i++) {
        if (strcmp(a->items[i].key, key) == 0) {
            *s = (setting){a->items[i].value, a->items[i].line == KD_ANNOTATION_CAPTURED ? "captured" : "annotation", key,
                           a->items[i].line, false};
            return true;
        }
    }
    return false;
}

/* This side's --call value, else the command line's, else the annotation's; s->text
 * stays NULL when none. */
static setting pick(const builder *b, const char *call, const char *cli, const char *flag, const char *key)
{
    if (call)
        return (setting){call, b->req->call_origin, key, 0, true};
    setting s = {cli, flag, key, 0, false};
    if (!cli)
        from_annotation(b->req->annotations, key, &s);
    return s;
}

/* Where a picked setting came from, for the report ("default" when nothing set it). */
static const char *origin_of(const setting *s)
{
    return s->text ? s->origin : "default";
}

/* The --call field for a setting, NULL when this side has no --call for it. */
#define CALL_FIELD(b, field) ((b)->req->call ? (b)->req->call->field : NULL)

/* The value of the last "NAME=..." entry for name: later entries override earlier ones. */
/* The last NAME=VALUE entry of list for name; `uses`: only the entries whose value is a
 * buffer use (NAME=in|out|inout), else only the others (a count or a value). */
static const char *find_entry_of(const kd_strlist *list, const char *name, bool uses)
{
    const char *value = NULL;
    size_t len = strlen(name);
    for (size_t i = 0; list && i < list->count; i++) {
        const char *item = list->items[i];
        if (strncmp(item, name, len) == 0 && item[len] == '=' &&
            (kd_buffer_use_parse(item + len + 1) != KD_USE_DEFAULT) == uses)
            value = item + len + 1;
    }
    return value;
}

static const char *find_entry(const kd_strlist *list, const char *name) { return find_entry_of(list, name, false); }

/* --call, then command line, then annotation (unless the name is a setting's), for a
 * parameter. */
static setting pick_for_param(const builder *b, const kd_strlist *list, const char *flag, const char *name)
{
    const char *call = *name && b->req->call ? find_entry(&b->req->call->params, name) : NULL;
    if (call)
        return (setting){call, b->req->call_origin, name, 0, true};
    setting s = {find_entry(list, name), flag, name, 0, true};
    if (!s.text && *name && !is_setting_key(name))
        from_annotation(b->req->annotations, name, &s);
    return s;
}

static void add_var(builder *b, const char *name, double value)
{
    b->vars[b->nvars++] = (kd_var){name, value};
}

static int eval_text(builder *b, const setting *s, const char *text, const char *part, double *out)
{
    char reason[512];
    const kd_vars vars = {b->vars, b->nvars};
    if (kd_expr_eval(text, &vars, out, reason, sizeof reason) == 0)
        return 0;
    describe(b, b->error, s);
    kd_sb_printf(b->error, ": %s%s%s", part ? part : "", part ? ": " : "", reason);
    return -1;
}

/* The whole numbers a value may take: [lo, hi]. */
typedef struct whole_range {
    double lo, hi;
} whole_range;

/* Counts and byte sizes: up to 2^53, where a double still holds every whole number. */
#define UP_TO_2_53(lo) ((whole_range){(lo), 9007199254740992.0})

/* Evaluates text (all of s, or its dimension `part`) and requires a whole number in range. */
static int eval_whole(builder *b, const setting *s, const char *text, const char *part, whole_range range,
                      double *out)
{
    double lo = range.lo, hi = range.hi;
    if (eval_text(b, s, text, part, out) != 0)
        return -1;
    if (*out == floor(*out) && *out >= lo && *out <= hi)
        return 0;
    describe(b, b->error, s);
    kd_sb_printf(b->error, ": %s is %.17g, ", part ? part : "the value", *out);
    if (*out != floor(*out))
        kd_sb_puts(b->error, "not a whole number (round it with ceil() or floor())");
    else
        kd_sb_printf(b->error, "but it must be between %.0f and %.0f", lo, hi);
    return -1;
}

static void list_params(kd_strbuf *sb, const kd_kernel *k)
{
    for (size_t i = 0; i < k->nparams; i++)
        kd_sb_printf(sb, "%s%s", i ? ", " : "", *k->params[i].name ? k->params[i].name : "(unnamed)");
}

static const kd_param *find_param(const kd_kernel *k, const char *name, size_t len)
{
    for (size_t i = 0; i < k->nparams; i++)
        if (strlen(k->params[i].name) == len && strncmp(k->params[i].name, name, len) == 0)
            return &k->params[i];
    return NULL;
}

/* A compile-time constant of the kernel (abi): a name --arg may set but no parameter. */
static bool is_constant(const builder *b, const char *name, size_t len)
{
    const kd_launch_abi *abi = b->req->abi;
    for (size_t i = 0; abi && i < abi->nconstants; i++)
        if (strlen(abi->constants[i].name) == len && strncmp(abi->constants[i].name, name, len) == 0)
            return true;
    return false;
}

/* Every --buf/--arg entry must be NAME=VALUE for a parameter of the right kind; a --call
 * entry (any_kind) for a parameter of either kind. */
static int check_entries(builder *b, const kd_strlist *list, const char *flag, bool for_pointers, bool any_kind)
{
    const kd_kernel *k = b->req->kernel;
    for (size_t i = 0; list && i < list->count; i++) {
        const char *item = list->items[i], *eq = strchr(item, '=');
        if (!eq || eq == item) {
            spec_error(b, KD_MSG_SPEC_ENTRY_FORM, KD_S(flag), KD_S(item), KD_S(for_pointers ? "COUNT" : "VALUE"));
            return -1;
        }
        int len = (int)(eq - item);
        const kd_param *p = find_param(k, item, (size_t)len);
        if (!p && !for_pointers && is_constant(b, item, (size_t)len))
            continue; /* the backend already used it (a Triton meta-parameter) */
        if (!p) {
            kd_strbuf params = {0};
            list_params(&params, k);
            char *name = kd_xstrndup(item, (size_t)len);
            spec_error(b, KD_MSG_SPEC_NO_PARAM, KD_S(flag), KD_S(item), KD_S(k->name), KD_S(name), KD_S(kd_sb_str(&params)));
            free(name);
            kd_sb_free(&params);
            return -1;
        }
        if (any_kind || p->is_pointer == for_pointers)
            continue;
        spec_error(b, p->is_pointer ? KD_MSG_SPEC_BUFFER_NOT_SCALAR : KD_MSG_SPEC_SCALAR_NOT_BUFFER, KD_S(flag), KD_S(item),
                   KD_S(p->name), KD_S(p->type));
        return -1;
    }
    return 0;
}

/* An annotation key must mean something: a setting, a parameter of a kernel of the file,
 * this kernel's parameter or compile-time constant. */
static int check_annotation_keys(builder *b)
{
    const kd_kernel *k = b->req->kernel;
    const kd_launch_abi *abi = b->req->abi;
    size_t nkeys, nalso = k->nparams + (abi ? abi->nconstants : 0);
    const char *const *keys = kd_annotation_setting_keys(&nkeys);
    const char **names = kd_xcalloc(nkeys + nalso + 1, sizeof *names);
    for (size_t i = 0; i < k->nparams; i++)
        names[i] = k->params[i].name;
    for (size_t i = 0; abi && i < abi->nconstants; i++)
        names[k->nparams + i] = abi->constants[i].name;
    const kd_annotation *bad = kd_annotations_unknown(b->req->annotations, names, nalso);
    if (bad) {
        memcpy(names + nalso, keys, nkeys * sizeof *keys);
        const char *near = kd_suggest(bad->key, names, nalso + nkeys);
        kd_sb_printf(b->error, "`%s kerndiff: %s=%s` (line %d): '%s' is not an annotation key kerndiff knows", comment_of(b),
                     bad->key, bad->value, bad->line, bad->key);
        if (near)
            kd_sb_printf(b->error, " (did you mean '%s'?)", near);
        kd_sb_puts(b->error, "; it knows ");
        for (size_t i = 0; i < nkeys; i++)
            kd_sb_printf(b->error, "%s%s", i ? ", " : "", keys[i]);
        kd_sb_printf(b->error, " and the parameters of the file's kernels (of '%s': ", k->name);
        list_params(b->error, k);
        kd_sb_puts(b->error, ")");
    }
    free(names);
    return bad ? -1 : 0;
}

/* The instance's argument for template parameter `param` ("reduce6<float, 256u, true>":
 * blockSize -> "256u"), copied into out; false when the kernel is no such instance. */
static bool template_arg(const builder *b, const char *param, char *out, size_t room)
{
    const kd_kernel_geometry *g = b->geo;
    const char *lt = strchr(b->req->kernel->name, '<');
    for (size_t i = 0; g && lt && i < g->ntemplate_params; i++) {
        if (strcmp(g->template_params[i], param) != 0)
            continue;
        const char *p = lt + 1;
        int depth = 0;
        for (size_t index = 0; *p; index++) {
            while (*p == ' ')
                p++;
            const char *start = p;
            for (; *p && !(depth == 0 && (*p == ',' || *p == '>')); p++)
                depth += (*p == '<' || *p == '(') - (*p == '>' || *p == ')');
            if (index == i) {
                size_t n = (size_t)(p - start);
                while (n && start[n - 1] == ' ')
                    n--;
                snprintf(out, room, "%.*s", (int)n, start);
                return n > 0;
            }
            if (*p != ',')
                return false;
            p++;
        }
    }
    return false;
}

/* A template parameter that is the block's size by its name (blockSize, BLOCK_THREADS ...). */
static bool names_block_size(const char *name)
{
    static const char *const names[] = {"blocksize", "blockdim", "threads", "numthreads", "nthreads",
                                        "threadsperblock", "blockthreads", "block", "blockdimx"};
    char lower[64];
    size_t n = 0;
    for (const char *c = name; *c && n + 1 < sizeof lower; c++)
        if (*c != '_')
            lower[n++] = (char)tolower((unsigned char)*c);
    lower[n] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(lower, names[i]) == 0)
            return true;
    return false;
}

static int resolve_n(builder *b)
{
    setting s = pick(b, CALL_FIELD(b, n), b->req->n, "--n", "n");
    b->out->n = DEFAULT_N;
    b->out->n_origin = origin_of(&s);
    char reason[512];
    if (s.text && kd_parse_count(s.text, &b->out->n, reason, sizeof reason) != 0) {
        describe(b, b->error, &s);
        kd_sb_printf(b->error, ": %s", reason);
        return -1;
    }
    add_var(b, "n", (double)b->out->n);
    return 0;
}

/* The kernel's compile-time constants (BLOCK=1024), for grid and buffer expressions. */
static void add_constants(builder *b)
{
    const kd_launch_abi *abi = b->req->abi;
    for (size_t i = 0; abi && i < abi->nconstants; i++)
        add_var(b, abi->constants[i].name, abi->constants[i].value);
}

/* The range an integer type holds, clipped to the ±2^53 every value already lies in. */
static bool integer_range(kd_dtype t, double *lo, double *hi)
{
    static const struct { kd_dtype t; double lo, hi; } ranges[] = {
        {KD_DT_I8, -128, 127},           {KD_DT_U8, 0, 255},
        {KD_DT_I16, -32768, 32767},      {KD_DT_U16, 0, 65535},
        {KD_DT_I32, -2147483648.0, 2147483647.0}, {KD_DT_U32, 0, 4294967295.0},
        {KD_DT_I64, -9007199254740992.0, 9007199254740992.0}, {KD_DT_U64, 0, 9007199254740992.0},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++) {
        if (ranges[i].t == t) {
            *lo = ranges[i].lo;
            *hi = ranges[i].hi;
            return true;
        }
    }
    return false;
}

static int scalar_type(builder *b, const kd_param *p, kd_type_info *type)
{
    if (strcmp(p->type, KD_TYPE_TENSOR_DESCRIPTOR) == 0) {
        spec_error(b, KD_MSG_SPEC_DESCRIPTOR, KD_S(p->name), KD_S(b->req->kernel->name));
        return -1;
    }
    if (!kd_type_parse(p->type, type)) {
        spec_error(b, KD_MSG_SPEC_SCALAR_TYPE, KD_S(p->name), KD_S(p->type));
        return -1;
    }
    if (type->lanes != 1) {
        spec_error(b, KD_MSG_SPEC_SCALAR_VECTOR, KD_S(p->name), KD_S(p->type));
        return -1;
    }
    return 0;
}

/* A default argument counts only when it is an expression kerndiff can read ("1.5f" is not). */
static bool from_default(builder *b, const kd_param *p, double *value)
{
    const kd_vars vars = {b->vars, b->nvars};
    return p->default_value && kd_expr_eval(p->default_value, &vars, value, NULL, 0) == 0;
}

/* One message for every scalar without a value, so the user fixes them in one go. An
 * unnamed one cannot be given a value until it has a name. */
static void missing_values(builder *b, const kd_param *const *missing, size_t count)
{
    if (count == 1 && !*missing[0]->name) {
        kd_sb_printf(b->error, "an unnamed scalar parameter (%s) of kernel '%s' needs a value: name it in the "
                     "signature, then give it with --arg NAME=VALUE", missing[0]->type, b->req->kernel->name);
        return;
    }
    kd_sb_printf(b->error, "scalar parameter%s ", count > 1 ? "s" : "");
    for (size_t i = 0; i < count; i++)
        kd_sb_printf(b->error, "%s'%s' (%s)", i ? ", " : "", *missing[i]->name ? missing[i]->name : "(unnamed)",
                     missing[i]->type);
    kd_sb_printf(b->error, " need%s a value:", count > 1 ? "" : "s");
    for (size_t i = 0; i < count; i++)
        if (*missing[i]->name)
            kd_sb_printf(b->error, " --arg %s=VALUE", missing[i]->name);
    kd_sb_printf(b->error, " or `%s kerndiff:", comment_of(b));
    for (size_t i = 0; i < count; i++)
        if (*missing[i]->name)
            kd_sb_printf(b->error, " %s=VALUE", missing[i]->name);
    kd_sb_puts(b->error, "`");
    for (size_t i = 0; i < count; i++)
        if (!*missing[i]->name) {
            kd_sb_puts(b->error, "; name the unnamed ones in the signature first");
            break;
        }
    if (b->req->kernel->from_compiled)
        kd_sb_printf(b->error, " (kernel '%s' was found in the compiled code, not in the source, so its parameters "
                     "are named by position: p0, p1, ...; a length is not recognised by its name: give it as "
                     "--arg NAME=n)", b->req->kernel->name);
}

/* The named ones of `missing` into out->needs_value, whole names only (kd_launch_spec's
 * buffer is fixed: a name that does not fit is left out rather than cut). */
static void needs_value(builder *b, const kd_param *const *missing, size_t count)
{
    char *to = b->out->needs_value;
    size_t size = sizeof b->out->needs_value, len = 0;
    for (size_t i = 0; i < count; i++) {
        const char *name = missing[i]->name;
        size_t need = strlen(name) + (len ? 2 : 0);
        if (!*name || len + need >= size)
            continue;
        len += (size_t)snprintf(to + len, size - len, "%s%s", len ? ", " : "", name);
    }
}

/* An integer parameter must receive a whole number its type can hold. */
static int check_fits(builder *b, const kd_param *p, const kd_launch_arg *arg)
{
    double lo, hi, v = arg->value;
    if (!integer_range(arg->type.base, &lo, &hi) || (v == floor(v) && v >= lo && v <= hi))
        return 0;
    bool from_n = strcmp(arg->origin, "n") == 0; /* then a smaller --n helps too */
    if (v != floor(v))
        spec_error(b, from_n ? KD_MSG_SPEC_NOT_WHOLE_N : KD_MSG_SPEC_NOT_WHOLE, KD_S(p->name), KD_S(p->type),
                   KD_S(arg->origin), KD_D(v));
    else
        spec_error(b, from_n ? KD_MSG_SPEC_OUT_OF_RANGE_N : KD_MSG_SPEC_OUT_OF_RANGE, KD_S(p->name), KD_S(p->type),
                   KD_D(lo), KD_D(hi), KD_S(arg->origin), KD_D(v));
    return -1;
}

/* Whether name is a word of text. */
static bool has_word(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; p && (p = strstr(p, name)) != NULL; p += n) {
        bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (left && right)
            return true;
    }
    return false;
}

/* A scalar that sizes a 2-D buffer the kernel indexes (M, K of A[row*K+k]) or bounds its
 * 2-D thread indices. */
static bool is_shape_dim(const builder *b, const char *name)
{
    const kd_kernel_geometry *g = b->geo;
    for (size_t i = 0; g && *name && i < g->nextents; i++)
        if (g->extents[i].rank >= 2 && g->extents[i].count && has_word(g->extents[i].count, name))
            return true;
    for (int axis = 0; g && *name && g->two_d && axis < 2; axis++)
        if (g->reach[axis] && has_word(g->reach[axis], name))
            return true;
    return false;
}

/* The axis whose bound scalar `name` is by an unguarded kernel's row-major indexing
 * (source/geometry.h: implied), the row length first; -1: none. */
static int implied_axis(const builder *b, const char *name)
{
    for (int axis = 0; b->geo && axis < 2; axis++)
        if (b->geo->implied[axis] && b->geo->reach[axis] && strcmp(b->geo->reach[axis], name) == 0)
            return axis;
    return -1;
}

/* A Triton kernel of one program a row (source/geometry.h: row_length): its row length
 * and row strides, unless given, are sqrt(n) and the row length (contiguous rows); true
 * when name is one of those. The stride follows a row length the user gave. */
static bool row_scalar(builder *b, const char *name, double *value)
{
    const kd_kernel_geometry *g = b->geo;
    if (!g || !g->row_length || !*name)
        return false;
    bool stride = false;
    const char *indexing = g->nrow_strides ? g->row_indexing[0] : "";
    for (size_t i = 0; i < g->nrow_strides; i++)
        if (strcmp(g->row_strides[i], name) == 0) {
            stride = true;
            indexing = g->row_indexing[i];
        }
    if (!stride && strcmp(g->row_length, name) != 0)
        return false;
    *value = floor(sqrt((double)b->out->n));
    setting given = pick_for_param(b, b->req->scalars, "--arg", g->row_length);
    double v;
    const kd_vars vars = {b->vars, b->nvars}; /* a wrong value is said where the row length itself is resolved */
    if (stride && given.text && kd_expr_eval(given.text, &vars, &v, NULL, 0) == 0 && v >= 1)
        *value = v;
    if (stride)
        assume(b, "%s = %.0f: the row length %s, rows contiguous (a row-major tensor), from %s (--arg %s=VALUE)", name,
               *value, g->row_length, indexing, name);
    else
        assume(b, "%s = %.0f: sqrt(n), the row length: one program a row (%s), its columns masked by < %s (--arg %s=VALUE)",
               name, *value, indexing, name, name);
    return true;
}

/* The shape's side parameter named like kerndiff's own size (`N` or `n`), when the user gave
 * n (--n, an annotation, --call) and no value of that parameter: then the user's n is that
 * side, never sqrt(n) (`--n 2048` on an SGEMM(M, N, K) means 2048 x 2048, and a parameter
 * called N silently given 45 was a launch the user never asked for). NULL otherwise. */
static const char *side_named_n(builder *b)
{
    if (!b->out->n_origin || strcmp(b->out->n_origin, "default") == 0)
        return NULL;
    for (size_t i = 0; i < b->req->kernel->nparams; i++) {
        const kd_param *p = &b->req->kernel->params[i];
        if (!p->is_pointer && (strcmp(p->name, "n") == 0 || strcmp(p->name, "N") == 0) && is_shape_dim(b, p->name) &&
            !pick_for_param(b, b->req->scalars, "--arg", p->name).text)
            return p->name;
    }
    return NULL;
}

/* 0: resolved; 1: no value anywhere (the caller collects those); -1: error. */
static int resolve_scalar(builder *b, const kd_param *p, kd_launch_arg *arg)
{
    if (scalar_type(b, p, &arg->type) != 0)
        return -1;
    setting s = pick_for_param(b, b->req->scalars, "--arg", p->name);
    if (s.text) {
        arg->origin = s.origin;
        if (eval_text(b, &s, s.text, NULL, &arg->value) != 0)
            return -1;
    } else if (from_default(b, p, &arg->value)) {
        arg->origin = "inferred";
    } else if (integer_range(arg->type.base, &(double){0}, &(double){0}) && row_scalar(b, p->name, &arg->value)) {
        arg->origin = "assumed";
    } else if (is_shape_dim(b, p->name) && integer_range(arg->type.base, &(double){0}, &(double){0})) {
        arg->origin = "assumed";
        arg->value = floor(sqrt((double)b->out->n));
        int axis = implied_axis(b, p->name);
        const kd_kernel_geometry *g = b->geo;
        const char *named = side_named_n(b);
        if (named) {
            arg->value = (double)b->out->n;
            assume(b, "%s = %.0f: n (%s), the side the parameter %s names; the shape taken square (--arg %s=VALUE)",
                   p->name, arg->value, b->out->n_origin, named, p->name);
        } else if (axis == 0 && g->square[1] && g->reach[1] && strcmp(g->reach[1], p->name) == 0)
            assume(b, "%s = %.0f: sqrt(n), the row length in %s, and as many rows (a square: nothing names "
                   "them) (--arg %s=VALUE)", p->name, arg->value, g->implied[0], p->name);
        else if (axis >= 0)
            assume(b, "%s = %.0f: sqrt(n), the %s in %s%s (--arg %s=VALUE)", p->name, arg->value,
                   axis ? "rows of the y index" : "row length", g->implied[axis],
                   g->paired[axis] ? ", named beside its row length" : "", p->name);
        else
            assume(b, "%s = %.0f: sqrt(n), a side of the 2-D shape the kernel indexes (--arg %s=VALUE)", p->name,
                   arg->value, p->name);
    } else if (arg->role == KD_ROLE_LENGTH) {
        arg->origin = "n";
        arg->value = (double)b->out->n;
        if (kd_param_length_from_code(p))
            assume(b, "%s = n: the compiled code compares it with the global thread index (blockIdx.x * "
                   "blockDim.x + threadIdx.x), as a bounds check `if (i < n)` does (--arg %s=VALUE)", p->name, p->name);
    } else {
        return 1;
    }
    if (check_fits(b, p, arg) != 0)
        return -1;
    if (*p->name && !is_setting_key(p->name))
        add_var(b, p->name, arg->value);
    return 0;
}

/* Splits "X,Y,Z" at the commas outside parentheses (min(a,b) stays whole) and evaluates
 * each part as a whole number within `limits`; missing dimensions are 1. */
static int resolve_dims(builder *b, const setting *s, const double limits[3], unsigned dims[3])
{
    char *copy = kd_xstrdup(s->text);
    char *parts[3] = {copy};
    size_t nparts = 1;
    int depth = 0;
    for (char *c = copy; *c; c++) {
        depth += (*c == '(') - (*c == ')');
        if (*c != ',' || depth != 0)
            continue;
        if (nparts == 3) {
            describe(b, b->error, s);
            kd_sb_puts(b->error, ": expected X, X,Y or X,Y,Z");
            free(copy);
            return -1;
        }
        *c = '\0';
        parts[nparts++] = c + 1;
    }
    int rc = 0;
    for (size_t i = 0; i < 3 && rc == 0; i++) {
        double v = 1;
        if (i < nparts)
            rc = eval_whole(b, s, parts[i], dim_names[i], (whole_range){1, limits[i]}, &v);
        if (rc == 0)
            dims[i] = (unsigned)v;
    }
    free(copy);
    return rc;
}

/* The block the kernel's code implies (spec.h's order), as setting text; false: none. */
static bool code_block(builder *b, char *text, size_t room)
{
    const kd_kernel_geometry *g = b->geo;
    char arg[64];
    for (size_t i = 0; g && i < g->ntemplate_params; i++) {
        double v;
        if (!names_block_size(g->template_params[i]) || !template_arg(b, g->template_params[i], arg, sizeof arg))
            continue;
        size_t len = strlen(arg);
        while (len && strchr("uUlL", arg[len - 1])) /* 256u: the compiled spelling */
            arg[--len] = '\0';
        if (kd_expr_eval(arg, &(kd_vars){NULL, 0}, &v, NULL, 0) == 0 && v >= 1 && v <= MAX_THREADS_PER_BLOCK) {
            snprintf(text, room, "%.0f", v);
            b->out->block_origin = "template argument";
            assume(b, "block %s: the instance's %s", text, g->template_params[i]);
            return true;
        }
    }
    if (g && g->launch_bounds) {
        snprintf(text, room, "%s", g->launch_bounds);
        b->out->block_origin = "__launch_bounds__";
        assume(b, "block %s: the kernel's __launch_bounds__", text);
        return true;
    }
    if (g && g->block[0]) {
        snprintf(text, room, "%u,%u", g->block[0], g->block[1]);
        b->out->block_origin = g->block_tile ? "tile" : "shared array";
        if (g->block[1] > 1)
            assume(b, "block %ux%u: %s", g->block[0], g->block[1], g->block_reason);
        else
            assume(b, "block %u: %s", g->block[0], g->block_reason);
        return true;
    }
    if (g && g->two_d) {
        snprintf(text, room, "16,16");
        b->out->block_origin = "default 2-D";
        assume(b, "block 16x16: the kernel indexes threads in y");
        return true;
    }
    return false;
}

static int resolve_block(builder *b)
{
    const kd_launch_abi *abi = b->req->abi;
    if (abi && abi->fixed) {
        const char *asked = CALL_FIELD(b, block) ? CALL_FIELD(b, block) : b->req->block;
        if (asked) {
            kd_sb_printf(b->error, "block %s: this kernel's block is fixed by its compiler (%u threads: Triton "
                         "runs 32 x num_warps); set num_warps instead", asked, abi->block_threads);
            return -1;
        }
        b->out->block[0] = abi->block_threads;
        b->out->block[1] = b->out->block[2] = 1;
        b->out->block_origin = "compiler";
        add_var(b, "block", abi->block_threads);
        add_var(b, "__block_y", 1);
        return 0;
    }
    setting s = pick(b, CALL_FIELD(b, block), b->req->block, "--block", "block");
    b->out->block_origin = origin_of(&s);
    char from_code[64];
    if (!s.text && code_block(b, from_code, sizeof from_code))
        s = (setting){from_code, b->out->block_origin, "block", 0, false};
    if (!s.text)
        s = (setting){DEFAULT_BLOCK, "default block", "block", 0, false};
    unsigned *block = b->out->block;
    if (resolve_dims(b, &s, block_limits, block) != 0)
        return -1;
    double threads = (double)block[0] * block[1] * block[2];
    if (threads > MAX_THREADS_PER_BLOCK) {
        describe(b, b->error, &s);
        kd_sb_printf(b->error, ": %.0f threads per block, but CUDA allows at most %.0f", threads, MAX_THREADS_PER_BLOCK);
        return -1;
    }
    add_var(b, "block", block[0]);
    add_var(b, "__block_y", block[1]); /* a 2-D index's threadIdx.y (source/geometry.h), never a user's name */
    return 0;
}

/* An unguarded 2-D kernel's grid: as many blocks on each axis as its index's factor of
 * blockIdx (a tile) divides the bound into, so the index never passes the shape; a block
 * wider than the tile would, and is refused. */
static int implied_grid(builder *b)
{
    const kd_kernel_geometry *g = b->geo;
    const kd_vars vars = {b->vars, b->nvars};
    double bound[2], step[2];
    for (int a = 0; a < 2; a++) {
        if (kd_expr_eval(g->reach[a], &vars, &bound[a], NULL, 0) != 0 ||
            kd_expr_eval(g->reach_step[a], &vars, &step[a], NULL, 0) != 0 || bound[a] < 1 || step[a] < 1 ||
            ceil(bound[a] / step[a]) > grid_limits[a]) {
            kd_sb_printf(b->error, "the grid needs a value: the kernel's %s index runs to %s in steps of %s, which "
                         "kerndiff cannot evaluate here: --grid X,Y", dim_names[a], g->reach[a], g->reach_step[a]);
            return -1;
        }
        if (b->out->block[a] > step[a]) {
            kd_sb_printf(b->error, "block %ux%u: the kernel's %s index moves %.0f a block (%s), fewer than the block's "
                         "%u threads, so it would pass %s = %.0f: give --block with at most %.0f threads in %s, or --grid X,Y",
                         b->out->block[0], b->out->block[1], dim_names[a], step[a], g->implied[a], b->out->block[a],
                         g->reach[a], bound[a], step[a], dim_names[a]);
            return -1;
        }
        b->out->grid[a] = (unsigned)ceil(bound[a] / step[a]);
    }
    if (g->reassigned && bound[0] != bound[1]) {
        kd_sb_printf(b->error, "the kernel gives its index '%s' a second value, so kerndiff reads how far its buffers "
                     "reach only for a square shape (%s = %s), not %.0f x %.0f: give each buffer's element count with "
                     "--buf NAME=COUNT", g->reassigned, g->reach[0], g->reach[1], bound[0], bound[1]);
        return -1;
    }
    b->out->grid[2] = 1;
    assume(b, "grid %ux%u: covers the kernel's x < %s and y < %s, %.0f and %.0f a block", b->out->grid[0],
           b->out->grid[1], g->reach[0], g->reach[1], step[0], step[1]);
    return 0;
}

/* Default grid: one thread per element, in x. Counting every thread of the block (not
 * just its x) keeps a 16,16 block from launching 16 times the threads n needs. */
static int default_grid(builder *b)
{
    const unsigned *block = b->out->block;
    const kd_kernel_geometry *g = b->geo;
    double reach[2];
    const kd_vars vars = {b->vars, b->nvars};
    if (g && !g->two_d && g->reach[0] && kd_expr_eval(g->reach[0], &vars, &reach[0], NULL, 0) == 0 &&
        reach[0] >= 1 && reach[0] < (double)b->out->n) {
        double threads = (double)block[0] * block[1] * block[2];
        b->out->grid[0] = (unsigned)ceil(reach[0] / threads);
        b->out->grid[1] = b->out->grid[2] = 1;
        assume(b, "grid %u: covers the kernel's x < %s", b->out->grid[0], g->reach[0]);
        return 0;
    }
    if (g && g->reach_step[0] && g->reach_step[1])
        return implied_grid(b);
    if (g && g->two_d && g->reach[0] && g->reach[1] && kd_expr_eval(g->reach[0], &vars, &reach[0], NULL, 0) == 0 &&
        kd_expr_eval(g->reach[1], &vars, &reach[1], NULL, 0) == 0 && reach[0] >= 1 && reach[1] >= 1 &&
        ceil(reach[0] / block[0]) <= grid_limits[0] && ceil(reach[1] / block[1]) <= grid_limits[1]) {
        b->out->grid[0] = (unsigned)ceil(reach[0] / block[0]);
        b->out->grid[1] = (unsigned)ceil(reach[1] / block[1]);
        b->out->grid[2] = 1;
        assume(b, "grid %ux%u: covers the kernel's x < %s and y < %s", b->out->grid[0], b->out->grid[1], g->reach[0],
               g->reach[1]);
        return 0;
    }
    double threads = (double)block[0] * block[1] * block[2];
    double blocks = ceil((double)b->out->n / threads);
    if (blocks > grid_limits[0]) {
        kd_sb_printf(b->error, "the default grid ceil(n/%.0f) = %.0f blocks exceeds CUDA's %.0f: set --grid or a "
                     "smaller --n", threads, blocks, grid_limits[0]);
        return -1;
    }
    b->out->grid[0] = (unsigned)blocks;
    b->out->grid[1] = b->out->grid[2] = 1;
    return 0;
}

/* One program a row (row_scalar): as many rows as n holds at the widest of the row length
 * and the strides, so the last row's last column stays inside every n-element buffer. */
static bool row_grid(builder *b)
{
    const kd_kernel_geometry *g = b->geo;
    const kd_vars vars = {b->vars, b->nvars};
    double width = 0, v;
    if (!g || !g->row_length || kd_expr_eval(g->row_length, &vars, &width, NULL, 0) != 0)
        return false;
    for (size_t i = 0; i < g->nrow_strides; i++) {
        if (kd_expr_eval(g->row_strides[i], &vars, &v, NULL, 0) != 0)
            return false;
        width = v > width ? v : width;
    }
    double rows = width >= 1 ? floor((double)b->out->n / width) : 0;
    if (rows < 1 || rows > grid_limits[0])
        return false;
    b->out->grid[0] = (unsigned)rows;
    b->out->grid[1] = b->out->grid[2] = 1;
    b->out->grid_origin = "assumed";
    assume(b, "grid %.0f: one program a row, n / %.0f rows", rows, width);
    return true;
}

static int resolve_grid(builder *b)
{
    setting s = pick(b, CALL_FIELD(b, grid), b->req->grid, "--grid", "grid");
    b->out->grid_origin = origin_of(&s);
    if (!s.text && row_grid(b))
        return 0;
    if (!s.text && b->req->abi && b->req->abi->fixed) {
        if (!b->req->abi->default_grid) {
            kd_sb_puts(b->error, "the grid (number of programs) needs a value: --grid EXPR or `# kerndiff: "
                                 "grid=cdiv(n,BLOCK)` (expressions may use n, the scalars and the constexprs)");
            return -1;
        }
        s = (setting){b->req->abi->default_grid, "default grid", "grid", 0, false};
        b->out->grid_origin = "default grid";
    }
    return s.text ? resolve_dims(b, &s, grid_limits, b->out->grid) : default_grid(b);
}

/* The bytes one thread's element of the kernel's extern __shared__ array takes, and its
 * type's name: the declared type, a template's through the instance, PTX's .align, else
 * the first buffer's element (a guess, said), else 4. */
static unsigned long long shared_element(const builder *b, char *name, size_t room)
{
    const kd_kernel_geometry *g = b->geo;
    if (g->shared_bytes) {
        snprintf(name, room, "%u-byte element (its .align)", g->shared_bytes);
        return g->shared_bytes;
    }
    char type[128];
    snprintf(type, sizeof type, "%s", g->shared_type ? g->shared_type : "");
    char arg[128];
    if (template_arg(b, type, arg, sizeof arg))
        snprintf(type, sizeof type, "%s", arg);
    kd_type_info t;
    if (kd_type_parse(type, &t)) {
        snprintf(name, room, "%s", type);
        return kd_dtype_size(t.base) * (unsigned long long)t.lanes;
    }
    const kd_kernel *k = b->req->kernel;
    for (size_t i = 0; i < k->nparams; i++)
        if (k->params[i].is_pointer && k->params[i].pointee && kd_type_parse(k->params[i].pointee, &t)) {
            snprintf(name, room, "%s (the type of '%s'; the array's own type %s was not read)", k->params[i].pointee,
                     k->params[i].name, *type ? type : "is unknown");
            return kd_dtype_size(t.base) * (unsigned long long)t.lanes;
        }
    snprintf(name, room, "4-byte element (the array's type %s was not read)", *type ? type : "");
    return 4;
}

/* No --smem for a kernel with extern __shared__ memory: one element per thread. */
static int assumed_smem(builder *b)
{
    char element[256];
    unsigned long long size = shared_element(b, element, sizeof element);
    const unsigned *block = b->out->block;
    b->out->dynamic_smem = size * block[0] * block[1] * block[2];
    b->out->smem_origin = "assumed";
    assume(b, "smem %llu B: one %s a thread for extern __shared__ %s[] (--smem BYTES if it needs more)",
           b->out->dynamic_smem, element, b->geo->shared_name ? b->geo->shared_name : "");
    return 0;
}

static int resolve_smem(builder *b)
{
    if (b->req->abi && b->req->abi->fixed) {
        b->out->dynamic_smem = b->req->abi->dynamic_smem;
        b->out->smem_origin = "compiler";
        return 0;
    }
    setting s = pick(b, CALL_FIELD(b, smem), b->req->smem, "--smem", "smem");
    b->out->smem_origin = origin_of(&s);
    b->out->dynamic_shared = b->geo && b->geo->dynamic_shared;
    if (!s.text && b->out->dynamic_shared)
        return assumed_smem(b);
    double bytes = 0;
    if (s.text && eval_whole(b, &s, s.text, NULL, UP_TO_2_53(0), &bytes) != 0)
        return -1;
    b->out->dynamic_smem = (unsigned long long)bytes;
    return 0;
}

/* A buffer the user did not size: the extent its index reaches where the kernel indexes it
 * in 2-D (or beyond n); a 2-D index that cannot be bounded is refused, not guessed. */
static int extent_from_code(builder *b, const kd_param *p, kd_launch_arg *arg)
{
    const kd_buffer_extent *e = b->geo ? kd_geometry_extent(b->geo, p->name) : NULL;
    if (!e)
        return 0;
    if (!e->count) {
        kd_sb_printf(b->error, "buffer '%s' is indexed as %s[%s], in 2-D, and kerndiff cannot tell how far that "
                     "reaches (no guard such as `if (row < rows)` bounds it): give its element count with --buf %s=COUNT "
                     "or `%s kerndiff: %s=COUNT`", p->name, p->name, e->indexing, p->name, comment_of(b), p->name);
        return -1;
    }
    double count;
    const kd_vars vars = {b->vars, b->nvars};
    if (kd_expr_eval(e->count, &vars, &count, NULL, 0) != 0 || count < 1 || count != floor(count) ||
        count > 9007199254740992.0)
        return 0; /* it names what has no value here (a template's constant): n stands */
    if (e->rank < 2 && count <= (double)b->out->n)
        return 0;
    arg->count = (unsigned long long)count;
    arg->origin = "indexing";
    return 0;
}

static int resolve_buffer(builder *b, const kd_param *p, kd_launch_arg *arg)
{
    if (!kd_type_parse(p->pointee, &arg->type)) {
        kd_sb_printf(b->error, "buffer parameter '%s' (%s) points to '%s', which kerndiff cannot allocate: change "
                     "the type to a number or CUDA vector type, or launch it with a custom launcher (include/kerndiff/launcher.h)",
                     p->name, p->type, p->pointee);
        return -1;
    }
    setting s = pick_for_param(b, b->req->buffers, "--buf", p->name);
    /* NAME=f16 or NAME=f16[COUNT]: the element type too (a Triton pointer has none of its own) */
    kd_dtype typed;
    char *count_text = NULL;
    if (s.text && kd_dtype_setting(s.text, &typed, &count_text)) {
        arg->type = (kd_type_info){typed, 1};
        s.text = count_text;
    }
    int rc = 0;
    if (!s.text) {
        arg->origin = "n";
        arg->count = b->out->n;
        rc = extent_from_code(b, p, arg);
    } else {
        arg->origin = s.origin;
        double count = 0;
        rc = eval_whole(b, &s, s.text, NULL, UP_TO_2_53(1), &count);
        arg->count = rc == 0 ? (unsigned long long)count : 0; /* a refused count (-5) is never converted */
    }
    free(count_text);
    return rc;
}

static unsigned scratch_count(const builder *b) { return b->req->abi ? b->req->abi->nscratch : 0; }

/* inputs=, outputs=, inouts= name pointer parameters: of this kernel, or of another kernel
 * of the file (each kernel takes the names it has). A name that is neither, or a scalar of
 * this kernel, is a mistake. */
static int check_role_annotations(builder *b)
{
    static const char *const keys[] = {"inputs", "outputs", "inouts"};
    const kd_annotations *a = b->req->annotations;
    const kd_kernel *k = b->req->kernel;
    for (size_t i = 0; a && i < a->count; i++) {
        bool role_key = false;
        for (size_t j = 0; j < sizeof keys / sizeof *keys; j++)
            role_key |= strcmp(a->items[i].key, keys[j]) == 0;
        char *copy = role_key ? kd_xstrdup(a->items[i].value) : NULL;
        for (char *save = NULL, *name = copy ? strtok_r(copy, ",", &save) : NULL; name; name = strtok_r(NULL, ",", &save)) {
            const kd_param *p = find_param(k, name, strlen(name));
            if (p ? p->is_pointer : kd_geometry_has_param(&a->geometry, name))
                continue;
            kd_sb_printf(b->error, "`%s kerndiff: %s=%s` (line %d): ", comment_of(b), a->items[i].key, a->items[i].value,
                         a->items[i].line);
            if (p)
                kd_sb_printf(b->error, "'%s' is a scalar (%s), not a buffer", name, p->type);
            else
                kd_sb_printf(b->error, "kernel '%s' has no parameter '%s'", k->name, name);
            kd_sb_puts(b->error, " (its buffers: ");
            for (size_t j = 0, shown = 0; j < k->nparams; j++)
                if (k->params[j].is_pointer)
                    kd_sb_printf(b->error, "%s%s", shown++ ? ", " : "", k->params[j].name);
            kd_sb_puts(b->error, ")");
            free(copy);
            return -1;
        }
        free(copy);
    }
    return 0;
}

/* A buffer's role as the user declares it, first that applies: this side's --call
 * NAME=in|out|inout, --buf NAME=in|out|inout, the file's inputs=/outputs=/inouts=; else
 * `role` (the compiled code's or the declaration's, source/roles.h). */
static kd_param_role declared_role(const builder *b, const kd_param *p, kd_param_role role)
{
    const char *word = b->req->call ? find_entry_of(&b->req->call->params, p->name, true) : NULL;
    if (!word)
        word = find_entry_of(b->req->buffers, p->name, true);
    if (word)
        return kd_param_role_of_use(kd_buffer_use_parse(word));
    switch (kd_annotation_role(b->req->annotations, p->name, NULL)) {
    case KD_ANNOTATED_IN: return KD_ROLE_INPUT;
    case KD_ANNOTATED_OUT: return KD_ROLE_OUTPUT;
    case KD_ANNOTATED_INOUT: return KD_ROLE_INOUT;
    default: return role;
    }
}

static void init_args(builder *b)
{
    const kd_kernel *k = b->req->kernel;
    b->out->args = kd_xcalloc(k->nparams + scratch_count(b) + 1, sizeof *b->out->args);
    for (size_t i = 0; i < k->nparams; i++) {
        kd_launch_arg *arg = &b->out->args[i];
        arg->name = kd_xstrdup(k->params[i].name);
        arg->role = kd_param_role_of(&k->params[i]);
        if (k->params[i].is_pointer)
            arg->role = declared_role(b, &k->params[i], arg->role);
        b->out->nargs++;
    }
}

/* Every scalar; those without a value are named together. A later scalar's error that
 * stems from a missing one (an unknown name in its expression) gives way to that list.
 * A value may name a scalar that comes later in the signature (`row_stride=n_cols`): the
 * scalars are taken in passes, each resolving those whose names are known by then, until a
 * pass makes no progress; only then does an error stand. */
static int resolve_scalars(builder *b)
{
    /* a tensor descriptor first: no value the other scalars are missing would make one */
    for (size_t i = 0; i < b->out->nargs && i < KD_LAUNCH_MAX_ARGS; i++)
        if (strcmp(b->req->kernel->params[i].type, KD_TYPE_TENSOR_DESCRIPTOR) == 0)
            return scalar_type(b, &b->req->kernel->params[i], &b->out->args[i].type);
    const kd_param *missing[KD_LAUNCH_MAX_ARGS];
    bool done[KD_LAUNCH_MAX_ARGS + 1] = {false};
    size_t nmissing = 0;
    int rc = 0;
    for (bool progress = true; progress;) {
        progress = false;
        nmissing = 0;
        rc = 0;
        for (size_t i = 0; i < b->out->nargs && i < KD_LAUNCH_MAX_ARGS; i++) {
            const kd_param *p = &b->req->kernel->params[i];
            if (done[i] || p->is_pointer || b->out->args[i].role == KD_ROLE_STREAM)
                continue;
            size_t error_len = b->error->len;
            int one = resolve_scalar(b, p, &b->out->args[i]);
            if (one == 0) {
                done[i] = progress = true;
            } else if (one > 0) {
                missing[nmissing++] = p;
            } else {
                rc = one; /* kept for the report unless a later pass resolves it */
                b->error->len = error_len;
                if (b->error->data)
                    b->error->data[error_len] = '\0';
            }
        }
    }
    /* No more progress: the first scalar that still fails says why, in order. */
    for (size_t i = 0; i < b->out->nargs && i < KD_LAUNCH_MAX_ARGS && rc < 0 && nmissing == 0; i++) {
        const kd_param *p = &b->req->kernel->params[i];
        if (!done[i] && !p->is_pointer && b->out->args[i].role != KD_ROLE_STREAM)
            return resolve_scalar(b, p, &b->out->args[i]) < 0 ? -1 : 0;
    }
    if (nmissing == 0)
        return rc < 0 ? -1 : 0;
    kd_sb_free(b->error);
    missing_values(b, missing, nmissing);
    needs_value(b, missing, nmissing);
    return -1;
}

static int check_arg_count(builder *b)
{
    if (b->req->kernel->nparams <= KD_LAUNCH_MAX_ARGS)
        return 0;
    kd_sb_printf(b->error, "kernel '%s' has %zu parameters, but kerndiff passes at most %d: gather some into a "
                 "struct or an array, or launch it from a custom launcher (include/kerndiff/launcher.h)",
                 b->req->kernel->name, b->req->kernel->nparams, KD_LAUNCH_MAX_ARGS);
    return -1;
}

static int resolve_buffers(builder *b)
{
    for (size_t i = 0; i < b->out->nargs; i++)
        if (b->req->kernel->params[i].is_pointer && resolve_buffer(b, &b->req->kernel->params[i], &b->out->args[i]) != 0)
            return -1;
    return 0;
}

/* The compiler's scratch pointers come last, sized per program of the grid (Triton's
 * launcher allocates size x programs); they are workspace, so never compared. */
static void add_scratch(builder *b)
{
    static const char *const names[2] = {"(global scratch)", "(profile scratch)"};
    unsigned long long programs = kd_launch_spec_blocks(b->out);
    for (unsigned i = 0; i < scratch_count(b) && i < 2; i++) {
        kd_launch_arg *arg = &b->out->args[b->out->nargs];
        arg->name = kd_xstrdup(names[i]);
        arg->role = KD_ROLE_SCRATCH;
        arg->type = (kd_type_info){KD_DT_U8, 1};
        arg->count = b->req->abi->scratch_bytes[i] * programs;
        arg->origin = "compiler";
        b->out->nargs++;
    }
}

static size_t constant_count(const kd_launch_request *req) { return req->abi ? req->abi->nconstants : 0; }

int kd_launch_spec_build(const kd_launch_request *req, kd_launch_spec *out, kd_strbuf *error)
{
    memset(out, 0, sizeof *out);
    /* n, block, one entry per scalar and per constant at most. */
    kd_var *vars = kd_xcalloc(req->kernel->nparams + constant_count(req) + 3, sizeof *vars);
    builder b = {req, out, error, vars, 0,
                 req->annotations ? kd_geometry_find(&req->annotations->geometry, req->kernel->name) : NULL};
    /* more parameters than a launch takes is a limit of kerndiff's; the names are the request's */
    bool too_many = check_arg_count(&b);
    bool misnamed = !too_many && (check_annotation_keys(&b) || check_role_annotations(&b) ||
                                  check_entries(&b, req->buffers, "--buf", true, false) ||
                                  check_entries(&b, req->scalars, "--arg", false, false) ||
                                  (req->call && check_entries(&b, &req->call->params, req->call_origin, false, true)));
    bool failed = too_many || misnamed;
    if (!failed) {
        init_args(&b);
        failed = resolve_n(&b);
    }
    if (!failed) {
        add_constants(&b); /* after n, before the scalars: an expression sees a name's first entry */
        failed = resolve_scalars(&b) || resolve_block(&b) || resolve_grid(&b) || resolve_smem(&b) ||
                 resolve_buffers(&b);
    }
    if (!failed)
        add_scratch(&b);
    free(vars);
    if (failed) {
        char needs[sizeof out->needs_value];
        memcpy(needs, out->needs_value, sizeof needs);
        kd_launch_spec_free(out);
        memcpy(out->needs_value, needs, sizeof needs);
        out->misnamed = misnamed;
    }
    return failed ? -1 : 0;
}

void kd_launch_needs_flags(const char *names, kd_strbuf *flags)
{
    for (const char *p = names; *p;) {
        size_t n = strcspn(p, ",");
        kd_sb_printf(flags, "%s--arg %.*s=VALUE", flags->len ? " " : "", (int)n, p);
        p += n;
        p += strspn(p, ", ");
    }
}

/* Whether the ", "-joined `names` hold the first `len` characters of name. */
static bool names_hold(const char *names, const char *name, size_t len)
{
    for (const char *q = names; *q;) {
        size_t m = strcspn(q, ",");
        if (m == len && strncmp(q, name, len) == 0)
            return true;
        q += m;
        q += strspn(q, ", ");
    }
    return false;
}

bool kd_launch_spec_needs(const kd_launch_spec *failed, const char *name)
{
    return *name && names_hold(failed->needs_value, name, strlen(name));
}

void kd_launch_needs_collect(const kd_launch_spec *failed, kd_strbuf *names)
{
    for (const char *p = failed->needs_value; *p;) {
        size_t n = strcspn(p, ",");
        if (!names_hold(kd_sb_str(names), p, n))
            kd_sb_printf(names, "%s%.*s", names->len ? ", " : "", (int)n, p);
        p += n;
        p += strspn(p, ", ");
    }
}

void kd_launch_spec_free(kd_launch_spec *s)
{
    for (size_t i = 0; i < s->nargs; i++)
        free(s->args[i].name);
    free(s->args);
    memset(s, 0, sizeof *s);
}

static bool origin_guessed(const char *origin)
{
    static const char *const guessed[] = {"default", "default 2-D", "assumed", "inferred", "indexing"};
    for (size_t i = 0; origin && i < sizeof guessed / sizeof *guessed; i++)
        if (!strcmp(origin, guessed[i]))
            return true;
    return false;
}

bool kd_launch_spec_guessed(const kd_launch_spec *s)
{
    if (s->assumed[0] || origin_guessed(s->n_origin) || origin_guessed(s->grid_origin) ||
        origin_guessed(s->block_origin) || (s->dynamic_shared && origin_guessed(s->smem_origin)))
        return true;
    for (size_t i = 0; i < s->nargs; i++)
        if (origin_guessed(s->args[i].origin))
            return true;
    return false;
}

unsigned long long kd_launch_spec_blocks(const kd_launch_spec *s)
{
    return (unsigned long long)s->grid[0] * s->grid[1] * s->grid[2];
}

unsigned long long kd_launch_spec_bytes(const kd_launch_spec *s)
{
    /* Saturates rather than wraps: the figure only ever feeds a "too big" message. */
    unsigned long long total = 0;
    for (size_t i = 0; i < s->nargs; i++) {
        const kd_launch_arg *a = &s->args[i];
        if (!kd_param_role_is_buffer(a->role))
            continue;
        unsigned long long element = kd_dtype_size(a->type.base) * (unsigned long long)a->type.lanes;
        if (element && a->count > (~0ULL - total) / element)
            return ~0ULL;
        total += a->count * element;
    }
    return total;
}

void kd_launch_abi_free(kd_launch_abi *abi)
{
    for (size_t i = 0; i < abi->nconstants; i++)
        free(abi->constants[i].name);
    free(abi->constants);
    free(abi->default_grid);
    for (size_t i = 0; i < abi->fill.count; i++)
        free(abi->fill.items[i]);
    free(abi->fill.items);
    memset(abi, 0, sizeof *abi);
}

void kd_launch_abi_set(kd_launch_abi *abi, const char *name, double value)
{
    for (size_t i = 0; i < abi->nconstants; i++)
        if (strcmp(abi->constants[i].name, name) == 0) {
            abi->constants[i].value = value;
            return;
        }
    abi->constants = kd_xreallocarray(abi->constants, abi->nconstants + 1, sizeof *abi->constants);
    abi->constants[abi->nconstants++] = (kd_launch_constant){kd_xstrdup(name), value};
}

void kd_launch_needs_add(kd_launch_needs_line *line, const char *kernel, const kd_launch_spec *v1,
                         const kd_launch_spec *v2)
{
    kd_strbuf mine = {0}, flags = {0};
    kd_launch_needs_collect(v1, &mine);
    kd_launch_needs_collect(v2, &mine);
    if (line->kernels++ == 0)
        line->first = kd_xstrdup(kd_sb_str(&mine));
    else if (strcmp(line->first, kd_sb_str(&mine)) != 0)
        line->differ = true;
    if (mine.len) {
        kd_launch_needs_flags(kd_sb_str(&mine), &flags);
        kd_sb_printf(&line->each, "%s%s: %s", line->each.len ? "; " : "", kernel, kd_sb_str(&flags));
    }
    kd_launch_needs_collect(v1, &line->names);
    kd_launch_needs_collect(v2, &line->names);
    kd_sb_free(&line->flags);
    kd_launch_needs_flags(kd_sb_str(&line->names), &line->flags);
    kd_sb_free(&mine);
    kd_sb_free(&flags);
}

void kd_launch_needs_line_free(kd_launch_needs_line *line)
{
    kd_sb_free(&line->names);
    kd_sb_free(&line->flags);
    kd_sb_free(&line->each);
    free(line->first);
    memset(line, 0, sizeof *line);
}
