/*
 * perf_features: the feature sections of a perf.data file that folding
 * needs: HEADER_BUILD_ID (the build id of every binary the samples hit,
 * to find its symbols even when the file on disk changed), HEADER_ARCH
 * (which registers a --call-graph dwarf sample holds) and
 * HEADER_EVENT_DESC (the events' names as the user gave them).
 */
#ifndef PERF_PERF_FEATURES_H
#define PERF_PERF_FEATURES_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "perf/data/perf_abi.h"
#include "perf/data/perf_file.h"

struct perf_build_id {
    int32_t pid;      /* the machine: -1 the host */
    uint16_t cpumode; /* PERF_RECORD_MISC_KERNEL or _USER */
    uint8_t size;     /* bytes of id used */
    uint8_t id[PERF_BUILD_ID_MAX];
    char *filename; /* malloc'd: the path, or "[kernel.kallsyms]", "[vdso]" */
};

struct perf_build_ids {
    struct perf_build_id *items;
    size_t count, capacity;
};

/* Reads HEADER_BUILD_ID (none: an empty list). Returns 0, or -1 with `e` set. */
int perf_read_build_ids(const struct perf_file *f, struct perf_build_ids *out, struct error *e);
void perf_build_ids_free(struct perf_build_ids *b);

/* HEADER_ARCH ("x86_64", ...) malloc'd in *arch, NULL when absent. Returns 0 or -1. */
int perf_read_arch(const struct perf_file *f, char **arch, struct error *e);

/*
 * Names the file's events: from HEADER_EVENT_DESC when present (matched
 * to attributes by stream id, as perf does), else perf's default names.
 * Returns 0, or -1 with `e` set.
 */
int perf_name_events(struct perf_file *f, struct error *e);

#endif
