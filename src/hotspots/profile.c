/* One side's hot-spot profile: the record, the disassembly's line info, the per-line table. */
#include "hotspots/hotspots.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The record's stall-reason indices are CUPTI's (any uint32): kept beside the names. */
typedef struct reason_index {
    unsigned long *index;
    size_t count;
} reason_index;

static char *next_line(const char **cursor)
{
    const char *s = *cursor;
    if (!*s)
        return NULL;
    const char *end = strchr(s, '\n');
    size_t n = end ? (size_t)(end - s) : strlen(s);
    *cursor = end ? end + 1 : s + n;
    while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return kd_xstrndup(s, n);
}

/* Splits on blanks in place; at most max words: more returns max + 1 (a line refused). */
static size_t split(char *s, char **word, size_t max)
{
    size_t n = 0;
    for (char *tok = strtok(s, " \t"); tok; tok = strtok(NULL, " \t")) {
        if (n == max)
            return max + 1;
        word[n++] = tok;
    }
    return n;
}

static bool number(const char *s, unsigned long long *v)
{
    char *end;
    if (!s || !*s || *s == '-' || *s == '+')
        return false;
    errno = 0;
    *v = strtoull(s, &end, 0);
    return *end == '\0' && errno == 0;
}

static int add_pc(kd_hs_profile *p, const reason_index *ri, char **word, size_t n)
{
    unsigned long long offset;
    if (n < 3 || !number(word[2], &offset))
        return KD_HS_ERR_LINE;
    kd_hs_insn in = {.function = kd_xstrdup(word[1]), .offset = offset};
    in.by_reason = kd_xcalloc(p->reason_count ? p->reason_count : 1, sizeof *in.by_reason);
    int rc = KD_HS_OK;
    for (size_t k = 3; k < n && rc == KD_HS_OK; k++) {
        char *colon = strchr(word[k], ':');
        unsigned long long idx, count;
        if (!colon) {
            rc = KD_HS_ERR_LINE;
            break;
        }
        *colon = '\0';
        if (!number(word[k], &idx) || !number(colon + 1, &count)) {
            rc = KD_HS_ERR_LINE;
            break;
        }
        size_t r = 0;
        while (r < ri->count && ri->index[r] != idx)
            r++;
        if (r == ri->count) {
            rc = KD_HS_ERR_REASON;
            break;
        }
        in.by_reason[r] += count;
        in.samples += count;
    }
    if (rc != KD_HS_OK) {
        free(in.function);
        free(in.by_reason);
        return rc;
    }
    p->insns = kd_xreallocarray(p->insns, p->insn_count + 1, sizeof *p->insns);
    p->insns[p->insn_count++] = in;
    p->sampled += in.samples;
    return KD_HS_OK;
}

/* `exec FUNCTION OFFSET COUNT`: how often that instruction ran. After the pc lines; an
 * instruction no warp was sampled at is added with no samples. */
static int add_exec(kd_hs_profile *p, char **word, size_t n)
{
    unsigned long long offset, count;
    if (n != 4 || !number(word[2], &offset) || !number(word[3], &count))
        return KD_HS_ERR_LINE;
    p->has_executed = true;
    p->executed += count;
    for (size_t k = 0; k < p->insn_count; k++)
        if (p->insns[k].offset == offset && !strcmp(p->insns[k].function, word[1])) {
            p->insns[k].executed += count;
            return KD_HS_OK;
        }
    kd_hs_insn in = {.function = kd_xstrdup(word[1]), .offset = offset, .executed = count};
    in.by_reason = kd_xcalloc(p->reason_count ? p->reason_count : 1, sizeof *in.by_reason);
    p->insns = kd_xreallocarray(p->insns, p->insn_count + 1, sizeof *p->insns);
    p->insns[p->insn_count++] = in;
    return KD_HS_OK;
}

