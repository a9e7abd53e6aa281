/*
 * maps_snapshot: the executable file mappings of processes, as
 * /proc/PID/maps showed them while the processes lived (docs/FORMATS.md,
 * "Maps snapshot"). `cli profile` takes one while it records and `cli perf
 * fold --maps FILE` reads one, so that samples in code whose MMAP record
 * the recording lacks (attached with --synth=no, events lost, a process
 * that started before the recording) are still named: perf_machine looks
 * here when no recorded mapping holds an address.
 *
 * Entries are kept in the order they were seen, duplicates dropped; of
 * several entries of one process that hold an address (an exec that put
 * another binary at the same place), the last one seen answers.
 */
#ifndef PERF_MAPS_SNAPSHOT_H
#define PERF_MAPS_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "perf/perf.h" /* struct maps_snapshot, its reading and writing */

struct maps_entry {
    int32_t pid;
    uint64_t start, end; /* [start, end) */
    uint64_t pgoff;      /* the file offset of start */
    char *path;          /* as /proc/PID/maps shows it, " (deleted)" included */
};

struct maps_seen; /* the dedup set (maps_snapshot.c) */

struct maps_key {
    int32_t pid;
    size_t index; /* into items */
};

/* Adds one mapping unless it is there already. Returns 0, or -1 when memory runs out. */
int maps_snapshot_add(struct maps_snapshot *s, int32_t pid, uint64_t start, uint64_t end,
                      uint64_t pgoff, const char *path);

/*
 * Adds the executable, file-backed mappings of /proc/PID/maps text (`text`,
 * `len` bytes): lines whose permissions hold `x` and whose path starts with
 * '/'. Lines it cannot read are skipped (the kernel wrote them). Returns 0,
 * or -1 when memory runs out.
 */
int maps_snapshot_add_proc(struct maps_snapshot *s, int32_t pid, const char *text, size_t len);

/* The last-seen entry of process `pid` holding `addr`, or NULL. NULL also when memory runs out. */
const struct maps_entry *maps_snapshot_find(struct maps_snapshot *s, int32_t pid, uint64_t addr);

#endif
