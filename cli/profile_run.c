/*
 * profile_run: fork and exec of perf, and the loop that waits for it:
 * the signals it cares about are blocked and taken with sigtimedwait,
 * which is also the poll interval's sleep, so no handler and no global
 * state are needed.
 */
#define _GNU_SOURCE
#include "cli/profile_run.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perf/perf.h"

static int check_executable(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno == EACCES ? EACCES : ENOENT;
    if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
        return EACCES;
    return 0;
}

int profile_which(const char *name, char *path, size_t size)
{
    if (strchr(name, '/')) {
        snprintf(path, size, "%s", name);
        return check_executable(path);
    }
    const char *dirs = getenv("PATH");
    if (!dirs)
        dirs = "/usr/local/bin:/bin:/usr/bin";
    int found = ENOENT;
    while (*name) {
        const char *colon = strchr(dirs, ':');
        size_t len = colon ? (size_t)(colon - dirs) : strlen(dirs);
        snprintf(path, size, "%.*s%s%s", (int)len, len ? dirs : ".", "/", name);
        int rc = check_executable(path);
        if (rc == 0)
            return 0;
        if (rc == EACCES)
            found = EACCES; /* execvp goes on, and reports EACCES if nothing else is found */
        if (!colon)
            break;
        dirs = colon + 1;
    }
    return found;
}

static void signal_set(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGCHLD);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
}

/* In the child: the parent's signal settings undone, then perf. */
static void exec_child(char *const argv[], const sigset_t *old_mask)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    sigprocmask(SIG_SETMASK, old_mask, NULL);
    execv(argv[0], argv);
    fprintf(stderr, "error: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Waits up to `ms` for a blocked signal; sends SIGTERM and SIGHUP on to `pid`. */
static void wait_signal(pid_t pid, unsigned ms, const sigset_t *set)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    int sig = sigtimedwait(set, NULL, &ts);
    if (sig == SIGTERM || sig == SIGHUP)
        kill(pid, sig);
}

static int watch_until_exit(pid_t pid, const char *argv0, unsigned interval_ms,
                            struct maps_snapshot *snap, struct profile_outcome *out,
                            const sigset_t *set, struct error *e)
{
    struct proc_watch w;
    char *perf = realpath(argv0, NULL);
    int rc = proc_watch_init(&w, (int32_t)pid, perf, snap)
                 ? error_fail(e, ERROR_NO_MEMORY, "out of memory")
                 : 0;
    free(perf);
    for (;;) {
        if (rc == 0 && proc_watch_poll(&w))
            rc = error_fail(e, ERROR_NO_MEMORY, "out of memory"); /* perf still runs: wait */
        pid_t done = waitpid(pid, &out->wait_status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR))
            break;
        wait_signal(pid, interval_ms, set);
    }
    out->command_seen = w.procs != NULL;
    out->no_children_files = w.no_children_files;
    proc_watch_free(&w);
    return rc;
}

int profile_run(char *const argv[], unsigned interval_ms, struct maps_snapshot *snap,
                struct profile_outcome *out, struct error *e)
{
    memset(out, 0, sizeof(*out));
    sigset_t set, old_mask;
    signal_set(&set);
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigprocmask(SIG_BLOCK, &set, &old_mask);
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    int rc = 0;
    pid_t pid = fork();
    if (pid == 0)
        exec_child(argv, &old_mask);
    if (pid < 0)
        rc = error_fail_errno(e, ERROR_NO_MEMORY, errno, "cannot start %s", argv[0]);
    else
        rc = watch_until_exit(pid, argv[0], interval_ms, snap, out, &set, e);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    return rc;
}
