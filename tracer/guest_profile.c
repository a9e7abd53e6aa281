/*
 * guest_profile: the stack rules (docs/CONTRACT.md#2-guest-profiles, "How the stack moves"),
 * applied at every jump the fast paths of executor/trace.h left to it.
 * The decoder has told each jump's kind from its link registers
 * (executor/decode.h): CALL t pushes a frame, RETURN to t pops to the
 * frame that expects t (or, as after longjmp, to the frame whose function
 * holds t), RETURN then CALL does both, and JUMP t out of the top frame's
 * function is a tail call that replaces the top frame.
 */
#include "tracer/guest_profile.h"

#include <stdlib.h>
#include <string.h>

/* The function (index + 1) holding `target`, or 0; looked up once per target. */
static uint32_t function_of(struct guest_profile *p, uint64_t target)
{
    return target_cache_function(&p->targets, target);
}

/* ---- the stack ---- */

#define SLOT_UNSET UINT32_MAX /* a slot's parent before it was ever set up */

static struct trace_frame *top(struct guest_profile *p)
{
    return p->tracer.top;
}

static size_t depth(const struct guest_profile *p)
{
    return (size_t)(p->tracer.top - p->stack) + 1;
}

/* Marks slots [from, to) as never set up: no call matches them. */
static void unset_slots(struct trace_frame *s, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        s[i] = (struct trace_frame){.ret = GUEST_NO_RETURN, .link = {.parent = SLOT_UNSET}};
}

/*
 * A per-node array of `*cap` entries of `size` bytes grown to hold entry
 * `node`, the new entries zeroed: the array (moved, or as it was when it
 * had room), or NULL when memory runs out (the old one is kept).
 */
static void *grow_per_node(void *array, size_t *cap, uint32_t node, size_t size)
{
    if (node < *cap)
        return array;
    size_t want = *cap ? 2 * *cap : 256;
    while (want <= node)
        want *= 2;
    unsigned char *grown = realloc(array, want * size);
    if (!grown)
        return NULL;
    memset(grown + *cap * size, 0, (want - *cap) * size);
    *cap = want;
    return grown;
}

/* Cost mode: room in node_costs for node `node` (new ones count zero). */
static bool room_for_cost(struct guest_profile *p, uint32_t node)
{
    uint64_t *costs = grow_per_node(p->tracer.node_costs, &p->node_costs_cap, node, sizeof(*costs));
    if (costs)
        p->tracer.node_costs = costs;
    return costs != NULL;
}

/* The child of `parent` for `key`; *created says whether it is new. UINT32_MAX: no memory. */
static uint32_t child_node(struct guest_profile *p, uint32_t parent, uint64_t key, bool *created)
{
    uint32_t node = trie_child(&p->trie, parent, key, created);
    if (node == UINT32_MAX || (p->tracer.cost_clock && !room_for_cost(p, node))) {
        p->out_of_memory = true;
        return UINT32_MAX;
    }
    p->tracer.nodes = p->trie.nodes; /* the trie may have moved them */
    return node;
}

/*
 * A zeroed run array of n entries, placed as trace_link_has_sites reads
 * it: 8 bytes past a 16-byte boundary for a function whose calls hang
 * under call-site nodes (`sites`), else on one.
 */
static int64_t *alloc_runs(size_t n, bool sites)
{
    size_t bytes = ((n + 1) * sizeof(int64_t) + 15) & ~(size_t)15;
    int64_t *block = aligned_alloc(16, bytes);
    if (!block)
        return NULL;
    memset(block, 0, bytes);
    return sites ? block + 1 : block;
}

static void free_runs(int64_t *runs)
{
    free((uintptr_t)runs & TRACE_RUNS_SITES ? runs - 1 : runs);
}

/*
 * Per-pc mode: a new frame node's run array, one entry per slot (4 bytes,
 * or 2 with C) of its function and one past it (executor/trace.h, "Runs");
 * none (NULL) when span is 0.
 */
