/* ptxflow.c — parameter data flow through one PTX entry (see ptxflow.h). Registers map to
 * the small set of parameters their value derives from; the instructions are walked until
 * no set grows (flow insensitive: loops reassign registers), then each memory access marks
 * the parameters of its address. */
#include "static/ptxflow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "static/ptx.h"
#include "util/xalloc.h"

/* The parameters a value derives from; `top`: more than KD_PTXFLOW_SET (those were marked
 * escaped when the set overflowed). */
typedef struct param_set {
    unsigned n;
    bool top;
    uint32_t idx[KD_PTXFLOW_SET];
} param_set;

/* A register, or a parameter's name (param >= 0: its index; names never start with '%'
 * as registers do, so they share the table). */
typedef struct reg_slot {
    char *name; /* NULL: empty slot */
    int param;
    param_set set;
} reg_slot;

typedef struct flow {
    kd_ptx_param_use *params;
    size_t nparams;
    reg_slot *regs; /* open addressing, power-of-two size */
    size_t nregs, cap;
    bool changed;
} flow;

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '%';
}

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static void grow(flow *f);

/* The register's slot, created when `create` (else NULL when absent). */
static reg_slot *reg_lookup(flow *f, const char *name, size_t len, bool create)
{
    if (create && (f->nregs + 1) * 2 > f->cap)
        grow(f);
    if (f->cap == 0)
        return NULL;
    size_t i = (size_t)hash_bytes(name, len) & (f->cap - 1);
    for (;; i = (i + 1) & (f->cap - 1)) {
        reg_slot *r = &f->regs[i];
        if (!r->name) {
            if (!create)
                return NULL;
            r->name = kd_xstrndup(name, len);
            r->param = -1;
            f->nregs++;
            return r;
        }
        if (strncmp(r->name, name, len) == 0 && r->name[len] == '\0')
            return r;
    }
}

static void grow(flow *f)
{
    reg_slot *old = f->regs;
    size_t old_cap = f->cap;
    f->cap = old_cap ? old_cap * 2 : 256;
    f->regs = kd_xcalloc(f->cap, sizeof *f->regs);
    f->nregs = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].name) {
            reg_slot *r = reg_lookup(f, old[i].name, strlen(old[i].name), true);
            r->set = old[i].set;
            r->param = old[i].param;
            free(old[i].name);
        }
    free(old);
}

static void mark_set(flow *f, const param_set *s, int use)
{
    for (unsigned i = 0; i < s->n; i++)
        f->params[s->idx[i]].use |= use;
}

/* into |= from. An overflow escapes every parameter involved: the analysis no longer knows
 * which of them a later address is. */
static void set_union(flow *f, param_set *into, const param_set *from)
{
    if (from->top && !into->top) {
        mark_set(f, into, KD_PTX_ESCAPE);
        into->top = true;
        into->n = 0;
        f->changed = true;
    }
    if (into->top) {
        mark_set(f, from, KD_PTX_ESCAPE);
        return;
    }
    for (unsigned i = 0; i < from->n; i++) {
        bool have = false;
        for (unsigned j = 0; j < into->n && !have; j++)
            have = into->idx[j] == from->idx[i];
        if (have)
            continue;
        if (into->n == KD_PTXFLOW_SET) {
            mark_set(f, into, KD_PTX_ESCAPE);
            mark_set(f, from, KD_PTX_ESCAPE);
            into->top = true;
            into->n = 0;
            f->changed = true;
            return;
        }
        into->idx[into->n++] = from->idx[i];
        f->changed = true;
    }
}

/* One operand: [start, end). */
typedef struct operand {
    const char *start, *end;
} operand;

/* Splits operand text at top-level commas (not inside [ ] or { }), skipping comments. */
static size_t split_operands(const char *text, size_t len, operand *out, size_t max)
{
    size_t n = 0;
    int depth = 0;
    const char *item = text, *end = text + len;
    for (const char *p = text; p <= end; p++) {
        if (p < end && p + 1 < end && p[0] == '/' && p[1] == '/') {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl : end - 1;
            continue;
        }
        if (p < end && (*p == '[' || *p == '{' || *p == '('))
            depth++;
        else if (p < end && (*p == ']' || *p == '}' || *p == ')'))
            depth--;
        else if (p == end || (*p == ',' && depth == 0)) {
            if (n < max)
                out[n++] = (operand){item, p};
            item = p + 1;
        }
    }
    return n;
}