int kd_hs_record_parse(const char *text, kd_hs_profile *p, kd_hs_error *err)
{
    memset(p, 0, sizeof *p);
    *err = (kd_hs_error){KD_HS_OK, 0};
    reason_index ri = {0};
    const char *cursor = text ? text : "";
    char *line;
    size_t no = 0;
    bool header = false;
    size_t pcs = 0;
    while ((line = next_line(&cursor)) != NULL) {
        no++;
        char *word[512];
        size_t n = split(line, word, sizeof word / sizeof *word);
        int rc = n > sizeof word / sizeof *word ? KD_HS_ERR_LINE : KD_HS_OK;
        unsigned long long a, b;
        if (rc != KD_HS_OK) {
            /* more words than any record line has */
        } else if (!header) {
            header = true;
            if (n != 2 || strcmp(word[0], "kerndiff-hotspots") || strcmp(word[1], "1"))
                rc = KD_HS_ERR_HEADER;
        } else if (n == 0 || word[0][0] == '#') {
            /* blank or comment */
        } else if (!strcmp(word[0], "kernel") && n == 2) {
            free(p->kernel);
            p->kernel = kd_xstrdup(word[1]);
        } else if (!strcmp(word[0], "period") && n == 2 && number(word[1], &a)) {
            p->period = (unsigned)a;
        } else if (!strcmp(word[0], "total") && n == 4 && !strcmp(word[2], "dropped") && number(word[1], &a) &&
                   number(word[3], &b)) {
            p->total = a, p->dropped = b;
        } else if (!strcmp(word[0], "reason") && n == 3 && number(word[1], &a) && p->insn_count == 0) {
            p->reasons = kd_xreallocarray(p->reasons, p->reason_count + 1, sizeof *p->reasons);
            p->reasons[p->reason_count++] = kd_xstrdup(word[2]);
            ri.index = kd_xreallocarray(ri.index, ri.count + 1, sizeof *ri.index);
            ri.index[ri.count++] = (unsigned long)a;
        } else if (!strcmp(word[0], "pc") && !p->has_executed) {
            rc = add_pc(p, &ri, word, n);
            pcs += rc == KD_HS_OK;
        } else if (!strcmp(word[0], "exec") && pcs) {
            rc = add_exec(p, word, n);
        } else {
            rc = KD_HS_ERR_LINE;
        }
        free(line);
        if (rc != KD_HS_OK) {
            *err = (kd_hs_error){(kd_hs_error_code)rc, no};
            free(ri.index);
            kd_hs_profile_free(p);
            return -1;
        }
    }
    free(ri.index);
    if (!header || pcs == 0) {
        *err = (kd_hs_error){header ? KD_HS_ERR_EMPTY : KD_HS_ERR_HEADER, header ? no : 1};
        kd_hs_profile_free(p);
        return -1;
    }
    return 0;
}

const char *kd_hs_reason_short(const char *name)
{
    static const char *const prefixes[] = {"smsp__pcsamp_warps_issue_stalled_", "smsp__pcsamp_warps_issue_",
                                           "smsp__pcsamp_"};
    for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++) {
        size_t n = strlen(prefixes[k]);
        if (!strncmp(name, prefixes[k], n) && name[n])
            return name + n;
    }
    return name;
}

/* "@!P0 LDG.E.64 R2, ..." -> "LDG". */
static char *family_of(const char *insn)
{
    while (*insn == ' ' || *insn == '\t')
        insn++;
    if (*insn == '@') {
        while (*insn && *insn != ' ')
            insn++;
        while (*insn == ' ')
            insn++;
    }
    size_t n = 0;
    while (insn[n] && (isalnum((unsigned char)insn[n]) || insn[n] == '_'))
        n++;
    return n ? kd_xstrndup(insn, n) : NULL;
}

static bool find_unnamed(const kd_hs_profile *p)
{
    for (size_t k = 0; k < p->insn_count; k++)
        if (!strcmp(p->insns[k].function, "?"))
            return true;
    return false;
}

static kd_hs_insn *find_insn(kd_hs_profile *p, const char *function, uint64_t offset)
{
    for (size_t k = 0; k < p->insn_count; k++)
        if (p->insns[k].offset == offset && !strcmp(p->insns[k].function, function))
            return &p->insns[k];
    return NULL;
}

/* nvdisasm's listing: a section header per function ("//----- .text.NAME -----"), line
 * info comments ('//## File "PATH", line N' and an optional ' inlined at ...': the
 * innermost location is the first), and instructions ("/ *0050* /  TEXT ;"). With `unnamed`,
 * the PCs whose function CUPTI could not name ("?": a module loaded before sampling was
 * enabled) are looked up in the listing's functions instead. Returns the functions seen. */
static size_t attach_pass(kd_hs_profile *p, const char *listing, bool unnamed, size_t *found)
{
    const char *cursor = listing ? listing : "";
    char *function = NULL, *file = NULL;
    unsigned line = 0;
    size_t functions = 0;
    char *s;
    while ((s = next_line(&cursor)) != NULL) {
        const char *t = s;
        while (*t == ' ' || *t == '\t')
            t++;
        const char *sec = strstr(t, ".text.");
        if (!strncmp(t, "//---", 5) && sec) {
            sec += 6;
            size_t n = strcspn(sec, " \t");
            free(function);
            function = kd_xstrndup(sec, n);
            free(file), file = NULL;
            line = 0;
            functions++;
        } else if (!strncmp(t, "//## File \"", 11)) {
            const char *q = strchr(t + 11, '"');
            const char *l = q ? strstr(q, ", line ") : NULL;
            if (q && l) {
                free(file);
                file = kd_xstrndup(t + 11, (size_t)(q - (t + 11)));
                line = (unsigned)strtoul(l + 7, NULL, 10);
            }
        } else if (!strncmp(t, "/*", 2) && function) {
            char *end;
            unsigned long long offset = strtoull(t + 2, &end, 16);
            if (end != t + 2 && !strncmp(end, "*/", 2)) {
                kd_hs_insn *in = find_insn(p, unnamed ? "?" : function, offset);
                if (in && !in->text) {
                    const char *body = end + 2;
                    while (*body == ' ' || *body == '\t')
                        body++;
                    size_t n = strlen(body);
                    while (n && (body[n - 1] == ' ' || body[n - 1] == ';'))
                        n--;
                    in->text = kd_xstrndup(body, n);
                    in->family = family_of(in->text);
                    in->file = file ? kd_xstrdup(file) : NULL;
                    in->line = line;
                    if (unnamed) {
                        free(in->function);
                        in->function = kd_xstrdup(function);
                    }
                    (*found)++;
                }
            }
        }
        free(s);
    }
    free(function);
    free(file);
    return functions;
}

