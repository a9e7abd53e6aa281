/*
 * proc_watch: the process tree under one process (perf record, for `cli
 * profile`), polled through /proc: each poll walks the tree by
 * /proc/PID/task/TID/children and adds the executable mappings of every
 * process found to a maps snapshot (perf/machine/maps_snapshot.h) while the
 * process lives. A process's maps are read when it is first seen and
 * whenever its executable or command name changes (an exec), then again
 * after 1, 2, 4, ... up to 64 polls (a dlopen); the processes that run
 * `skip_exe` (perf's child before it execs the command) are walked, not
 * snapshotted.
 *
 * A process that starts and exits between two polls is missed; so are
 * mappings made and unmapped between two reads.
 */
#ifndef PERF_PROC_WATCH_H
#define PERF_PROC_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "perf/machine/maps_snapshot.h"

struct watched_proc; /* proc_watch.c */

struct proc_watch {
    int32_t root;
    char *skip_exe; /* processes running this (perf itself) are walked, not snapshotted */
    struct maps_snapshot *snap;
    struct watched_proc *procs; /* uthash by pid */
    uint64_t polls;
    bool no_children_files; /* the kernel lacks /proc/PID/task/TID/children */
    char *buf;              /* for reading /proc files */
    size_t buf_cap;
};

/*
 * Watches the descendants of `root`, adding to `snap`; `skip_exe` (NULL:
 * none) is a resolved executable path. Returns 0 or -1 (memory).
 */
int proc_watch_init(struct proc_watch *w, int32_t root, const char *skip_exe,
                    struct maps_snapshot *snap);
void proc_watch_free(struct proc_watch *w);

/* One walk of the tree. Returns 0, or -1 when memory runs out. */
int proc_watch_poll(struct proc_watch *w);

#endif
