/*
 * trace: the contract between the executor's traced loops and a tracer
 * that follows the guest's call stack (tracer/guest_profile.c).
 *
 * When a machine has a tracer, its fast loop runs the traced handler
 * table, whose jal and jalr handlers report jumps; without one, tracing
 * costs nothing. The decoder has already split each jump by kind (call,
 * return, jump). To keep tracing nearly free, the handlers take the three
 * common cases themselves, touching only the tracer's shadow stack and
 * its link table:
 *   - a plain jump (rd and rs1 not link registers) that stays inside the
 *     function [lo, lo + span) of the top frame: nothing moves; one that
 *     leaves it is a tail call, taken inline when the link table knows
 *     the node it leads to;
 *   - a return (rd not link, rs1 link) to the top frame's return address:
 *     add what ran inside the frame to the slot's count, pop it, and go
 *     where the frame says that address's code lies (ret_at);
 *   - a call (rd link, rs1 not link or = rd) whose target and caller's
 *     node are those the slot above the top frame was set up for last:
 *     count from now in the slot and push it; else, when the link table
 *     knows the node, hand the slot's count to its old node, set the slot
 *     up for the new one and push it.
 * A slot keeps its node (and the count not yet handed to it) after its
 * frame is popped, so a caller that calls the same function again, as in
 * a loop, pushes without looking anything up. Nodes count inclusively (a
 * frame's whole lifetime), so a call touches only the new frame; the
 * owner derives each node's own count when it writes the profile. Every
 * other jump, and any miss, goes to `transfer`, which applies the full
 * rules, may grow the stack and fills the link table. The slot past the
 * last one is a guard that no call pushes.
 */
#ifndef EXECUTOR_TRACE_H
#define EXECUTOR_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/call_node.h" /* the nodes whose counts a slot's count is handed to */

/*
 * A link: the node that a call to `key` from a frame of node `parent`
 * leads to (a tail call to `key` in a frame whose node's parent is
 * `parent` leads to the same one), and the function that holds `key`.
 */
struct trace_link {
    uint64_t key;    /* the call target the node stands for */
    uint64_t lo;     /* the function holding `key`: [lo, lo + span) */
    int64_t *runs;   /* per-pc mode: the node's run array (trace_run_start; where it lies */
                     /* says trace_link_has_sites), or NULL: none kept */
    uint32_t span;   /* 0: no function holds `key` */
    uint32_t node;   /* the call-graph node */
    uint32_t parent; /* its parent (UINT32_MAX: an empty link, or a slot never set up) */
    uint32_t caller; /* the caller's node: `parent`, or in per-pc mode the call site's parent */
};

/*
 * Per-pc mode: whether calls from the link's function hang under call-site
 * nodes (trace_call_fast_site), told by where its run array lies: 8 bytes
 * past a 16-byte boundary for a function with inlined code, on one for a
 * function that keeps runs only for its opcodes' costs (per-pc weights),
 * whose calls hang under its node, as outside per-pc mode. The hooks then
 * use the pointer as it is.
 */
#define TRACE_RUNS_SITES ((uintptr_t)8)

static inline int trace_link_has_sites(const struct trace_link *l)
{
    return ((uintptr_t)l->runs & TRACE_RUNS_SITES) != 0;
}

/*
 * The link table holds 1 << TRACE_LINK_BITS links, in pairs; a link's hash picks its pair. It is
 * a cache in front of the trie, not a table (a pushed-out link is made again by `transfer`), and
 * the handlers probe it inline, so it is fixed-size and hand-written rather than uthash.
 */
#define TRACE_LINK_BITS 12

/*
 * One slot of the tracer's shadow stack: a frame while at or below the
 * top. It stays set up for its node after the frame is popped, with the
 * count not yet handed to the node, until a call at its depth needs it
 * for another node.
 */
struct trace_frame {
    uint64_t ret;           /* the return address this frame expects (UINT64_MAX: none) */
    uintptr_t ret_at;       /* the loop's: where ret's code lies (set with ret; see trace_enter) */
    struct trace_link link; /* the node the slot is set up for */
    uint64_t acc;           /* clock ticks run in the node from this slot, not yet added to */
                            /* it; a live frame's less the clock at its entry */
    uint64_t cost_acc;      /* cost mode: as acc, for the cost clock (its node's in node_costs) */
};