static bool add_runs(struct guest_profile *p, uint32_t node, uint64_t span, bool sites)
{
    int64_t **runs = grow_per_node(p->runs, &p->runs_cap, node, sizeof(*runs));
    if (!runs)
        return false;
    p->runs = runs;
    if (span == 0)
        return true;
    unsigned shift = p->tracer.run_shift;
    size_t slots = ((span + (1u << shift) - 1) >> shift) + 1;
    p->runs[node] = alloc_runs(TRACE_RUN_DELTA(slots), sites); /* a delta and a taken count each */
    return p->runs[node] != NULL;
}

/*
 * The id of the inline chain at pc (its frames' names, the unnamed left
 * out), 0 for none, each distinct chain noted once with a pc that has it.
 * Read from DWARF once per call pc (inline_chains keeps every answer).
 */
static uint32_t chain_id(struct guest_profile *p, uint64_t pc)
{
    struct error e = ERROR_INIT;
    const struct inline_chain *c = inline_chain_at(p->inlines, pc, &e);
    if (!c)
        return UINT32_MAX;
    size_t len = 0;
    for (size_t i = 0; i < c->depth; i++)
        if (c->frames[i].name)
            len += strlen(c->frames[i].name) + 1;
    if (len == 0)
        return 0;
    char *text = malloc(len), *at = text;
    if (!text)
        return UINT32_MAX;
    for (size_t i = 0; i < c->depth; i++)
        if (c->frames[i].name)
            at = stpcpy(at, c->frames[i].name) + 1; /* NUL-separated */
    uint32_t id = strtab_intern(&p->chains, text, len);
    free(text);
    if (id == 0)
        return UINT32_MAX;
    if (id >= p->chain_pcs_cap) {
        size_t cap = p->chain_pcs_cap ? 2 * p->chain_pcs_cap : 64;
        while (cap <= id)
            cap *= 2;
        uint64_t *pcs = realloc(p->chain_pcs, cap * sizeof(*pcs));
        if (!pcs)
            return UINT32_MAX;
        p->chain_pcs = pcs;
        p->chain_pcs_cap = cap;
    }
    p->chain_pcs[id] = pc; /* any pc with the chain stands for it */
    return id;
}

/*
 * Whether any pc of function `func` (index + 1) has an inline chain with
 * a name (chain_id would not be 0), asked once per function.
 * Without one, its nodes need no per-pc counts (they would all go on the
 * function frame) and its call pcs no site nodes. -1: no memory.
 */
static int function_inlines(struct guest_profile *p, uint32_t func)
{
    if (!p->func_inlines) {
        p->func_inlines = calloc(p->syms->count, 1);
        if (!p->func_inlines)
            return -1;
    }
    uint8_t *known = &p->func_inlines[func - 1]; /* 0 unknown, 1 none, 2 some */
    if (*known == 0) {
        const struct symtab_func *f = &p->syms->funcs[func - 1];
        struct error e = ERROR_INIT;
        int some = inline_chains_any_named(p->inlines, f->start, f->end, 2, &e); /* RVC: 2 */
        if (some < 0)
            return -1;
        *known = some ? 2 : 1;
    }
    return *known == 2;
}

/* With all_pcs: whether function `func` (index + 1) needs its pcs counted; -1: no memory. */
static int function_pcs_differ(struct guest_profile *p, uint32_t func)
{
    if (!p->pcs_differ)
        return 1;
    if (!p->func_pcs) {
        p->func_pcs = calloc(p->syms->count, 1);
        if (!p->func_pcs)
            return -1;
    }
    uint8_t *known = &p->func_pcs[func - 1];
    if (*known == 0) {
        const struct symtab_func *f = &p->syms->funcs[func - 1];
        *known = p->pcs_differ(p->pcs_ctx, f->start, f->end) ? 2 : 1;
        p->pcs_skipped |= *known == 1;
    }
    return *known == 2;
}

