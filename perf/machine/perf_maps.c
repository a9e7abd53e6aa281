/*
 * perf_maps: a sorted array of disjoint ranges. Insertion splices the
 * overlapped range of entries out and the surviving pieces and the new
 * mapping in; mappings arrive mostly at the end, so this stays cheap.
 */
#include "perf/machine/perf_maps.h"

#include <stdlib.h>
#include <string.h>

struct perf_maps *perf_maps_new(uint64_t *serial)
{
    struct perf_maps *m = calloc(1, sizeof(*m));
    if (m) {
        m->refs = 1;
        m->serial = serial;
        m->generation = ++*serial;
    }
    return m;
}

struct perf_maps *perf_maps_get(struct perf_maps *m)
{
    m->refs++;
    return m;
}

void perf_maps_put(struct perf_maps *m)
{
    if (!m || --m->refs > 0)
        return;
    free(m->items);
    free(m);
}

static int reserve(struct perf_maps *m, size_t need)
{
    if (need <= m->capacity)
        return 0;
    size_t cap = m->capacity ? m->capacity : 16;
    while (cap < need)
        cap *= 2;
    struct perf_map *items = realloc(m->items, cap * sizeof(*items));
    if (!items)
        return -1;
    m->items = items;
    m->capacity = cap;
    return 0;
}

/* The first entry whose end lies above addr (perf's find_vma). */
static size_t first_ending_above(const struct perf_maps *m, uint64_t addr)
{
    size_t lo = 0, hi = m->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->items[mid].end > addr)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int perf_maps_insert(struct perf_maps *m, const struct perf_map *map)
{
    size_t first = first_ending_above(m, map->start), last = first;
    while (last < m->count && m->items[last].start < map->end)
        last++;
    struct perf_map pieces[3];
    size_t n = 0;
    if (last > first && m->items[first].start < map->start) {
        pieces[n] = m->items[first];
        pieces[n++].end = map->start;
    }
    pieces[n++] = *map;
    if (last > first && map->end < m->items[last - 1].end) {
        struct perf_map after = m->items[last - 1];
        after.pgoff += map->end - after.start;
        after.start = map->end;
        pieces[n++] = after;
    }
    size_t removed = last - first;
    if (reserve(m, m->count - removed + n))
        return -1;
    memmove(m->items + first + n, m->items + last, (m->count - last) * sizeof(*m->items));
    memcpy(m->items + first, pieces, n * sizeof(*pieces));
    m->count = m->count - removed + n;
    m->generation = ++*m->serial;
    return 0;
}

const struct perf_map *perf_maps_find(const struct perf_maps *m, uint64_t addr)
{
    size_t i = first_ending_above(m, addr);
    if (i < m->count && m->items[i].start <= addr)
        return &m->items[i];
    return NULL;
}

int perf_maps_copy(struct perf_maps *to, const struct perf_maps *from)
{
    for (size_t i = 0; i < from->count; i++)
        if (perf_maps_insert(to, &from->items[i]))
            return -1;
    return 0;
}