/*
 * The clock the counts (a slot's acc) use:
 * TRACE_CLOCK_TICKS x (instructions retired - base), modulo 2^64. The fast
 * loop has it at hand as ip - lim (entries are 16 bytes, and its base is
 * where its budget ends), so reading it costs one subtraction.
 */
#define TRACE_CLOCK_TICKS 16

/* A jump's kind, as the decoder tells it from the link registers (executor/decode.h). */
enum trace_kind {
    TRACE_KIND_JUMP,        /* jal or jalr, rd not a link (and for jalr rs1 not a link) */
    TRACE_KIND_CALL,        /* rd a link; for jalr rs1 not a link, or the same one */
    TRACE_KIND_RETURN,      /* jalr, rs1 a link, rd not */
    TRACE_KIND_RETURN_CALL, /* jalr, rd and rs1 different links: a return, then a call */
};

struct flow_tracer {
    struct trace_frame *top;    /* the current frame */
    struct trace_frame *bottom; /* the root frame: frames are bottom..top */
    struct trace_frame *guard;  /* the slot past the last one the stack has room for */
    uint64_t base;              /* the clock's base (trace_rebase moves it) */
    struct trace_link *links;   /* the link table (the owner fills it) */
    struct call_node *nodes;    /* the nodes, whose counts a slot's count is handed to */
    /*
     * Per-pc mode (inline frames): the loops keep every link's run array
     * (trace_run_start), and a call's node hangs under a call-site node,
     * so the call fast path is trace_call_fast_site and trace_call_linked
     * is not used.
     */
    bool per_pc;
    /*
     * Per-pc mode: log2 of the bytes of code per run-array slot: 2, or 1
     * on a hart with C, whose instructions may start at any halfword (the
     * owner sets it; the loops know it as their code cache's slot).
     */
    unsigned run_shift;
    /*
     * A jal or jalr of the given kind at `pc`, `len` bytes long (4, or 2
     * for a compressed one: a call's return address is pc + len), went to
     * `target`, and the fast paths below did not apply. `now` is the clock
     * after the jump retired.
     */
    void (*transfer)(struct flow_tracer *t, enum trace_kind kind, uint64_t pc, unsigned len,
                     uint64_t target, uint64_t now);
    /*
     * The ecall that just retired in the top frame was the zkVM call
     * `call` (a static name) at `pc`: it counts in a leaf frame of its own.
     */
    void (*ecall)(struct flow_tracer *t, const char *call, uint64_t pc);
    /*
     * mark notes the call stack as it is; rewind puts it back so when the
     * guest goes on at the earlier point where mark was called (SP1's
     * EXIT_UNCONSTRAINED resumes after its ENTER). `now` is the clock
     * after the ecall that rewinds retired.
     */
    void (*mark)(struct flow_tracer *t);
    void (*rewind)(struct flow_tracer *t, uint64_t now);
    /*
     * Per-pc mode: the owner says once per function [lo, end) whether its
     * frames keep run arrays (`kept`), so that the machine can run that
     * code's branches without the run hooks (code_cache_note_runs). The
     * machine sets it (machine_attach_tracer; NULL: nobody listens).
     */
    void (*note_runs)(void *machine, uint64_t lo, uint64_t end, bool kept);
    /*
     * Cost mode (the owner sets it, on a machine with a cost clock:
     * machine_set_cost_clock): beside the clock of instructions, a second
     * one counts TRACE_CLOCK_TICKS x a weight's cost of the instructions
     * retired, and each node that cost in node_costs (the owner keeps the
     * array as long as the nodes), so the loops keep no runs for it
     * ("Cost clock" below). Its readings do not depend on the budget:
     * `cost_now` is that clock where the machine last stopped or called
     * `transfer`, `ecall` or `rewind`.
     */
    bool cost_clock;
    uint64_t cost_now;
    uint64_t *node_costs;
    /* Cost mode: the clock ticks of the instruction at pc (the machine sets it). */
    uint64_t (*ticks_at)(void *machine, uint64_t pc);
    /*
     * Per-pc mode: the target and length of the branch or jal at pc (the
     * runs' taken counts are folded with them: TRACE_RUN_TAKEN); false
     * when pc holds neither. The machine sets it.
     */
    bool (*jump_of)(void *machine, uint64_t pc, uint64_t *target, unsigned *len);
    void *machine;
};

