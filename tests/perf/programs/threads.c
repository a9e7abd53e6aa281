/*
 * threads: processes and threads for the perf tests: two named worker
 * threads, a forked child that renames itself (prctl) and then execs this
 * program again under another name (a symlink), so that the command
 * name changes by fork, by prctl and by exec within one recording.
 *
 *   main -> spin                        ("threads")
 *   start_thread -> worker -> spin      ("worker-a", "worker b")
 *   main -> spin                        ("renamed", then the exec'd name)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

volatile unsigned long sink;

__attribute__((noinline)) void spin(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        sink = sink * 2862933555777941757ul + 1;
}

__attribute__((noinline)) void *worker(void *name)
{
    pthread_setname_np(pthread_self(), name);
    spin(60000000);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        spin(60000000);
        return 0;
    }
    pthread_t a, b;
    pthread_create(&a, NULL, worker, "worker-a");
    pthread_create(&b, NULL, worker, "worker b");
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_NAME, "renamed", 0, 0, 0);
        spin(30000000);
        char self[4096];
        snprintf(self, sizeof(self), "%s-exec", argv[0]);
        execl(self, self, "child", (char *)NULL);
        _exit(127);
    }
    spin(60000000);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    waitpid(pid, NULL, 0);
    printf("%lu\n", sink);
    return 0;
}
