/*
 * perf_order: a queue kept as an array that is sorted only when a round
 * is delivered, with perf's rules for what a round may deliver. Records
 * arrive as runs in order (one per CPU buffer's pass), so the sort merges
 * those runs, a few passes instead of a comparison sort.
 */
#include "perf/data/perf_order.h"

#include <stdlib.h>
#include <string.h>

void perf_order_init(struct perf_order *o)
{
    memset(o, 0, sizeof(*o));
    o->sorted = true;
}

void perf_order_free(struct perf_order *o)
{
    free(o->items);
    free(o->scratch);
    memset(o, 0, sizeof(*o));
}

static size_t queued(const struct perf_order *o)
{
    return o->count - o->head;
}

/* Moves the queued items to the front of the array. */
static void compact(struct perf_order *o)
{
    if (o->head == 0)
        return;
    memmove(o->items, o->items + o->head, queued(o) * sizeof(*o->items));
    o->count -= o->head;
    o->head = 0;
}

int perf_order_push(struct perf_order *o, uint64_t time, const struct perf_record *r)
{
    if (queued(o) == 0) {
        o->head = o->count = 0;
        o->max_time = time; /* perf: the first event of an empty queue sets the maximum */
    } else if (time >= o->max_time) {
        o->max_time = time;
    }
    if (o->count == o->capacity) {
        compact(o);
        if (o->count == o->capacity) {
            size_t cap = o->capacity ? o->capacity * 2 : 4096;
            struct perf_order_item *items = realloc(o->items, cap * sizeof(*items));
            if (!items)
                return -1;
            o->items = items;
            o->capacity = cap;
        }
    }
    if (queued(o) > 0 && time < o->items[o->count - 1].time)
        o->sorted = false;
    o->items[o->count++] = (struct perf_order_item){time, o->seq++, *r};
    return 0;
}

static int by_time_then_seq(const void *pa, const void *pb)
{
    const struct perf_order_item *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static bool before(const struct perf_order_item *a, const struct perf_order_item *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* The end of the run in order starting at `from` of a[0, n). */
static size_t run_end(const struct perf_order_item *a, size_t from, size_t n)
{
    size_t i = from + 1;
    while (i < n && !before(&a[i], &a[i - 1]))
        i++;
    return i;
}

/* Merges the sorted a[lo, mid) and a[mid, hi) into out[lo, hi). */
static void merge(const struct perf_order_item *a, size_t lo, size_t mid, size_t hi,
                  struct perf_order_item *out)
{
    size_t i = lo, j = mid, w = lo;
    while (i < mid && j < hi)
        out[w++] = before(&a[j], &a[i]) ? a[j++] : a[i++];
    while (i < mid)
        out[w++] = a[i++];
    while (j < hi)
        out[w++] = a[j++];
}

/*
 * A natural merge sort of a[0, n) by (time, seq): neighbouring runs merged
 * pairwise until one is left. False: no memory for the second buffer.
 */
static bool merge_runs(struct perf_order *o, struct perf_order_item *a, size_t n)
{
    if (n > o->scratch_capacity) {
        struct perf_order_item *s = realloc(o->scratch, n * sizeof(*s));
        if (!s)
            return false;
        o->scratch = s;
        o->scratch_capacity = n;
    }
    struct perf_order_item *src = a, *dst = o->scratch;
    for (;;) {
        size_t runs = 0;
        for (size_t lo = 0; lo < n;) {
            size_t mid = run_end(src, lo, n), hi = mid < n ? run_end(src, mid, n) : n;
            merge(src, lo, mid, hi, dst);
            runs++;
            lo = hi;
        }
        struct perf_order_item *t = src;
        src = dst;
        dst = t;
        if (runs <= 1)
            break;
    }
    if (src != a)
        memcpy(a, src, n * sizeof(*a));
    return true;
}

/* Delivers queued items with time <= limit, in order. */
static int deliver_up_to(struct perf_order *o, uint64_t limit, perf_deliver_fn deliver, void *ctx)
{
    if (!o->sorted) {
        if (!merge_runs(o, o->items + o->head, queued(o)))
            qsort(o->items + o->head, queued(o), sizeof(*o->items), by_time_then_seq);
        o->sorted = true;
    }
    while (o->head < o->count && o->items[o->head].time <= limit) {
        struct perf_record r = o->items[o->head++].record;
        if (deliver(ctx, &r))
            return -1;
    }
    return 0;
}

int perf_order_round(struct perf_order *o, perf_deliver_fn deliver, void *ctx)
{
    if (queued(o) == 0)
        return 0; /* perf leaves next_flush alone when nothing is queued */
    if (deliver_up_to(o, o->next_flush, deliver, ctx))
        return -1;
    o->next_flush = o->max_time;
    return 0;
}

uint64_t perf_order_lowest_offset(const struct perf_order *o)
{
    uint64_t lowest = UINT64_MAX;
    for (size_t i = o->head; i < o->count; i++)
        if (o->items[i].record.offset < lowest)
            lowest = o->items[i].record.offset;
    return lowest;
}

int perf_order_finish(struct perf_order *o, perf_deliver_fn deliver, void *ctx)
{
    return deliver_up_to(o, UINT64_MAX, deliver, ctx);
}
