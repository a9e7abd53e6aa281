/*
 * perf_order: delivers records in timestamp order, round by round, as
 * `perf script` does (tools/perf/util/ordered-events.c). The kernel
 * writes each CPU's buffer in order, but the buffers interleave; `perf
 * record` writes a FINISHED_ROUND record after each pass over them. A
 * record with a timestamp is queued; at each round, every queued record
 * up to the largest timestamp seen by the previous round is delivered,
 * in timestamp order (ties in file order); the rest wait for the next
 * round or the end. Records without a timestamp are not queued (their
 * caller delivers them at once). So a sample sees the mappings and
 * command name of its moment, and memory holds one round, not the file.
 */
#ifndef PERF_PERF_ORDER_H
#define PERF_PERF_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/data/perf_record.h"

struct perf_order_item {
    uint64_t time;
    uint64_t seq; /* arrival order, for ties */
    struct perf_record record;
};

struct perf_order {
    struct perf_order_item *items; /* items[head..count) are queued */
    size_t head, count, capacity;
    bool sorted;         /* items[head..count) are in (time, seq) order */
    uint64_t max_time;   /* perf's max_timestamp */
    uint64_t next_flush; /* deliver up to this at the next round */
    uint64_t seq;
    struct perf_order_item *scratch; /* the sort's second buffer */
    size_t scratch_capacity;
};

/* Receives each record in order; returns 0, or -1 to stop. */
typedef int (*perf_deliver_fn)(void *ctx, const struct perf_record *r);

void perf_order_init(struct perf_order *o);
void perf_order_free(struct perf_order *o);

/* Queues a record with a timestamp. Returns 0, or -1 when memory runs out. */
int perf_order_push(struct perf_order *o, uint64_t time, const struct perf_record *r);

/* A FINISHED_ROUND: delivers what the previous round made safe. Returns 0 or deliver's -1. */
int perf_order_round(struct perf_order *o, perf_deliver_fn deliver, void *ctx);

/* The lowest file offset of a queued record, or UINT64_MAX when none is queued. */
uint64_t perf_order_lowest_offset(const struct perf_order *o);

/* The end of the file: delivers everything still queued. */
int perf_order_finish(struct perf_order *o, perf_deliver_fn deliver, void *ctx);

#endif
