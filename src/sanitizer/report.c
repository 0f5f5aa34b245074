#include "sanitizer/report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define PREFIX "========="

/* "1,024" -> 1024 (the sanitizer groups digits). */
static unsigned long long number(const char *s)
{
    unsigned long long v = 0;
    for (; *s == ',' || (*s >= '0' && *s <= '9'); s++)
        if (*s != ',')
            v = v * 10 + (unsigned)(*s - '0');
    return v;
}

/* The function's name in its frame text s[0..len): "void reduce0<float>(float*, unsigned
 * int)" -> "reduce0<float>" (the return type and the parameters left out, the template's
 * arguments kept). */
static void function_name(const char *s, size_t len, kd_san_finding *f)
{
    size_t start = 0, end = len;
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '<')
            depth++;
        else if (s[i] == '>' && depth > 0)
            depth--;
        else if (s[i] == '(' && depth == 0 && i > start) {
            end = i;
            break;
        } else if (s[i] == ' ' && depth == 0)
            start = i + 1;
    }
    snprintf(f->function, sizeof f->function, "%.*s", (int)(end - start), s + start);
}

/* "oob_write+0xe0 in planted.cu:12", "smem_race+0x100 in planted.cu:28", or a C++ kernel's
 * "void reduce0<float>(float*, float*, unsigned int)+0x1b0 in reduce.cu:40" */
static void location(const char *s, kd_san_finding *f)
{
    const char *offset = strstr(s, "+0x"), *in = strstr(offset ? offset : s, " in ");
    function_name(s, offset ? (size_t)(offset - s) : in ? (size_t)(in - s) : strlen(s), f);
    if (!in)
        return;
    in += 4;
    const char *colon = strrchr(in, ':');
    if (colon && colon[1] >= '0' && colon[1] <= '9') {
        snprintf(f->file, sizeof f->file, "%.*s", (int)(colon - in), in);
        f->line = (unsigned)atoi(colon + 1);
    }
}

static void triple(const char *s, unsigned v[3]) { sscanf(s, "(%u,%u,%u)", &v[0], &v[1], &v[2]); }

/* The first line of a finding; false when the line starts none. */
static bool start(const char *t, kd_san_finding *f)
{
    memset(f, 0, sizeof *f);
    f->count = 1;
    char space[16], access[16];
    unsigned size;
    if (sscanf(t, "Invalid __%15[a-z]__ %15[a-z] of size %u bytes", space, access, &size) == 3) {
        f->kind = KD_SAN_INVALID_ACCESS;
    } else if (sscanf(t, "Uninitialized __%15[a-z]__ memory %15[a-z] of size %u bytes", space, access, &size) == 3) {
        f->kind = KD_SAN_UNINITIALIZED;
    } else if (strncmp(t, "Error: Race reported between ", 29) == 0 || strncmp(t, "Warning: Race reported", 22) == 0) {
        f->kind = KD_SAN_RACE;
        *space = *access = '\0';
        size = 0;
        const char *at = strstr(t, " access at "), *between = strstr(t, "between ");
        if (at && between && between + 8 <= at) {
            const char *kind = between + 8;
            snprintf(f->access, sizeof f->access, "%.*s", (int)(at - kind), kind);
            location(at + 11, f);
        }
    } else if (strncmp(t, "Barrier error detected", 22) == 0) {
        f->kind = KD_SAN_BARRIER;
        *space = *access = '\0';
        size = 0;
    } else {
        return false;
    }
    snprintf(f->title, sizeof f->title, "%s", t);
    if (f->kind != KD_SAN_RACE) {
        snprintf(f->space, sizeof f->space, "%s", space);
        snprintf(f->access, sizeof f->access, "%s", access);
    }
    f->size = size;
    return true;
}

/* A detail line of the finding in progress. */
static void detail(const char *t, kd_san_finding *f)
{
    unsigned long long a, b;
    long long n;
    if (strncmp(t, "at ", 3) == 0 && !*f->function) {
        location(t + 3, f);
    } else if (strncmp(t, "Device Frame: ", 14) == 0 && f->kind == KD_SAN_BARRIER) {
        location(t + 14, f); /* the barrier's own frame is the intrinsic; the caller is the user's */
    } else if (strncmp(t, "and ", 4) == 0 && f->kind == KD_SAN_RACE) {
        const char *hazards = strstr(t, " [");
        snprintf(f->other, sizeof f->other, "%.*s", (int)(hazards ? hazards - t - 4 : (long)strlen(t) - 4), t + 4);
        if (hazards)
            f->count = number(hazards + 2);
    } else if (strncmp(t, "by thread ", 10) == 0) {
        const char *block = strstr(t, " in block ");
        triple(t + 10, f->thread);
        if (block)
            triple(block + 10, f->block);
        f->has_thread = true;
    } else if (sscanf(t, "Access to 0x%llx", &a) == 1 || sscanf(t, "Address 0x%llx", &a) == 1) {
        f->address = a;
        f->has_address = true;
    } else if (sscanf(t, "and is %lld bytes after the nearest allocation at 0x%llx of size", &n, &a) == 2 ||
               sscanf(t, "and is %lld bytes before the nearest allocation at 0x%llx of size", &n, &a) == 2) {
        f->has_nearest = true;
        f->offset = strstr(t, " before ") ? -n : n;
        f->nearest = a;
        const char *size = strstr(t, " of size ");
        f->nearest_size = size ? number(size + 9) : 0;
        (void)b;
    }
}

