/*
 * ctest_skip: a skipped cmocka test must not pass. cmocka's run status
 * counts failures only, so CTest would report a test that skipped (its
 * reference missing) as passed. A test calls ctest_skip("why") instead of
 * skip(), and main returns ctest_skip_status(cmocka_run_group_tests(...)):
 * 1 when a test failed; else, when one skipped, 77 (the test's
 * SKIP_RETURN_CODE: CTest reports it skipped), or 1 under CI=true, where
 * nothing may be skipped; else 0. Python tests: tests/ctest_status.py.
 */
#ifndef TESTS_CTEST_SKIP_H
#define TESTS_CTEST_SKIP_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ctest_skipped;

static inline bool ctest_skip_ci(void)
{
    const char *ci = getenv("CI");
    return ci && strcmp(ci, "true") == 0;
}

/* skip() with its reason printed and counted (cmocka.h first) */
#define ctest_skip(why)                                                                            \
    do {                                                                                           \
        fprintf(stderr, "skipped: %s\n", (why));                                                   \
        if (ctest_skip_ci())                                                                       \
            fprintf(stderr, "error: skipped under CI=true: %s\n", (why));                          \
        ctest_skipped++;                                                                           \
        skip();                                                                                    \
    } while (0)

static inline int ctest_skip_status(int failed)
{
    if (failed)
        return 1;
    if (ctest_skipped)
        return ctest_skip_ci() ? 1 : 77;
    return 0;
}

#endif
