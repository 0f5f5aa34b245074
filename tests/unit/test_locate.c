/* Where the CUDA tools are found without make's PATH (wire/locate.h), and the --version
 * lines that list every part (report/parts_text.h). A made-up tool name keeps the real
 * toolkit of the machine out of the answers. */
#include "kd_test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/parts_text.h"
#include "wire/locate.h"

#define TOOL "kd-h4-fake-cuobjdump"

static char root[64];

/* An executable TOOL in root/REL (folders made as needed); returns its path in buf. */
static const char *make_tool(const char *rel, char *buf, size_t size)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s'", root, rel);
    assert_int_equal(system(cmd), 0);
    snprintf(buf, size, "%s/%s/" TOOL, root, rel);
    FILE *f = fopen(buf, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\n", f);
    fclose(f);
    assert_int_equal(chmod(buf, 0755), 0);
    return buf;
}

static void bare_environment(void)
{
    setenv("PATH", "/usr/bin:/bin", 1);
    unsetenv("VIRTUAL_ENV");
    unsetenv("CONDA_PREFIX");
    unsetenv("CUDA_HOME");
    unsetenv("CUDA_PATH");
    unsetenv("PYENV_ROOT");
    setenv("HOME", root, 1); /* an empty home: nothing in ~/.local or ~/.pyenv */
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/kd-h4-locate.XXXXXX");
    assert_non_null(mkdtemp(root));
    bare_environment();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd);
}

static void expect_found(const char *want)
{
    char *got = kd_cuda_tool_path(TOOL);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

/* Nothing anywhere: NULL. */
static void not_found(void **state)
{
    (void)state;
    assert_null(kd_cuda_tool_path(TOOL));
}

/* pip's wheels in a virtual environment: nvidia/cuNN/bin, the newest cuNN. */
static void pip_wheels_of_a_venv(void **state)
{
    (void)state;
    char old[512], want[512], env[256];
    make_tool("venv/lib/python3.11/site-packages/nvidia/cu12/bin", old, sizeof old);
    make_tool("venv/lib/python3.11/site-packages/nvidia/cu13/bin", want, sizeof want);
    snprintf(env, sizeof env, "%s/venv", root);
    setenv("VIRTUAL_ENV", env, 1);
    expect_found(want);
    unsetenv("VIRTUAL_ENV");
    assert_null(kd_cuda_tool_path(TOOL));
}

/* The user's site-packages (pip install --user) and pyenv's Pythons, found from HOME. */
static void user_and_pyenv_site_packages(void **state)
{
    (void)state;
    char want[512];
    make_tool("pyenv-home/.pyenv/versions/3.11.7/lib/python3.11/site-packages/nvidia/cu13/bin", want, sizeof want);
    char home[256];
    snprintf(home, sizeof home, "%s/pyenv-home", root);
    setenv("HOME", home, 1);
    expect_found(want);
    make_tool("pyenv-home/.local/lib/python3.11/site-packages/nvidia/cu13/bin", want, sizeof want);
    expect_found(want); /* ~/.local comes before pyenv's versions */
    setenv("HOME", root, 1);
    assert_null(kd_cuda_tool_path(TOOL));
}

/* PATH first, then CUDA_HOME/bin, then the wheels. */
static void order_of_the_places(void **state)
{
    (void)state;
    char wheel[512], cuda[512], onpath[512], env[256];
    make_tool("order/venv/lib/python3.12/site-packages/nvidia/cu13/bin", wheel, sizeof wheel);
    make_tool("order/cuda/bin", cuda, sizeof cuda);
    make_tool("order/path", onpath, sizeof onpath);
    snprintf(env, sizeof env, "%s/order/venv", root);
    setenv("VIRTUAL_ENV", env, 1);
    expect_found(wheel);
    snprintf(env, sizeof env, "%s/order/cuda", root);
    setenv("CUDA_HOME", env, 1);
    expect_found(cuda);
    snprintf(env, sizeof env, "/usr/bin:%s/order/path:/bin", root);
    setenv("PATH", env, 1);
    expect_found(onpath);
    bare_environment();
}

/* --version's list: every part named, found or not, and why it matters when missing. */
static void parts_are_listed(void **state)
{
    (void)state;
    kd_part parts[KD_PARTS_MAX];
    size_t n = kd_find_parts(parts);
    assert_true(n >= 10 && n <= KD_PARTS_MAX);
    const char *want[] = {"nvcc", "ptxas", "cuobjdump", "nvdisasm", "compute-sanitizer", "ncu", "kerndiff-harness",
                          "kerndiff-sim-harness", "kerndiff-triton.py", "include/kerndiff"};
    for (size_t w = 0; w < sizeof want / sizeof *want; w++) {
        bool seen = false;
        for (size_t i = 0; i < n; i++)
            seen |= strcmp(parts[i].name, want[w]) == 0 && parts[i].needed_for && *parts[i].needed_for;
        assert_true(seen);
    }
    kd_parts_free(parts, n);
    kd_strbuf text = {0};
    kd_parts_text(&text);
    assert_non_null(strstr(kd_sb_str(&text), "parts:\n"));
    /* the test binary is not beside a harness: said missing, with what needs it */
    assert_non_null(strstr(kd_sb_str(&text), "  kerndiff-harness       not found (needed for timing on a GPU)\n"));
    kd_sb_free(&text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(not_found),
        cmocka_unit_test(pip_wheels_of_a_venv),
        cmocka_unit_test(user_and_pyenv_site_packages),
        cmocka_unit_test(order_of_the_places),
        cmocka_unit_test(parts_are_listed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
