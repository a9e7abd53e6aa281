/*
 * perf_maps: one process's address space as the MMAP records described
 * it: non-overlapping ranges, each backed by a DSO at a file offset. A
 * new mapping replaces what it overlaps and keeps the parts of older
 * mappings on either side (perf's maps__fixup_overlappings), so a
 * lookup finds what was mapped at that address at that moment. Threads
 * of one process share one perf_maps (reference counted); fork copies.
 */
#ifndef PERF_PERF_MAPS_H
#define PERF_PERF_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/machine/perf_dso.h"

struct perf_map {
    uint64_t start, end; /* [start, end) */
    uint64_t pgoff;      /* the file offset of start */
    struct perf_dso *dso;
    bool identity; /* anonymous code: addresses are looked up as they are */
};

struct perf_maps {
    unsigned refs;
    uint64_t generation;    /* a fresh value of *serial after every change, for lookup caches */
    uint64_t *serial;       /* shared by all address spaces of a recording */
    struct perf_map *items; /* sorted by start */
    size_t count, capacity;
};

/*
 * A new, empty address space with one reference; NULL when memory runs
 * out. `serial` numbers the changes of all address spaces, so that
 * (address space, generation) never repeats, even when memory is reused.
 */
struct perf_maps *perf_maps_new(uint64_t *serial);
struct perf_maps *perf_maps_get(struct perf_maps *m);
void perf_maps_put(struct perf_maps *m);

/* Inserts a mapping over whatever it overlaps. Returns 0, or -1 when memory runs out. */
int perf_maps_insert(struct perf_maps *m, const struct perf_map *map);

/* The mapping holding addr, or NULL. */
const struct perf_map *perf_maps_find(const struct perf_maps *m, uint64_t addr);

/* Copies every mapping of `from` into `to` (a forked process). Returns 0 or -1 (memory). */
int perf_maps_copy(struct perf_maps *to, const struct perf_maps *from);

/* The address a sample address has in the mapping's DSO (perf's map__map_ip). */
static inline uint64_t perf_map_ip(const struct perf_map *map, uint64_t addr)
{
    return map->identity ? addr : addr - map->start + map->pgoff;
}

#endif
