/*
 * trace: the contract between the executor's traced loops and a tracer
 * that follows the guest's call stack (flamegraph/guest_profile.c).
 *
 * When a machine has a tracer, its fast loop runs the traced handler
 * table, whose jal and jalr handlers report jumps; without one, tracing
 * costs nothing. The decoder has already split each jump by kind (call,
 * return, jump). To keep tracing nearly free, the handlers take the three
 * common cases themselves, touching only the tracer's shadow stack:
 *   - a plain jump (rd and rs1 not link registers) that stays inside the
 *     function [lo, lo + span) of the top frame: nothing moves; one that
 *     leaves it is a tail call, taken inline when the slot already knows
 *     the node it leads to;
 *   - a return (rd not link, rs1 link) to the top frame's return address:
 *     add what ran inside the frame to the slot's count, pop it, and go
 *     where the frame says that address's code lies (ret_at);
 *   - a call (rd link, rs1 not link or = rd) whose target and caller's
 *     node are those the slot above the top frame was set up for last or
 *     one of the TRACE_SLOT_ALTS times before: count from now in the
 *     slot and push it.
 * A slot keeps its nodes (and the counts not yet handed to them) after
 * its frame is popped, so a caller that calls the same function again, as
 * in a loop, or calls a few in turn, pushes without looking anything up.
 * The tracer hands a slot's counts to their nodes when the slot is set up
 * for another node and before it writes counts. Nodes count inclusively
 * (a frame's whole lifetime), so a call touches only the new frame; the
 * owner derives each node's own count when it writes the profile. Every
 * other jump, and any miss, goes to `transfer`, which applies the full
 * rules and may grow the stack. The slot past the last one is a guard
 * that no call matches.
 */
#ifndef EXECUTOR_TRACE_H
#define EXECUTOR_TRACE_H

#include <stdint.h>

/* What a slot of the shadow stack knows about a node it was set up for. */
struct trace_slot_node {
    uint64_t key;      /* the call target the node stands for */
    uint64_t lo, span; /* the function holding `key`: [lo, lo + span); span 0: none */
    uint64_t acc;      /* clock ticks run in the node from this slot, not yet added to */
                       /* it; a live frame's less the clock at its entry */
    uint32_t node;     /* the call-graph node */
    uint32_t parent;   /* the node below when the slot was set up for it (UINT32_MAX: never) */
};

/* How many nodes a slot remembers besides its current one. */
#define TRACE_SLOT_ALTS 3

/*
 * One slot of the tracer's shadow stack: a frame while at or below the
 * top. `cur` is the frame's node; `alt` the nodes the slot held before, so
 * that callers at this depth that alternate between a few callees (or a
 * few callers of one callee) find theirs.
 */
struct trace_frame {
    uint64_t ret;     /* the return address this frame expects (UINT64_MAX: none) */
    uintptr_t ret_at; /* the loop's: where ret's code lies (set with ret; see trace_enter) */
    struct trace_slot_node cur;
    struct trace_slot_node alt[TRACE_SLOT_ALTS];
    uint64_t unused[2];
};

_Static_assert(sizeof(struct trace_frame) == 192, "a frame is three cache lines");

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

/*
 * The clock the counts (a slot's acc) use:
 * TRACE_CLOCK_TICKS x (instructions retired - base), modulo 2^64. The fast
 * loop has it at hand as ip - lim (entries are 16 bytes, and its base is
 * where its budget ends), so reading it costs one subtraction.
 */
#define TRACE_CLOCK_TICKS 16

struct flow_tracer {
    struct trace_frame *top;    /* the current frame */
    struct trace_frame *bottom; /* the root frame: frames are bottom..top */
    uint64_t base;              /* the clock's base (trace_rebase moves it) */
    /*
     * A jal or jalr at `pc` went to `target` and the fast paths below did
     * not apply. rd and rs1 are register numbers (x0 is 0; rs1 is 0 for
     * jal). `now` is the clock after the jump retired.
     */
    void (*transfer)(struct flow_tracer *t, uint64_t pc, uint64_t target, unsigned rd, unsigned rs1,
                     uint64_t now);
};

static inline int trace_is_link(unsigned reg)
{
    return reg == 1 || reg == 5;
}

/* Makes the node the slot held before as alt[i] its current one, and the current one alt[i]. */
static inline void trace_frame_swap(struct trace_frame *f, int i)
{
    struct trace_slot_node was = f->cur;
    f->cur = f->alt[i];
    f->alt[i] = was;
}