/*
 * The pair of places where the link for (key, parent) may be: the newest
 * link of the pair first (two, so that two busy links whose hashes meet
 * do not keep pushing each other out).
 */
static inline struct trace_link *trace_link_pair(const struct flow_tracer *t, uint64_t key,
                                                 uint32_t parent)
{
    uint32_t h = (uint32_t)(key >> 2) * 0x9e3779b1u + parent * 0x85ebca6bu;
    return &t->links[(h >> (32 - TRACE_LINK_BITS)) & ~1u];
}

static inline int trace_link_is(const struct trace_link *l, uint64_t key, uint32_t parent)
{
    return l->key == key && l->parent == parent;
}

/* The link for (key, parent) if the table holds it, else NULL. */
static inline const struct trace_link *trace_link_find(const struct flow_tracer *t, uint64_t key,
                                                       uint32_t parent)
{
    const struct trace_link *pair = trace_link_pair(t, key, parent);
    if (trace_link_is(&pair[0], key, parent))
        return &pair[0];
    return trace_link_is(&pair[1], key, parent) ? &pair[1] : NULL;
}

/*
 * The clocks a fast path reads: the instruction clock `now`, and in cost
 * mode (`cost`, which the cost loops know at compile time) the cost
 * clock `cost_now`. Each hook below moves a frame's count on both.
 */
#define TRACE_NOW_PARAMS uint64_t now, bool cost, uint64_t cost_now
#define TRACE_NOW_ARGS   now, cost, cost_now

/*
 * Hands the counts a slot holds (plus the clocks: 0, or their readings for
 * a live frame) to its node and sets the slot up for `link`, counting
 * from zero. A slot never set up holds node 0 and no count.
 */
static inline void trace_slot_relink(const struct flow_tracer *t, struct trace_frame *f,
                                     const struct trace_link *link, TRACE_NOW_PARAMS)
{
    t->nodes[f->link.node].count += (f->acc + now) / TRACE_CLOCK_TICKS;
    if (cost) {
        t->node_costs[f->link.node] += (f->cost_acc + cost_now) / TRACE_CLOCK_TICKS;
        f->cost_acc = 0;
    }
    f->link = *link;
    f->acc = 0;
}

/* A frame's time in its node begins now: the clocks are taken off its counts. */
static inline void trace_frame_open(struct trace_frame *f, TRACE_NOW_PARAMS)
{
    f->acc -= now;
    if (cost)
        f->cost_acc -= cost_now;
}

/* A frame's time in its node ends now: with trace_frame_open's, what ran in it. */
static inline void trace_frame_close(struct trace_frame *f, TRACE_NOW_PARAMS)
{
    f->acc += now;
    if (cost)
        f->cost_acc += cost_now;
}

/* Whether `addr` lies in the function of the frame's node. */
static inline int trace_frame_holds(const struct trace_frame *f, uint64_t addr)
{
    return addr - f->link.lo < f->link.span; /* lo <= addr < lo + span; never when span is 0 */
}

/*
 * The fast paths, one per kind of jump (see executor/decode.h), and a
 * second one each for jumps (trace_tail_fast) and calls
 * (trace_call_linked) that the first one did not take. They work on
 * `*top`, the tracer's top frame, which the traced loops keep at hand
 * (and store in t->top before they call `transfer` or stop); each returns
 * 0 when it did not apply, and when neither did, `transfer` must be
 * called. `now` is the clock (see struct flow_tracer).
 */
static inline int trace_jump_fast(const struct trace_frame *top, uint64_t target)
{
    return trace_frame_holds(top, target);
}

/* The link of a tail call to `target` from frame f (trace_tail_fast), or NULL: `transfer` decides.
 */
static inline const struct trace_link *trace_tail_link(const struct flow_tracer *t,
                                                       const struct trace_frame *f, uint64_t target)
{
    const struct trace_link *l = trace_link_find(t, target, f->link.parent);
    if (!l || (f->link.span == 0 && l->span == 0)) /* neither in a function */
        return NULL;
    return l;
}