static bool same(const kd_san_finding *a, const kd_san_finding *b)
{
    return a->kind == b->kind && !strcmp(a->title, b->title) && !strcmp(a->function, b->function) &&
           !strcmp(a->file, b->file) && a->line == b->line && !strcmp(a->other, b->other);
}

static void keep(kd_san_report *r, const kd_san_finding *f)
{
    for (size_t i = 0; i < r->count; i++)
        if (same(&r->findings[i], f)) {
            r->findings[i].count += f->count;
            return;
        }
    r->findings = kd_xreallocarray(r->findings, r->count + 1, sizeof *r->findings);
    r->findings[r->count++] = *f;
}

void kd_san_parse(const char *log, kd_san_report *out)
{
    memset(out, 0, sizeof *out);
    kd_san_finding current;
    bool open = false;
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char text[512];
        snprintf(text, sizeof text, "%.*s", (int)(len < sizeof text - 1 ? len : sizeof text - 1), line);
        line = end ? end + 1 : NULL;
        if (strncmp(text, PREFIX, strlen(PREFIX)) != 0)
            continue;
        const char *t = text + strlen(PREFIX);
        while (*t == ' ')
            t++;
        unsigned long long errors;
        if (sscanf(t, "ERROR SUMMARY: %llu error", &errors) == 1 && !strstr(t, "not printed")) {
            out->errors = errors;
            out->summary_seen = true;
        } else if (strncmp(t, "RACECHECK SUMMARY: ", 19) == 0 && strchr(t, '(')) {
            out->errors = number(strchr(t, '(') + 1); /* "1 hazard displayed (1 error, 0 warnings)" */
            out->summary_seen = true;
        }
        kd_san_finding next;
        if (*t == '\0' || start(t, &next)) { /* a blank "=========" line or a new finding ends one */
            if (open)
                keep(out, &current);
            open = *t != '\0';
            if (open)
                current = next;
        } else if (open) {
            detail(t, &current);
        }
    }
    if (open)
        keep(out, &current);
}

void kd_san_note_launch(kd_san_report *r, const kd_launch_spec *spec)
{
    for (size_t i = 0; spec && i < r->count; i++) {
        r->findings[i].dynamic_shared = spec->dynamic_shared;
        r->findings[i].smem_assumed = spec->smem_origin && strcmp(spec->smem_origin, "assumed") == 0;
        r->findings[i].smem_bytes = spec->dynamic_smem;
    }
}

void kd_san_report_free(kd_san_report *r)
{
    free(r->findings);
    memset(r, 0, sizeof *r);
}

static bool next_entry(const char **p, unsigned *index, unsigned long long *address, unsigned long long *bytes)
{
    if (!*p || !**p || sscanf(*p, "%u:0x%llx:%llu", index, address, bytes) != 3)
        return false;
    *p = strchr(*p, ',');
    *p = *p ? *p + 1 : NULL;
    return true;
}

size_t kd_san_buffers(const char *list, const kd_launch_spec *spec, size_t first, kd_san_buffer *out, size_t room)
{
    unsigned index;
    unsigned long long address, bytes;
    size_t n = 0;
    for (const char *p = list; n < room && next_entry(&p, &index, &address, &bytes);)
        if (index >= first && index - first < spec->nargs)
            out[n++] = (kd_san_buffer){&spec->args[index - first], address, bytes};
    return n;
}

/* The buffer an address is in, or the one it overran: the nearest allocation the sanitizer
 * named is the buffer's start; when it named none (an access far past every allocation),
 * the closest buffer below the address, within OVERRUN_REACH of its end. */
#define OVERRUN_REACH (1ull << 30)
static const kd_san_buffer *owner(const kd_san_finding *f, const kd_san_buffer *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (f->address >= b[i].address && f->address < b[i].address + b[i].bytes)
            return &b[i];
    for (size_t i = 0; f->has_nearest && i < n; i++)
        if (b[i].address == f->nearest)
            return &b[i];
    const kd_san_buffer *below = NULL;
    for (size_t i = 0; !f->has_nearest && i < n; i++)
        if (b[i].address <= f->address && (!below || b[i].address > below->address))
            below = &b[i];
    return below && f->address - (below->address + below->bytes) < OVERRUN_REACH ? below : NULL;
}

kd_san_place kd_san_locate(const kd_san_finding *f, const kd_san_buffer *buffers, size_t nbuffers)
{
    kd_san_place p = {0};
    if (strcmp(f->space, "global") != 0 || !f->has_address)
        return p;
    const kd_san_buffer *b = owner(f, buffers, nbuffers);
    if (!b)
        return p;
    size_t size = kd_dtype_size(b->arg->type.base) * (size_t)b->arg->type.lanes;
    p.buffer = b;
    p.elements = size ? b->bytes / size : 0;
    p.element = size ? (long long)(f->address - b->address) / (long long)size : 0;
    if (f->address < b->address) /* before the start: the division above wrapped */
        p.element = -(long long)((b->address - f->address + size - 1) / (size ? size : 1));
    return p;
}
