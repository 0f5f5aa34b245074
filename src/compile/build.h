/* build.h — compile one side's kernel file with nvcc into PTX, a cubin, ptxas's resource
 * log and cuobjdump's SASS, through a content-addressed cache under
 * $XDG_CACHE_HOME/kerndiff. The key hashes every file the source includes (compile/deps),
 * and is checked again after the build; each entry carries a manifest (sizes, SHA-256)
 * checked on every read, and a damaged entry is rebuilt and replaced, with a note. */
#ifndef KD_BUILD_BUILD_H
#define KD_BUILD_BUILD_H

#include <stdbool.h>
#include "regions/instrument.h"
#include "regions/names.h"
#include "util/strlist.h"
#include "source/scan.h"
#include "util/diag.h"
#include "util/strbuf.h"

typedef struct kd_build_config {
    const char *nvcc;        /* program name or path */
    const char *arch;        /* "sm_90" */
    const kd_strlist *include_dirs, *defines, *nvcc_flags;
    bool use_cache;
    bool only_new;           /* a build ahead (backend/cuda.c): where anything is already at the
                                entry's place (an entry, usable or damaged), build nothing and
                                answer OK with from_cache set: the build that follows reads it
                                and says what it found */
    /* A custom launcher (include/kerndiff/launcher.h): also build launcher.so, the user's
     * file plus the generated shim (shim.h), linked with `libs` (-lNAME each). */
    const kd_kernel *launcher;
    const kd_strlist *libs;
    /* The instrumented variant (include/kerndiff/regions.h): its region and warp group names;
     * NULL for the plain build. */
    const kd_region_names *regions;
    kd_region_markers region_markers; /* what markers do in blocks that do not record */
    const char *cuobjdump;   /* disassemble the cubin into kernel.sass (cached); NULL: none */
    /* What else the build depends on that no flag names, hashed into the key: a PyTorch
     * extension's torch version (compile/torch.h), whose headers lie behind -isystem
     * folders the include walk does not read. NULL: nothing. */
    const char *key_extra;
} kd_build_config;

typedef struct kd_build {
    char key[65];        /* SHA-256 of sources, included files, flags and nvcc version */
    char *dir;           /* folder holding kernel.ptx, kernel.cubin, ptxas.log */
    char *cubin_path;
    char *launcher_path; /* launcher.so when cfg->launcher was given, else NULL */
    char *ptx;           /* the PTX text */
    char *ptxas_log;     /* ptxas -v output (resource usage) */
    char *sass;          /* cuobjdump -sass of the cubin, or NULL (then sass_problem says why,
                            unless no cuobjdump was given) */
    char *sass_problem;
    char *note;          /* what the cache did that is worth saying (a damaged entry
                            replaced, a source changed during the build), or NULL */
    bool from_cache;
    char *entry;         /* the kernel's entry symbol where the front end names it (Triton's
                            metadata: `relu = triton.jit(relu_)` compiles to entry relu_), else
                            NULL: found from the kernel's name */
} kd_build;

typedef enum kd_build_status {
    KD_BUILD_OK = 0,
    KD_BUILD_NO_SOURCE,    /* the file cannot be read */
    KD_BUILD_NO_COMPILER,  /* nvcc cannot be run */
    KD_BUILD_FAILED,       /* nvcc ran and failed: `diagnostics` holds its output */
    KD_BUILD_SYSTEM,       /* temporary folder or the like */
} kd_build_status;

/* `side` ("v1"/"v2") names the private build folder: a build that misses the cache is made
 * in a folder of its own (kd_build_folder), which no later build in the process writes over,
 * so out->dir stays valid as long as the process (a rank races every candidate's build after
 * all were made). `diagnostics` receives nvcc's messages on failure, or a one-line reason
 * for the other statuses. */
kd_build_status kd_build_source(const kd_build_config *cfg, const char *source_path,
                                const char *side, kd_build *out, kd_strbuf *diagnostics);
void kd_build_free(kd_build *b);

/* A new, empty build folder of its own in the private folder (util/tmpdir.h):
 * TMP/SIDE-XXXXXX, unique across the threads and processes of one run (mkdtemp). Malloc'd;
 * NULL with errno. Every backend's fresh build belongs in one. */
char *kd_build_folder(const char *side);

/* nvcc runs some of its arguments through a shell, so no text of the user's may reach it
 * as an argument unchecked. A `-D NAME[=VALUE]` becomes a `#define` line of the generated
 * wrapper instead: it needs NAME (or NAME(PARAMS)) and a VALUE without a newline or a
 * trailing backslash (either would change the lines after it). An --nvcc-flag or an -I
 * folder (`option` says which, for the message) may only hold characters no shell acts
 * on. Each returns 0, or -1 with the reason and what to do in `why`. */
int kd_build_check_define(const char *define, kd_strbuf *why);
int kd_build_check_flag(const char *option, const char *flag, kd_strbuf *why);

/* What to do after a failed build, as a message (compile/compile_msgs.h) set into *hint: a
 * header nvcc could not open (compile/includes.h) that lies near the source
 * (KD_MSG_COMPILE_HINT_INCLUDE_NEAR: "add -I ../Common"), or nowhere near it (..._NONE); a
 * flag nvcc's errors name as the one that allows what they refuse (..._FLAG: "The
 * experimental flag '--expt-relaxed-constexpr' can be used to allow this", a flag the
 * project's build passes); any other error: ..._FIX. Returns true for the specific ones
 * (the report says them first, before nvcc's output), false for _FIX (said after it). */
bool kd_build_failure_hint(const char *nvcc_output, const char *source_path, kd_diag *hint);

/* The SASS of a build made elsewhere (Triton, a given cubin): cuobjdump on b->cubin_path
 * into b->sass, or the reason into b->sass_problem. Nothing when b->sass is there. */
void kd_build_disassemble(const char *cuobjdump, kd_build *b);

/* The nvcc to run: --nvcc/KERNDIFF_NVCC, else nvcc on PATH, else /usr/local/cuda/bin/nvcc. */
const char *kd_find_nvcc(const char *requested);
/* The cuobjdump to run, beside nvcc or on PATH (KERNDIFF_CUOBJDUMP overrides); NULL if none. */
const char *kd_find_cuobjdump(const char *nvcc);

#endif