/* A tail call's frame becomes link l's: its count so far goes to its old node, it counts on. */
static inline void trace_tail_to(const struct flow_tracer *t, struct trace_frame *f,
                                 const struct trace_link *l, TRACE_NOW_PARAMS)
{
    trace_slot_relink(t, f, l, TRACE_NOW_ARGS); /* the old node's time ends, the new one's begins */
    trace_frame_open(f, TRACE_NOW_ARGS);
}

/*
 * A jump out of the top frame's function is a tail call: the frame's node
 * becomes the child, for `target`, of the node below. When the link table
 * knows that node, hand the frame's count so far to its old node and
 * count on in the new one.
 */
static inline int trace_tail_fast(const struct flow_tracer *t, struct trace_frame *f,
                                  uint64_t target, TRACE_NOW_PARAMS)
{
    const struct trace_link *l = trace_tail_link(t, f, target);
    if (!l)
        return 0;
    trace_tail_to(t, f, l, TRACE_NOW_ARGS);
    return 1;
}

/* A return to the top frame's return address pops it (its ret_at is still there to read). */
static inline int trace_return_fast(struct trace_frame **top, uint64_t target, TRACE_NOW_PARAMS)
{
    struct trace_frame *f = *top;
    if (__builtin_expect(target != f->ret, 0))
        return 0;
    trace_frame_close(f, TRACE_NOW_ARGS); /* with the clocks at entry: what ran inside it */
    *top = f - 1;
    return 1;
}

/*
 * Pushes `up`, set up for the call, as the frame of a call at pc, `len`
 * bytes long (4, or 2 for c.jal and c.jalr). `ret_at` is the loop's own
 * note of where pc + len's code lies (in its code cache), so that a
 * return there needs no lookup; the loop also sets it for frames that
 * `transfer` pushes (never 0).
 */
static inline void trace_enter(struct trace_frame **top, struct trace_frame *up, uint64_t pc,
                               unsigned len, uintptr_t ret_at, TRACE_NOW_PARAMS)
{
    up->ret = pc + len;
    up->ret_at = ret_at;
    trace_frame_open(up, TRACE_NOW_ARGS); /* the return adds the clocks then */
    *top = up;
}

/* A call to the node the slot above the top was set up for last. */
static inline int trace_call_fast(struct trace_frame **top, uint64_t pc, unsigned len,
                                  uint64_t target, uintptr_t ret_at, TRACE_NOW_PARAMS)
{
    struct trace_frame *f = *top, *up = f + 1;
    if (__builtin_expect(up->link.key != target || up->link.parent != f->link.node, 0))
        return 0;
    trace_enter(top, up, pc, len, ret_at, TRACE_NOW_ARGS);
    return 1;
}

/* A call to another node, which the link table knows: the slot is set up for it. */
static inline int trace_call_linked(const struct flow_tracer *t, struct trace_frame **top,
                                    uint64_t pc, unsigned len, uint64_t target, uintptr_t ret_at,
                                    TRACE_NOW_PARAMS)
{
    struct trace_frame *up = *top + 1;
    const struct trace_link *l = trace_link_find(t, target, (*top)->link.node);
    if (!l || up == t->guard) /* `transfer` grows the stack */
        return 0;
    trace_slot_relink(t, up, l, 0, cost, 0);
    trace_enter(top, up, pc, len, ret_at, TRACE_NOW_ARGS);
    return 1;
}

/*
 * Per-pc mode: a call from the top frame at pc to the node the slot above
 * was set up for last, from the same call site (the slot keeps its return
 * address after a pop, and a node's call site is its link's parent). A
 * caller without a run array has no inlined code, so its calls hang under
 * its own node as outside per-pc mode, whatever their pc.
 */
static inline int trace_call_fast_site(struct trace_frame **top, uint64_t pc, unsigned len,
                                       uint64_t target, uintptr_t ret_at, TRACE_NOW_PARAMS)
{
    struct trace_frame *f = *top, *up = f + 1;
    if (!trace_link_has_sites(&f->link)) /* every call pc of the caller is its node's own site */
        return trace_call_fast(top, pc, len, target, ret_at, TRACE_NOW_ARGS);
    if (__builtin_expect(
            up->link.key != target || up->link.caller != f->link.node || up->ret != pc + len, 0))
        return 0;
    trace_enter(top, up, pc, len, ret_at, TRACE_NOW_ARGS);
    return 1;
}

