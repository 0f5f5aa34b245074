/* fuzz_cache.c — libFuzzer target for the build cache's manifest reader
 * (kd_cache_manifest_parse, compile/cache.h): any bytes must parse or fail with a reason,
 * without reading past the input (it is handed over unterminated); a success holds a
 * 64-hex key and at most KD_CACHE_MAX_FILES plain names, each once, each with a 64-hex
 * digest; and writing the parsed manifest back out and parsing it again gives the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compile/cache.h"

static void check_hex(const char *s)
{
    if (strlen(s) != 64 || strspn(s, "0123456789abcdef") != 64)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy: ASan reports any read past the end. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    kd_cache_manifest m;
    kd_strbuf why = {0};
    if (kd_cache_manifest_parse(text, size, &m, &why) == 0) {
        check_hex(m.key);
        if (m.nfiles > KD_CACHE_MAX_FILES)
            abort();
        kd_strbuf again = {0};
        kd_sb_printf(&again, "%s\nkey %s\n", KD_CACHE_MANIFEST_HEADER, m.key);
        for (size_t i = 0; i < m.nfiles; i++) {
            const char *name = m.files[i].name;
            if (!name[0] || name[0] == '.' || strchr(name, '/') || strchr(name, ' ') || strchr(name, '\n'))
                abort();
            check_hex(m.files[i].digest);
            for (size_t j = 0; j < i; j++)
                if (!strcmp(m.files[j].name, name))
                    abort();
            kd_sb_printf(&again, "%s %llu %s\n", name, m.files[i].size, m.files[i].digest);
        }
        kd_cache_manifest back;
        kd_strbuf why2 = {0};
        if (kd_cache_manifest_parse(again.data, again.len, &back, &why2) != 0 || back.nfiles != m.nfiles ||
            strcmp(back.key, m.key) != 0)
            abort();
        for (size_t i = 0; i < m.nfiles; i++)
            if (strcmp(back.files[i].name, m.files[i].name) || back.files[i].size != m.files[i].size ||
                strcmp(back.files[i].digest, m.files[i].digest))
                abort();
        kd_sb_free(&again);
        kd_sb_free(&why2);
    } else if (why.len == 0) {
        abort(); /* every refusal says why */
    }
    kd_sb_free(&why);
    free(text);
    return 0;
}
