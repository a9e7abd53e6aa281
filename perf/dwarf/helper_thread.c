/*
 * helper_thread: threads started away from their creator's processor
 * (perf/dwarf/helper_thread.h).
 */
#define _GNU_SOURCE /* sched_getcpu, pthread_attr_setaffinity_np */
#include "perf/dwarf/helper_thread.h"

#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>

/* What the new thread runs, and the processors it takes back once it runs. */
struct start {
    void *(*run)(void *);
    void *arg;
    cpu_set_t allowed;
};

static void *widen_then_run(void *p)
{
    struct start s = *(struct start *)p;
    free(p);
    pthread_setaffinity_np(pthread_self(), sizeof(s.allowed), &s.allowed); /* best effort */
    return s.run(s.arg);
}

/* The processors the caller may use but is not on now; false when there are none. */
static bool elsewhere(const cpu_set_t *allowed, cpu_set_t *other)
{
    int here = sched_getcpu();
    *other = *allowed;
    if (here >= 0 && here < CPU_SETSIZE)
        CPU_CLR(here, other);
    return here >= 0 && CPU_COUNT(other) > 0;
}

int helper_thread_start(pthread_t *thread, void *(*run)(void *), void *arg)
{
    struct start *s = malloc(sizeof(*s));
    cpu_set_t other;
    pthread_attr_t attr;
    if (!s || sched_getaffinity(0, sizeof(s->allowed), &s->allowed) != 0 ||
        !elsewhere(&s->allowed, &other) || pthread_attr_init(&attr) != 0) {
        free(s);
        return pthread_create(thread, NULL, run, arg);
    }
    s->run = run, s->arg = arg;
    int rc = pthread_attr_setaffinity_np(&attr, sizeof(other), &other);
    if (rc == 0)
        rc = pthread_create(thread, &attr, widen_then_run, s);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        free(s);
        return pthread_create(thread, NULL, run, arg);
    }
    return 0;
}
