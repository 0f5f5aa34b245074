/* torch.c — PyTorch extension files: found by their includes, built with the flags the
 * user's torch reports (see torch.h). */
#include "compile/torch.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compile/build.h"
#include "compile/deps.h"
#include "util/fs.h"
#include "util/spawn.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The header folders whose names make a file an extension: what <torch/extension.h> and the
 * ATen/c10 headers LeetCUDA-style and flash-attention-style files include. */
static const char *const torch_prefixes[] = {"torch/", "ATen/", "c10/"};

static bool torch_header(const char *name)
{
    for (size_t i = 0; i < sizeof torch_prefixes / sizeof *torch_prefixes; i++)
        if (strncmp(name, torch_prefixes[i], strlen(torch_prefixes[i])) == 0)
            return true;
    return false;
}

/* The first torch include of text, malloc'd, or NULL. */
static char *first_torch_include(const char *text, size_t len)
{
    char name[4096];
    bool quoted;
    for (const char *line = text, *end = text + len; line < end;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol)
            eol = end;
        if (kd_include_line(line, eol, name, sizeof name, &quoted) && torch_header(name))
            return kd_xstrdup(name);
        line = eol + 1;
    }
    return NULL;
}

bool kd_torch_extension(const char *source_path, const kd_strlist *include_dirs, char **header,
                        bool *found_in_dirs)
{
    kd_include_set files;
    kd_strbuf error = {0};
    const kd_strlist none = {0};
    if (!include_dirs)
        include_dirs = &none;
    *header = NULL;
    *found_in_dirs = false;
    /* The walk the build key takes (compile/deps.h): a header of the file's own that includes
     * torch counts; an unreadable file is the build's to report. */
    if (kd_include_walk_disk(source_path, include_dirs, &files, &error) != KD_INCLUDE_FOUND) {
        kd_sb_free(&error);
        return false;
    }
    kd_sb_free(&error);
    for (size_t i = 0; i < files.count && !*header; i++)
        *header = first_torch_include(files.files[i].text, files.files[i].len);
    kd_include_set_free(&files);
    for (size_t i = 0; *header && i < include_dirs->count && !*found_in_dirs; i++) {
        char *there = kd_path_join(include_dirs->items[i], *header);
        *found_in_dirs = kd_check_input(there) == 0;
        free(there);
    }
    return *header != NULL;
}

/* Asked of the user's Python. include_paths() takes device_type="cuda" in newer torch and
 * cuda=True in older; without a CUDA installation torch knows of, that call raises, and
 * torch's own folders (nvcc brings CUDA's) are enough. The C++ standard is the one
 * cpp_extension builds extensions with: c++20 from torch 2.12 (whose headers then require
 * it), c++17 before; its source says which. Of its COMMON_NVCC_FLAGS, --expt-relaxed-constexpr
 * is passed too (c10's constexpr helpers in device code need it); the __CUDA_NO_HALF*__ macros
 * are not: projects undo them (LeetCUDA's -U flags), and they only take operators away. Every answer line starts with a marker, so
 * what importing torch prints is ignored. */
static const char query_script[] =
    "import sys\n"
    "def say(*a): print('kerndiff-torch', *a)\n"
    "try:\n"
    "    import torch, torch.utils.cpp_extension as ce\n"
    "except Exception as e:\n"
    "    say('missing', (type(e).__name__ + ': ' + str(e)).replace('\\n', ' '))\n"
    "    sys.exit(0)\n"
    "import inspect, sysconfig\n"
    "try:\n"
    "    params = inspect.signature(ce.include_paths).parameters\n"
    "except (TypeError, ValueError):\n"
    "    params = {}\n"
    "paths = None\n"
    "for name, value in (('device_type', 'cuda'), ('cuda', True)):\n"
    "    if name in params:\n"
    "        try:\n"
    "            paths = ce.include_paths(**{name: value})\n"
    "        except Exception:\n"
    "            paths = None\n"
    "        break\n"
    "if paths is None:\n"
    "    paths = ce.include_paths()\n"
    "for p in list(paths) + [sysconfig.get_paths()['include']]:\n"
    "    say('include', p)\n"
    "say('abi', int(torch._C._GLIBCXX_USE_CXX11_ABI))\n"
    "try:\n"
    "    source = inspect.getsource(ce)\n"
    "except Exception:\n"
    "    source = ''\n"
    "say('std', 'c++20' if '-std=c++20' in source else 'c++17')\n"
    "say('version', torch.__version__)\n"
    "say('relaxed', int('--expt-relaxed-constexpr' in getattr(ce, 'COMMON_NVCC_FLAGS', [])))\n";

