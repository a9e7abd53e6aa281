/*
 * perf_threads: the threads of a recording, by thread id, as perf keeps
 * them (tools/perf/util/machine.c, thread.c): each has a command name
 * (":TID" until a COMM or a fork gives it one) and shares its process's
 * address space (its maps) with the other threads of the process.
 *
 *   COMM   sets the name (exec or prctl);
 *   FORK   replaces any older thread of that id; the child takes its
 *          parent's name (once the parent has one) and, as a new process,
 *          a copy of the parent's maps, or, as a new thread, its
 *          process's;
 *   EXIT   changes nothing that folding sees: the thread stays findable,
 *          so samples written just after it still get its name.
 */
#ifndef PERF_PERF_THREADS_H
#define PERF_PERF_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/hash_table.h"
#include "perf/machine/perf_maps.h"

struct perf_thread {
    int32_t pid, tid;
    char *comm; /* ":TID" until set */
    bool comm_set;
    struct perf_maps *maps;
    uint32_t comm_frame; /* folded name of the comm frame, 0: not made (the folder's cache) */
    UT_hash_handle hh;   /* in perf_threads, by tid */
};

struct perf_threads {
    struct perf_thread *by_tid; /* uthash head */
    uint64_t maps_serial;       /* perf_maps_new's serial */
};

void perf_threads_init(struct perf_threads *ts);
void perf_threads_free(struct perf_threads *ts);

/* perf's machine__findnew_thread. NULL when memory runs out. */
struct perf_thread *perf_threads_findnew(struct perf_threads *ts, int32_t pid, int32_t tid);

/* The thread `tid`, NULL when none was seen. */
struct perf_thread *perf_threads_find(const struct perf_threads *ts, int32_t tid);

/* Returns 0, or -1 when memory runs out. */
int perf_thread_set_comm(struct perf_thread *t, const char *comm);

/* perf's machine__process_fork_event. Returns 0, or -1 when memory runs out. */
int perf_threads_fork(struct perf_threads *ts, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid,
                      bool clone_maps);

#endif
