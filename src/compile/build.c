#include "compile/build.h"

#include "compile/cache.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile/compile_msgs.h"
#include "compile/deps.h"
#include "compile/includes.h"
#include "compile/shim.h"
#include "regions/instrument.h"
#include "util/child_env.h"
#include "util/env.h"
#include "util/fs.h"
#include "util/hash.h"
#include "util/spawn.h"
#include "util/tmpdir.h"
#include "util/xalloc.h"
#include "wire/locate.h"

/* Bump when what a build folder holds, or how it is made, changes. */
#define KD_BUILD_RECIPE "kerndiff-build-4"

/* What a cache entry holds (compile/cache.c lists each file's size and SHA-256 in its
 * manifest and checks it on every read). kernel.sass (cuobjdump's disassembly of the cubin,
 * so a cached build costs no cuobjdump run) is there when cuobjdump succeeded; launcher.so
 * for launcher builds only. */
static const char *const artifact_names[] = {"kernel.ptx", "kernel.cubin", "ptxas.log", "kernel.sass", "launcher.so"};
enum { N_ARTIFACTS = sizeof artifact_names / sizeof *artifact_names, SASS_ARTIFACT = 3, LAUNCHER_ARTIFACT = 4 };

static bool artifact_required(const kd_build_config *cfg, int i)
{
    return i == LAUNCHER_ARTIFACT ? cfg->launcher != NULL : i != SASS_ARTIFACT;
}

/* The cache layout of this build (compile/cache.h), its `required` flags in `required`. */
static kd_cache_layout layout_for(const kd_build_config *cfg, bool required[N_ARTIFACTS])
{
    for (int i = 0; i < N_ARTIFACTS; i++)
        required[i] = artifact_required(cfg, i);
    return (kd_cache_layout){artifact_names, required, N_ARTIFACTS};
}

const char *kd_find_nvcc(const char *requested)
{
    /* nvcc runs in the private build folder: a relative path must be made absolute here. */
    static char absolute[PATH_MAX];
    if (requested && requested[0] != '/' && strchr(requested, '/') && realpath(requested, absolute))
        return absolute;
    if (requested)
        return requested;
    if (kd_program_exists("nvcc"))
        return "nvcc";
    return "/usr/local/cuda/bin/nvcc";
}

const char *kd_find_cuobjdump(const char *nvcc)
{
    static char beside[PATH_MAX];
    const char *env = kd_env(KD_ENV_CUOBJDUMP);
    if (env && *env)
        return kd_program_exists(env) ? env : NULL;
    if (kd_program_exists("cuobjdump"))
        return "cuobjdump";
    const char *slash = strrchr(nvcc, '/');
    if (slash) {
        snprintf(beside, sizeof beside, "%.*s/cuobjdump", (int)(slash - nvcc), nvcc);
        if (kd_program_exists(beside))
            return beside;
    }
    /* The toolkit's folders and pip's nvidia/cuNN/bin (scripts/install-deps.sh), no PATH needed */
    static char *found;
    if (!found)
        found = kd_cuda_tool_path("cuobjdump");
    return found;
}

/* `nvcc --version` once per process: part of every cache key. */
static const char *nvcc_version(const char *nvcc)
{
    static char *version;
    static const char *version_of;
    if (version && version_of == nvcc)
        return version;
    free(version);
    version = NULL;
    const char *argv[] = {nvcc, "--version", NULL};
    kd_spawn_result r;
    if (kd_spawn(argv, NULL, 30000, &r) != 0)
        return NULL;
    if (r.exit_code == 0 && !r.signal)
        version = kd_sb_take(&r.out);
    kd_spawn_result_free(&r);
    version_of = nvcc;
    return version;
}

/* Which nvcc builds: the file `nvcc` resolves to (its real path, size and modification time),
 * so that two compilers that print the same --version (a wrapper script that adds flags, a
 * second copy of the toolkit) never share cache entries, and an edited wrapper rebuilds. */
