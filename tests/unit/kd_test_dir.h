/* kd_test_dir.h — a private folder for a test group: KD_TEST_DIR("name") defines `dir`
 * (/tmp/kd-test-name.XXXXXX, made by the group's setup) and the setup and teardown that make
 * and remove it (pass them to cmocka_run_group_tests). */
#ifndef KD_TEST_DIR_H
#define KD_TEST_DIR_H
#include <stdlib.h>

#include "util/fs.h"

#define KD_TEST_DIR(name)                                                                                              \
    static char dir[] = "/tmp/kd-test-" name ".XXXXXX";                                                                \
    static int setup(void **state)                                                                                     \
    {                                                                                                                  \
        (void)state;                                                                                                   \
        return mkdtemp(dir) ? 0 : -1;                                                                                  \
    }                                                                                                                  \
    static int teardown(void **state)                                                                                  \
    {                                                                                                                  \
        (void)state;                                                                                                   \
        return kd_remove_tree(dir);                                                                                    \
    }
#endif
