/*
 * procs: a process tree for the `cli profile` tests: the first process
 * starts a thread and forks a child that execs this program again (as
 * "procs-exec", a symlink, when it exists), which forks a grandchild; each
 * spins in a function of its own until a time has passed or a file
 * exists, so that a recording attached later finds them all running.
 * With a stop file, the grandchild (the last to start) creates
 * STOPFILE.ready first: a test waits for it before it attaches.
 *
 *   procs MS|STOPFILE          main -> parent_work -> spin    ("procs")
 *                              start_thread -> thread_work -> spin
 *     procs child MS|STOPFILE  main -> child_work -> spin     (exec'd)
 *       (fork)                 main -> grandchild_work -> spin
 *   procs exit N               exits with N at once
 *   procs kill SIG             kills itself with SIG
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile unsigned long sink;

static const char *until; /* milliseconds, or the path of a stop file */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int done(double start)
{
    char *end;
    double ms = strtod(until, &end);
    if (end != until && *end == '\0')
        return now_ms() - start >= ms;
    return access(until, F_OK) == 0;
}

__attribute__((noinline)) void spin(void)
{
    double start = now_ms();
    while (!done(start))
        for (int i = 0; i < 200000; i++)
            sink = sink * 2862933555777941757ul + 1;
}

__attribute__((noinline)) void parent_work(void)
{
    spin();
    sink++; /* not a tail call: the frame stays in the stack */
}

__attribute__((noinline)) void child_work(void)
{
    spin();
    sink++; /* not a tail call: the frame stays in the stack */
}

/* STOPFILE.ready, when `until` names a stop file: every process is running. */
static void say_ready(void)
{
    char *end;
    strtod(until, &end);
    if (end != until && *end == '\0')
        return;
    char ready[4096];
    snprintf(ready, sizeof(ready), "%s.ready", until);
    FILE *f = fopen(ready, "w");
    if (f)
        fclose(f);
}

__attribute__((noinline)) void grandchild_work(void)
{
    say_ready();
    spin();
    sink++; /* not a tail call: the frame stays in the stack */
}

__attribute__((noinline)) void *thread_work(void *arg)
{
    (void)arg;
    spin();
    return NULL;
}

static void exec_child(const char *self)
{
    char exec_name[4096];
    snprintf(exec_name, sizeof(exec_name), "%s-exec", self);
    const char *path = access(exec_name, X_OK) == 0 ? exec_name : self;
    execl(path, path, "child", until, (char *)NULL);
    _exit(127);
}

static int child_main(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        grandchild_work();
        return 0;
    }
    child_work();
    waitpid(pid, NULL, 0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "exit") == 0)
        return atoi(argv[2]);
    if (argc == 3 && strcmp(argv[1], "kill") == 0) {
        kill(getpid(), atoi(argv[2]));
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "child") == 0) {
        until = argv[2];
        return child_main();
    }
    if (argc != 2) {
        fprintf(stderr, "usage: procs MS|STOPFILE | exit N | kill SIG\n");
        return 2;
    }
    until = argv[1];
    pthread_t thread;
    pthread_create(&thread, NULL, thread_work, NULL);
    pid_t pid = fork();
    if (pid == 0)
        exec_child(argv[0]);
    parent_work();
    pthread_join(thread, NULL);
    waitpid(pid, NULL, 0);
    printf("%lu\n", sink);
    return 0;
}