static const char *nvcc_identity(const char *nvcc)
{
    static char *identity;
    static const char *identity_of;
    if (identity && identity_of == nvcc)
        return identity;
    free(identity);
    char *found = kd_program_path(nvcc), *real = found ? realpath(found, NULL) : NULL;
    struct stat st;
    kd_strbuf text = {0};
    if (real && stat(real, &st) == 0)
        kd_sb_printf(&text, "%s %lld %lld.%09ld", real, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                     st.st_mtim.tv_nsec);
    else
        kd_sb_printf(&text, "%s (not resolved)", nvcc);
    free(found);
    free(real);
    identity = kd_sb_take(&text);
    identity_of = nvcc;
    return identity;
}

static void hash_list(kd_hash *h, const char *tag, const kd_strlist *list)
{
    kd_hash_str(h, tag);
    for (size_t i = 0; list && i < list->count; i++)
        kd_hash_str(h, list->items[i]);
}

/* Whether what nvcc makes of these files depends on where they lie, beyond the PTX's line
 * info: __FILE__ (device-side assert() expands to it) puts the path into the code. */
static bool names_its_path(const kd_include_set *files)
{
    static const char *const words[] = {"__FILE__", "assert"};
    for (size_t i = 0; i < files->count; i++)
        for (size_t w = 0; w < sizeof words / sizeof *words; w++)
            if (files->files[i].len >= strlen(words[w]) &&
                memmem(files->files[i].text, files->files[i].len, words[w], strlen(words[w])))
                return true;
    return false;
}

/* The key of a build: recipe, toolkit, flags, and the bytes of every file the source reaches
 * through #include (the shared include walk), in the walk's order. Not their paths: two
 * candidate files of the same text (and the same included texts) are one build, wherever
 * they lie (issue 32: a rank of copies builds once). The build differs only in the line
 * info's file names, which the hot-spot pass reads by base name from the side's own source.
 * Where the code itself names its path (names_its_path), the paths are part of the key. */
static int compute_key(const kd_build_config *cfg, const char *version, const char *source_path, char key[65],
                       kd_strbuf *why)
{
    kd_include_set files;
    kd_strbuf error = {0};
    kd_include_lookup found = kd_include_walk_disk(source_path, cfg->include_dirs, &files, &error);
    if (why && error.len)
        kd_sb_printf(why, ": %s", kd_sb_str(&error));
    kd_sb_free(&error);
    if (found != KD_INCLUDE_FOUND)
        return -1;
    kd_hash h;
    kd_hash_init(&h);
    kd_hash_str(&h, KD_BUILD_RECIPE);
    kd_hash_str(&h, version);
    kd_hash_str(&h, nvcc_identity(cfg->nvcc));
    kd_hash_str(&h, cfg->arch);
    kd_hash_str(&h, cfg->cuobjdump ? cfg->cuobjdump : "");
    hash_list(&h, "-I", cfg->include_dirs);
    hash_list(&h, "-D", cfg->defines);
    hash_list(&h, "flags", cfg->nvcc_flags);
    if (cfg->key_extra) {
        kd_hash_str(&h, "extra");
        kd_hash_str(&h, cfg->key_extra);
    }
    if (cfg->regions) {
        hash_list(&h, "regions", &cfg->regions->regions);
        hash_list(&h, "groups", &cfg->regions->groups);
        static const char *const forms[] = {[KD_MARKERS_PREDICATED] = "sampled blocks",
                                            [KD_MARKERS_BRANCHED] = "sampled blocks, branched",
                                            [KD_MARKERS_EVERY_BLOCK] = "every block"};
        kd_hash_str(&h, forms[cfg->region_markers]);
    }
    if (cfg->launcher) {
        kd_strbuf shim = {0};
        kd_shim_source(cfg->launcher, &shim);
        kd_hash_str(&h, kd_sb_str(&shim));
        kd_sb_free(&shim);
        hash_list(&h, "libs", cfg->libs);
    }
    bool paths = names_its_path(&files);
    kd_hash_str(&h, paths ? "by path" : "by content");
    for (size_t i = 0; i < files.count; i++) {
        if (paths)
            kd_hash_str(&h, files.files[i].path);
        kd_hash_field(&h, files.files[i].text, files.files[i].len);
    }
    kd_include_set_free(&files);
    kd_hash_hex(&h, key);
    return 0;
}

