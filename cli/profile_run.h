/*
 * profile_run: the process side of `cli profile`: finding programs on
 * PATH as execvp does, running `perf record ... -- CMD` while a
 * proc_watch (perf/perf.h) snapshots the maps of every process
 * under it, and passing signals on: SIGINT and SIGQUIT from the terminal
 * reach perf and the command themselves (cli ignores them meanwhile),
 * SIGTERM and SIGHUP sent to cli are sent on to perf, which stops the
 * command and writes its file.
 */
#ifndef CLI_PROFILE_RUN_H
#define CLI_PROFILE_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "perf/perf.h"

/*
 * Finds `name` as execvp would (a name with '/' as it is, else along
 * $PATH) and writes its path. Returns 0, ENOENT (nowhere) or EACCES
 * (found, but not an executable file).
 */
int profile_which(const char *name, char *path, size_t size);

/* How perf record ended. */
struct profile_outcome {
    int wait_status;        /* perf's, from waitpid */
    bool command_seen;      /* the watch saw a process other than perf under it */
    bool no_children_files; /* the kernel has no /proc/PID/task/TID/children: no snapshot */
};

/*
 * Runs argv[0] (a path) with argv, polling its process tree every
 * `interval_ms` into `snap` until it exits. Returns 0, or -1 with `e`
 * set (perf could not be started, memory ran out).
 */
int profile_run(char *const argv[], unsigned interval_ms, struct maps_snapshot *snap,
                struct profile_outcome *out, struct error *e);

#endif