static bool has_bracket(const operand *o) { return memchr(o->start, '[', (size_t)(o->end - o->start)) != NULL; }

/* The parameters an operand's value derives from: its registers' sets, and a pointer
 * parameter named in it (`ld.param.u64 %rd1, [k_param_0]`, `mov.b64 %rd1, k_param_0`). */
static void operand_set(flow *f, const operand *o, param_set *out)
{
    *out = (param_set){0};
    for (const char *p = o->start; p < o->end;) {
        if (!ident_char(*p) || (p > o->start && (ident_char(p[-1]) || p[-1] == '.'))) {
            p++;
            continue;
        }
        const char *w = p;
        while (p < o->end && ident_char(*p))
            p++;
        reg_slot *r = reg_lookup(f, w, (size_t)(p - w), false);
        if (!r || (r->param >= 0 && !f->params[r->param].pointer))
            continue;
        param_set one = {.n = 1, .idx = {(uint32_t)r->param}};
        bool changed = f->changed;
        set_union(f, out, r->param >= 0 ? &one : &r->set);
        f->changed = changed; /* a scratch set growing is no progress */
    }
}

/* Every register written by a destination operand (`%rd1`, `{%r1, %r2}`) takes `from`. */
static void assign(flow *f, const operand *dest, const param_set *from)
{
    if (from->n == 0 && !from->top)
        return;
    for (const char *p = dest->start; p < dest->end;) {
        if (*p != '%') {
            p++;
            continue;
        }
        const char *w = p;
        while (p < dest->end && ident_char(*p))
            p++;
        reg_slot *r = reg_lookup(f, w, (size_t)(p - w), true);
        if (r->param < 0)
            set_union(f, &r->set, from);
    }
}

static bool head_is(const char *opcode, size_t len, const char *head)
{
    size_t n = strlen(head);
    return len >= n && strncmp(opcode, head, n) == 0 && (len == n || opcode[n] == '.');
}

static bool has_part(const char *opcode, size_t len, const char *part)
{
    size_t n = strlen(part);
    for (size_t i = 0; i + n <= len; i++)
        if (opcode[i] == '.' && strncmp(opcode + i + 1, part, n) == 0 &&
            (i + 1 + n == len || opcode[i + 1 + n] == '.' || opcode[i + 1 + n] == ':'))
            return true;
    return false;
}

/* The set of the address in a bracketed operand, marked with `use`. */
static void access(flow *f, const operand *o, int use)
{
    param_set s;
    operand_set(f, o, &s);
    mark_set(f, &s, use);
}

/* Values stored to memory or handed to a call: the analysis cannot follow them. */
static void escape(flow *f, const operand *ops, size_t from, size_t n)
{
    for (size_t i = from; i < n; i++) {
        param_set s;
        operand_set(f, &ops[i], &s);
        mark_set(f, &s, KD_PTX_ESCAPE);
    }
}

enum { MAX_OPERANDS = 16 };

