/*
 * weights: each weigher laid over the profile when it is written, one
 * pass of profile_expand per weight into the same name-keyed trie (the
 * same names meet the same nodes), each pass's node values moved into
 * the profile's column for that weight.
 */
#include "tracer/weights.h"

#include <errno.h>
#include <stdlib.h>

#include "tracer/profile_expand.h"

/* A frame's call whose cost beyond its ecalls is in a leaf already. */
struct given {
    uint32_t node;
    const char *call;
};

struct pass {
    const struct guest_profile *p;
    const struct guest_weigher *w;
    struct given *given; /* this pass's, searched in order: few calls per profile */
    size_t ngiven, cap;
    bool out_of_memory;
};

static uint64_t weigh_pc(void *ctx, uint64_t pc, uint64_t count)
{
    const struct pass *x = ctx;
    return x->w->pc(x->w->ctx, pc, count);
}

/* Marks the call `call` of frame node `node` given; false when it was already (or no memory). */
static bool give(struct pass *x, uint32_t node, const char *call)
{
    for (size_t i = 0; i < x->ngiven; i++)
        if (x->given[i].node == node && x->given[i].call == call)
            return false;
    if (x->ngiven == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 16;
        struct given *g = realloc(x->given, cap * sizeof(*g));
        if (!g) {
            x->out_of_memory = true;
            return false;
        }
        x->given = g;
        x->cap = cap;
    }
    x->given[x->ngiven++] = (struct given){.node = node, .call = call};
    return true;
}

/*
 * What leaf `n`'s calls cost beyond their ecalls: the frame's (the leaf's
 * parent, or the parent of its call-site node) for this call, in its first
 * leaf only.
 */
static uint64_t call_extra(struct pass *x, const struct call_node *n, const char *call)
{
    if (!x->w->call_extra)
        return 0;
    const struct call_node *nodes = x->p->trie.nodes;
    uint32_t frame = n->parent;
    if (frame != TRIE_ROOT && guest_key_is_site(nodes[frame].key))
        frame = nodes[frame].parent;
    return give(x, frame, call) ? x->w->call_extra(x->w->ctx, frame, call) : 0;
}

/*
 * A call's leaf: its calls at the call's cost, and more; else instructions
 * at no known pc (in cost mode, what they cost already).
 */
static uint64_t weigh_node(void *ctx, const struct call_node *n, uint64_t own)
{
    struct pass *x = ctx;
    if (guest_key_is_ecall(n->key)) {
        const char *call = x->p->calls[guest_ecall_index(n->key)];
        return x->w->call(x->w->ctx, call, own) + call_extra(x, n, call);
    }
    return x->w->clocked ? own : x->w->outside(x->w->ctx, own);
}

/* The paging charged to profile node `node`, as [PageIn] and [PageOut] leaves of its frame. */
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
    return 0;
}

/* One weight's pass: the trie's counts zeroed, expanded with its costs, adopted as a column. */
static int add_weight(struct guest_profile *p, unsigned flags, const struct guest_weigher *w,
                      frame_namer name, struct profile *out)
{
    struct trie *t = out->trie;
    for (size_t n = 0; n < t->count; n++)
        t->nodes[n].count = 0;
    struct pass x = {.p = p, .w = w};
    struct expand_weigher weigher = {.pc = weigh_pc,
                                     .node = weigh_node,
                                     .extra = weigh_paging,
                                     .counts = w->clocked ? p->tracer.node_costs : NULL,
                                     .ctx = &x};
    errno = 0;
    int rc = profile_expand_weighed(p, name, flags, &weigher, t, out->names, out);
    free(x.given);
    if (rc == 0 && x.out_of_memory)
        errno = ENOMEM;
    if (rc != 0 || x.out_of_memory)
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
    size_t clocked = 0;
    for (size_t i = 0; i < count; i++)
        clocked += w[i].clocked;
    if (clocked > (p->tracer.cost_clock ? 1u : 0u)) { /* the clock counts one weight */
        errno = EINVAL;
        return -1;
    }
    frame_namer name = guest_profile_namer(p, flags & GUEST_WRITE_RAW);
    if (!name)
        return -1;
    for (size_t i = 0; i < count; i++)
        if (add_weight(p, flags, &w[i], name, out) != 0)
            return -1;
    return 0;
}