/*
 * Per-pc mode: whether the nodes of function `func` (index + 1) keep run
 * arrays: when the function has inlined code (function_inlines), or when
 * every pc is counted (all_pcs) and its pcs' costs differ. Decided once
 * per function and told to the machine (flow_tracer.note_runs). -1: no
 * memory.
 */
static int function_keeps_runs(struct guest_profile *p, uint32_t func)
{
    if (!p->func_runs && !(p->func_runs = calloc(p->syms->count, 1)))
        return -1;
    uint8_t *known = &p->func_runs[func - 1];
    if (*known == 0) {
        int kept = p->all_pcs ? function_pcs_differ(p, func) : 0;
        if (kept == 0 && p->inlines)
            kept = function_inlines(p, func);
        if (kept < 0)
            return -1;
        *known = kept ? 2 : 1;
        const struct symtab_func *f = &p->syms->funcs[func - 1];
        if (p->tracer.note_runs)
            p->tracer.note_runs(p->tracer.machine, f->start, f->end, kept);
    }
    return *known == 2;
}

/* Per-pc mode: a new node of function `func` (index + 1, or 0): its run array, if it keeps one. */
static bool add_node_runs(struct guest_profile *p, uint32_t node, uint32_t func)
{
    int kept = func ? function_keeps_runs(p, func) : 0;
    if (kept < 0)
        return false;
    int sites = kept && p->inlines ? function_inlines(p, func) : 0;
    if (sites < 0)
        return false;
    const struct symtab_func *f = kept ? &p->syms->funcs[func - 1] : NULL;
    return add_runs(p, node, f ? f->end - f->start : 0, sites);
}

/* The frame node for `target` under `parent`, resolving its function if new. */
static uint32_t frame_node(struct guest_profile *p, uint32_t parent, uint64_t target)
{
    bool created;
    uint32_t node = child_node(p, parent, target, &created);
    if (node == UINT32_MAX || !created)
        return node;
    uint32_t func = function_of(p, target);
    p->trie.nodes[node].aux = func;
    if (p->tracer.per_pc) {
        if (!add_node_runs(p, node, func)) {
            p->out_of_memory = true;
            return UINT32_MAX;
        }
    }
    return node;
}

/*
 * The node a call at `pc` from the top frame hangs under: in per-pc mode
 * its call site's, a node per distinct inline chain at the call's pc
 * (where the pc lies in the frame's function; else, or with no chain, the
 * caller's own node, as outside per-pc mode), so that the trie has a node
 * per stack written, not per call instruction (recursion through two call
 * sites would double the nodes per level). The link table keeps (pc | 1,
 * caller) -> that node for the loops' call path (trace_call_linked_site).
 * UINT32_MAX: no memory.
 */
static uint32_t call_parent(struct guest_profile *p, uint64_t pc)
{
    const struct trace_frame *f = top(p);
    uint32_t caller = f->link.node;
    if (!p->tracer.per_pc)
        return caller;
    const struct trace_link *known = trace_link_find(&p->tracer, pc | GUEST_SITE_BIT, caller);
    if (known)
        return known->node;
    uint32_t id = p->inlines && trace_frame_holds(f, pc) ? chain_id(p, pc) : 0, site = caller;
    if (id == UINT32_MAX) {
        p->out_of_memory = true;
        return UINT32_MAX;
    }
    bool created;
    if (id)
        site = child_node(p, caller, ((uint64_t)id << 1) | GUEST_SITE_BIT, &created);
    if (site == UINT32_MAX)
        return UINT32_MAX;
    struct trace_link *pair = trace_link_pair(&p->tracer, pc | GUEST_SITE_BIT, caller);
    pair[1] = pair[0];
    pair[0] = (struct trace_link){
        .key = pc | GUEST_SITE_BIT, .node = site, .parent = caller, .caller = caller};
    return site;
}

/*
 * The link for a call to `target` from a frame of node `parent` (or a
 * tail call in a frame whose node's parent is `parent`): from the link
 * table, or made and put there, in place of the older link of its pair.
 * Nodes live as long as the profile, so a link never goes stale. NULL
 * when memory runs out.
 */
