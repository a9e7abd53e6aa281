/*
 * waiting_samples: samples waiting for their user frames' names, in one
 * buffer (perf/fold/waiting_samples.h).
 */
#include "perf/fold/waiting_samples.h"

#include <stdlib.h>
#include <string.h>

#include "perf/machine/perf_maps.h"

/* A sample's header in the buffer; its frames (padded to 8 bytes) and ips follow. */
struct entry {
    struct perf_thread *thread;
    uint64_t weight;
    uint32_t comm, nframes, nips, pad;
};

static size_t frames_bytes(size_t nframes)
{
    return (nframes * sizeof(uint32_t) + 7) & ~(size_t)7;
}

static size_t entry_bytes(size_t nframes, size_t nips)
{
    return sizeof(struct entry) + frames_bytes(nframes) + nips * sizeof(uint64_t);
}

static int reserve(struct waiting_samples *w, size_t more)
{
    if (more <= w->capacity - w->size)
        return 0;
    size_t cap = w->capacity ? w->capacity : 64 * 1024;
    while (cap - w->size < more)
        if ((cap *= 2) > SIZE_MAX / 4)
            return -1;
    unsigned char *bytes = realloc(w->bytes, cap);
    if (!bytes)
        return -1;
    w->bytes = bytes;
    w->capacity = cap;
    return 0;
}

/* Notes where `ip` lies in `maps`, unless a noted range holds it already. */
static void note_address(struct waiting_samples *w, const struct perf_maps *maps, uint64_t ip)
{
    for (size_t i = 0; i < w->nranges; i++)
        if (ip >= w->range_start[i] && ip < w->range_end[i])
            return;
    if (w->anywhere)
        return;
    const struct perf_map *map = perf_maps_find(maps, ip);
    if (w->nranges == WAITING_RANGES) {
        w->anywhere = true;
        return;
    }
    w->range_start[w->nranges] = map ? map->start : ip;
    w->range_end[w->nranges] = map ? map->end : ip + 1;
    w->nranges++;
}

int waiting_samples_add(struct waiting_samples *w, const struct waiting_sample *sample)
{
    if (sample->nframes > UINT32_MAX || sample->nips > UINT32_MAX)
        return -1;
    size_t size = entry_bytes(sample->nframes, sample->nips);
    if (reserve(w, size))
        return -1;
    unsigned char *at = w->bytes + w->size;
    struct entry e = {sample->thread,         sample->weight,
                      sample->comm,           (uint32_t)sample->nframes,
                      (uint32_t)sample->nips, 0};
    memcpy(at, &e, sizeof(e));
    if (sample->nframes)
        memcpy(at + sizeof(e), sample->frames, sample->nframes * sizeof(uint32_t));
    if (sample->nips)
        memcpy(at + sizeof(e) + frames_bytes(sample->nframes), sample->ips,
               sample->nips * sizeof(uint64_t));
    w->size += size;
    w->count++;
    for (size_t i = 0; i < sample->nips; i++)
        note_address(w, sample->thread->maps, sample->ips[i]);
    return 0;
}

bool waiting_samples_within(const struct waiting_samples *w, uint64_t start, uint64_t len)
{
    if (w->count == 0)
        return false;
    if (w->anywhere)
        return true;
    uint64_t end = start + len < start ? UINT64_MAX : start + len;
    for (size_t i = 0; i < w->nranges; i++)
        if (start < w->range_end[i] && w->range_start[i] < end)
            return true;
    return false;
}

bool waiting_samples_next(const struct waiting_samples *w, size_t *pos,
                          struct waiting_sample *sample)
{
    if (*pos >= w->size)
        return false;
    const unsigned char *at = w->bytes + *pos;
    struct entry e;
    memcpy(&e, at, sizeof(e));
    *sample = (struct waiting_sample){
        .thread = e.thread,
        .weight = e.weight,
        .comm = e.comm,
        .frames = (const uint32_t *)(const void *)(at + sizeof(e)),
        .nframes = e.nframes,
        .ips = (const uint64_t *)(const void *)(at + sizeof(e) + frames_bytes(e.nframes)),
        .nips = e.nips,
    };
    *pos += entry_bytes(e.nframes, e.nips);
    return true;
}

void waiting_samples_clear(struct waiting_samples *w)
{
    w->size = 0;
    w->count = 0;
    w->nranges = 0;
    w->anywhere = false;
}

void waiting_samples_free(struct waiting_samples *w)
{
    free(w->bytes);
    memset(w, 0, sizeof(*w));
}