enum { QUERY_TIMEOUT_MS = 120 * 1000 }; /* importing torch takes seconds on a cold disk */

typedef struct answer {
    char *python;
    kd_torch_status status;
    char *detail;
    kd_torch_info info;
    char *text; /* the answer's lines, which info's strings point into */
} answer;

/* One answer per Python (a run uses one; a test may ask several). */
static answer answers[4];
static size_t n_answers;

/* Reads the marked lines of out into a (which keeps the text). */
static kd_torch_status parse_answer(char *out, answer *a, kd_strbuf *detail)
{
    static const char marker[] = "kerndiff-torch ";
    bool abi = false;
    a->text = out;
    for (char *save = NULL, *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, marker, sizeof marker - 1) != 0)
            continue;
        char *word = line + sizeof marker - 1, *value = strchr(word, ' ');
        if (!value)
            continue;
        *value++ = '\0';
        if (strcmp(word, "missing") == 0) {
            kd_sb_puts(detail, value);
            return KD_TORCH_NOT_INSTALLED;
        } else if (strcmp(word, "include") == 0) {
            kd_strbuf why = {0};
            bool safe = kd_build_check_flag("-isystem", value, &why) == 0;
            kd_sb_free(&why);
            if (!safe) {
                kd_sb_puts(detail, value);
                return KD_TORCH_UNSAFE_PATH;
            }
            kd_strlist_push(&a->info.include_dirs, value);
        } else if (strcmp(word, "abi") == 0) {
            a->info.cxx11_abi = atoi(value) != 0;
            abi = true;
        } else if (strcmp(word, "std") == 0) {
            a->info.std = value;
        } else if (strcmp(word, "version") == 0) {
            a->info.version = value;
        } else if (strcmp(word, "relaxed") == 0) {
            a->info.relaxed_constexpr = atoi(value) != 0;
        }
    }
    if (!abi || !a->info.std || !a->info.version || !a->info.include_dirs.count) {
        return KD_TORCH_QUERY_FAILED; /* an answer without every line: no reason to quote */
    }
    return KD_TORCH_OK;
}

/* The last non-empty line of text (a traceback's exception), at most 200 bytes. */
static void last_line(const char *text, kd_strbuf *into)
{
    size_t n;
    const char *line = kd_last_line(text, &n);
    kd_sb_printf(into, "%.*s", (int)(n > 200 ? 200 : n), line);
}

static void ask(const char *python, answer *a)
{
    const char *argv[] = {python, "-c", query_script, NULL};
    kd_spawn_result r;
    kd_strbuf detail = {0};
    if (kd_spawn(argv, NULL, QUERY_TIMEOUT_MS, &r) != 0) {
        kd_sb_puts(&detail, strerror(errno));
        a->status = KD_TORCH_NO_PYTHON;
    } else if (r.timed_out) {
        a->status = KD_TORCH_QUERY_TIMEOUT;
    } else if (r.exit_code == 127 && !r.signal && !r.out.len) {
        /* a wrapper script whose interpreter is missing, or `env` that found none */
        last_line(kd_sb_str(&r.err), &detail);
        a->status = KD_TORCH_NO_PYTHON;
    } else if (r.exit_code != 0 || r.signal) {
        last_line(kd_sb_str(&r.err), &detail); /* a traceback's exception; may be empty */
        a->status = KD_TORCH_QUERY_FAILED;
    } else {
        a->status = parse_answer(kd_sb_take(&r.out), a, &detail);
    }
    if (a->status != KD_TORCH_NO_PYTHON)
        kd_spawn_result_free(&r);
    a->detail = kd_sb_take(&detail);
}

