/*
 * perf_threads: a uthash table of threads by tid (a lookup per sample,
 * against decoding the sample), with perf's rules for a thread's process
 * (its maps) and name.
 */
#include "perf/machine/perf_threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash_table.h"

void perf_threads_init(struct perf_threads *ts)
{
    ts->by_tid = NULL;
    ts->maps_serial = 0;
}

static void thread_free(struct perf_thread *t)
{
    free(t->comm);
    perf_maps_put(t->maps);
    free(t);
}

void perf_threads_free(struct perf_threads *ts)
{
    struct perf_thread *t, *tmp;
    HASH_ITER(hh, ts->by_tid, t, tmp)
    {
        HASH_DELETE(hh, ts->by_tid, t);
        thread_free(t);
    }
    ts->maps_serial = 0;
}

struct perf_thread *perf_threads_find(const struct perf_threads *ts, int32_t tid)
{
    struct perf_thread *t;
    HASH_FIND(hh, ts->by_tid, &tid, sizeof(tid), t);
    return t;
}

/* Takes `t` out of the table and frees it. */
static void remove_thread(struct perf_threads *ts, struct perf_thread *t)
{
    HASH_DELETE(hh, ts->by_tid, t);
    thread_free(t);
}

/* perf's thread__new: named ":TID" until told otherwise. */
static struct perf_thread *thread_new(struct perf_threads *ts, int32_t pid, int32_t tid)
{
    struct perf_thread *t = calloc(1, sizeof(*t));
    char name[24];
    snprintf(name, sizeof(name), ":%d", tid);
    if (!t || !(t->comm = strdup(name))) {
        free(t);
        return NULL;
    }
    t->pid = pid;
    t->tid = tid;
    bool hash_added = true;
    HASH_ADD(hh, ts->by_tid, tid, sizeof(t->tid), t);
    if (!hash_added) {
        thread_free(t);
        return NULL;
    }
    return t;
}

/* A thread of process `pid` shares the maps of the process's leader (created if needed). */
static int share_leader_maps(struct perf_threads *ts, struct perf_thread *t)
{
    struct perf_thread *leader = perf_threads_findnew(ts, t->pid, t->pid);
    if (!leader)
        return -1;
    if (leader->maps == t->maps)
        return 0;
    perf_maps_put(t->maps);
    t->maps = perf_maps_get(leader->maps);
    return 0;
}

struct perf_thread *perf_threads_findnew(struct perf_threads *ts, int32_t pid, int32_t tid)
{
    struct perf_thread *t = perf_threads_find(ts, tid);
    if (t) {
        /* perf's machine__update_thread_pid: a thread first seen without its process */
        if (t->pid == -1 && pid != -1) {
            t->pid = pid;
            if (pid != tid && share_leader_maps(ts, t))
                return NULL;
        }
        return t;
    }
    if (!(t = thread_new(ts, pid, tid)))
        return NULL;
    if (pid == tid || pid == -1) {
        if (!(t->maps = perf_maps_new(&ts->maps_serial)))
            return NULL;
    } else if (share_leader_maps(ts, t)) {
        return NULL;
    }
    return t;
}

int perf_thread_set_comm(struct perf_thread *t, const char *comm)
{
    char *copy = strdup(comm);
    if (!copy)
        return -1;
    free(t->comm);
    t->comm = copy;
    t->comm_set = true;
    t->comm_frame = 0;
    return 0;
}

int perf_threads_fork(struct perf_threads *ts, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid,
                      bool clone_maps)
{
    struct perf_thread *old = perf_threads_find(ts, tid);
    struct perf_thread *parent = perf_threads_findnew(ts, ppid, ptid);
    if (parent && parent->pid != ppid && parent != old) {
        /* an older thread with the parent's id: its FORK was lost, or the id reused */
        remove_thread(ts, parent);
        parent = perf_threads_findnew(ts, ppid, ptid);
    }
    if (!parent)
        return -1;
    if (old && old != parent) {
        remove_thread(ts, old); /* the id was reused */
    }
    struct perf_thread *child = perf_threads_findnew(ts, pid, tid);
    if (!child)
        return -1;
    if (parent->comm_set && child != parent && perf_thread_set_comm(child, parent->comm))
        return -1;
    if (child->pid == parent->pid || child->maps == parent->maps || !clone_maps)
        return 0;
    return perf_maps_copy(child->maps, parent->maps);
}