/*
 * Per-pc mode: a call from another call pc, when the link table knows
 * the node the call pc leads under (its key pc | 1, the caller's node:
 * the caller's or a call-site node) and, unless the slot above is set up
 * for the callee under it already (two call pcs of one site), the
 * callee's node there.
 */
static inline int trace_call_linked_site(const struct flow_tracer *t, struct trace_frame **top,
                                         uint64_t pc, unsigned len, uint64_t target,
                                         uintptr_t ret_at, TRACE_NOW_PARAMS)
{
    if (!trace_link_has_sites(&(*top)->link)) /* as in trace_call_fast_site */
        return trace_call_linked(t, top, pc, len, target, ret_at, TRACE_NOW_ARGS);
    struct trace_frame *up = *top + 1;
    const struct trace_link *site = trace_link_find(t, pc | 1, (*top)->link.node);
    if (!site || up == t->guard)
        return 0;
    if (up->link.key == target && up->link.parent == site->node) { /* another pc, same site */
        trace_enter(top, up, pc, len, ret_at, TRACE_NOW_ARGS);
        return 1;
    }
    const struct trace_link *l = trace_link_find(t, target, site->node);
    if (!l)
        return 0;
    trace_slot_relink(t, up, l, 0, cost, 0);
    trace_enter(top, up, pc, len, ret_at, TRACE_NOW_ARGS);
    return 1;
}

/*
 * Runs (per-pc mode): between two taken transfers the guest runs
 * sequentially, from a to b, in the top frame. A node's run array has an
 * entry per slot (1 << shift bytes: run_shift) of its function and one
 * past it: a run adds 1 at a's index and takes 1 at the index of b + b's
 * length, indexes clamped to the array, so that the prefix sums at write
 * time are each pc's count in the node (pcs outside the function fall on
 * the first or the last entry, where they cancel or stay out of the
 * function's pcs). A node whose function needs no per-pc counts (no
 * inlined code, and no opcode costs that differ) keeps none (runs NULL):
 * the hooks then do nothing. docs/ARCHITECTURE.md, "Inline
 * frames".
 *
 * Calls and returns, the commonest transfers, skip three of their four
 * hooks, and the owner makes up for them when it writes the profile:
 *   - a call leaves the caller's run open: it goes on at the return
 *     address when the callee's frame returns there (the fast return
 *     starts nothing); a frame popped any other way (the owner's
 *     `transfer`, rewind) ends its caller's run at its return address,
 *     and a frame pushed by hand starts one there; a live frame's open
 *     run ends there when the profile is written;
 *   - a call the fast paths push starts no run in the callee: each such
 *     run starts at the node's key (the call target), so their number is
 *     what the node's array has more ends than starts.
 * Only the callee's run end at its return is written.
 */
/*
 * The run-array index of addr (an instruction's address, or one just past
 * an instruction) in the link's function. The end just past the function's
 * last instruction, a return's, is common: for a function that starts on a
 * slot, addr - lo = span there is a whole number of slots, so it takes the
 * last entry without a clamp.
 */
static inline size_t trace_run_index(const struct trace_link *l, uint64_t addr, unsigned shift)
{
    uint64_t d = addr - l->lo;
    if (__builtin_expect(d <= l->span, 1))
        return (size_t)(d >> shift);
    return (int64_t)d < 0 ? 0 : ((size_t)l->span + (1u << shift) - 1) >> shift;
}

/*
 * A run array holds two counts per slot: the runs' starts less their ends
 * at TRACE_RUN_DELTA(i), and at TRACE_RUN_TAKEN(i) how often the branch
 * or jal at slot i was taken in the node. A taken branch ends a run after
 * it and starts one at its target, both fixed by the instruction: so the
 * hook counts it once, at its own slot, and the owner folds the counts
 * into the deltas before it reads them (trace_runs_fold).
 */
