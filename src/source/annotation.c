#include "source/annotation.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const char marker[] = "kerndiff:";

const char *kd_annotation_comment(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 3 && strcmp(path + n - 3, ".py") == 0 ? "#" : "//";
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

void kd_annotations_free(kd_annotations *a)
{
    for (size_t i = 0; i < a->count; i++) {
        free(a->items[i].key);
        free(a->items[i].value);
    }
    free(a->items);
    memset(a, 0, sizeof *a);
}
