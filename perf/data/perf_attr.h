/*
 * perf_attr: one event's attributes (struct perf_event_attr as the file
 * holds it) and what follows from them for reading records: where a
 * record's stream id sits (to tell the events of a multi-event file
 * apart), how long the sample_id_all trailer of non-sample records is,
 * and the event's name as `perf script` prints it when the file carries
 * no event descriptions.
 */
#ifndef PERF_PERF_ATTR_H
#define PERF_PERF_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/data/perf_abi.h"

struct perf_attr {
    uint32_t type;
    uint64_t config;
    uint64_t sample_period;
    uint64_t sample_type;
    uint64_t read_format;
    uint64_t flags; /* the bitfield word: PERF_ATTR_FLAG_* */
    uint64_t branch_sample_type;
    uint64_t sample_regs_user;
    uint32_t sample_stack_user;
    uint64_t sample_regs_intr;

    const uint8_t *ids; /* the event's stream ids, in the file (u64s, maybe unaligned) */
    size_t nr_ids;
    char *name; /* malloc'd: from HEADER_EVENT_DESC, else perf_attr_default_name */

    /* Derived by perf_attr_decode. */
    int id_pos;          /* u64 index of the id in a SAMPLE body; -1: none */
    int is_pos;          /* u64 index of the id counted from a non-sample record's end; -1: none */
    size_t trailer_size; /* bytes of the sample_id_all trailer (0 without sample_id_all) */
};

/*
 * Fills `a` from `size` bytes of an on-disk perf_event_attr (fields past
 * `size` read as zero). Leaves ids and name alone.
 */
void perf_attr_decode(struct perf_attr *a, const uint8_t *p, size_t size);

static inline bool perf_attr_sample_id_all(const struct perf_attr *a)
{
    return (a->flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL) != 0;
}

/*
 * The name perf gives an event without a description: "cycles",
 * "cpu-clock", ... with perf's modifiers (":u", ":ppp", ...). Returns a
 * malloc'd string or NULL when memory runs out.
 */
char *perf_attr_default_name(const struct perf_attr *a);

/* Whether stream id `id` is one of the event's. */
bool perf_attr_has_id(const struct perf_attr *a, uint64_t id);

#endif