static const struct trace_link *link_to(struct guest_profile *p, uint32_t parent, uint64_t target)
{
    const struct trace_link *known = trace_link_find(&p->tracer, target, parent);
    if (known)
        return known;
    uint32_t node = frame_node(p, parent, target);
    if (node == UINT32_MAX)
        return NULL;
    uint32_t func = p->trie.nodes[node].aux;
    const struct symtab_func *f = func ? &p->syms->funcs[func - 1] : NULL;
    struct trace_link *pair = trace_link_pair(&p->tracer, target, parent);
    bool site = parent != TRIE_ROOT && guest_key_is_site(p->trie.nodes[parent].key);
    pair[1] = pair[0]; /* the older of the two goes */
    pair[0] = (struct trace_link){.key = target,
                                  .lo = f ? f->start : 0,
                                  .span = f ? (uint32_t)(f->end - f->start) : 0,
                                  .node = node,
                                  .parent = parent,
                                  .caller = site ? p->trie.nodes[parent].parent : parent};
    if (p->tracer.per_pc)
        pair[0].runs = p->runs[node];
    return &pair[0];
}

/* Sets the slot up for the link's node unless it is set up for it already (and counting). */
static void set_up_slot(struct guest_profile *p, struct trace_frame *f,
                        const struct trace_link *link)
{
    if (f->link.node != link->node || f->link.parent != link->parent)
        trace_slot_relink(&p->tracer, f, link, 0, p->tracer.cost_clock, 0);
}

/* One more slot than frames: the last is the guard the fast call path stops at. */
static bool grow_stack(struct guest_profile *p)
{
    size_t d = depth(p), cap = p->capacity * 2;
    struct trace_frame *s = realloc(p->stack, (cap + 1) * sizeof(*s));
    if (!s)
        return false;
    unset_slots(s, p->capacity + 1, cap + 1);
    p->stack = s;
    p->capacity = cap;
    p->tracer.bottom = s;
    p->tracer.top = s + d - 1;
    p->tracer.guard = s + cap;
    return true;
}

/*
 * A live frame's slot counts from its entry: the clocks then were taken
 * off its counts (open_frame), and are added back when the frame's time
 * with this node ends (close_frame). Counts are inclusive. `now` is the
 * instruction clock; in cost mode the cost clock reads tracer.cost_now.
 */
static void open_frame(const struct guest_profile *p, struct trace_frame *f, uint64_t now)
{
    trace_frame_open(f, now, p->tracer.cost_clock, p->tracer.cost_now);
}

static void close_frame(const struct guest_profile *p, struct trace_frame *f, uint64_t now)
{
    trace_frame_close(f, now, p->tracer.cost_clock, p->tracer.cost_now);
}

/*
 * A frame for a call at pc, `len` bytes long, to target: it returns to pc + len.
 * Whether it was pushed (not when the call leads nowhere, or memory ran out).
 */
static bool push(struct guest_profile *p, uint64_t target, uint64_t pc, unsigned len, uint64_t now)
{
    if (depth(p) == p->capacity && !grow_stack(p)) {
        p->out_of_memory = true;
        return false;
    }
    uint64_t ret = pc + len;
    uint32_t parent = call_parent(p, pc);
    const struct trace_link *link = parent == UINT32_MAX ? NULL : link_to(p, parent, target);
    if (!link)
        return false;
    struct trace_frame *f = ++p->tracer.top;
    set_up_slot(p, f, link);
    f->ret = ret;
    open_frame(p, f, now);
    return true;
}

/*
 * Pops frames down to depth d. Each popped frame's caller kept its run
 * open to the frame's return address (executor/trace.h, "Runs"): the run
 * ends there, and the loop starts one wherever the guest goes on.
 */
static void pop_to_depth(struct guest_profile *p, size_t d, uint64_t now)
{
    if (d < 1)
        d = 1; /* the root frame is never popped */
    while (depth(p) > d) {
        struct trace_frame *f = p->tracer.top--;
        close_frame(p, f, now);
        if (p->tracer.per_pc)
            trace_run_end_before(f - 1, f->ret, p->tracer.run_shift);
    }
}

