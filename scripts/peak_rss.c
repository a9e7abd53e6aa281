/*
 * peak_rss: runs a command and prints its peak resident set size in KiB on
 * stderr as "peak_rss_kib: N", then exits with the command's status. The
 * benchmark scripts use it because a child forked from a large Python
 * process inherits the parent's RSS in its ru_maxrss.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: peak_rss COMMAND [ARGS...]\n", stderr);
        return 64;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("error: fork");
        return 71;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror("error: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("error: wait4");
        return 71;
    }
    fprintf(stderr, "peak_rss_kib: %ld\n", ru.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
