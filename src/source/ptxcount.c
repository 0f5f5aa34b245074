#include "source/ptxcount.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "static/ptx.h"
#include "util/xalloc.h"

enum {
    R_CTAID = 1,  /* %ctaid.x */
    R_NTID = 2,   /* %ntid.x */
    R_TID = 4,    /* %tid.x */
    R_BASE = 8,   /* %ctaid.x * %ntid.x */
    R_INDEX = 16, /* the global thread index */
};

#define MAX_REGS 1024
#define MAX_OPERANDS 6

typedef struct reg {
    char name[24];
    int flags;
    unsigned long long params; /* bit i: holds parameter i's value (i < 64) */
} reg;

typedef struct counter {
    reg regs[MAX_REGS];
    size_t nregs;
    char **param_names; /* the entry's .param names, in order */
    size_t nparams;
    unsigned long long bounds; /* bit i: parameter i is compared with the index */
    bool changed;
} counter;

static reg *find_reg(counter *c, const char *name, size_t len, bool add)
{
    if (len == 0 || len >= sizeof c->regs[0].name)
        return NULL;
    for (size_t i = 0; i < c->nregs; i++)
        if (strlen(c->regs[i].name) == len && memcmp(c->regs[i].name, name, len) == 0)
            return &c->regs[i];
    if (!add || c->nregs == MAX_REGS)
        return NULL;
    reg *r = &c->regs[c->nregs++];
    memcpy(r->name, name, len);
    r->name[len] = '\0';
    return r;
}

/* Operands split at commas, spaces trimmed: spans into the text. */
static size_t split(const char *text, size_t len, const char *starts[MAX_OPERANDS], size_t lens[MAX_OPERANDS])
{
    size_t n = 0;
    const char *p = text, *end = text + len;
    while (p < end && n < MAX_OPERANDS) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        const char *q = p;
        while (q < end && *q != ',')
            q++;
        const char *e = q;
        while (e > p && isspace((unsigned char)e[-1]))
            e--;
        starts[n] = p;
        lens[n++] = (size_t)(e - p);
        p = q < end ? q + 1 : end;
    }
    return n;
}

static bool opcode_is(const char *op, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(op, prefix, n) == 0 && (len == n || op[n] == '.');
}

static void merge(counter *c, reg *to, int flags, unsigned long long params)
{
    if (!to || ((to->flags | flags) == to->flags && (to->params | params) == to->params))
        return;
    to->flags |= flags;
    to->params |= params;
    c->changed = true;
}

static int special(const char *s, size_t len)
{
    return len == 8 && memcmp(s, "%ctaid.x", 8) == 0 ? R_CTAID
           : len == 7 && memcmp(s, "%ntid.x", 7) == 0 ? R_NTID
           : len == 6 && memcmp(s, "%tid.x", 6) == 0  ? R_TID
                                                      : 0;
}

/* The parameter a `[NAME]` or `[NAME+0]` operand loads, or -1. */
static int param_of(const counter *c, const char *s, size_t len)
{
    if (len < 3 || s[0] != '[' || s[len - 1] != ']')
        return -1;
    s++;
    len -= 2;
    size_t plus = 0;
    while (plus < len && s[plus] != '+')
        plus++;
    for (size_t i = 0; i < c->nparams && i < 64; i++)
        if (strlen(c->param_names[i]) == plus && memcmp(c->param_names[i], s, plus) == 0)
            return (int)i;
    return -1;
}