size_t kd_hs_attach_sass(kd_hs_profile *p, const char *listing)
{
    size_t found = 0;
    size_t functions = attach_pass(p, listing, false, &found);
    /* Unnamed PCs can only be placed when the listing has one function. */
    if (functions == 1 && find_unnamed(p))
        attach_pass(p, listing, true, &found);
    return found;
}

static int by_file_line(const void *a, const void *b)
{
    const kd_hs_insn *x = a, *y = b;
    int c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    c = strcmp(x->function, y->function);
    if (c)
        return c;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void split_source(kd_hs_profile *p, const char *source)
{
    p->src_text = kd_xstrdup(source);
    for (char *s = p->src_text; s;) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        size_t n = strlen(s);
        if (n && s[n - 1] == '\r')
            s[n - 1] = '\0';
        if (!nl && !*s)
            break;
        p->src = kd_xreallocarray(p->src, p->src_count + 1, sizeof *p->src);
        p->src[p->src_count++] = s;
        s = nl ? nl + 1 : NULL;
    }
}

void kd_hs_profile_finish(kd_hs_profile *p, const char *source)
{
    if (source)
        split_source(p, source);
    qsort(p->insns, p->insn_count, sizeof *p->insns, by_file_line);
    /* The main file: the one with most samples. */
    uint64_t best = 0;
    for (size_t k = 0; k < p->insn_count;) {
        size_t e = k;
        uint64_t sum = 0;
        while (e < p->insn_count && !strcmp(p->insns[e].file ? p->insns[e].file : "", p->insns[k].file ? p->insns[k].file : ""))
            sum += p->insns[e++].samples;
        if (p->insns[k].file && sum > best) {
            best = sum;
            free(p->main_file);
            p->main_file = kd_xstrdup(p->insns[k].file);
        }
        k = e;
    }
    for (size_t k = 0; k < p->insn_count;) {
        size_t e = k;
        const kd_hs_insn *first = &p->insns[k];
        while (e < p->insn_count && p->insns[e].line == first->line &&
               !strcmp(p->insns[e].file ? p->insns[e].file : "", first->file ? first->file : ""))
            e++;
        kd_hs_line ln = {.file = first->file, .line = first->line};
        ln.by_reason = kd_xcalloc(p->reason_count ? p->reason_count : 1, sizeof *ln.by_reason);
        ln.insn = kd_xcalloc(e - k, sizeof *ln.insn);
        /* Families by samples: the line's dominant one. */
        uint64_t fam_best = 0;
        for (size_t i = k; i < e; i++) {
            ln.insn[ln.insn_count++] = i;
            ln.samples += p->insns[i].samples;
            ln.executed += p->insns[i].executed;
            for (size_t r = 0; r < p->reason_count; r++)
                ln.by_reason[r] += p->insns[i].by_reason[r];
            if (!p->insns[i].family)
                continue;
            uint64_t fam = 0;
            for (size_t j = k; j < e; j++)
                if (p->insns[j].family && !strcmp(p->insns[j].family, p->insns[i].family))
                    fam += p->insns[j].samples;
            if (fam > fam_best)
                fam_best = fam, ln.family = p->insns[i].family;
        }
        bool main = ln.file && p->main_file && !strcmp(ln.file, p->main_file);
        if (main && ln.line >= 1 && ln.line <= p->src_count)
            ln.text = p->src[ln.line - 1];
        p->lines = kd_xreallocarray(p->lines, p->line_count + 1, sizeof *p->lines);
        p->lines[p->line_count++] = ln;
        k = e;
    }
}

void kd_hs_profile_free(kd_hs_profile *p)
{
    for (size_t k = 0; k < p->insn_count; k++) {
        kd_hs_insn *in = &p->insns[k];
        free(in->function), free(in->text), free(in->family), free(in->file), free(in->by_reason);
    }
    for (size_t k = 0; k < p->line_count; k++)
        free(p->lines[k].by_reason), free(p->lines[k].insn);
    for (size_t k = 0; k < p->reason_count; k++)
        free(p->reasons[k]);
    free(p->insns), free(p->lines), free(p->reasons), free(p->kernel), free(p->main_file);
    free(p->src), free(p->src_text);
    memset(p, 0, sizeof *p);
}
