#include "source/annotation.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "source/kinds.h"
#include "util/xalloc.h"

static const char marker[] = "kerndiff:";

/* Keys that are settings, not parameters (spec.h, backend/triton_meta.c, backend/binary.c). */
static const char *const setting_keys[] = {"n", "block", "grid", "smem", "inputs", "outputs", "inouts",
                                           "signature", "libs", "num_warps", "num_stages", "num_ctas"};

const char *kd_annotation_comment(const char *path)
{
    return kd_source_kind_of(path) == KD_SOURCE_TRITON ? "#" : "//";
}

static void set(kd_annotations *a, const char *key, size_t key_len, const char *value,
                size_t value_len, int line)
{
    for (size_t i = 0; i < a->count; i++) {
        if (strlen(a->items[i].key) == key_len && memcmp(a->items[i].key, key, key_len) == 0) {
            free(a->items[i].value);
            a->items[i].value = kd_xstrndup(value, value_len);
            a->items[i].line = line;
            return;
        }
    }
    a->items = kd_xreallocarray(a->items, a->count + 1, sizeof *a->items);
    a->items[a->count++] = (kd_annotation){kd_xstrndup(key, key_len), kd_xstrndup(value, value_len), line};
}

/* Reads the key=value words after "// kerndiff:" up to the end of the line. */
static void parse_words(const char *p, const char *eol, int line, kd_annotations *out)
{
    while (p < eol) {
        while (p < eol && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        const char *word = p;
        while (p < eol && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
        const char *eq = memchr(word, '=', (size_t)(p - word));
        if (eq && eq > word)
            set(out, word, (size_t)(eq - word), eq + 1, (size_t)(p - eq - 1), line);
    }
}

void kd_annotations_parse(const char *text, size_t len, kd_annotations *out)
{
    memset(out, 0, sizeof *out);
    kd_geometry_read(text, len, &out->geometry);
    const char *end = text + len;
    int line = 1;
    for (const char *p = text; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t'))
            q++;
        /* `// kerndiff:` in CUDA C++ and PTX, `# kerndiff:` in Python (Triton) and sidecar files */
        size_t lead = eol - q >= 2 && q[0] == '/' && q[1] == '/' ? 2 : q < eol && q[0] == '#' ? 1 : 0;
        if (lead) {
            q += lead;
            while (q < eol && (*q == ' ' || *q == '\t'))
                q++;
            size_t m = sizeof marker - 1;
            if ((size_t)(eol - q) >= m && memcmp(q, marker, m) == 0)
                parse_words(q + m, eol, line, out);
        }
        p = eol + 1;
    }
}

const char *kd_annotation_get(const kd_annotations *a, const char *key)
{
    for (size_t i = 0; i < a->count; i++)
        if (strcmp(a->items[i].key, key) == 0)
            return a->items[i].value;
    return NULL;
}

/* Whether the comma-separated list names name. */
static bool lists(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *q = list; q && *q; q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL) {
        while (*q == ' ')
            q++;
        if (strncmp(q, name, n) == 0 && (q[n] == ',' || q[n] == '\0'))
            return true;
    }
    return false;
}

kd_annotated_role kd_annotation_role(const kd_annotations *a, const char *param, int *line)
{
    static const struct { const char *key; kd_annotated_role role; } keys[] = {
        {"inputs", KD_ANNOTATED_IN}, {"outputs", KD_ANNOTATED_OUT}, {"inouts", KD_ANNOTATED_INOUT}};
    for (size_t k = 0; a && param && *param && k < sizeof keys / sizeof *keys; k++)
        for (size_t i = 0; i < a->count; i++)
            if (strcmp(a->items[i].key, keys[k].key) == 0 && lists(a->items[i].value, param)) {
                if (line)
                    *line = a->items[i].line;
                return keys[k].role;
            }
    return KD_ANNOTATED_NONE;
}

const kd_annotation *kd_annotations_unknown(const kd_annotations *a, const char *const *also, size_t nalso)
{
    for (size_t i = 0; a && i < a->count; i++) {
        const char *key = a->items[i].key;
        bool known = kd_geometry_has_param(&a->geometry, key);
        for (size_t k = 0; !known && k < sizeof setting_keys / sizeof *setting_keys; k++)
            known = strcmp(key, setting_keys[k]) == 0;
        for (size_t k = 0; !known && k < nalso; k++)
            known = also[k] && strcmp(key, also[k]) == 0;
        if (!known)
            return &a->items[i];
    }
    return NULL;
}

const char *const *kd_annotation_setting_keys(size_t *count)
{
    *count = sizeof setting_keys / sizeof *setting_keys;
    return setting_keys;
}

void kd_annotations_free(kd_annotations *a)
{
    kd_geometry_free(&a->geometry);
    for (size_t i = 0; i < a->count; i++) {
        free(a->items[i].key);
        free(a->items[i].value);
    }
    free(a->items);
    memset(a, 0, sizeof *a);
}