kd_torch_status kd_torch_query(const char *python, const kd_torch_info **info, kd_strbuf *detail)
{
    answer *a = NULL;
    for (size_t i = 0; i < n_answers && !a; i++)
        if (strcmp(answers[i].python, python) == 0)
            a = &answers[i];
    if (!a) {
        /* More Pythons than slots in one process: the oldest answer is asked again later. */
        if (n_answers == sizeof answers / sizeof *answers) {
            free(answers[0].python);
            free(answers[0].detail);
            free(answers[0].text);
            free(answers[0].info.include_dirs.items);
            memmove(answers, answers + 1, (n_answers - 1) * sizeof *answers);
            n_answers--;
        }
        a = &answers[n_answers++];
        memset(a, 0, sizeof *a);
        a->python = kd_xstrdup(python);
        ask(python, a);
    }
    if (a->status == KD_TORCH_OK)
        *info = &a->info;
    else
        kd_sb_puts(detail, a->detail);
    return a->status;
}

/* Whether a -D list defines NAME (as NAME, NAME=... or NAME(...)=...). */
static bool defines_name(const kd_strlist *defines, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; defines && i < defines->count; i++)
        if (strncmp(defines->items[i], name, n) == 0 && strchr("=(", defines->items[i][n]))
            return true;
    return false;
}

static bool sets_standard(const kd_strlist *flags)
{
    for (size_t i = 0; flags && i < flags->count; i++)
        if (strncmp(flags->items[i], "-std", 4) == 0 || strncmp(flags->items[i], "--std", 5) == 0)
            return true;
    return false;
}

static void push_owned(kd_torch_flags *f, kd_strlist *list, char *s)
{
    kd_strlist_push(&f->storage, s);
    kd_strlist_push(list, s);
}

/* The file's stem as a C identifier: what setup.py's name= or load(name=) would be, and
 * PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) needs one. */
static char *extension_name(const char *source_path)
{
    char *name = kd_basename(source_path);
    char *dot = strrchr(name, '.');
    if (dot && dot != name)
        *dot = '\0';
    for (char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            *p = '_';
    if (!*name || isdigit((unsigned char)name[0])) {
        char *prefixed = kd_xasprintf("_%s", name);
        free(name);
        name = prefixed;
    }
    return name;
}

void kd_torch_flags_for(const kd_torch_info *info, const char *source_path, const kd_strlist *user_defines,
                        const kd_strlist *user_flags, kd_torch_flags *out)
{
    memset(out, 0, sizeof *out);
    if (!defines_name(user_defines, "_GLIBCXX_USE_CXX11_ABI"))
        push_owned(out, &out->defines, kd_xasprintf("_GLIBCXX_USE_CXX11_ABI=%d", info->cxx11_abi));
    if (!defines_name(user_defines, "TORCH_EXTENSION_NAME")) {
        char *name = extension_name(source_path);
        push_owned(out, &out->defines, kd_xasprintf("TORCH_EXTENSION_NAME=%s", name));
        free(name);
    }
    if (!defines_name(user_defines, "TORCH_API_INCLUDE_EXTENSION_H"))
        push_owned(out, &out->defines, kd_xstrdup("TORCH_API_INCLUDE_EXTENSION_H"));
    /* -isystem: searched after the -I folders (nvcc's own CUDA headers come first), and
     * torch's headers' warnings are not the user's. */
    for (size_t i = 0; i < info->include_dirs.count; i++) {
        kd_strlist_push(&out->flags, "-isystem");
        kd_strlist_push(&out->flags, info->include_dirs.items[i]);
    }
    if (!sets_standard(user_flags))
        push_owned(out, &out->flags, kd_xasprintf("-std=%s", info->std));
    if (info->relaxed_constexpr)
        kd_strlist_push(&out->flags, "--expt-relaxed-constexpr");
}

void kd_torch_flags_free(kd_torch_flags *f)
{
    for (size_t i = 0; i < f->storage.count; i++)
        free(f->storage.items[i]);
    free(f->storage.items);
    free(f->defines.items);
    free(f->flags.items);
    memset(f, 0, sizeof *f);
}

int kd_torch_query_timeout_s(void) { return QUERY_TIMEOUT_MS / 1000; }
