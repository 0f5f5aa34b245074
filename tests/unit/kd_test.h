/* kd_test.h — the includes every cmocka test needs, in the order cmocka requires. */
#ifndef KD_TEST_H
#define KD_TEST_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#endif
