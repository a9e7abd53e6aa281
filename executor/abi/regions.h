/*
 * regions: named spans of a run that a guest marks itself (SP1's
 * cycle-tracker lines), with how often each ran and how many
 * instructions it took: total, least and most per run.
 */
#ifndef EXECUTOR_ABI_REGIONS_H
#define EXECUTOR_ABI_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct region {
    char *name;
    uint64_t started; /* the clock at the open start, if open */
    bool open;
    uint64_t runs, total, least, most;
};

struct regions {
    struct region *list; /* in order of first start */
    size_t count, cap;
    bool out_of_memory;
};

/* A start of `name` at `clock` instructions (a start of an open region restarts it). */
void regions_start(struct regions *r, const char *name, size_t len, uint64_t clock);

/* An end of `name` at `clock`; an end without a start is ignored, as SP1 does. */
void regions_end(struct regions *r, const char *name, size_t len, uint64_t clock);

/* One line per region that ended at least once: name, runs, total, least, most. */
void regions_report(const struct regions *r, FILE *out);

void regions_free(struct regions *r);

#endif
