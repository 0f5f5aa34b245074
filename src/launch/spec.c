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
 * a different count from the one its buffers were sized with. Annotation keys that name
 * neither a setting nor a parameter are ignored: a file may carry keys for other kernels
 * or later versions. On the command line, by contrast, an unknown --buf/--arg name is an
 * error, since it is most likely a typo. */
#include "launch/spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
} builder;

static const char *comment_of(const builder *b) { return b->req->comment ? b->req->comment : "//"; }

/* Quotes a setting as the user wrote it, so the message points at the right place. */
static void describe(const builder *b, kd_strbuf *sb, const setting *s)
{
    if (s->line)
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
            *s = (setting){a->items[i].value, "annotation", key, a->items[i].line, false};
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
static const char *find_entry(const kd_strlist *list, const char *name)
{
    const char *value = NULL;
    size_t len = strlen(name);
    for (size_t i = 0; list && i < list->count; i++) {
        const char *item = list->items[i];
        if (strncmp(item, name, len) == 0 && item[len] == '=')
            value = item + len + 1;
    }
    return value;
}

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

/* Evaluates text (all of s, or its dimension `part`) and requires a whole number in [lo, hi]. */
static int eval_whole(builder *b, const setting *s, const char *text, const char *part, double lo,
                      double hi, double *out)
{
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
            kd_sb_printf(b->error, "%s %s: expected NAME=%s", flag, item, for_pointers ? "COUNT" : "VALUE");
            return -1;
        }
        int len = (int)(eq - item);
        const kd_param *p = find_param(k, item, (size_t)len);
        if (!p && !for_pointers && is_constant(b, item, (size_t)len))
            continue; /* the backend already used it (a Triton meta-parameter) */
        if (!p) {
            kd_sb_printf(b->error, "%s %s: kernel '%s' has no parameter '%.*s' (its parameters: ", flag, item,
                         k->name, len, item);
            list_params(b->error, k);
            kd_sb_puts(b->error, ")");
            return -1;
        }
        if (any_kind || p->is_pointer == for_pointers)
            continue;
        if (p->is_pointer)
            kd_sb_printf(b->error, "%s %s: '%s' is a buffer (%s), not a scalar; set its element count with --buf %s=COUNT",
                         flag, item, p->name, p->type, p->name);
        else
            kd_sb_printf(b->error, "%s %s: '%s' is a scalar (%s), not a buffer; give its value with --arg %s=VALUE",
                         flag, item, p->name, p->type, p->name);
        return -1;
    }
    return 0;
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
    if (!kd_type_parse(p->type, type)) {
        kd_sb_printf(b->error, "scalar parameter '%s' has type '%s', which kerndiff cannot pass: change the type "
                     "to a plain number type, or launch it with a custom launcher (include/kerndiff/launcher.h)", p->name, p->type);
        return -1;
    }
    if (type->lanes != 1) {
        kd_sb_printf(b->error, "scalar parameter '%s' is a vector (%s), which kerndiff cannot pass by value: pass its "
                     "lanes as separate parameters, or launch it with a custom launcher (include/kerndiff/launcher.h)",
                     p->name, p->type);
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

/* An integer parameter must receive a whole number its type can hold. */
static int check_fits(builder *b, const kd_param *p, const kd_launch_arg *arg)
{
    double lo, hi, v = arg->value;
    if (!integer_range(arg->type.base, &lo, &hi) || (v == floor(v) && v >= lo && v <= hi))
        return 0;
    if (v != floor(v))
        kd_sb_printf(b->error, "scalar parameter '%s' (%s) needs a whole number, but its value (from %s) is %.17g",
                     p->name, p->type, arg->origin, v);
    else
        kd_sb_printf(b->error, "scalar parameter '%s' (%s) holds %.0f..%.0f, but its value (from %s) is %.0f",
                     p->name, p->type, lo, hi, arg->origin, v);
    kd_sb_printf(b->error, ": give it one with --arg %s=VALUE%s", p->name,
                 strcmp(arg->origin, "n") == 0 ? " or choose a smaller --n" : "");
    return -1;
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
    } else if (arg->role == KD_ROLE_LENGTH) {
        arg->origin = "n";
        arg->value = (double)b->out->n;
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
            rc = eval_whole(b, s, parts[i], dim_names[i], 1, limits[i], &v);
        if (rc == 0)
            dims[i] = (unsigned)v;
    }
    free(copy);
    return rc;
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
        return 0;
    }
    setting s = pick(b, CALL_FIELD(b, block), b->req->block, "--block", "block");
    b->out->block_origin = origin_of(&s);
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
    return 0;
}

/* Default grid: one thread per element, in x. Counting every thread of the block (not
 * just its x) keeps a 16,16 block from launching 16 times the threads n needs. */
static int default_grid(builder *b)
{
    const unsigned *block = b->out->block;
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

static int resolve_grid(builder *b)
{
    setting s = pick(b, CALL_FIELD(b, grid), b->req->grid, "--grid", "grid");
    b->out->grid_origin = origin_of(&s);
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

static int resolve_smem(builder *b)
{
    if (b->req->abi && b->req->abi->fixed) {
        b->out->dynamic_smem = b->req->abi->dynamic_smem;
        b->out->smem_origin = "compiler";
        return 0;
    }
    setting s = pick(b, CALL_FIELD(b, smem), b->req->smem, "--smem", "smem");
    b->out->smem_origin = origin_of(&s);
    double bytes = 0;
    if (s.text && eval_whole(b, &s, s.text, NULL, 0, 9007199254740992.0, &bytes) != 0)
        return -1;
    b->out->dynamic_smem = (unsigned long long)bytes;
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
    } else {
        arg->origin = s.origin;
        double count = 0;
        rc = eval_whole(b, &s, s.text, NULL, 1, 9007199254740992.0, &count);
        arg->count = (unsigned long long)count;
    }
    free(count_text);
    return rc;
}

static unsigned scratch_count(const builder *b) { return b->req->abi ? b->req->abi->nscratch : 0; }

static void init_args(builder *b)
{
    const kd_kernel *k = b->req->kernel;
    b->out->args = kd_xcalloc(k->nparams + scratch_count(b) + 1, sizeof *b->out->args);
    for (size_t i = 0; i < k->nparams; i++) {
        kd_launch_arg *arg = &b->out->args[i];
        arg->name = kd_xstrdup(k->params[i].name);
        arg->role = kd_param_role_of(&k->params[i]);
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
    kd_var *vars = kd_xcalloc(req->kernel->nparams + constant_count(req) + 2, sizeof *vars);
    builder b = {req, out, error, vars, 0};
    bool failed = check_arg_count(&b) || check_entries(&b, req->buffers, "--buf", true, false) ||
                  check_entries(&b, req->scalars, "--arg", false, false) ||
                  (req->call && check_entries(&b, &req->call->params, req->call_origin, false, true));
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
    if (failed)
        kd_launch_spec_free(out);
    return failed ? -1 : 0;
}

void kd_launch_spec_free(kd_launch_spec *s)
{
    for (size_t i = 0; i < s->nargs; i++)
        free(s->args[i].name);
    free(s->args);
    memset(s, 0, sizeof *s);
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
        if (a->role != KD_ROLE_INPUT && a->role != KD_ROLE_OUTPUT)
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