static bool is_cmp(const char *op, size_t len)
{
    static const char *const cmps[] = {"lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
    if (!opcode_is(op, len, "setp") || len < 7)
        return false;
    for (size_t i = 0; i < sizeof cmps / sizeof *cmps; i++)
        if (memcmp(op + 5, cmps[i], 2) == 0 && op[7] == '.')
            return true;
    return false;
}

static void instruction(const char *op, size_t op_len, const char *operands, size_t operands_len, void *ctx)
{
    counter *c = ctx;
    const char *o[MAX_OPERANDS];
    size_t l[MAX_OPERANDS];
    size_t n = split(operands, operands_len, o, l);
    if (n < 2)
        return;
    reg *src[MAX_OPERANDS] = {NULL};
    for (size_t i = 1; i < n; i++)
        src[i] = find_reg(c, o[i], l[i], false);
    if (is_cmp(op, op_len) && n >= 3) {
        for (int a = 1; a <= 2; a++) {
            reg *x = src[a], *y = src[3 - a];
            if (x && y && (x->flags & R_INDEX))
                c->bounds |= y->params;
        }
        return;
    }
    reg *dst = find_reg(c, o[0], l[0], true);
    if (opcode_is(op, op_len, "ld") && op_len > 9 && memcmp(op, "ld.param.", 9) == 0) {
        int p = param_of(c, o[1], l[1]);
        if (p >= 0)
            merge(c, dst, 0, 1ULL << p);
    } else if (opcode_is(op, op_len, "mov") || opcode_is(op, op_len, "cvt")) {
        int sp = special(o[1], l[1]);
        if (sp)
            merge(c, dst, sp, 0);
        else if (src[1])
            merge(c, dst, src[1]->flags, src[1]->params);
    } else if ((opcode_is(op, op_len, "mul") || opcode_is(op, op_len, "mad")) && n >= 3 && src[1] && src[2]) {
        int f = src[1]->flags | src[2]->flags;
        bool base = (f & R_CTAID) && (f & R_NTID);
        if (base && opcode_is(op, op_len, "mul"))
            merge(c, dst, R_BASE, 0);
        else if (base && n >= 4 && src[3] && (src[3]->flags & R_TID))
            merge(c, dst, R_INDEX, 0);
    } else if (opcode_is(op, op_len, "add") && n >= 3 && src[1] && src[2]) {
        int f = src[1]->flags | src[2]->flags;
        if ((f & R_BASE) && (f & R_TID))
            merge(c, dst, R_INDEX, 0);
    }
}

/* The names of "\t.param .u64 NAME,\n\t.param .u32 NAME2" in order. */
static void read_param_names(const char *decl, counter *c)
{
    char *copy = kd_xstrdup(decl);
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *end = item + strlen(item);
        while (end > item && isspace((unsigned char)end[-1]))
            end--;
        char *start = end;
        while (start > item && !isspace((unsigned char)start[-1]))
            start--;
        if (end == start)
            continue;
        c->param_names = kd_xreallocarray(c->param_names, c->nparams + 1, sizeof *c->param_names);
        c->param_names[c->nparams++] = kd_xstrndup(start, (size_t)(end - start));
    }
    free(copy);
}

static bool is_integer(const char *type)
{
    static const char *const words[] = {"int", "unsigned", "long", "short", "size_t", "int32_t", "uint32_t",
                                        "int64_t", "uint64_t", "char"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strstr(type, words[i]))
            return !strstr(type, "float") && !strstr(type, "double");
    return false;
}

void kd_ptx_mark_counts(kd_kernel *k, const char *ptx, const char *entry)
{
    char *decl = kd_ptx_entry_params(ptx, entry);
    char *body = decl ? kd_ptx_entry_body(ptx, entry) : NULL;
    counter *c = body ? kd_xcalloc(1, sizeof *c) : NULL;
    if (c)
        read_param_names(decl, c);
    /* a 2-D or 3-D kernel's x bound is a row length, not the element count */
    bool one_d = body && !strstr(body, "%tid.y") && !strstr(body, "%ctaid.y") && !strstr(body, "%tid.z") &&
                 !strstr(body, "%ctaid.z");
    if (c && one_d && c->nparams == k->nparams) {
        /* to a fixed point: a register's uses may come before its assignment in the text */
        for (int pass = 0; pass < 8; pass++) {
            c->changed = false;
            kd_ptx_each_instruction(body, instruction, c);
            if (!c->changed)
                break;
        }
        for (size_t i = 0; i < k->nparams && i < 64; i++)
            if ((c->bounds >> i & 1) && !k->params[i].is_pointer && is_integer(k->params[i].type))
                k->params[i].bounds_index = true;
    }
    if (c) {
        for (size_t i = 0; i < c->nparams; i++)
            free(c->param_names[i]);
        free(c->param_names);
        free(c);
    }
    free(body);
    free(decl);
}
