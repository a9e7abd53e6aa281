/*
 * proc_watch: walking /proc from the root's children down, and reading
 * each process's maps on the schedule perf/perf.h describes. Processes
 * vanish at any moment; a /proc file that cannot be read means the
 * process is gone (or going), and it is skipped.
 */
#include "perf/perf.h" /* struct proc_watch */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/hash_table.h"
#include "perf/machine/maps_snapshot.h"

#define MAX_INTERVAL 64 /* polls between two reads of an unchanged process's maps */

struct watched_proc {
    int32_t pid;
    char *exe;
    char comm[32];
    uint64_t next_read; /* the poll at which its maps are read again */
    uint64_t interval;
    UT_hash_handle hh;
};

/* The pids a walk still has to visit. */
struct pid_stack {
    int32_t *items;
    size_t count, capacity;
};

static char *read_exe(int32_t pid)
{
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof(link), "/proc/%d/exe", pid);
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    if (n <= 0)
        return NULL;
    target[n] = '\0';
    return strdup(target);
}

int proc_watch_init(struct proc_watch *w, int32_t root, const char *skip_exe,
                    struct maps_snapshot *snap)
{
    memset(w, 0, sizeof(*w));
    w->root = root;
    w->snap = snap;
    if (skip_exe && !(w->skip_exe = strdup(skip_exe)))
        return -1;
    w->no_children_files = access("/proc/thread-self/children", R_OK) != 0;
    return 0;
}

void proc_watch_free(struct proc_watch *w)
{
    struct watched_proc *p, *tmp;
    HASH_ITER(hh, w->procs, p, tmp)
    {
        HASH_DELETE(hh, w->procs, p);
        free(p->exe);
        free(p);
    }
    free(w->skip_exe);
    free(w->buf);
    memset(w, 0, sizeof(*w));
}

/* Reads a whole /proc file into w->buf. Returns its length, -1 when unreadable, -2 (memory). */
static ssize_t read_proc_file(struct proc_watch *w, const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t len = 0;
    for (;;) {
        if (len + 4096 > w->buf_cap) {
            size_t cap = w->buf_cap ? w->buf_cap * 2 : 65536;
            char *buf = realloc(w->buf, cap);
            if (!buf) {
                close(fd);
                return -2;
            }
            w->buf = buf;
            w->buf_cap = cap;
        }
        ssize_t n = read(fd, w->buf + len, w->buf_cap - len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return n < 0 ? -1 : (ssize_t)len;
        }
        len += (size_t)n;
    }
}

static int push_pid(struct pid_stack *s, int32_t pid)
{
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? s->capacity * 2 : 64;
        int32_t *items = realloc(s->items, cap * sizeof(*items));
        if (!items)
            return -1;
        s->items = items;
        s->capacity = cap;
    }
    s->items[s->count++] = pid;
    return 0;
}

/* Pushes the children of every thread of `pid`. Returns 0 or -1 (memory). */
static int push_children(struct proc_watch *w, int32_t pid, struct pid_stack *todo)
{
    char path[96];
    snprintf(path, sizeof(path), "/proc/%d/task", pid);
    DIR *dir = opendir(path);
    if (!dir)
        return 0;
    struct dirent *d;
    int rc = 0;
    while (rc == 0 && (d = readdir(dir))) {
        if (d->d_name[0] < '0' || d->d_name[0] > '9')
            continue;
        snprintf(path, sizeof(path), "/proc/%d/task/%.16s/children", pid, d->d_name);
        ssize_t len = read_proc_file(w, path);
        if (len == -2)
            rc = -1;
        if (len <= 0)
            continue;
        w->buf[len] = '\0';
        for (char *p = w->buf, *end; rc == 0 && *p; p = end) {
            long child = strtol(p, &end, 10);
            if (end == p)
                break;
            if (child > 0 && child <= INT32_MAX)
                rc = push_pid(todo, (int32_t)child);
        }
    }
    closedir(dir);
    return rc;
}

static void read_comm(struct proc_watch *w, int32_t pid, char *comm, size_t size)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/comm", pid);
    ssize_t len = read_proc_file(w, path);
    comm[0] = '\0';
    if (len > 0) {
        size_t n = (size_t)len < size - 1 ? (size_t)len : size - 1;
        memcpy(comm, w->buf, n);
        comm[n] = '\0';
    }
}

static struct watched_proc *find_or_add(struct proc_watch *w, int32_t pid)
{
    struct watched_proc *p;
    HASH_FIND(hh, w->procs, &pid, sizeof(pid), p);
    if (p)
        return p;
    if (!(p = calloc(1, sizeof(*p))))
        return NULL;
    p->pid = pid;
    bool hash_added = true;
    HASH_ADD(hh, w->procs, pid, sizeof(pid), p);
    if (!hash_added) {
        free(p);
        return NULL;
    }
    return p;
}

static int read_maps(struct proc_watch *w, int32_t pid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/maps", pid);
    ssize_t len = read_proc_file(w, path);
    if (len == -2)
        return -1;
    if (len <= 0)
        return 0;
    return maps_snapshot_add_proc(w->snap, pid, w->buf, (size_t)len);
}

/* Snapshots `pid`'s maps when they are new, changed by an exec, or due. Returns 0 or -1. */
static int visit(struct proc_watch *w, int32_t pid)
{
    char *exe = read_exe(pid);
    if (!exe)
        return 0; /* gone, a zombie, or a kernel thread */
    if (w->skip_exe && strcmp(exe, w->skip_exe) == 0) {
        free(exe);
        return 0; /* perf's own child, before its exec */
    }
    struct watched_proc *p = find_or_add(w, pid);
    if (!p) {
        free(exe);
        return -1;
    }
    char comm[32];
    read_comm(w, pid, comm, sizeof(comm));
    bool changed = !p->exe || strcmp(p->exe, exe) != 0 || strcmp(p->comm, comm) != 0;
    free(p->exe);
    p->exe = exe;
    memcpy(p->comm, comm, sizeof(comm));
    if (!changed && w->polls < p->next_read)
        return 0;
    p->interval = changed ? 1 : p->interval * 2 > MAX_INTERVAL ? MAX_INTERVAL : p->interval * 2;
    p->next_read = w->polls + p->interval;
    return read_maps(w, pid);
}

int proc_watch_poll(struct proc_watch *w)
{
    struct pid_stack todo = {0};
    w->polls++;
    int rc = push_children(w, w->root, &todo);
    while (rc == 0 && todo.count > 0) {
        int32_t pid = todo.items[--todo.count];
        rc = visit(w, pid);
        if (rc == 0)
            rc = push_children(w, pid, &todo);
    }
    free(todo.items);
    return rc;
}