static int load_artifacts(const kd_build_config *cfg, kd_build *out)
{
    if (cfg->launcher)
        out->launcher_path = kd_path_join(out->dir, "launcher.so");
    char *ptx_path = kd_path_join(out->dir, "kernel.ptx");
    char *log_path = kd_path_join(out->dir, "ptxas.log");
    char *sass_path = kd_path_join(out->dir, "kernel.sass");
    out->cubin_path = kd_path_join(out->dir, "kernel.cubin");
    out->ptx = kd_read_output(ptx_path, NULL);
    out->ptxas_log = kd_read_output(log_path, NULL);
    /* KERNDIFF_SASS_CACHE=off disassembles again: bench/static_wall.sh measures the saving. */
    const char *sass_cache = kd_env(KD_ENV_SASS_CACHE);
    if (!out->sass && !(sass_cache && strcmp(sass_cache, "off") == 0))
        out->sass = kd_read_output(sass_path, NULL);
    free(ptx_path);
    free(log_path);
    free(sass_path);
    return out->ptx && out->ptxas_log ? 0 : -1;
}

static size_t identifier_length(const char *s)
{
    size_t i = 0;
    if (isalpha((unsigned char)s[0]) || s[0] == '_')
        while (isalnum((unsigned char)s[i]) || s[i] == '_')
            i++;
    return i;
}

