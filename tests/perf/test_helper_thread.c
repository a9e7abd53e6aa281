/*
 * test_helper_thread: perf/dwarf/helper_thread.h runs its function and returns
 * its value through pthread_join; the kernel puts the thread on a
 * processor other than its creator's (read from /proc before it can
 * move), and once running it may use every processor its creator may; a
 * creator held to one processor still gets its thread.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../ctest_skip.h"
#include "perf/dwarf/helper_thread.h"

/* What a helper saw when it began. */
struct seen {
    cpu_set_t allowed; /* the processors it may use then */
    int started;       /* set (atomically) once `allowed` is */
    int go;            /* set by the creator: the helper may end */
};

static void *report(void *arg)
{
    struct seen *s = arg;
    pthread_getaffinity_np(pthread_self(), sizeof(s->allowed), &s->allowed);
    __atomic_store_n(&s->started, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&s->go, __ATOMIC_ACQUIRE))
        sched_yield();
    return s;
}

static void *twice(void *arg)
{
    return (void *)(2 * (uintptr_t)arg);
}

static void returns_the_functions_value(void **state)
{
    (void)state;
    pthread_t t;
    void *value = NULL;
    assert_int_equal(helper_thread_start(&t, twice, (void *)21), 0);
    assert_int_equal(pthread_join(t, &value), 0);
    assert_int_equal((uintptr_t)value, 42);
}

/*
 * The processor the kernel put this process's other thread on (the 39th
 * field of its /proc stat), whether or not it has run yet; -1: unread.
 */
static int other_threads_processor(void)
{
    char path[300], line[1024];
    int processor = -1;
    DIR *d = opendir("/proc/self/task");
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.' || atoi(e->d_name) == gettid())
            continue;
        snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        char *p = f && fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
        for (int field = 2; p && field < 39; field++)
            p = strchr(p + 1, ' ');
        if (p)
            processor = atoi(p + 1);
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return processor;
}

static void begins_elsewhere_then_may_run_anywhere(void **state)
{
    (void)state;
    cpu_set_t mine;
    assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
    if (CPU_COUNT(&mine) < 2)
        ctest_skip("one processor: nowhere else to begin");
    for (int tries = 0;; tries++) {
        struct seen s;
        memset(&s, 0, sizeof(s));
        pthread_t t;
        int creator = sched_getcpu();
        assert_int_equal(helper_thread_start(&t, report, &s), 0);
        int placed = other_threads_processor(); /* where it was put, before it could move */
        bool moved = sched_getcpu() != creator;
        __atomic_store_n(&s.go, 1, __ATOMIC_RELEASE);
        assert_int_equal(pthread_join(t, NULL), 0);
        assert_true(s.started);
        assert_true(CPU_EQUAL(&s.allowed, &mine));
        if (moved && tries < 5)
            continue; /* this thread moved meanwhile: which was "its" processor? */
        assert_int_not_equal(placed, -1);
        assert_int_not_equal(placed, creator);
        break;
    }
}

static void one_processor_still_gets_its_thread(void **state)
{
    (void)state;
    cpu_set_t mine, one;
    assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
    pthread_t t;
    struct seen s;
    memset(&s, 0, sizeof(s));
    s.go = 1; /* it need not wait for this thread */
    assert_int_equal(helper_thread_start(&t, report, &s), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    sched_setaffinity(0, sizeof(mine), &mine);
    assert_true(s.started);
    assert_true(CPU_EQUAL(&s.allowed, &one));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(returns_the_functions_value),
        cmocka_unit_test(begins_elsewhere_then_may_run_anywhere),
        cmocka_unit_test(one_processor_still_gets_its_thread),
    };
    return ctest_skip_status(cmocka_run_group_tests(tests, NULL, NULL));
}
