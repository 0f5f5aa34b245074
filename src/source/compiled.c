#include "source/compiled.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/ptxentry.h"
#include "static/ptx.h"
#include "static/symbols.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static bool is_qualifier(const char *word, size_t len)
{
    static const char *const words[] = {"const", "volatile", "__restrict__", "__restrict", "restrict"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == len && memcmp(word, words[i], len) == 0)
            return true;
    return false;
}

/* `text[0..len)` without its qualifier words, single-spaced ("float const" -> "float");
 * *had_const tells whether `const` was one of them. */
static void drop_qualifiers(const char *text, size_t len, kd_strbuf *out, bool *had_const)
{
    *had_const = false;
    for (size_t i = 0; i < len;) {
        while (i < len && text[i] == ' ')
            i++;
        size_t word = i;
        while (i < len && text[i] != ' ')
            i++;
        if (i == word)
            break;
        if (is_qualifier(text + word, i - word))
            *had_const |= i - word == 5 && memcmp(text + word, "const", 5) == 0;
        else
            kd_sb_printf(out, "%s%.*s", out->len ? " " : "", (int)(i - word), text + word);
    }
}

/* A demangled parameter type as the scanner would describe the declaration: "float const*"
 * is the pointer "const float *" to "float"; top-level qualifiers never reach a mangled name. */
static void read_param(const char *demangled_type, kd_param *p)
{
    *p = (kd_param){0};
    const char *star = strrchr(demangled_type, '*');
    bool had_const;
    kd_strbuf base = {0}, type = {0};
    if (star) {
        drop_qualifiers(demangled_type, (size_t)(star - demangled_type), &base, &had_const);
        kd_sb_printf(&type, "%s%s *", had_const ? "const " : "", kd_sb_str(&base));
        p->is_pointer = true;
        p->is_const = had_const;
        p->pointee = kd_sb_take(&base);
    } else {
        drop_qualifiers(demangled_type, strlen(demangled_type), &type, &had_const);
        p->is_const = had_const;
    }
    p->type = kd_sb_take(&type);
    kd_sb_free(&base);
}

static char *positional_name(size_t i)
{
    char name[24];
    snprintf(name, sizeof name, "p%zu", i);
    return kd_xstrdup(name);
}

/* The unqualified part of "ns::copy<float>": "copy<float>" (no "::" inside <...> counts). */
static const char *unqualified(const char *qualified)
{
    const char *name = qualified;
    int depth = 0;
    for (const char *p = qualified; *p; p++) {
        depth += *p == '<' ? 1 : *p == '>' ? -1 : 0;
        if (depth == 0 && p[0] == ':' && p[1] == ':')
            name = p + 2;
    }
    return name;
}

int kd_kernel_from_signature(const char *demangled, const kd_kernel *source, kd_kernel *out)
{
    *out = (kd_kernel){0};
    char *qualified;
    kd_strlist types;
    int rc = kd_symbol_signature(demangled, &qualified, &types);
    if (rc != 0)
        return rc;
    bool named = source && source->nparams == types.count;
    out->qualified = qualified;
    out->name = kd_xstrdup(unqualified(qualified));
    out->signature = kd_xstrdup(demangled);
    out->params = kd_xcalloc(types.count, sizeof *out->params);
    for (size_t i = 0; i < types.count; i++) {
        kd_param *p = &out->params[out->nparams++];
        read_param(types.items[i], p);
        p->name = named ? kd_xstrdup(source->params[i].name) : positional_name(i);
        if (named && source->params[i].default_value)
            p->default_value = kd_xstrdup(source->params[i].default_value);
    }
    if (source && source->launch_bounds)
        out->launch_bounds = kd_xstrdup(source->launch_bounds);
    out->from_compiled = !source;
    out->line = source ? source->line : 0;
    qualified = NULL;
    kd_symbol_signature_free(&qualified, &types);
    return 0;
}

/* Moves *k to the end of `list`. */
static void append(kd_kernel_list *list, kd_kernel *k)
{
    list->items = kd_xreallocarray(list->items, list->count + 1, sizeof *list->items);
    list->items[list->count++] = *k;
    *k = (kd_kernel){0};
}

static bool accounted_for(const kd_kernel_list *kernels, size_t scanned, const char *demangled)
{
    for (size_t i = 0; i < scanned; i++)
        if (kd_symbol_matches(demangled, kernels->items[i].qualified))
            return true;
    return false;
}

/* An extern "C" entry: the .entry declaration's types (ptxentry.h), renamed by position. */
static void from_entry_declaration(kd_kernel *entry, kd_kernel *out)
{
    *out = *entry;
    *entry = (kd_kernel){0};
    for (size_t i = 0; i < out->nparams; i++) {
        free(out->params[i].name);
        out->params[i].name = positional_name(i);
    }
    out->from_compiled = true;
    out->extern_c = true;
}

int kd_compiled_kernels_add(kd_kernel_list *kernels, const char *ptx)
{
    kd_kernel_list entries;
    kd_ptx_kernels(ptx, &entries);
    size_t scanned = kernels->count;
    int added = 0;
    for (size_t i = 0; i < entries.count; i++) {
        char *demangled = kd_demangle(entries.items[i].name);
        if (!accounted_for(kernels, scanned, demangled)) {
            kd_kernel k;
            if (kd_kernel_from_signature(demangled, NULL, &k) == 1)
                from_entry_declaration(&entries.items[i], &k);
            append(kernels, &k);
            added++;
        }
        free(demangled);
    }
    kd_kernel_list_free(&entries);
    return added;
}

void kd_compiled_instances(const kd_kernel *tmpl, const char *ptx, kd_kernel_list *out)
{
    *out = (kd_kernel_list){0};
    char **names;
    size_t count;
    kd_ptx_entry_names(ptx, &names, &count);
    for (size_t i = 0; i < count; i++) {
        char *demangled = kd_demangle(names[i]);
        char *targs = kd_symbol_template_args(demangled);
        kd_kernel k;
        /* an entry without a parameter list (1) is not an instance to launch */
        if (targs && kd_symbol_matches(demangled, tmpl->qualified) &&
            kd_kernel_from_signature(demangled, tmpl, &k) == 0)
            append(out, &k);
        free(targs);
        free(demangled);
    }
    kd_ptx_names_free(names, count);
}
