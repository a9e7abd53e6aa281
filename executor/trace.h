/*
 * trace: the contract between the executor's traced loops and a tracer
 * that follows the guest's call stack (flamegraph/guest_profile.c).
 *
 * When a machine has a tracer, machine_run uses interpreter loops that
 * look at every jal and jalr; without one, the plain loops run and tracing
 * costs nothing. The decoder has already split each jump by kind (call,
 * return, jump). To keep tracing nearly free, the loops handle the three
 * common cases themselves, on data the tracer lays out here:
 *   - a plain jump (rd and rs1 not link registers) that stays inside the
 *     top frame's function [lo, hi): nothing moves;
 *   - a return (rd not link, rs1 link) to the top frame's return address:
 *     add what ran inside the frame to its node, pop it;
 *   - a call (rd link, rs1 not link or = rd) to one of the two targets the
 *     caller's node called last (its memo), with room on the stack: push.
 * Nodes count inclusively (a frame's whole lifetime, added when it ends),
 * so a call touches only the new frame; the owner derives each node's own
 * count when it writes the profile.
 * Every other jump, and any miss, goes to `transfer`, which applies the
 * full rules and may grow the stack and the node array. The loops keep
 * `top` in a local, written back before `transfer` and before they return
 * and reloaded after `transfer`; `last` and `nodes` are read through t.
 */
#ifndef EXECUTOR_TRACE_H
#define EXECUTOR_TRACE_H

#include <stdint.h>

/* One frame of the tracer's shadow stack. */
struct trace_frame {
    uint64_t ret;    /* the return address this frame expects (UINT64_MAX: none) */
    uint64_t lo, hi; /* the function holding the frame's target; lo == hi: none */
    uint64_t entry;  /* instructions retired when the frame was entered */
    uint32_t node;   /* the frame's call-graph node */
    uint32_t unused;
};

/* A call-graph node (see flamegraph/trie.h, whose nodes these are); 64 bytes. */
struct trace_node {
    uint64_t count;         /* the owner's; a guest profile keeps inclusive counts here */
    uint64_t memo_key[2];   /* the two child keys looked up last (newest first) ... */
    uint64_t key;           /* the frame's call target (or interned name) */
    uint64_t lo, hi;        /* the function holding `key`, for guest frames */
    uint32_t memo_child[2]; /* ... and those children (0: none) */
    uint32_t parent;
    uint32_t aux; /* the owner's */
};

_Static_assert(sizeof(struct trace_node) == 64, "a node is one cache line");

struct flow_tracer {
    struct trace_frame *top;  /* the current frame */
    struct trace_frame *last; /* the last frame the stack has room for */
    struct trace_node *nodes;
    /*
     * A jal or jalr at `pc` went to `target` and the fast paths above did
     * not apply. rd and rs1 are register numbers (x0 is 0; rs1 is 0 for
     * jal). `retired` counts every instruction retired so far, this jump
     * included.
     */
    void (*transfer)(struct flow_tracer *t, uint64_t pc, uint64_t target, unsigned rd, unsigned rs1,
                     uint64_t retired);
};

static inline int trace_is_link(unsigned reg)
{
    return reg == 1 || reg == 5;
}

/*
 * The fast paths, one per kind of jump (see executor/decode.h); each
 * returns 0 when it did not apply and `transfer` must be called. Fields
 * are read into locals first: stores through node and frame pointers would
 * otherwise force the compiler to reload them.
 */
static inline int trace_jump_fast(const struct trace_frame *top, uint64_t target)
{
    return target >= top->lo && target < top->hi;
}

/* `*top` is the loop's copy of t->top. */
static inline int trace_return_fast(struct flow_tracer *t, struct trace_frame **top,
                                    uint64_t target, uint64_t retired)
{
    struct trace_frame *f = *top;
    if (target != f->ret)
        return 0;
    t->nodes[f->node].count += retired - f->entry; /* what ran inside the frame */
    *top = f - 1;
    return 1;
}

static inline int trace_call_fast(struct flow_tracer *t, struct trace_frame **top, uint64_t pc,
                                  uint64_t target, uint64_t retired)
{
    struct trace_frame *f = *top;
    struct trace_node *nodes = t->nodes;
    const struct trace_node *n = &nodes[f->node];
    uint32_t child = n->memo_key[0] == target   ? n->memo_child[0]
                     : n->memo_key[1] == target ? n->memo_child[1]
                                                : 0;
    if (!child || f == t->last)
        return 0;
    const struct trace_node *c = &nodes[child];
    uint64_t lo = c->lo, hi = c->hi;
    f[1].ret = pc + 4;
    f[1].lo = lo;
    f[1].hi = hi;
    f[1].entry = retired;
    f[1].node = child;
    *top = f + 1;
    return 1;
}

#endif
