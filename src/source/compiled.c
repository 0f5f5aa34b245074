#include "source/compiled.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/ptxentry.h"
#include "static/ptx.h"
#include "static/ptxflow.h"
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
    if (source && source->header)
        out->header = kd_xstrdup(source->header);
    out->from_compiled = !source;
    out->line = source ? source->line : 0;
    out->extern_c = source && source->extern_c;
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

static kd_param_access access_of(int use)
{
    return use & KD_PTX_ESCAPE                    ? KD_ACCESS_ESCAPES
           : (use & KD_PTX_READ) && (use & KD_PTX_WRITE) ? KD_ACCESS_READ_WRITE
           : use & KD_PTX_WRITE                   ? KD_ACCESS_WRITE
           : use & KD_PTX_READ                    ? KD_ACCESS_READ
                                                  : KD_ACCESS_UNUSED;
}

void kd_compiled_read_uses(kd_kernel *k, const char *ptx, const char *entry)
{
    kd_ptx_param_use *uses;
    size_t count;
    if (kd_ptx_param_uses(ptx, entry, &uses, &count) != 0)
        return;
    if (count == k->nparams) /* a struct passed by value would shift them: then nothing is said */
        for (size_t i = 0; i < count; i++)
            if (k->params[i].is_pointer && uses[i].pointer)
                k->params[i].access = access_of(uses[i].use);
    kd_ptx_param_uses_free(uses, count);
}

/* The one entry of ptx that is `want` ("copy", "copy<float>", "ns::copy"), with `nparams`
 * parameters when that is not SIZE_MAX; its mangled name and demangled form (malloc'd), or
 * NULL when there is none or more than one. */
static char *find_entry(const char *ptx, const char *want, size_t nparams, char **demangled_out)
{
    char **names;
    size_t count;
    kd_ptx_entry_names(ptx, &names, &count);
    char *found = NULL;
    *demangled_out = NULL;
    size_t matches = 0;
    for (size_t i = 0; i < count; i++) {
        char *demangled = kd_demangle(names[i]);
        bool match = kd_symbol_matches(demangled, want);
        if (match && nparams != SIZE_MAX) {
            char *decl = kd_ptx_entry_params(ptx, names[i]);
            size_t n = 0;
            for (const char *p = decl; p && *p; p++)
                n += *p == ',';
            n += decl && strspn(decl, " \t\r\n") != strlen(decl);
            match = n == nparams;
            free(decl);
        }
        if (match && matches++ == 0) {
            found = kd_xstrdup(names[i]);
            *demangled_out = demangled;
            demangled = NULL;
        }
        free(demangled);
    }
    kd_ptx_names_free(names, count);
    if (matches != 1) {
        free(found);
        free(*demangled_out);
        *demangled_out = NULL;
        return NULL;
    }
    return found;
}

int kd_compiled_kernel(const kd_kernel *source, const char *want, const char *ptx, kd_kernel *out)
{
    *out = (kd_kernel){0};
    if (!ptx || source->is_launcher)
        return 1;
    char *demangled;
    char *entry = find_entry(ptx, want, source->is_template ? SIZE_MAX : source->nparams, &demangled);
    if (!entry)
        return 1;
    if (kd_kernel_from_signature(demangled, source, out) != 0) {
        kd_kernel_copy(source, out); /* extern "C": the declared types are all there is */
    } else if (!source->is_template) {
        /* the source's own name and place; the compiled types (typedefs resolved) */
        free(out->name);
        free(out->qualified);
        out->name = kd_xstrdup(source->name);
        out->qualified = kd_xstrdup(source->qualified);
        out->extern_c = source->extern_c;
    }
    out->from_compiled = source->from_compiled;
    kd_compiled_read_uses(out, ptx, entry);
    free(entry);
    free(demangled);
    return 0;
}

void kd_compiled_refine(kd_kernel_list *kernels, const char *ptx)
{
    for (size_t i = 0; ptx && i < kernels->count; i++) {
        kd_kernel *k = &kernels->items[i];
        if (k->is_template) {
            /* the instances the compiled code holds, for a template the source instantiates
               only through host code */
            kd_kernel_list instances;
            kd_compiled_instances(k, ptx, &instances);
            if (instances.count) {
                for (size_t j = 0; j < k->ninstantiations; j++)
                    free(k->instantiations[j]);
                free(k->instantiations);
                k->instantiations = kd_xcalloc(instances.count, sizeof *k->instantiations);
                k->ninstantiations = 0;
                for (size_t j = 0; j < instances.count; j++) {
                    char *targs = kd_symbol_template_args(instances.items[j].signature);
                    k->instantiations[k->ninstantiations++] = targs ? targs : kd_xstrdup("");
                }
            }
            kd_kernel_list_free(&instances);
            continue;
        }
        kd_kernel compiled;
        if (k->from_compiled || kd_compiled_kernel(k, k->qualified, ptx, &compiled) != 0)
            continue;
        compiled.line = k->line;
        compiled.frontend_info = k->frontend_info;
        k->frontend_info = NULL;
        kd_kernel_free(k);
        *k = compiled;
    }
}

static bool accounted_for(const kd_kernel_list *kernels, const char *demangled)
{
    for (size_t i = 0; i < kernels->count; i++)
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

/* The kernel of an included header that declares the entry `demangled`, or NULL. */
static const kd_kernel *header_kernel(const kd_kernel_list *headers, const char *demangled)
{
    for (size_t i = 0; headers && i < headers->count; i++)
        if (kd_symbol_matches(demangled, headers->items[i].qualified))
            return &headers->items[i];
    return NULL;
}

int kd_compiled_kernels_add(kd_kernel_list *kernels, const kd_kernel_list *headers, const char *ptx)
{
    char **names; /* mangled; `entries` (the same entries, in the same order) are demangled */
    size_t count;
    kd_ptx_entry_names(ptx, &names, &count);
    kd_kernel_list entries;
    kd_ptx_kernels(ptx, &entries);
    int added = 0;
    for (size_t i = 0; i < count && i < entries.count; i++) {
        char *demangled = kd_demangle(names[i]);
        /* a header's template once, with its instances; a header's kernel with its names */
        if (!accounted_for(kernels, demangled)) {
            const kd_kernel *declared = header_kernel(headers, demangled);
            kd_kernel k;
            if (declared && declared->is_template) {
                kd_kernel_copy(declared, &k);
            } else if (kd_kernel_from_signature(demangled, declared, &k) == 1) {
                if (declared) {
                    kd_kernel_copy(declared, &k);
                    kd_compiled_read_uses(&k, ptx, names[i]);
                } else {
                    from_entry_declaration(&entries.items[i], &k);
                    k.extern_c = strncmp(names[i], "_Z", 2) != 0; /* else a name the demangler refused */
                }
            } else {
                kd_compiled_read_uses(&k, ptx, names[i]);
                if (declared) { /* the source's spelling of its name */
                    free(k.name);
                    free(k.qualified);
                    k.name = kd_xstrdup(declared->name);
                    k.qualified = kd_xstrdup(declared->qualified);
                }
            }
            append(kernels, &k);
            added++;
        }
        free(demangled);
    }
    kd_kernel_list_free(&entries);
    kd_ptx_names_free(names, count);
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
            kd_kernel_from_signature(demangled, tmpl, &k) == 0) {
            kd_compiled_read_uses(&k, ptx, names[i]);
            append(out, &k);
        }
        free(targs);
        free(demangled);
    }
    kd_ptx_names_free(names, count);
}