/* Per-pc mode: a frame pushed by hand keeps its caller's run open to its return address. */
static void open_caller_run(struct guest_profile *p, const struct trace_frame *f)
{
    if (p->tracer.per_pc)
        trace_run_start(f - 1, f->ret, p->tracer.run_shift);
}

/* A tail call: the top frame becomes a frame for `target`, keeping its return address. */
static void replace_top(struct guest_profile *p, uint64_t target, uint64_t now)
{
    const struct trace_link *link = link_to(p, top(p)->link.parent, target);
    if (!link)
        return;
    close_frame(p, top(p), now);
    set_up_slot(p, top(p), link);
    open_frame(p, top(p), now);
}

static void jump(struct guest_profile *p, uint64_t target, uint64_t now)
{
    const struct trace_frame *cur = top(p);
    if (trace_frame_holds(cur, target))
        return; /* a loop, a branch table, self tail recursion */
    if (cur->link.span == 0 && function_of(p, target) == 0)
        return; /* neither in a function */
    replace_top(p, target, now);
}

static void return_to(struct guest_profile *p, uint64_t target, uint64_t now)
{
    /* The nearest frame (not the root) whose return address is the target. */
    for (size_t i = depth(p); i-- > 1;) {
        if (p->stack[i].ret == target) {
            pop_to_depth(p, i, now);
            return;
        }
    }
    /* longjmp: the nearest frame below the top whose function holds the target. */
    for (size_t i = depth(p) - 1; i-- > 0;) {
        if (trace_frame_holds(&p->stack[i], target)) {
            pop_to_depth(p, i + 1, now);
            return;
        }
    }
    jump(p, target, now);
}

static void on_transfer(struct flow_tracer *t, enum trace_kind kind, uint64_t pc, unsigned len,
                        uint64_t target, uint64_t now)
{
    struct guest_profile *p = (struct guest_profile *)t;
    if (p->out_of_memory)
        return;
    /*
     * A new frame returns after the call: pc + 4, or pc + 2 (c.jal, c.jalr).
     * The loop ended the top frame's run at the jump unless it was a call,
     * whose run a pushed frame keeps open (executor/trace.h, "Runs").
     */
    switch (kind) {
    case TRACE_KIND_RETURN_CALL:
        pop_to_depth(p, depth(p) - 1, now);
        if (push(p, target, pc, len, now))
            open_caller_run(p, top(p));
        break;
    case TRACE_KIND_CALL:
        if (!push(p, target, pc, len, now) && p->tracer.per_pc)
            trace_run_end_before(top(p), pc + len, p->tracer.run_shift);
        break;
    case TRACE_KIND_RETURN: return_to(p, target, now); break;
    case TRACE_KIND_JUMP: jump(p, target, now); break;
    }
}

/* The index of a call name (static strings: compared by address, then by text). */
static bool call_index(struct guest_profile *p, const char *call, size_t *index)
{
    for (size_t i = 0; i < p->ncalls; i++)
        if (p->calls[i] == call || strcmp(p->calls[i], call) == 0) {
            *index = i;
            return true;
        }
    if (p->ncalls == p->calls_cap) {
        size_t cap = p->calls_cap ? 2 * p->calls_cap : 16;
        const char **calls = realloc(p->calls, cap * sizeof(*calls));
        if (!calls)
            return false;
        p->calls = calls;
        p->calls_cap = cap;
    }
    p->calls[p->ncalls] = call;
    *index = p->ncalls++;
    return true;
}

/*
 * The ecall that just retired counts in a leaf frame for the call under
 * the top frame (in per-pc mode, under its call site): one more in that
 * node's (inclusive) count moves it out of the top frame's own count when
 * the profile is written, and out of the pc's count.
 */
