/* torch.h — PyTorch C++/CUDA extension files (issue 45 item 3): a kernel file that includes
 * <torch/extension.h> (or ATen/, c10/, torch/ headers) is built the way
 * torch.utils.cpp_extension builds it, with the include folders, ABI and C++ standard the
 * user's own torch reports. They are asked of the Python kerndiff already uses (--python),
 * once per Python per process: both sides, and the build ahead forked after the question,
 * share the answer. */
#ifndef KD_COMPILE_TORCH_H
#define KD_COMPILE_TORCH_H

#include <stdbool.h>

#include "util/strbuf.h"
#include "util/strlist.h"

/* What a torch installation says about building against it (owned by this module). */
typedef struct kd_torch_info {
    kd_strlist include_dirs; /* cpp_extension.include_paths (its CUDA ones too), then Python's */
    int cxx11_abi;           /* torch._C._GLIBCXX_USE_CXX11_ABI */
    const char *std;         /* "c++17" or "c++20": what cpp_extension compiles extensions with */
    const char *version;     /* torch.__version__: part of the build's key */
    bool relaxed_constexpr;  /* cpp_extension passes nvcc --expt-relaxed-constexpr */
} kd_torch_info;

typedef enum kd_torch_status {
    KD_TORCH_OK = 0,
    KD_TORCH_NO_PYTHON,     /* the Python cannot be run: detail holds strerror */
    KD_TORCH_NOT_INSTALLED, /* it ran, and `import torch` failed: detail holds the exception */
    KD_TORCH_QUERY_FAILED,  /* it ran, and failed or answered nothing usable: detail holds the
                               last line it wrote to stderr, or nothing */
    KD_TORCH_QUERY_TIMEOUT, /* it ran longer than the limit (kd_torch_query_timeout_s) */
    KD_TORCH_UNSAFE_PATH,   /* an include folder nvcc's shell would act on: detail holds it */
} kd_torch_status;

/* Whether the file or a file it includes (compile/deps.h's walk, with `include_dirs`) includes
 * a torch/, ATen/ or c10/ header (include_dirs may be NULL: none); the first such name, malloc'd, in *header. *found_in_dirs
 * says whether that header lies in one of `include_dirs`: the user passed torch's folders
 * with -I, and the build is theirs to describe. */
bool kd_torch_extension(const char *source_path, const kd_strlist *include_dirs, char **header,
                        bool *found_in_dirs);

/* Runs `python -c QUERY` (an argument vector, a 120 s limit) once per `python` per process.
 * KD_TORCH_OK with *info, else the status and one line in `detail`. */
kd_torch_status kd_torch_query(const char *python, const kd_torch_info **info, kd_strbuf *detail);
int kd_torch_query_timeout_s(void);

/* What the build of `source_path` adds for `info`: to `defines` (compile/build.c writes them
 * as #define lines of its wrapper) _GLIBCXX_USE_CXX11_ABI=N, TORCH_EXTENSION_NAME=<file stem
 * made an identifier>, TORCH_API_INCLUDE_EXTENSION_H, each unless `user_defines` defines that
 * name; to `flags` -isystem DIR for each folder, -std=c++NN unless `user_flags` sets a
 * standard, and --expt-relaxed-constexpr where torch's own build passes it. The strings pushed live in `storage` (free each with kd_torch_flags_free). */
typedef struct kd_torch_flags {
    kd_strlist defines, flags;
    kd_strlist storage;
} kd_torch_flags;
void kd_torch_flags_for(const kd_torch_info *info, const char *source_path, const kd_strlist *user_defines,
                        const kd_strlist *user_flags, kd_torch_flags *out);
void kd_torch_flags_free(kd_torch_flags *f);

#endif
