/* PyTorch extension files (compile/torch.h): found by their includes, the question asked of
 * the Python read back (a shell script stands in for it: the answer's lines are the seam),
 * and the flags the build adds. */
#include "kd_test.h"
#include "kd_test_dir.h"

#include <sys/stat.h>

#include "compile/torch.h"
#include "util/fs.h"
#include "util/xalloc.h"

KD_TEST_DIR("torch")

static char *write_in(const char *name, const char *text, bool executable)
{
    char *path = kd_path_join(dir, name);
    char *folder = kd_dirname(path);
    assert_int_equal(kd_mkdir_p(folder), 0);
    free(folder);
    assert_int_equal(kd_write_file(path, text, strlen(text)), 0);
    if (executable)
        assert_int_equal(chmod(path, 0755), 0);
    return path;
}

static void expect_extension(const char *source, const kd_strlist *dirs, const char *want, bool want_theirs)
{
    char *header = NULL;
    bool theirs = true;
    bool found = kd_torch_extension(source, dirs, &header, &theirs);
    if (!want) {
        assert_false(found);
        assert_null(header);
        return;
    }
    assert_true(found);
    assert_string_equal(header, want);
    assert_int_equal(theirs, want_theirs);
    free(header);
}

static void found_by_includes(void **state)
{
    (void)state;
    char *ext = write_in("ext.cu", "#include <cuda_runtime.h>\n#  include <torch/extension.h>\n", false);
    char *aten = write_in("aten.cu", "#include \"ATen/cuda/CUDAContext.h\"\n__global__ void k() {}\n", false);
    char *plain = write_in("plain.cu", "#include <cuda_runtime.h>\n// #include <torch/extension.h> said\n", false);
    char *header = write_in("ops.cuh", "#pragma once\n#include <c10/cuda/CUDAStream.h>\n", false);
    char *via = write_in("via.cu", "#include \"ops.cuh\"\n__global__ void k() {}\n", false);
    expect_extension(ext, NULL, "torch/extension.h", false);
    expect_extension(aten, NULL, "ATen/cuda/CUDAContext.h", false);
    expect_extension(plain, NULL, NULL, false);
    expect_extension(via, NULL, "c10/cuda/CUDAStream.h", false);
    /* -I of a folder holding torch's headers: the user's own build. */
    char *own = write_in("own/torch/extension.h", "#pragma once\n", false);
    char *own_dir = kd_path_join(dir, "own");
    kd_strlist dirs = {0};
    kd_strlist_push(&dirs, own_dir);
    expect_extension(ext, &dirs, "torch/extension.h", true);
    free(dirs.items);
    free(own_dir);
    free(own);
    free(ext);
    free(aten);
    free(plain);
    free(header);
    free(via);
}

static const char answer[] = "#!/bin/sh\n"
                             "echo 'a warning torch printed'\n"
                             "echo 'kerndiff-torch include /opt/torch/include'\n"
                             "echo 'kerndiff-torch include /opt/torch/include/torch/csrc/api/include'\n"
                             "echo 'kerndiff-torch include /usr/include/python3.12'\n"
                             "echo 'kerndiff-torch abi 1'\n"
                             "echo 'kerndiff-torch std c++20'\n"
                             "echo 'kerndiff-torch version 2.11.0+cu130'\n"
                             "echo 'kerndiff-torch relaxed 1'\n"
                             "echo asked >>\"$(dirname \"$0\")/asked\"\n";

static void answer_read_once(void **state)
{
    (void)state;
    char *python = write_in("answers/python", answer, true);
    const kd_torch_info *info = NULL;
    kd_strbuf detail = {0};
    assert_int_equal(kd_torch_query(python, &info, &detail), KD_TORCH_OK);
    assert_non_null(info);
    assert_int_equal(info->include_dirs.count, 3);
    assert_string_equal(info->include_dirs.items[0], "/opt/torch/include");
    assert_string_equal(info->include_dirs.items[2], "/usr/include/python3.12");
    assert_int_equal(info->cxx11_abi, 1);
    assert_string_equal(info->std, "c++20");
    assert_string_equal(info->version, "2.11.0+cu130");
    assert_true(info->relaxed_constexpr);
    /* The second question is answered from the first. */
    const kd_torch_info *again = NULL;
    assert_int_equal(kd_torch_query(python, &again, &detail), KD_TORCH_OK);
    assert_ptr_equal(again, info);
    char *asked = kd_path_join(dir, "answers/asked");
    size_t len = 0;
    char *text = kd_read_file(asked, &len);
    assert_non_null(text);
    assert_string_equal(text, "asked\n");
    free(text);
    free(asked);
    kd_sb_free(&detail);
    free(python);
}