static void instruction(const char *opcode, size_t len, const char *text, size_t text_len, void *ctx)
{
    flow *f = ctx;
    operand ops[MAX_OPERANDS];
    size_t n = split_operands(text, text_len, ops, MAX_OPERANDS);
    if (n == 0)
        return;
    if (head_is(opcode, len, "ld") || head_is(opcode, len, "ldu")) {
        if (has_part(opcode, len, "param")) { /* the parameter itself */
            param_set s;
            operand_set(f, &ops[n - 1], &s);
            assign(f, &ops[0], &s);
        } else if (n >= 2) {
            access(f, &ops[1], KD_PTX_READ);
        }
    } else if (head_is(opcode, len, "st")) {
        if (!has_part(opcode, len, "param") || has_bracket(&ops[0]))
            access(f, &ops[0], KD_PTX_WRITE);
        escape(f, ops, 1, n);
    } else if (head_is(opcode, len, "atom")) {
        if (n >= 2)
            access(f, &ops[1], KD_PTX_READ | KD_PTX_WRITE);
        escape(f, ops, 2, n);
    } else if (head_is(opcode, len, "red")) {
        access(f, &ops[0], KD_PTX_READ | KD_PTX_WRITE);
        escape(f, ops, 1, n);
    } else if (head_is(opcode, len, "cp")) { /* cp.async[.bulk]: destination, source, ... */
        access(f, &ops[0], head_is(opcode, len, "cp.reduce") ? KD_PTX_READ | KD_PTX_WRITE : KD_PTX_WRITE);
        if (n >= 2)
            access(f, &ops[1], KD_PTX_READ);
        escape(f, ops, 2, n);
    } else if (head_is(opcode, len, "wmma") && (has_part(opcode, len, "load") || has_part(opcode, len, "store"))) {
        bool load = has_part(opcode, len, "load");
        if (n >= 2)
            access(f, &ops[load ? 1 : 0], load ? KD_PTX_READ : KD_PTX_WRITE);
    } else if (head_is(opcode, len, "prefetch") || head_is(opcode, len, "prefetchu") ||
               head_is(opcode, len, "setp") || head_is(opcode, len, "isspacep") || head_is(opcode, len, "bar") || head_is(opcode, len, "bra") ||
               head_is(opcode, len, "ret") || head_is(opcode, len, "exit")) {
        /* no data moves through a pointer; a comparison's result is a predicate */
    } else if (head_is(opcode, len, "call")) {
        escape(f, ops, 0, n);
    } else {
        /* Computation: the destination derives from every other operand (predicates
         * included: they never carry a parameter, setp does not pass one on). A bracketed
         * operand here is an access the analysis does not model. */
        param_set from = {0};
        size_t last = head_is(opcode, len, "selp") && n > 1 ? n - 1 : n; /* selp's predicate chooses */
        for (size_t i = 1; i < last; i++) {
            param_set s;
            operand_set(f, &ops[i], &s);
            if (has_bracket(&ops[i]))
                mark_set(f, &s, KD_PTX_ESCAPE);
            set_union(f, &from, &s);
        }
        if (has_bracket(&ops[0])) {
            escape(f, ops, 0, n);
            return;
        }
        assign(f, &ops[0], &from);
    }
}

/* The declaration's parameters: the last word of each comma-separated item is its name. */
static void read_declaration(const char *decl, flow *f)
{
    for (const char *p = decl; *p;) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        const char *name_end = end;
        while (name_end > p && !ident_char(name_end[-1]))
            name_end--; /* `.b8 x[16]`: the array bound is not the name */
        while (name_end > p && name_end[-1] == ']') {
            while (name_end > p && name_end[-1] != '[')
                name_end--;
            name_end--;
        }
        const char *name = name_end;
        while (name > p && ident_char(name[-1]))
            name--;
        if (name_end > name) {
            f->params = kd_xreallocarray(f->params, f->nparams + 1, sizeof *f->params);
            kd_ptx_param_use *u = &f->params[f->nparams++];
            size_t dlen = (size_t)(name - p);
            char *d = kd_xstrndup(p, dlen);
            u->name = kd_xstrndup(name, (size_t)(name_end - name));
            u->pointer = (strstr(d, ".u64") || strstr(d, ".b64") || strstr(d, ".s64")) && !strchr(d, '[');
            u->use = 0;
            free(d);
        }
        p = *end ? end + 1 : end;
    }
}

int kd_ptx_param_uses(const char *ptx, const char *entry, kd_ptx_param_use **uses, size_t *count)
{
    *uses = NULL;
    *count = 0;
    char *decl = kd_ptx_entry_params(ptx, entry);
    char *body = decl ? kd_ptx_entry_body(ptx, entry) : NULL;
    if (!body) {
        free(decl);
        return -1;
    }
    flow f = {0};
    read_declaration(decl, &f);
    for (size_t i = 0; i < f.nparams; i++)
        reg_lookup(&f, f.params[i].name, strlen(f.params[i].name), true)->param = (int)i;
    /* Each pass can only grow a set; a set grows at most KD_PTXFLOW_SET + 1 times, so the
     * walk ends. The limit is a guard, not a bound the analysis relies on. */
    for (int pass = 0; pass < 64; pass++) {
        f.changed = false;
        kd_ptx_each_instruction(body, instruction, &f);
        if (!f.changed)
            break;
    }
    for (size_t i = 0; i < f.cap; i++)
        free(f.regs[i].name);
    free(f.regs);
    for (size_t i = 0; i < f.nparams; i++)
        if (!f.params[i].pointer)
            f.params[i].use = 0; /* scalars are values, never addresses */
    *uses = f.params;
    *count = f.nparams;
    free(decl);
    free(body);
    return 0;
}

void kd_ptx_param_uses_free(kd_ptx_param_use *uses, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(uses[i].name);
    free(uses);
}
