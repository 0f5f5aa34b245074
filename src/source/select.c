#include "source/select.h"

#include <stdlib.h>
#include <string.h>

#include "source/kinds.h"
#include "source/source_msgs.h"
#include "util/suggest.h"
#include "util/xalloc.h"

static const char *const side_label[2] = {"v1", "v2"};

char *kd_base_name(const char *name)
{
    const char *angle = strchr(name, '<');
    return angle ? kd_xstrndup(name, (size_t)(angle - name)) : kd_xstrdup(name);
}

static void list_kernels(kd_strbuf *sb, const kd_kernel_list *list)
{
    if (list->count == 0) {
        kd_sb_puts(sb, "(none)");
        return;
    }
    for (size_t i = 0; i < list->count; i++)
        kd_sb_printf(sb, "%s%s%s", i ? ", " : "", list->items[i].qualified,
                     list->items[i].is_template ? "<...>" : "");
}

/* The message "no kernel found" in the file's language (a kernel is called otherwise there). */
static int no_kernel_message(const char *file)
{
    switch (kd_source_kind_of(file)) {
    case KD_SOURCE_TRITON:
        return KD_MSG_SOURCE_NO_TRITON_KERNEL;
    case KD_SOURCE_PTX:
        return KD_MSG_SOURCE_NO_PTX_ENTRY;
    case KD_SOURCE_CUBIN:
        return KD_MSG_SOURCE_NO_CUBIN_FUNCTION;
    default:
        return KD_MSG_SOURCE_NO_CUDA_KERNEL; /* whatever else the CUDA front end read */
    }
}

/* The kernel --fn names: as spelled ("reduce6<float,256,true>" finds the compiled
 * "reduce6<float, 256u, true>" of a .ptx), else by its name without template arguments. */
static const kd_kernel *find_named(const kd_kernel_list *list, const char *fn)
{
    const kd_kernel *k = kd_kernel_find(list, fn);
    if (!k) {
        char *base = kd_base_name(fn);
        k = kd_kernel_find(list, base);
        free(base);
    }
    return k;
}

static int check_named(const kd_kernel_list kernels[2], const char *const files[2],
                       const char *const fn[2], kd_selection *out, kd_diag *error)
{
    for (int s = 0; s < 2; s++) {
        if (!find_named(&kernels[s], fn[s])) {
            const char **names = kd_xcalloc(kernels[s].count, sizeof *names);
            for (size_t i = 0; i < kernels[s].count; i++)
                names[i] = kernels[s].items[i].name;
            const char *near = kd_suggest(fn[s], names, kernels[s].count);
            kd_strbuf there = {0};
            list_kernels(&there, &kernels[s]);
            if (near)
                kd_diag_set(error, KD_MSG_SOURCE_NO_KERNEL_NAMED_NEAR, KD_DIAG_NO_SIDE, KD_S(side_label[s]),
                            KD_S(fn[s]), KD_S(files[s]), KD_S(near), KD_S(kd_sb_str(&there)));
            else
                kd_diag_set(error, KD_MSG_SOURCE_NO_KERNEL_NAMED, KD_DIAG_NO_SIDE, KD_S(side_label[s]), KD_S(fn[s]),
                            KD_S(files[s]), KD_S(kd_sb_str(&there)));
            kd_sb_free(&there);
            free(names);
            kd_selection_free(out);
            return -1;
        }
        out->name[s] = kd_xstrdup(fn[s]);
    }
    return 0;
}

int kd_select_kernel(const kd_kernel_list kernels[2], const char *const files[2], const char *const fn[2],
                     kd_selection *out, kd_diag *error)
{
    memset(out, 0, sizeof *out);
    if (fn[0] && fn[1])
        return check_named(kernels, files, fn, out, error);
    for (int s = 0; s < 2; s++) {
        if (kernels[s].count == 0) {
            kd_diag_set(error, no_kernel_message(files[s]), KD_DIAG_NO_SIDE, KD_S(side_label[s]), KD_S(files[s]));
            return -1;
        }
    }
    const kd_kernel **common = kd_xcalloc(kernels[0].count, sizeof *common);
    size_t n = 0;
    for (size_t i = 0; i < kernels[0].count; i++)
        if (kd_kernel_find(&kernels[1], kernels[0].items[i].qualified))
            common[n++] = &kernels[0].items[i];
    int rc = 0;
    if (n == 1) {
        out->name[0] = kd_xstrdup(common[0]->qualified);
        out->name[1] = kd_xstrdup(common[0]->qualified);
    } else if (n == 0 && kernels[0].count == 1 && kernels[1].count == 1) {
        /* One kernel on each side under different names: a renamed kernel, compare them. */
        out->name[0] = kd_xstrdup(kernels[0].items[0].qualified);
        out->name[1] = kd_xstrdup(kernels[1].items[0].qualified);
        out->one_kernel_each = true;
    } else if (n > 1) {
        kd_strbuf names = {0};
        for (size_t i = 0; i < n; i++)
            kd_sb_printf(&names, "%s%s", i ? ", " : "", common[i]->qualified);
        kd_diag_set(error, KD_MSG_SOURCE_SEVERAL_KERNELS, KD_DIAG_NO_SIDE, KD_S(kd_sb_str(&names)));
        kd_sb_free(&names);
        rc = -1;
    } else {
        kd_strbuf has[2] = {{0}, {0}};
        list_kernels(&has[0], &kernels[0]);
        list_kernels(&has[1], &kernels[1]);
        kd_diag_set(error, KD_MSG_SOURCE_NO_COMMON_KERNEL, KD_DIAG_NO_SIDE, KD_S(kd_sb_str(&has[0])),
                    KD_S(kd_sb_str(&has[1])));
        kd_sb_free(&has[0]);
        kd_sb_free(&has[1]);
        rc = -1;
    }
    free(common);
    return rc;
}

void kd_selection_free(kd_selection *s)
{
    free(s->name[0]);
    free(s->name[1]);
    memset(s, 0, sizeof *s);
}

static bool listed(const kd_strlist *list, size_t before, const char *name)
{
    for (size_t i = 0; i < before; i++)
        if (!strcmp(list->items[i], name))
            return true;
    return false;
}

static void push_copy(char ***items, size_t *count, const char *name)
{
    *items = kd_xreallocarray(*items, *count + 1, sizeof **items);
    (*items)[(*count)++] = kd_xstrdup(name);
}

void kd_match_kernels(const kd_strlist names[2], kd_kernel_match *out)
{
    memset(out, 0, sizeof *out);
    for (int s = 0; s < 2; s++) {
        const kd_strlist *mine = &names[s], *other = &names[1 - s];
        for (size_t i = 0; i < mine->count; i++) {
            const char *name = mine->items[i];
            if (listed(mine, i, name)) /* a name twice (an overload): once */
                continue;
            if (!listed(other, other->count, name))
                push_copy(&out->only[s], &out->nonly[s], name);
            else if (s == 0)
                push_copy(&out->shared, &out->nshared, name);
        }
    }
}

void kd_kernel_match_free(kd_kernel_match *m)
{
    for (size_t i = 0; i < m->nshared; i++)
        free(m->shared[i]);
    free(m->shared);
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < m->nonly[s]; i++)
            free(m->only[s][i]);
        free(m->only[s]);
    }
    memset(m, 0, sizeof *m);
}