/* Length of the "NAME" or "NAME(PARAMS)" that starts a -D; 0 when it is neither. */
static size_t macro_name_length(const char *d)
{
    size_t n = identifier_length(d);
    if (!n || d[n] != '(')
        return n;
    size_t close = n + 1 + strspn(d + n + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_, .");
    return d[close] == ')' ? close + 1 : 0;
}

int kd_build_check_define(const char *define, kd_strbuf *why)
{
    size_t name = macro_name_length(define);
    const char *value = define + name;
    if (!name || (*value && *value != '=')) {
        kd_sb_printf(why, "-D '%s': expected NAME, NAME=VALUE or NAME(ARGS)=VALUE", define);
        return -1;
    }
    value += *value == '=';
    size_t vlen = strlen(value);
    if (strpbrk(value, "\r\n") || (vlen && value[vlen - 1] == '\\')) {
        kd_sb_printf(why, "-D '%s': the value may not contain a line break or end in a backslash", define);
        return -1;
    }
    return 0;
}

int kd_build_check_flag(const char *option, const char *flag, kd_strbuf *why)
{
    static const char allowed[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-=+.,:/@%^";
    size_t ok = strspn(flag, allowed);
    if (*flag && !flag[ok])
        return 0;
    kd_sb_printf(why, "%s '%s': ", option, flag);
    if (!*flag)
        kd_sb_puts(why, "empty");
    else
        kd_sb_printf(why, "'%c' is not allowed, since nvcc passes arguments through a shell (letters, digits and "
                     "_-=+.,:/@%%^ only; %s)", flag[ok],
                     strcmp(option, "-I") ? "use -D for macros and -I for folders" : "use a symbolic link to the folder");
    return -1;
}

/* A path an #include "..." line cannot spell: a quote ends it, a newline ends the line, a
 * backslash is the compiler's to interpret. */
static bool unspellable(const char *path) { return strpbrk(path, "\"\n\\") != NULL; }

/* A path nvcc can be given as an argument: it passes arguments through a shell. */
static bool shell_safe(const char *path)
{
    kd_strbuf ignored = {0};
    bool safe = kd_build_check_flag("-I", path, &ignored) == 0;
    kd_sb_free(&ignored);
    return safe;
}

/* DIR/NAME made a symbolic link to target (replacing one left by an earlier build in DIR).
 * Malloc'd path, or NULL with the reason in why. */
static char *link_in(const char *dir, const char *name, const char *target, kd_strbuf *why)
{
    char *link = kd_path_join(dir, name);
    unlink(link);
    if (symlink(target, link) != 0) {
        kd_sb_printf(why, "cannot link %s to the source: %s", link, strerror(errno));
        free(link);
        return NULL;
    }
    return link;
}

/* The folder holding the source as nvcc may be told it: itself, or when its path would not
 * pass nvcc's shell, DIR/src linking to it. Malloc'd; NULL with the reason in why. */
static char *source_folder(const char *dir, const char *real_source, kd_strbuf *why)
{
    char *folder = kd_dirname(real_source);
    if (shell_safe(folder))
        return folder;
    char *link = link_in(dir, "src", folder, why);
    free(folder);
    return link;
}

/* What the wrapper #includes for a source whose path it cannot spell: DIR/in/NAME linking to
 * the source (NAME: its file name with those characters as '_', so diagnostics still name
 * it). Its quoted includes are searched in DIR/in, then in the -I folder of its own folder
 * (run_nvcc), first: where the preprocessor would look. Malloc'd; NULL with why. */
static char *spellable_alias(const char *dir, const char *real_source, kd_strbuf *why)
{
    char *in = kd_path_join(dir, "in");
    char *name = kd_basename(real_source);
    for (char *p = name; *p; p++)
        if (strchr("\"\n\\", *p))
            *p = '_';
    char *link = kd_mkdir_p(in) == 0 ? link_in(in, name, real_source, why) : NULL;
    if (!link && !why->len)
        kd_sb_printf(why, "cannot create %s: %s", in, strerror(errno));
    free(in);
    free(name);
    return link;
}

/* The path as a C string literal's body, for a #line directive. */
static void c_string_body(const char *path, kd_strbuf *out)
{
    for (const char *p = path; *p; p++) {
        if (*p == '"' || *p == '\\')
            kd_sb_printf(out, "\\%c", *p);
        else if (*p == '\n')
            kd_sb_puts(out, "\\n");
        else
            kd_sb_append(out, p, 1);
    }
}

/* The compile unit is a wrapper that #defines the -D macros and #includes the user's file
 * by absolute path: nvcc hands file names and -D values to a shell internally, so a name
 * with spaces or a value with `$(...)` would break (or run) there; the preprocessor reads
 * both safely, and quoted includes in the user's file still resolve beside it. A path the
 * #include line cannot spell is included through a link (spellable_alias). */
static int write_wrapper(const kd_build_config *cfg, const char *dir, const char *real_source, kd_strbuf *why)
{
    kd_strbuf text = {0};
    for (size_t i = 0; i < cfg->defines->count; i++) {
        const char *d = cfg->defines->items[i], *eq = strchr(d, '=');
        if (kd_build_check_define(d, why) != 0) {
            kd_sb_free(&text);
            return -1;
        }
        if (eq) /* NAME=VALUE; NAME(ARGS)=VALUE */
            kd_sb_printf(&text, "#define %.*s %s\n", (int)(eq - d), d, eq + 1);
        else /* nvcc's -D NAME means 1 */
            kd_sb_printf(&text, "#define %s 1\n", d);
    }
    if (cfg->regions) {
        /* The instrumented build compiles the user's file with a record context declared in
         * each kernel body (run_nvcc adds its folder to the include path, for its quoted
         * includes). */
        kd_regions_wrapper_prologue(cfg->regions, cfg->region_markers, &text);
        size_t len;
        char *source = kd_read_file(real_source, &len);
        if (!source) {
            kd_sb_printf(why, "cannot read %s to instrument it: %s", real_source, kd_read_error(errno));
            kd_sb_free(&text);
            return -1;
        }
        kd_strbuf named = {0}; /* #line names the user's file, as a string literal */
        c_string_body(real_source, &named);
        kd_regions_instrument_source(source, len, kd_sb_str(&named), &text);
        kd_sb_free(&named);
        free(source);
        kd_regions_wrapper_epilogue(&text);
    } else if (unspellable(real_source)) {
        char *alias = spellable_alias(dir, real_source, why);
        if (!alias) {
            kd_sb_free(&text);
            return -1;
        }
        kd_sb_printf(&text, "#include \"%s\"\n", alias);
        free(alias);
    } else {
        kd_sb_printf(&text, "#include \"%s\"\n", real_source);
    }
    if (cfg->launcher)
        kd_shim_source(cfg->launcher, &text); /* host code: the cubin compile ignores it */
    char *path = kd_path_join(dir, "kernel.cu");
    int rc = kd_write_file(path, text.data, text.len);
    if (rc != 0)
        kd_sb_printf(why, "cannot write %s: %s", path, strerror(errno));
    free(path);
    kd_sb_free(&text);
    return rc;
}

static void push_arg(const char ***argv, size_t *n, const char *arg)
{
    *argv = kd_xreallocarray(*argv, *n + 2, sizeof **argv);
    (*argv)[(*n)++] = arg;
    (*argv)[*n] = NULL;
}

/* One nvcc run in the build folder: `mode` is the arguments that say what to make; the
 * cubin pass keeps ptxas's log, the other links the libraries. */
static kd_build_status run_nvcc(const kd_build_config *cfg, const char *dir, const char *source_dir,
                                const char *const *mode, bool cubin_pass, kd_strbuf *diagnostics)
{
    kd_strbuf arch = {0};
    kd_sb_printf(&arch, "-arch=%s", cfg->arch);
    const char **argv = NULL;
    size_t n = 0;
    push_arg(&argv, &n, cfg->nvcc);
    push_arg(&argv, &n, arch.data);
    push_arg(&argv, &n, "-lineinfo");
    for (size_t i = 0; mode[i]; i++)
        push_arg(&argv, &n, mode[i]);
    /* The instrumented build compiles a copy of the source, and a source the wrapper
     * includes through a link is read from another folder (write_wrapper): their quoted
     * includes must still find the files beside the original, before any -I folder. */
    if (source_dir) {
        push_arg(&argv, &n, "-I");
        push_arg(&argv, &n, source_dir);
    }
    /* The compile runs in the build folder: relative -I folders must be made absolute. */
    char **absolute = kd_xcalloc(cfg->include_dirs->count + 1, sizeof *absolute);
    for (size_t i = 0; i < cfg->include_dirs->count; i++) {
        absolute[i] = realpath(cfg->include_dirs->items[i], NULL);
        push_arg(&argv, &n, "-I");
        push_arg(&argv, &n, absolute[i] ? absolute[i] : cfg->include_dirs->items[i]);
    }
    /* -D macros are #defines in the wrapper (write_wrapper), never arguments. */
    for (size_t i = 0; i < cfg->nvcc_flags->count; i++)
        push_arg(&argv, &n, cfg->nvcc_flags->items[i]);
    push_arg(&argv, &n, "kernel.cu");
    kd_strbuf libs = {0};
    for (size_t i = 0; !cubin_pass && cfg->libs && i < cfg->libs->count; i++)
        kd_sb_printf(&libs, "-l%s%c", cfg->libs->items[i], '\0');
    for (size_t off = 0; off < libs.len; off += strlen(libs.data + off) + 1)
        push_arg(&argv, &n, libs.data + off);

    /* nvcc runs its steps through a shell, with its TMPDIR in the commands unquoted: it gets
     * kerndiff's private folder (whose path holds no shell character, util/tmpdir.h), never
     * the user's TMPDIR, where `$(...)` would run. */
    const char *tmp = kd_tmpdir();
    char **env = NULL;
    if (tmp)
        env = kd_child_env((const char *const[]){"TMPDIR", NULL}, (char *[]){kd_xasprintf("TMPDIR=%s", tmp), NULL});
    kd_spawn_result r;
    kd_build_status status = KD_BUILD_OK;
    int spawned = kd_spawn_env(argv, dir, env, 10 * 60 * 1000, &r);
    kd_child_env_free(env);
    if (spawned != 0) {
        kd_sb_printf(diagnostics, "cannot run '%s': %s", cfg->nvcc, strerror(errno));
        status = KD_BUILD_NO_COMPILER;
    } else {
        if (r.exit_code != 0 || r.signal || r.timed_out) {
            kd_sb_puts(diagnostics, kd_sb_str(&r.err));
            kd_sb_puts(diagnostics, kd_sb_str(&r.out));
            if (r.timed_out)
                kd_sb_puts(diagnostics, "nvcc took longer than 10 minutes and was stopped\n");
            status = KD_BUILD_FAILED;
        } else if (cubin_pass) {
            /* ptxas -v writes the resource report to stderr; keep it as the log. */
            char *log_path = kd_path_join(dir, "ptxas.log");
            kd_write_file(log_path, kd_sb_str(&r.err), r.err.len);
            free(log_path);
        }
        kd_spawn_result_free(&r);
    }
    for (size_t i = 0; i < cfg->include_dirs->count; i++)
        free(absolute[i]);
    free(absolute);
    free(argv);
    kd_sb_free(&libs);
    kd_sb_free(&arch);
    return status;
}

/* The cubin (with PTX and the resource log) and, for a launcher, the shared object. */
static kd_build_status compile(const kd_build_config *cfg, const char *dir, const char *real_source,
                               kd_strbuf *diagnostics)
{
    static const char *const cubin[] = {"-cubin", "-Xptxas", "-v", "-keep", "-o", "kernel.cubin", NULL};
    static const char *const shared[] = {"-shared", "-Xcompiler", "-fPIC", "-o", "launcher.so", NULL};
    char *source_dir = NULL;
    if (cfg->regions || unspellable(real_source)) {
        kd_strbuf why = {0};
        source_dir = source_folder(dir, real_source, &why);
        if (!source_dir) {
            kd_sb_printf(diagnostics, "%s\n", kd_sb_str(&why));
            kd_sb_free(&why);
            return KD_BUILD_SYSTEM;
        }
    }
    kd_build_status st = run_nvcc(cfg, dir, source_dir, cubin, true, diagnostics);
    if (st == KD_BUILD_OK && cfg->launcher)
        st = run_nvcc(cfg, dir, source_dir, shared, false, diagnostics);
    free(source_dir);
    return st;
}

static void disassemble_with(const char *cuobjdump, const char *cubin, kd_build *b)
{
    const char *argv[] = {cuobjdump, "-sass", cubin, NULL};
    kd_spawn_result r;
    kd_strbuf problem = {0};
    if (kd_spawn(argv, NULL, 120000, &r) != 0) {
        kd_sb_printf(&problem, "cannot run %s", cuobjdump);
    } else {
        if (r.exit_code != 0 || r.signal || r.timed_out)
            kd_sb_printf(&problem, "%s -sass failed (exit %d): %.200s", cuobjdump, r.exit_code,
                         kd_sb_str(&r.err));
        else
            b->sass = kd_sb_take(&r.out);
        kd_spawn_result_free(&r);
    }
    if (problem.len)
        b->sass_problem = kd_sb_take(&problem);
    kd_sb_free(&problem);
}

void kd_build_disassemble(const char *cuobjdump, kd_build *b)
{
    if (b->sass || !b->cubin_path)
        return;
    if (!cuobjdump) {
        free(b->sass_problem);
        b->sass_problem = kd_xstrdup("cuobjdump not found (install the CUDA toolkit's cuobjdump, or pip install "
                                    "nvidia-cuda-cuobjdump and put it on PATH)");
        return;
    }
    disassemble_with(cuobjdump, b->cubin_path, b);
}

/* cuobjdump's SASS of `cubin` into b->sass; a failure is not the build's: the reason goes
 * to b->sass_problem. */
static void disassemble(const kd_build_config *cfg, const char *cubin, kd_build *b)
{
    disassemble_with(cfg->cuobjdump, cubin, b);
}

/* A new build's SASS, kept as kernel.sass in its folder, so the cache entry holds it. */
static void disassemble_new(const kd_build_config *cfg, const char *dir, kd_build *b)
{
    char *cubin = kd_path_join(dir, "kernel.cubin"), *sass = kd_path_join(dir, "kernel.sass");
    disassemble(cfg, cubin, b);
    if (b->sass && kd_write_file(sass, b->sass, strlen(b->sass)) != 0)
        unlink(sass); /* not cached then, but used */
    free(cubin);
    free(sass);
}

/* Releases what load_artifacts read, keeping the key. */
static void clear_artifacts(kd_build *b)
{
    free(b->cubin_path);
    free(b->launcher_path);
    free(b->ptx);
    free(b->ptxas_log);
    free(b->sass);
    free(b->sass_problem);
    free(b->entry);
    b->cubin_path = b->launcher_path = b->ptx = b->ptxas_log = b->sass = b->sass_problem = b->entry = NULL;
    b->from_cache = false;
}

/* A cache entry that passes its manifest, loaded into `out`. A damaged one is described in
 * out->note; the caller rebuilds and replaces it. */
static bool load_cached(const kd_build_config *cfg, const char *entry, kd_build *out)
{
    kd_strbuf why = {0};
    bool required[N_ARTIFACTS];
    kd_cache_layout layout = layout_for(cfg, required);
    if (kd_cache_verify(entry, &layout, &why) == 0) {
        out->dir = kd_xstrdup(entry);
        out->from_cache = true;
        if (load_artifacts(cfg, out) == 0) {
            /* No SASS in the entry (cuobjdump failed when it was made, or
                 * KERNDIFF_SASS_CACHE=off): disassembled now, not stored. */
            if (!out->sass && cfg->cuobjdump)
                disassemble(cfg, out->cubin_path, out);
            kd_sb_free(&why);
            return true;
        }
        kd_sb_puts(&why, "cannot be read");
        clear_artifacts(out);
        free(out->dir);
        out->dir = NULL;
    }
    kd_strbuf note = {0};
    kd_sb_printf(&note, "cache entry %.12s was damaged (%s): rebuilt and replaced", out->key, kd_sb_str(&why));
    out->note = kd_sb_take(&note);
    kd_sb_free(&why);
    return false;
}

/* Stores a finished build, unless a file it reads changed while nvcc ran: the key would
 * no longer name what was built. */
static void store_checked(const kd_build_config *cfg, const char *version, const char *source, const char *dir,
                          const char *entry, kd_build *out)
{
    char after[65];
    if (compute_key(cfg, version, source, after, NULL) != 0 || strcmp(after, out->key) != 0) {
        free(out->note);
        out->note = kd_xstrdup("a source file changed during the build: not cached (run again to be sure which "
                               "version was built)");
        return;
    }
    bool required[N_ARTIFACTS];
    kd_cache_layout layout = layout_for(cfg, required);
    kd_cache_store(dir, entry, &layout);
}

char *kd_build_folder(const char *side)
{
    const char *tmp = kd_tmpdir();
    if (!tmp)
        return NULL;
    kd_strbuf sb = {0};
    kd_sb_printf(&sb, "%s/%s-XXXXXX", tmp, side);
    char *dir = kd_sb_take(&sb);
    if (!mkdtemp(dir)) {
        int saved = errno;
        free(dir);
        errno = saved;
        return NULL;
    }
    return dir;
}

kd_build_status kd_build_source(const kd_build_config *cfg, const char *source_path,
                                const char *side, kd_build *out, kd_strbuf *diagnostics)
{
    memset(out, 0, sizeof *out);
    char real_source[PATH_MAX];
    if (!realpath(source_path, real_source) || access(real_source, R_OK) != 0) {
        kd_sb_printf(diagnostics, "cannot read '%s': %s", source_path, strerror(errno));
        return KD_BUILD_NO_SOURCE;
    }
    const char *version = nvcc_version(cfg->nvcc);
    if (!version) {
        kd_sb_printf(diagnostics, "cannot run '%s --version' (install the CUDA toolkit, or pass --nvcc PATH)",
                     cfg->nvcc);
        return KD_BUILD_NO_COMPILER;
    }
    kd_strbuf why = {0};
    if (compute_key(cfg, version, real_source, out->key, &why) != 0) {
        kd_sb_printf(diagnostics, "cannot read '%s'%s", source_path, kd_sb_str(&why));
        kd_sb_free(&why);
        return KD_BUILD_NO_SOURCE;
    }
    char *entry = kd_cache_entry(out->key);
    struct stat there;
    if (cfg->only_new && entry && lstat(entry, &there) == 0) {
        free(entry);
        out->from_cache = true;
        return KD_BUILD_OK;
    }
    if (cfg->use_cache && entry && access(entry, F_OK) == 0 && load_cached(cfg, entry, out)) {
        free(entry);
        return KD_BUILD_OK;
    }
    char *dir = kd_build_folder(side);
    if (!dir) {
        kd_sb_printf(diagnostics, "cannot create a private build folder: %s", strerror(errno));
        free(entry);
        return KD_BUILD_SYSTEM;
    }
    kd_build_status status = write_wrapper(cfg, dir, real_source, diagnostics) == 0
                                 ? compile(cfg, dir, real_source, diagnostics)
                                 : KD_BUILD_SYSTEM;
    if (status == KD_BUILD_OK && cfg->cuobjdump)
        disassemble_new(cfg, dir, out);
    if (status == KD_BUILD_OK && entry)
        store_checked(cfg, version, real_source, dir, entry, out);
    free(entry);
    out->dir = dir;
    if (status == KD_BUILD_OK && load_artifacts(cfg, out) != 0) {
        kd_sb_printf(diagnostics, "nvcc succeeded but left no kernel.ptx/kernel.cubin in %s", dir);
        status = KD_BUILD_FAILED;
    }
    return status;
}

void kd_build_free(kd_build *b)
{
    clear_artifacts(b);
    free(b->note);
    b->note = NULL;
    free(b->dir);
    b->dir = NULL;
}

/* The flag nvcc's errors name as the one that allows what they refuse ("The experimental flag
 * '--expt-relaxed-constexpr' can be used to allow this"): malloc'd, or NULL. Only a plain
 * option name is taken (letters, digits, '-'), so what is offered passes --nvcc-flag's check. */
static char *flag_asked(const char *nvcc_output)
{
    static const char mark[] = "flag '--";
    for (const char *p = strstr(nvcc_output, mark); p; p = strstr(p + 1, mark)) {
        const char *f = p + strlen(mark) - 2;
        size_t n = 2 + strspn(f + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
        if (n > 2 && n < 64 && f[n] == '\'')
            return kd_xasprintf("%.*s", (int)n, f);
    }
    return NULL;
}

bool kd_build_failure_hint(const char *nvcc_output, const char *source_path, kd_diag *hint)
{
    char *header = NULL, *dir = NULL, *flag = NULL;
    if (nvcc_output && kd_missing_include(nvcc_output, &header)) {
        if (kd_suggest_include(source_path, header, &dir) == 0)
            kd_diag_set(hint, KD_MSG_COMPILE_HINT_INCLUDE_NEAR, KD_DIAG_NO_SIDE, KD_S(header), KD_S(dir));
        else
            kd_diag_set(hint, KD_MSG_COMPILE_HINT_INCLUDE_NONE, KD_DIAG_NO_SIDE, KD_S(header), KD_S(source_path));
        free(header);
        free(dir);
        return true;
    }
    if (nvcc_output && (flag = flag_asked(nvcc_output))) {
        kd_diag_set(hint, KD_MSG_COMPILE_HINT_FLAG, KD_DIAG_NO_SIDE, KD_S(flag));
        free(flag);
        return true;
    }
    kd_diag_set(hint, KD_MSG_COMPILE_HINT_FIX, KD_DIAG_NO_SIDE, KD_S(source_path));
    return false;
}