/* Whether `addr` lies in the function of the frame's current node. */
static inline int trace_frame_holds(const struct trace_frame *f, uint64_t addr)
{
    return addr - f->cur.lo < f->cur.span; /* lo <= addr < lo + span; never when span is 0 */
}

/*
 * The earlier node (alt index) the slot holds for the call target `key`
 * under the node `parent`, or -1. A node stands for one (parent, key), so
 * at most one matches.
 */
static inline int trace_slot_find(const struct trace_frame *f, uint64_t key, uint32_t parent)
{
    for (int i = 0; i < TRACE_SLOT_ALTS; i++)
        if (f->alt[i].key == key && f->alt[i].parent == parent)
            return i;
    return -1;
}

/*
 * The fast paths, one per kind of jump (see executor/decode.h), and a
 * second one each for jumps (trace_tail_fast) and calls (trace_call_alt)
 * that the first one did not take. They work on `*top`, the tracer's top
 * frame, which the traced loops keep at hand (and store in t->top before
 * they call `transfer` or stop); each returns 0 when it did not apply,
 * and when neither did, `transfer` must be called. `now` is the clock
 * (see struct flow_tracer).
 */
static inline int trace_jump_fast(const struct trace_frame *top, uint64_t target)
{
    return trace_frame_holds(top, target);
}

/*
 * A jump out of the top frame's function is a tail call: the frame's node
 * becomes the child, for `target`, of the node below. When the slot held
 * that node before (the same frame tail-called there already, or the
 * caller called it directly), take it back.
 */
static inline int trace_tail_fast(struct trace_frame *f, uint64_t target, uint64_t now)
{
    int i = trace_slot_find(f, target, f->cur.parent);
    if (i < 0 || (f->cur.span == 0 && f->alt[i].span == 0)) /* neither in a function: no move */
        return 0;
    f->cur.acc += now; /* the old node's time ends, the new one's begins */
    trace_frame_swap(f, i);
    f->cur.acc -= now;
    return 1;
}

/* A return to the top frame's return address pops it (its ret_at is still there to read). */
static inline int trace_return_fast(struct trace_frame **top, uint64_t target, uint64_t now)
{
    struct trace_frame *f = *top;
    if (__builtin_expect(target != f->ret, 0))
        return 0;
    f->cur.acc += now; /* with -now at entry: what ran inside the frame */
    *top = f - 1;
    return 1;
}

/*
 * Pushes `up`, set up for the call, as the frame of a call at pc. `ret_at`
 * is the loop's own note of where pc + 4's code lies (in its code cache),
 * so that a return there needs no lookup; the loop also sets it for
 * frames that `transfer` pushes (never 0).
 */
static inline void trace_enter(struct trace_frame **top, struct trace_frame *up, uint64_t pc,
                               uintptr_t ret_at, uint64_t now)
{
    up->ret = pc + 4;
    up->ret_at = ret_at;
    up->cur.acc -= now; /* the return adds the clock then */
    *top = up;
}

/* A call to the node the slot above the top was set up for last. */
static inline int trace_call_fast(struct trace_frame **top, uint64_t pc, uint64_t target,
                                  uintptr_t ret_at, uint64_t now)
{
    struct trace_frame *f = *top, *up = f + 1;
    if (__builtin_expect(up->cur.key != target || up->cur.parent != f->cur.node, 0))
        return 0;
    trace_enter(top, up, pc, ret_at, now);
    return 1;
}

/* A call to a node the slot held before: callers at this depth alternate. */
static inline int trace_call_alt(struct trace_frame **top, uint64_t pc, uint64_t target,
                                 uintptr_t ret_at, uint64_t now)
{
    struct trace_frame *up = *top + 1;
    int i = trace_slot_find(up, target, (*top)->cur.node);
    if (i < 0)
        return 0;
    trace_frame_swap(up, i);
    trace_enter(top, up, pc, ret_at, now);
    return 1;
}

/* The clock reading for `retired` instructions. */
static inline uint64_t trace_clock(const struct flow_tracer *t, uint64_t retired)
{
    return (retired - t->base) * TRACE_CLOCK_TICKS;
}

/* Moves the clock's base to `base`; the live frames' counts keep their meaning. */
static inline void trace_rebase(struct flow_tracer *t, uint64_t base)
{
    uint64_t shift = (t->base - base) * TRACE_CLOCK_TICKS; /* what the clock now reads more */
    for (struct trace_frame *f = t->bottom; f <= t->top; f++)
        f->cur.acc -= shift;
    t->base = base;
}

#endif
