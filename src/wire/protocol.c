#include "wire/protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kd_proto_split(char *line, kd_words *w)
{
    w->count = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; *p && w->count < KD_PROTO_MAX_WORDS;) {
        while (*p == ' ')
            *p++ = '\0';
        if (!*p)
            break;
        w->word[w->count++] = p;
        p += strcspn(p, " ");
    }
}

const char *kd_proto_value(const kd_words *w, size_t from, const char *key)
{
    size_t n = strlen(key);
    for (size_t i = from; i < w->count; i++)
        if (strncmp(w->word[i], key, n) == 0 && w->word[i][n] == '=')
            return w->word[i] + n + 1;
    return NULL;
}

char *kd_proto_encode(const char *s)
{
    /* Checked, not kd_xmalloc: the harness encodes its replies with this and answers on its own. */
    char *out = malloc(strlen(s) * 3 + 1), *o = out;
    if (!out)
        return NULL;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c <= ' ' || c == '%' || c == 0x7f)
            o += sprintf(o, "%%%02X", c);
        else
            *o++ = (char)c;
    }
    *o = '\0';
    return out;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

void kd_proto_decode(char *s)
{
    char *o = s;
    for (char *p = s; *p; p++) {
        int hi, lo;
        if (*p == '%' && (hi = hex_digit(p[1])) >= 0 && (lo = hex_digit(p[2])) >= 0) {
            *o++ = (char)(hi * 16 + lo);
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
}

bool kd_proto_buffer_mode(const char *word, bool *compared, bool *inout)
{
    *compared = strcmp(word, "out") == 0 || strcmp(word, "inout") == 0;
    *inout = strcmp(word, "inout") == 0;
    return *compared || strcmp(word, "in") == 0;
}

/* A whole decimal number in 1..max, or 0. */
static unsigned positive(const char *word, unsigned long max)
{
    char *end = NULL;
    unsigned long v = *word >= '0' && *word <= '9' ? strtoul(word, &end, 10) : 0;
    return end && !*end && v <= max ? (unsigned)v : 0;
}

bool kd_proto_mode(const kd_words *w, unsigned *batch, unsigned *sustained_ms)
{
    *batch = *sustained_ms = 0;
    if (w->count == 2 && strcmp(w->word[1], "single") == 0)
        return true;
    if (w->count == 3 && strcmp(w->word[1], "batched") == 0)
        return (*batch = positive(w->word[2], 1000000)) > 0;
    if (w->count == 3 && strcmp(w->word[1], "sustained") == 0)
        return (*sustained_ms = positive(w->word[2], KD_PROTO_MAX_SUSTAINED_MS)) > 0;
    return false;
}

/* splitmix64's finaliser. */
static unsigned long long audit_mix(unsigned long long z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

size_t kd_audit_rotation(unsigned long long seed, size_t arg, size_t elements)
{
    return elements < 2 ? 0 : 1 + (size_t)(audit_mix(seed ^ (0xA0D17ull * (arg + 1))) % (elements - 1));
}

kd_audit_sample kd_audit_sample_of(unsigned long long seed, size_t bytes, size_t element)
{
    kd_audit_sample s = {.first = 0, .pitch = bytes, .chunk = bytes, .count = 1};
    size_t pitch = element ? bytes / KD_AUDIT_CHUNKS / element * element : 0;
    if (bytes <= KD_AUDIT_WHOLE_BYTES || pitch == 0)
        return s;
    size_t chunk = KD_AUDIT_CHUNK_BYTES / element * element;
    chunk = chunk ? chunk : element;
    s.chunk = chunk < pitch ? chunk : pitch;
    s.pitch = pitch;
    s.count = KD_AUDIT_CHUNKS;
    s.first = (size_t)(audit_mix(seed ^ 0x5A3D1E5ull) % ((pitch - s.chunk) / element + 1)) * element;
    return s;
}

size_t kd_bounds_guard_bytes(size_t bytes)
{
    size_t quarter = bytes / 4, floor = (size_t)64 << 10, cap = (size_t)16 << 20;
    return quarter < floor ? floor : quarter > cap ? cap : quarter;
}

unsigned long long kd_audit_seed(unsigned long long seed, size_t input_index)
{
    return audit_mix(seed + input_index);
}