#define TRACE_RUN_DELTA(i) (2 * (size_t)(i))
#define TRACE_RUN_TAKEN(i) (2 * (size_t)(i) + 1)

/* A run starts at pc in the frame (or an end just before pc is undone). */
static inline void trace_run_start(const struct trace_frame *f, uint64_t pc, unsigned shift)
{
    int64_t *runs = f->link.runs;
    if (__builtin_expect(runs != NULL, 0))
        runs[TRACE_RUN_DELTA(trace_run_index(&f->link, pc, shift))]++;
}

/* A run ends just before pc (pc did not run) in the frame. */
static inline void trace_run_end_before(const struct trace_frame *f, uint64_t pc, unsigned shift)
{
    int64_t *runs = f->link.runs;
    if (__builtin_expect(runs != NULL, 0))
        runs[TRACE_RUN_DELTA(trace_run_index(&f->link, pc, shift))]--;
}

/* The run ends a taken branch of `len` bytes at pc to target makes, in the link's array. */
static inline void trace_run_branch_ends(const struct trace_link *l, uint64_t pc, unsigned len,
                                         uint64_t target, unsigned shift, int64_t times)
{
    l->runs[TRACE_RUN_DELTA(trace_run_index(l, pc + len, shift))] -= times;
    l->runs[TRACE_RUN_DELTA(trace_run_index(l, target, shift))] += times;
}

/*
 * A taken branch (or a jump inside the function) of `len` bytes at pc to
 * target: the run ends at pc and one starts at target, in the same frame.
 * Counted at pc's slot when pc lies in the frame's function, the usual
 * case; else its ends are written now.
 */
static inline void trace_run_branch(const struct trace_frame *f, uint64_t pc, unsigned len,
                                    uint64_t target, unsigned shift)
{
    int64_t *runs = f->link.runs;
    if (!runs)
        return;
    uint64_t at = pc - f->link.lo;
    if (__builtin_expect(at < f->link.span, 1)) {
        runs[TRACE_RUN_TAKEN(at >> shift)]++;
        return;
    }
    trace_run_branch_ends(&f->link, pc, len, target, shift, 1);
}

/*
 * Cost clock (cost mode): the code cache keeps, per entry, the cost of
 * the code before it and through it (code_cache.h, struct code_cost,
 * with the sums taken along the cache as if it ran straight through). The
 * loops read the clock as `through` of the instruction that just retired
 * less `cl`, a sum they keep, and a taken transfer from entry a to entry
 * b adds b's `before` less a's `through` to `cl`: what running straight on
 * from a to b would have counted comes off. A weight of one cost per
 * opcode class (or per word) thus costs its loops two loads and two adds
 * per taken transfer, and nothing per instruction. The instruction clock
 * runs beside it as in every mode, so nodes count both: the instructions
 * (and any weight of one cost per instruction) and the clock's weight.
 */

/* The instruction clock's reading for `retired` instructions. */
static inline uint64_t trace_clock(const struct flow_tracer *t, uint64_t retired)
{
    return (retired - t->base) * TRACE_CLOCK_TICKS;
}

/*
 * Takes `ticks` from every live frame's count: the clock reads that much
 * more from now on (trace_rebase).
 */
static inline void trace_take_from_frames(struct flow_tracer *t, uint64_t ticks)
{
    for (struct trace_frame *f = t->bottom; f <= t->top; f++)
        f->acc -= ticks;
}

/*
 * Cost mode: takes `ticks` from every live frame's cost count: they
 * belong to no live frame (the cost of an ecall beyond its leaf's).
 */
static inline void trace_take_cost_from_frames(struct flow_tracer *t, uint64_t ticks)
{
    for (struct trace_frame *f = t->bottom; f <= t->top; f++)
        f->cost_acc -= ticks;
}

/*
 * Moves the instruction clock's base to `base`; the live frames' counts
 * keep their meaning. The cost clock has no base: it reads the same in
 * every run.
 */
static inline void trace_rebase(struct flow_tracer *t, uint64_t base)
{
    /* the clock now reads (t->base - base) instructions more */
    trace_take_from_frames(t, (t->base - base) * TRACE_CLOCK_TICKS);
    t->base = base;
}

#endif
