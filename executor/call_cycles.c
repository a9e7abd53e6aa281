/*
 * call_cycles: the open-addressing table of call_cycles.h, hashed by the
 * calling frame's profile node and probed linearly; it never deletes, so a
 * node's entries all lie on the run of used slots from its hash.
 */
#include "executor/call_cycles.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(const struct call_cycles *c, uint32_t node)
{
    return (size_t)(node * 0x9E3779B1u) & (c->cap - 1);
}

static struct call_cycles_entry *find(struct call_cycles *c, uint32_t node, const char *call)
{
    for (size_t i = slot_of(c, node);; i = (i + 1) & (c->cap - 1)) {
        struct call_cycles_entry *e = &c->slot[i];
        if (!e->call || (e->node == node && strcmp(e->call, call) == 0))
            return e;
    }
}

/* Doubles the table (half full at most, so probes stay short). */
static bool grow(struct call_cycles *c)
{
    struct call_cycles bigger = {.cap = c->cap ? 2 * c->cap : 64, .total = c->total};
    bigger.slot = calloc(bigger.cap, sizeof(*bigger.slot));
    if (!bigger.slot)
        return false;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slot[i].call) {
            *find(&bigger, c->slot[i].node, c->slot[i].call) = c->slot[i];
            bigger.count++;
        }
    free(c->slot);
    *c = bigger;
    return true;
}

bool call_cycles_add(struct call_cycles *c, uint32_t node, const char *call, uint64_t cycles)
{
    if (2 * (c->count + 1) > c->cap && !grow(c))
        return false;
    struct call_cycles_entry *e = find(c, node, call);
    if (!e->call) {
        *e = (struct call_cycles_entry){.call = call, .node = node};
        c->count++;
    }
    e->cycles += cycles;
    c->total += cycles;
    return true;
}

int call_cycles_each(const struct call_cycles *c, uint32_t node,
                     int (*fn)(void *ctx, const char *call, uint64_t cycles), void *ctx)
{
    if (!c->cap)
        return 0;
    for (size_t i = slot_of(c, node); c->slot[i].call; i = (i + 1) & (c->cap - 1)) {
        const struct call_cycles_entry *e = &c->slot[i];
        int rc = e->node == node ? fn(ctx, e->call, e->cycles) : 0;
        if (rc)
            return rc;
    }
    return 0;
}

void call_cycles_free(struct call_cycles *c)
{
    free(c->slot);
    memset(c, 0, sizeof(*c));
}