static void on_ecall(struct flow_tracer *t, const char *call, uint64_t pc)
{
    struct guest_profile *p = (struct guest_profile *)t;
    size_t index;
    if (p->out_of_memory)
        return;
    if (!call_index(p, call, &index)) {
        p->out_of_memory = true;
        return;
    }
    bool created;
    uint32_t parent = call_parent(p, pc);
    uint32_t node =
        parent == UINT32_MAX ? UINT32_MAX : child_node(p, parent, guest_ecall_key(index), &created);
    if (node == UINT32_MAX)
        return;
    p->trie.nodes[node].count++;
    if (p->tracer.cost_clock) { /* the leaf counts calls: the ecall's cost leaves the stack */
        p->tracer.node_costs[node]++;
        trace_take_cost_from_frames(&p->tracer,
                                    p->tracer.ticks_at(p->tracer.machine, pc) - TRACE_CLOCK_TICKS);
    }
    if (p->tracer.per_pc) { /* the run holds pc: take it out */
        trace_run_end_before(top(p), pc, p->tracer.run_shift);
        trace_run_start(top(p), pc + 4, p->tracer.run_shift);
    }
}

/* Notes the stack, bottom to top, for on_rewind. */
static void on_mark(struct flow_tracer *t)
{
    struct guest_profile *p = (struct guest_profile *)t;
    size_t d = depth(p);
    struct trace_frame *copy = realloc(p->marked, d * sizeof(*copy));
    if (!copy) {
        p->out_of_memory = true;
        return;
    }
    memcpy(copy, p->stack, d * sizeof(*copy));
    p->marked = copy;
    p->marked_depth = d;
}

static bool same_frame(const struct trace_frame *a, const struct trace_frame *b)
{
    return a->ret == b->ret && a->link.node == b->link.node;
}

/*
 * The guest resumes where the stack was marked: the frames it still shares
 * with the marked stack stay, the others end, and the marked ones above
 * them are entered again, counting from now.
 */
static void on_rewind(struct flow_tracer *t, uint64_t now)
{
    struct guest_profile *p = (struct guest_profile *)t;
    if (p->out_of_memory || p->marked_depth == 0)
        return;
    size_t shared = 0, d = depth(p);
    while (shared < d && shared < p->marked_depth &&
           same_frame(&p->stack[shared], &p->marked[shared]))
        shared++;
    pop_to_depth(p, shared, now);
    if (shared == 0) { /* a different root frame: it is replaced, as by a tail call */
        close_frame(p, top(p), now);
        set_up_slot(p, top(p), &p->marked[0].link);
        open_frame(p, top(p), now);
        shared = 1;
    }
    for (size_t i = shared; i < p->marked_depth; i++) {
        if (depth(p) == p->capacity && !grow_stack(p)) {
            p->out_of_memory = true;
            return;
        }
        struct trace_frame *f = ++p->tracer.top;
        set_up_slot(p, f, &p->marked[i].link);
        f->ret = p->marked[i].ret;
        f->ret_at = p->marked[i].ret_at;
        open_frame(p, f, now);
        open_caller_run(p, f);
    }
}

bool guest_profile_init(struct guest_profile *p, const struct symtab *syms, uint64_t entry,
                        struct inline_chains *inlines)
{
    return guest_profile_init_with(p, syms, entry,
                                   &(struct guest_profile_options){.inlines = inlines});
}

