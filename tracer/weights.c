/*
 * weights: each weigher laid over the profile when it is written, one
 * pass of profile_expand per weight into the same name-keyed trie (the
 * same names meet the same nodes), each pass's node values moved into
 * the profile's column for that weight.
 */
#include "tracer/weights.h"

#include <errno.h>
#include <stdio.h>

#include "tracer/profile_expand.h"

struct pass {
    const struct guest_profile *p;
    const struct guest_weigher *w;
};

static uint64_t weigh_pc(void *ctx, uint64_t pc, uint64_t count)
{
    const struct pass *x = ctx;
    return x->w->pc(x->w->ctx, pc, count);
}

/* A call's leaf: its calls at the call's cost; else instructions at no known pc. */
static uint64_t weigh_node(void *ctx, const struct call_node *n, uint64_t own)
{
    const struct pass *x = ctx;
    if (guest_key_is_ecall(n->key))
        return x->w->call(x->w->ctx, x->p->calls[guest_ecall_index(n->key)], own);
    return x->w->outside(x->w->ctx, own);
}

/* Where a node's calls' extra cost goes: the node's named frame. */
struct call_target {
    struct expand *e;
    uint32_t named;
};

/* A call's cost beyond its ecalls, into its [ecall:NAME] frame (the same name meets the leaf). */
static int add_call_extra(void *to, const char *call, uint64_t cost)
{
    const struct call_target *t = to;
    char frame[128];
    snprintf(frame, sizeof(frame), "[ecall:%s]", call);
    return cost ? profile_expand_add(t->e, t->named, frame, cost) : 0;
}

/*
 * The paging charged to profile node `node`, as [PageIn] and [PageOut]
 * leaves of its frame, and its calls' cost beyond their ecalls.
 */
static int weigh_paging(void *ctx, struct expand *e, uint32_t node, uint32_t named)
{
    const struct pass *x = ctx;
    uint64_t in = 0, out = 0;
    if (x->w->paging)
        x->w->paging(x->w->ctx, node, &in, &out);
    if (in && profile_expand_add(e, named, "[PageIn]", in) != 0)
        return -1;
    if (out && profile_expand_add(e, named, "[PageOut]", out) != 0)
        return -1;
    struct call_target to = {.e = e, .named = named};
    return x->w->call_extra ? x->w->call_extra(x->w->ctx, node, add_call_extra, &to) : 0;
}

/* One weight's pass: the trie's counts zeroed, expanded with its costs, adopted as a column. */
static int add_weight(struct guest_profile *p, unsigned flags, const struct guest_weigher *w,
                      frame_namer name, struct profile *out)
{
    struct trie *t = out->trie;
    for (size_t n = 0; n < t->count; n++)
        t->nodes[n].count = 0;
    struct pass x = {.p = p, .w = w};
    struct expand_weigher weigher = {
        .pc = weigh_pc, .node = weigh_node, .extra = weigh_paging, .ctx = &x};
    errno = 0;
    if (profile_expand_weighed(p, name, flags, &weigher, t, out->names, out) != 0)
        return -1;
    if (profile_adopt_counts(out, w->name, w->unit, true) < 0) {
        if (errno != E2BIG)
            errno = ENOMEM;
        return -1;
    }
    return 0;
}

int guest_profile_weighted(struct guest_profile *p, unsigned flags, const struct guest_weigher *w,
                           size_t count, struct profile *out)
{
    frame_namer name = guest_profile_namer(p, flags & GUEST_WRITE_RAW);
    if (!name)
        return -1;
    for (size_t i = 0; i < count; i++)
        if (add_weight(p, flags, &w[i], name, out) != 0)
            return -1;
    return 0;
}
