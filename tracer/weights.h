/*
 * weights: a guest profile with several weights (issue [10]): the
 * instruction count and each zkVM cost model's figure, computed when the
 * profile is written from the exact per-pc counts (guest_profile_node_pcs),
 * the [ecall:NAME] leaves' call counts, and paging charged per profile node,
 * so the run pays nothing per instruction for them. The costs come from
 * the caller (cli: executor/cost_model.h), which the tracer does not know;
 * docs/ARCHITECTURE.md, "Weights".
 */
#ifndef TRACER_WEIGHTS_H
#define TRACER_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"
#include "tracer/guest_profile.h"

/* One weight: its name, unit and costs. */
struct guest_weigher {
    const char *name, *unit;
    /* What `count` instructions retired at pc cost. */
    uint64_t (*pc)(void *ctx, uint64_t pc, uint64_t count);
    /* What `calls` calls of the zkVM call `call` cost (the ecall instruction included). */
    uint64_t (*call)(void *ctx, const char *call, uint64_t calls);
    /* What `count` instructions at pcs of no function cost. */
    uint64_t (*outside)(void *ctx, uint64_t count);
    /* The paging charged to profile node `node` (NULL: none): [PageIn], [PageOut] leaves. */
    void (*paging)(void *ctx, uint32_t node, uint64_t *in, uint64_t *out);
    /*
     * What the calls `call` made by profile node `node`'s frame cost
     * beyond their ecalls (RISC Zero's kernel and accelerators): part of
     * the call's [ecall:NAME] leaf (the first, when the calls were made
     * from several inline frames of it). NULL: nothing.
     */
    uint64_t (*call_extra)(void *ctx, uint32_t node, const char *call);
    /*
     * The weight the profile's cost clock counted (cost mode): its nodes'
     * costs are read from the clock's counts, and `pc` is asked only for
     * the pcs of nodes that keep per-pc counts anyway (inline frames).
     */
    bool clocked;
    void *ctx;
};

/*
 * Fills `out` (an empty owned profile, profile_init) with the profile's
 * stacks (0x<target> frames with `raw`, else names and inline frames as
 * guest_profile_named) and one weight per weigher, in order. A weight
 * whose costs differ between pcs needs the profile's per-pc counts
 * (all_pcs), or its cost clock (cost mode: its weigher `clocked`, the
 * only one; EINVAL when a clocked weigher meets a profile without the
 * clock). Returns 0, or -1 with errno set.
 */
int guest_profile_weighted(struct guest_profile *p, unsigned flags, const struct guest_weigher *w,
                           size_t count, struct profile *out);

#endif
