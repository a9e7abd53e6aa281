/*
 * waiting_samples: samples whose unwound user frames wait to be named,
 * kept in arrival order (perf/fold/fold.c). While a debug file's DWARF is
 * inflated on worker threads (perf/dwarf/inline_frames.h), the fold goes on
 * reading and unwinding samples instead of waiting; each keeps the frames
 * named so far (its kernel chain), its unwound user addresses, its thread,
 * comm frame and weight, all in one growing buffer; and the mappings those
 * addresses lie in, so that a record mapping something elsewhere (a
 * growing heap) need not have them named first.
 */
#ifndef PERF_WAITING_SAMPLES_H
#define PERF_WAITING_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "perf/machine/perf_threads.h"

/* One waiting sample, as waiting_samples_next gives it back. */
struct waiting_sample {
    struct perf_thread *thread;
    uint64_t weight;
    uint32_t comm;          /* its comm frame */
    const uint32_t *frames; /* named so far, leaf first */
    size_t nframes;
    const uint64_t *ips; /* unwound, innermost first */
    size_t nips;
};

#define WAITING_RANGES 8

struct waiting_samples {
    unsigned char *bytes;
    size_t size, capacity;
    size_t count;
    /* address ranges holding every waiting address, unless `anywhere` */
    size_t nranges;
    uint64_t range_start[WAITING_RANGES], range_end[WAITING_RANGES];
    bool anywhere;
};

/*
 * Adds a sample (its arrays copied; its addresses looked up in its
 * thread's maps). Returns 0, or -1 when memory runs out.
 */
int waiting_samples_add(struct waiting_samples *w, const struct waiting_sample *sample);

/*
 * The sample at `*pos` (0: the first), `*pos` moved past it; false when
 * none is left.
 */
bool waiting_samples_next(const struct waiting_samples *w, size_t *pos,
                          struct waiting_sample *sample);

/* Whether a mapping of [start, start + len) may change what a waiting address resolves to. */
bool waiting_samples_within(const struct waiting_samples *w, uint64_t start, uint64_t len);

/* Forgets every sample, keeping the buffer. */
void waiting_samples_clear(struct waiting_samples *w);

void waiting_samples_free(struct waiting_samples *w);

#endif