bool guest_profile_init_with(struct guest_profile *p, const struct symtab *syms, uint64_t entry,
                             const struct guest_profile_options *o)
{
    struct inline_chains *inlines = o->inlines;
    memset(p, 0, sizeof(*p));
    p->inlines = inlines;
    p->tracer.per_pc = o->all_pcs || inlines != NULL;
    p->tracer.cost_clock = o->cost_clock;
    p->all_pcs = o->all_pcs;
    p->tracer.run_shift = o->insn_length ? 1 : 2;
    p->insn_length = o->insn_length;
    p->insn_ctx = o->insn_ctx;
    p->pcs_differ = o->pcs_differ;
    p->pcs_ctx = o->pcs_ctx;
    if (inlines && !strtab_init(&p->chains))
        return false;
    p->tracer.transfer = on_transfer;
    p->tracer.ecall = on_ecall;
    p->tracer.mark = on_mark;
    p->tracer.rewind = on_rewind;
    p->syms = syms;
    p->capacity = 256;
    p->stack = malloc((p->capacity + 1) * sizeof(*p->stack));
    p->links = malloc(((size_t)1 << TRACE_LINK_BITS) * sizeof(*p->links));
    target_cache_init(&p->targets, syms);
    if (!p->stack || !p->links || !trie_init(&p->trie)) {
        guest_profile_free(p);
        return false;
    }
    for (size_t i = 0; i < (size_t)1 << TRACE_LINK_BITS; i++)
        p->links[i] = (struct trace_link){.parent = SLOT_UNSET}; /* empty */
    unset_slots(p->stack, 0, p->capacity + 1);
    p->tracer.top = p->tracer.bottom = p->stack;
    p->tracer.guard = p->stack + p->capacity;
    p->tracer.links = p->links;
    p->tracer.nodes = p->trie.nodes;
    if (o->cost_clock && !room_for_cost(p, TRIE_ROOT)) {
        guest_profile_free(p);
        return false;
    }
    const struct trace_link *root = link_to(p, TRIE_ROOT, entry);
    if (!root) {
        guest_profile_free(p);
        return false;
    }
    set_up_slot(p, &p->stack[0], root);
    return true;
}

void guest_profile_free(struct guest_profile *p)
{
    if (p->names && p->syms)
        for (size_t i = 0; i < p->syms->count; i++)
            free(p->names[i]);
    free(p->names);
    free(p->calls);
    free(p->marked);
    for (size_t i = 0; i < p->runs_cap; i++)
        free_runs(p->runs[i]);
    free(p->runs);
    free(p->open_runs);
    free(p->chain_pcs);
    free(p->func_inlines);
    free(p->func_pcs);
    free(p->func_runs);
    free(p->tracer.node_costs);
    if (p->inlines)
        strtab_free(&p->chains);
    free(p->stack);
    free(p->links);
    target_cache_free(&p->targets);
    trie_free(&p->trie);
    memset(p, 0, sizeof(*p));
}

static int open_run_order(const void *a, const void *b)
{
    const struct guest_open_run *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return (x->slot > y->slot) - (x->slot < y->slot);
}

/* Notes the runs the live frames below the top keep open (executor/trace.h, "Runs"). */
static bool note_open_runs(struct guest_profile *p)
{
    size_t n = 0, below = depth(p) - 1;
    struct guest_open_run *open = realloc(p->open_runs, (below ? below : 1) * sizeof(*open));
    if (!open)
        return false;
    for (size_t i = 0; i < below; i++) {
        const struct trace_frame *f = &p->stack[i];
        if (f->link.runs)
            open[n++] = (struct guest_open_run){
                .node = f->link.node,
                .slot = (uint32_t)trace_run_index(&f->link, f[1].ret, p->tracer.run_shift)};
    }
    qsort(open, n, sizeof(*open), open_run_order);
    p->open_runs = open;
    p->nopen_runs = n;
    return true;
}

/*
 * Folds a node's taken counts into its run deltas (executor/trace.h,
 * TRACE_RUN_TAKEN): each is a branch's run ends, `times` over. False when
 * a slot with a count holds no branch or jal now (the guest rewrote it).
 */
static bool fold_taken(struct guest_profile *p, uint32_t node)
{
    const struct symtab_func *f = &p->syms->funcs[p->trie.nodes[node].aux - 1];
    unsigned shift = p->tracer.run_shift;
    struct trace_link l = {
        .lo = f->start, .span = (uint32_t)(f->end - f->start), .runs = p->runs[node]};
    size_t slots = ((size_t)l.span + (1u << shift) - 1) >> shift;
    bool whole = true;
    for (size_t i = 0; i < slots; i++) {
        int64_t times = l.runs[TRACE_RUN_TAKEN(i)];
        if (!times)
            continue;
        uint64_t pc = l.lo + ((uint64_t)i << shift), target;
        unsigned len;
        if (p->tracer.jump_of && p->tracer.jump_of(p->tracer.machine, pc, &target, &len))
            trace_run_branch_ends(&l, pc, len, target, shift, times);
        else
            whole = false;
        l.runs[TRACE_RUN_TAKEN(i)] = 0;
    }
    return whole;
}

