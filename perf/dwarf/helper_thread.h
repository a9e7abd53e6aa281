/*
 * helper_thread: a thread started on another processor than its
 * creator's, for work the creator wants done beside its own
 * (perf/dwarf/debug_inflate.c inflating DWARF, perf/dwarf/debug_image.c storing it).
 * A thread from plain pthread_create starts on its creator's processor
 * and, while the creator keeps it busy, waits there for the scheduler to
 * move one of them: measured here (Linux 6.18, two processors, the other
 * idle) up to 4.8 ms, a third of the inflating it was made for. This one
 * starts where it may run at once and then takes back every processor
 * its creator may use.
 */
#ifndef PERF_HELPER_THREAD_H
#define PERF_HELPER_THREAD_H

#include <pthread.h>

/*
 * pthread_create(thread, NULL, run, arg), the thread placed as above when
 * the caller may use another processor. Returns 0 or an error number.
 */
int helper_thread_start(pthread_t *thread, void *(*run)(void *), void *arg);

#endif