static void expect_status(const char *name, const char *script, kd_torch_status want, const char *want_detail)
{
    char *python = script ? write_in(name, script, true) : kd_path_join(dir, name);
    const kd_torch_info *info = NULL;
    kd_strbuf detail = {0};
    assert_int_equal(kd_torch_query(python, &info, &detail), want);
    assert_null(info);
    assert_string_equal(kd_sb_str(&detail), want_detail);
    kd_sb_free(&detail);
    free(python);
}

static void failures(void **state)
{
    (void)state;
    expect_status("missing/python",
                  "#!/bin/sh\necho \"kerndiff-torch missing ModuleNotFoundError: No module named 'torch'\"\n",
                  KD_TORCH_NOT_INSTALLED, "ModuleNotFoundError: No module named 'torch'");
    expect_status("none/python", NULL, KD_TORCH_NO_PYTHON, "No such file or directory");
    expect_status("crash/python", "#!/bin/sh\necho Traceback >&2\necho 'ImportError: libc10.so' >&2\nexit 1\n",
                  KD_TORCH_QUERY_FAILED, "ImportError: libc10.so");
    expect_status("silent/python", "#!/bin/sh\nexit 0\n", KD_TORCH_QUERY_FAILED, "");
    expect_status("unsafe/python",
                  "#!/bin/sh\necho 'kerndiff-torch include /home/me/my envs/torch/include'\n"
                  "echo 'kerndiff-torch abi 0'\necho 'kerndiff-torch std c++17'\necho 'kerndiff-torch version 2'\n",
                  KD_TORCH_UNSAFE_PATH, "/home/me/my envs/torch/include");
}

static void flags(void **state)
{
    (void)state;
    kd_torch_info info = {.cxx11_abi = 0, .std = "c++17", .version = "2.4.0"};
    kd_strlist_push(&info.include_dirs, "/t/include");
    kd_strlist_push(&info.include_dirs, "/py/include");
    kd_torch_flags f;
    kd_torch_flags_for(&info, "ops/2nd-relu.v1.cu", NULL, NULL, &f);
    assert_int_equal(f.defines.count, 3);
    assert_string_equal(f.defines.items[0], "_GLIBCXX_USE_CXX11_ABI=0");
    assert_string_equal(f.defines.items[1], "TORCH_EXTENSION_NAME=_2nd_relu_v1");
    assert_string_equal(f.defines.items[2], "TORCH_API_INCLUDE_EXTENSION_H");
    assert_int_equal(f.flags.count, 5);
    assert_string_equal(f.flags.items[0], "-isystem");
    assert_string_equal(f.flags.items[1], "/t/include");
    assert_string_equal(f.flags.items[3], "/py/include");
    assert_string_equal(f.flags.items[4], "-std=c++17");
    kd_torch_flags_free(&f);
    /* What the user defines or sets is theirs. */
    kd_strlist defines = {0}, user_flags = {0};
    kd_strlist_push(&defines, "TORCH_EXTENSION_NAME=relu");
    kd_strlist_push(&defines, "_GLIBCXX_USE_CXX11_ABI_X=1"); /* another name */
    kd_strlist_push(&user_flags, "--std=c++20");
    kd_torch_flags_for(&info, "relu.cu", &defines, &user_flags, &f);
    assert_int_equal(f.defines.count, 2);
    assert_string_equal(f.defines.items[0], "_GLIBCXX_USE_CXX11_ABI=0");
    assert_string_equal(f.defines.items[1], "TORCH_API_INCLUDE_EXTENSION_H");
    assert_int_equal(f.flags.count, 4);
    kd_torch_flags_free(&f);
    free(defines.items);
    free(user_flags.items);
    free(info.include_dirs.items);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(found_by_includes),
        cmocka_unit_test(answer_read_once),
        cmocka_unit_test(failures),
        cmocka_unit_test(flags),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