void guest_profile_flush(struct guest_profile *p, uint64_t retired)
{
    if (p->out_of_memory)
        return;
    if (p->tracer.per_pc && !note_open_runs(p)) {
        p->out_of_memory = true;
        return;
    }
    for (size_t node = 0; p->tracer.per_pc && node < p->runs_cap; node++)
        if (p->runs[node] && !fold_taken(p, (uint32_t)node))
            p->runs_rewritten = true;
    uint64_t now = trace_clock(&p->tracer, retired);
    for (struct trace_frame *f = p->stack; f <= p->tracer.top; f++)
        close_frame(p, f, now);
    for (size_t i = 0; i < p->capacity; i++) /* popped slots hold counts too */
        trace_slot_relink(&p->tracer, &p->stack[i], &p->stack[i].link, 0, p->tracer.cost_clock, 0);
    for (struct trace_frame *f = p->stack; f <= p->tracer.top; f++)
        open_frame(p, f, now); /* still live: they count on from here */
}

int guest_profile_node_pcs(const struct guest_profile *p, uint32_t node, guest_pc_visitor visit,
                           void *ctx, uint64_t *sum)
{
    *sum = 0;
    const int64_t *runs = node < p->runs_cap ? p->runs[node] : NULL;
    if (!runs)
        return 0;
    const struct symtab_func *f = &p->syms->funcs[p->trie.nodes[node].aux - 1];
    unsigned shift = p->tracer.run_shift;
    size_t slots = (size_t)((uint32_t)(f->end - f->start) + (1u << shift) - 1) >> shift;
    /*
     * The array holds every run's start and end but for two kinds
     * (executor/trace.h, "Runs"): the runs live frames keep open have no
     * end yet (open_runs: they end at their slot), and the runs of the
     * calls the loop's fast paths pushed have no start: those start at
     * the node's key, as many as the ends outnumber the starts.
     */
    const struct guest_open_run *open = p->open_runs, *open_end = open + p->nopen_runs;
    for (size_t n = p->nopen_runs; n > 0;) { /* the first of the node's, by halving */
        size_t half = n / 2;
        if (open[half].node < node) {
            open += half + 1;
            n -= half + 1;
        } else {
            n = half;
        }
    }
    int64_t unstarted = 0;
    for (size_t i = 0; i <= slots; i++)
        unstarted -= runs[TRACE_RUN_DELTA(i)];
    for (const struct guest_open_run *o = open; o < open_end && o->node == node; o++)
        unstarted++;
    struct trace_link range = {.lo = f->start, .span = (uint32_t)(f->end - f->start)};
    size_t key_slot = trace_run_index(&range, p->trie.nodes[node].key, shift);
    int64_t count = 0; /* the prefix sum: the count of the pc at slot i */
    for (size_t i = 0; i < slots;) {
        uint64_t pc = f->start + ((uint64_t)i << shift);
        /* with C, instructions are 2 or 4 bytes: a 4-byte one spans two slots */
        size_t n = p->insn_length ? p->insn_length(p->insn_ctx, pc) >> shift : 1;
        for (size_t k = 0; k < n && i < slots; k++, i++) {
            count += runs[TRACE_RUN_DELTA(i)] + (i == key_slot ? unstarted : 0);
            for (; open < open_end && open->node == node && open->slot == i; open++)
                count--;
        }
        if (count > 0) {
            int rc = visit(ctx, pc, (uint64_t)count);
            if (rc)
                return rc;
            *sum += (uint64_t)count;
        }
    }
    return 0;
}
