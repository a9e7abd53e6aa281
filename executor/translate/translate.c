/*
 * translate: the translation tier's life cycle (see translate.h): which
 * entries start blocks, the executable buffer the blocks are written to,
 * translating a block once its start has run enough, and entering it.
 */
#include "executor/translate/translate.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "executor/trace.h"
#include "executor/translate/translate_block.h"

/* Host code for all blocks of a run; a run that fills it interprets the rest. */
#define CODE_BUFFER_SIZE ((size_t)64 << 20)

/*
 * Shorter blocks than this are left to the interpreter, whose fused pairs
 * run them with fewer host instructions than a call into a block, unless
 * they loop on themselves. (Blocks run on into each other, so a short one
 * saves a way back to the loop: 4 ran fib 0.74x the time of 6 plain and
 * 0.94x traced; 2 ran fib plain 1.2x slower again.)
 */
#define BLOCK_MIN 4

struct translator {
    struct code_cache *cc;
    const struct guest_memory *mem;
    int xlen;
    struct translate_mode mode;   /* the hooks the loops give (translate_new) */
    struct translate_slot *slots; /* per entry */
    uint8_t *entered;             /* per entry: how often it ran untranslated, up to `cold` */
    uint8_t cold;                 /* the entries a block start runs before its block is written */
    uint8_t *buf, *next;          /* the executable buffer and its first free byte */
    /*
     * The blocks' site caches (translate_block.h), taken from the buffer's
     * end down to `sites`, megabytes from the code that writes them.
     */
    struct trace_link *sites;
    uint64_t nblocks, ninsns;
};

bool translate_host(void)
{
#if defined(__x86_64__) && defined(__linux__)
    return true;
#else
    return false;
#endif
}

static size_t entry_count(const struct code_cache *cc)
{
    return cc->bytes / sizeof(struct insn);
}

/*
 * The instruction of entry i as the interpreter would decode it, or false
 * when it cannot be known now (a slot whose page is not executable).
 * Decoded entries are taken as they are; others are decoded into the
 * cache now, when `fill`, else only into *out (branch offsets in bytes).
 */
static bool entry_insn(struct translator *t, size_t i, bool fill, struct insn *out)
{
    struct code_cache *cc = t->cc;
    if (cc->insns[i].op != OP_DECODE) {
        *out = cc->insns[i];
        return true;
    }
    uint64_t pc = cc->lo + ((uint64_t)i << cc->slot_shift);
    if (cc->fixed || !(mem_page_rights(t->mem, pc) & PAGE_X) ||
        !(mem_page_rights(t->mem, pc + 3) & PAGE_X))
        return false;
    uint32_t word;
    memcpy(&word, mem_host(t->mem, pc), 4);
    *out = code_cache_decode(cc, word, t->xlen);
    if (fill)
        *out = *code_cache_fill(cc, pc, *out);
    return true;
}

/* The entry a branch or jal of entry i goes to, or SIZE_MAX (outside the code). */
static size_t target_entry(const struct translator *t, size_t i, const struct insn *in)
{
    const struct code_cache *cc = t->cc;
    if (cc->insns[i].op != OP_DECODE) /* near targets are entry counts (code_cache_fill) */
        return i + (size_t)(ptrdiff_t)in->imm;
    uint64_t pc = cc->lo + ((uint64_t)i << cc->slot_shift);
    uint64_t to = pc + (uint64_t)(int64_t)in->imm;
    if ((to & ((1u << cc->slot_shift) - 1)) || to - cc->lo >= cc->span)
        return SIZE_MAX;
    return (size_t)((to - cc->lo) >> cc->slot_shift);
}

/* The entries instruction `in` spans: two for a 4-byte one on a hart with C, else one. */
static size_t entry_steps(const struct code_cache *cc, const struct insn *in)
{
    return translate_insn_length(in) >> cc->slot_shift;
}

/* Marks the entries that start blocks: after every block's end, and at branch and jal targets. */
static void mark_block_starts(struct translator *t, uint8_t *starts, uint64_t entry)
{
    struct code_cache *cc = t->cc;
    size_t n = entry_count(cc) - 1; /* the last entry is past the end */
    for (size_t i = 0; i < n; i++) {
        struct insn in;
        if (!entry_insn(t, i, false, &in))
            continue;
        unsigned op = translate_base_op(in.op);
        bool jal = op == OP_JAL || op == OP_JAL_CALL;
        if (translate_op_ends_block(op) || jal) {
            size_t to = target_entry(t, i, &in);
            if (to < n)
                starts[to] = 1;
        }
        size_t next = i + entry_steps(cc, &in);
        if ((!translate_op_supported(op, t->xlen) || translate_op_ends_block(op) || jal) &&
            next < n)
            starts[next] = 1;
    }
    if (entry - cc->lo < cc->span)
        starts[(entry - cc->lo) >> cc->slot_shift] = 1;
}

struct translator *translate_new(struct code_cache *cc, const struct guest_memory *mem, int xlen,
                                 uint64_t entry, struct translate_mode mode, unsigned cold)
{
    if (!translate_host() || (cc->slot_shift != 2 && cc->slot_shift != 1))
        return NULL;
    struct translator *t = calloc(1, sizeof(*t));
    uint8_t *starts = calloc(entry_count(cc), 1);
    if (t) {
        t->slots = calloc(entry_count(cc), sizeof(*t->slots));
        t->entered = calloc(entry_count(cc), 1);
    }
    void *buf = MAP_FAILED;
    if (t && starts && t->slots && t->entered)
        buf = mmap(NULL, CODE_BUFFER_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (buf == MAP_FAILED) {
        if (t) {
            free(t->slots);
            free(t->entered);
        }
        free(t);
        free(starts);
        return NULL;
    }
    t->cc = cc;
    t->mem = mem;
    t->xlen = xlen;
    t->mode = mode;
    t->cold = (uint8_t)(cold < UINT8_MAX ? cold : UINT8_MAX);
    t->buf = t->next = buf;
    t->sites = (struct trace_link *)(t->buf + CODE_BUFFER_SIZE);
    mark_block_starts(t, starts, entry);
    cc->block_starts = starts;
    if (cc->dispatch)
        code_cache_bind(cc, cc->dispatch);
    return t;
}

void translate_free(struct translator *t, struct code_cache *cc)
{
    if (!t)
        return;
    free(cc->block_starts);
    cc->block_starts = NULL;
    if (cc->dispatch && cc->insns)
        code_cache_bind(cc, cc->dispatch);
    munmap(t->buf, CODE_BUFFER_SIZE);
    free(t->slots);
    free(t->entered);
    free(t);
}

/* Whether entry k's instruction can start a block's next stretch (after a jump, call or return). */
static bool can_follow(struct translator *t, size_t k, const struct insn *const *at, size_t n)
{
    struct insn next;
    return k < entry_count(t->cc) - 1 && translate_path_index(at, n, &t->cc->insns[k]) == n &&
           entry_insn(t, k, true, &next) && translate_op_supported(next.op, t->xlen);
}

/*
 * The block starting at entry i, in the order it runs: on through branches
 * not taken, through jals (a jump) to their targets, into the functions
 * its calls (jal to a link register) call and back out by their returns
 * (the block checks the return address when it runs), until an operation
 * the tier does not translate, an entry already in it (a jal back to the
 * start closes it as a loop), a return from the function it started in, a
 * call or jump through a register or a jal it cannot follow (into its own code, as
 * a recursion or a second tail call to one function does: the last, it
 * leaves for the target), or TRANSLATE_BLOCK_MAX. Returns its length.
 */
static size_t block_path(struct translator *t, size_t i, const struct insn **at, uint64_t *pcs)
{
    struct code_cache *cc = t->cc;
    size_t last = entry_count(cc) - 1, n = 0, k = i;
    size_t rets[TRANSLATE_BLOCK_MAX], nrets = 0; /* the return entries of the calls it is in */
    while (n < TRANSLATE_BLOCK_MAX && k < last) {
        struct insn in;
        if (!entry_insn(t, k, true, &in))
            break;
        unsigned op = translate_base_op(in.op);
        bool call = op == OP_JAL_CALL, ret = op == OP_JALR_RET && nrets > 0;
        bool out = translate_op_jumps_out(op) && !ret;
        if (!translate_op_supported(op, t->xlen) && !call && !ret && !out)
            break;
        const struct insn *e = &cc->insns[k];
        if (translate_path_index(at, n, e) < n)
            break;
        at[n] = e;
        pcs[n++] = cc->lo + ((uint64_t)k << cc->slot_shift);
        if (out)
            return n; /* the block leaves for its target */
        size_t after = k + entry_steps(cc, &in), to = after;
        if (translate_op_is_jal(op) || call) {
            to = k + (size_t)(ptrdiff_t)in.imm; /* near: an entry count (code_cache_fill) */
            if (to == i && !call)
                break; /* closes the loop */
            if (n < TRANSLATE_BLOCK_MAX && !can_follow(t, to, at, n))
                return n; /* the block leaves for the target (its own code: a recursion) */
            if (call)
                rets[nrets++] = after;
        } else if (ret) {
            to = rets[--nrets];
        } else {
            k = to;
            continue;
        }
        if (n == TRANSLATE_BLOCK_MAX || !can_follow(t, to, at, n))
            break;
        k = to;
    }
    /*
     * A jal whose target does not come next stays out (and one to it, and
     * so on), but a jal back to the start stays, closing the loop, and a
     * return stays, leaving for its target.
     */
    while (n > 0 && translate_op_leaves(at[n - 1]->op) && !translate_loops_back(at[n - 1], at[0]) &&
           !translate_op_jumps_out(at[n - 1]->op))
        n--;
    return n;
}

/*
 * The site caches of the block at[0..n), empty, from the buffer's end, in
 * *sites (NULL: it needs none). False when the buffer has no room.
 */
static bool take_sites(struct translator *t, const struct insn *const *at, size_t n,
                       struct trace_link **sites)
{
    size_t count = translate_site_count(at, n, t->mode);
    *sites = NULL;
    if (count == 0)
        return true;
    if ((size_t)((uint8_t *)t->sites - t->next) < (count + 1) * sizeof(*t->sites))
        return false;
    t->sites -= count;
    for (size_t k = 0; k < count; k++)
        t->sites[k] =
            (struct trace_link){.key = UINT64_MAX, .parent = UINT32_MAX, .caller = UINT32_MAX};
    *sites = t->sites;
    return true;
}

/* Translates the block starting at entry i into its slot; false when it is not worth one. */
static bool translate_at(struct translator *t, size_t i)
{
    const struct insn *at[TRANSLATE_BLOCK_MAX];
    uint64_t pcs[TRANSLATE_BLOCK_MAX];
    size_t n = block_path(t, i, at, pcs);
    if (n == 0 || (n < BLOCK_MIN && translate_loop_branch(at, n) < 0))
        return false;
    struct trace_link *sites;
    if (!take_sites(t, at, n, &sites))
        return false; /* the buffer is full: the rest is interpreted */
    struct x86_buf out = {.p = t->next, .end = (uint8_t *)t->sites};
    intptr_t slot_delta = (intptr_t)((uintptr_t)t->slots - (uintptr_t)t->cc->insns);
    if (!translate_emit(&out, at, pcs, n, t->xlen, t->mode, t->cc, slot_delta, sites))
        return false; /* the buffer is full: the rest is interpreted */
    t->slots[i] = (struct translate_slot){(translate_block_fn)(uintptr_t)t->next, n};
    t->next = (uint8_t *)(((uintptr_t)out.p + 15) & ~(uintptr_t)15);
    t->nblocks++;
    t->ninsns += n;
    return true;
}

struct translate_exit translate_enter(struct translator *t, struct insn *ip, uint64_t left,
                                      void *regs, struct translate_hooks *hooks)
{
    size_t i = (size_t)(ip - t->cc->insns);
    if (!t->slots[i].n && t->entered[i] < t->cold) {
        t->entered[i]++;
        return (struct translate_exit){ip, 0};
    }
    bool as_told =
        (hooks->top != NULL) == t->mode.traced && (hooks->cost_cl != NULL) == t->mode.cost;
    if (!t->slots[i].n && (!as_told || !translate_at(t, i))) {
        code_cache_mark_block(t->cc, i, false); /* the entry gets its own handler back */
        return (struct translate_exit){ip, 0};
    }
    if (t->slots[i].n > left)
        return (struct translate_exit){ip, 0};
    return t->slots[i].fn(regs, t->mem->base, t->mem->rights, left, hooks);
}

int translate_trace_call(struct translate_hooks *hooks, const struct insn *ip, uint64_t pc,
                         uint64_t target, uint64_t now, struct trace_link *site)
{
    const struct flow_tracer *t = hooks->tracer;
    bool cost = hooks->cost_cl != NULL;
    uint64_t cost_now = cost ? code_cost_at(ip)->through - *hooks->cost_cl : 0;
    unsigned len = translate_insn_length(ip);
    uintptr_t ret_at = (uintptr_t)(ip + (len >> t->run_shift)); /* its slots: the code cache's */
    int pushed =
        t->per_pc
            ? trace_call_linked_site(t, &hooks->top, pc, len, target, ret_at, now, cost, cost_now)
            : trace_call_linked(t, &hooks->top, pc, len, target, ret_at, now, cost, cost_now);
    if (pushed && site)
        *site = hooks->top->link;
    return pushed;
}

int translate_trace_tail(struct translate_hooks *hooks, const struct insn *ip, uint64_t pc,
                         uint64_t target, uint64_t now, struct trace_link *site)
{
    const struct flow_tracer *t = hooks->tracer;
    struct trace_frame *f = hooks->top;
    const struct trace_link *l = trace_tail_link(t, f, target);
    if (!l)
        return 0;
    bool cost = hooks->cost_cl != NULL;
    uint64_t cost_now = cost ? code_cost_at(ip)->through - *hooks->cost_cl : 0;
    if (t->per_pc) /* (in the old node's array, before the relink) */
        trace_run_end_before(f, pc + translate_insn_length(ip), t->run_shift);
    trace_tail_to(t, f, l, now, cost, cost_now);
    if (t->per_pc)
        trace_run_start(f, target, t->run_shift);
    if (site && f->link.span != 0) /* (so the frame's own function never matters) */
        *site = f->link;
    return 1;
}

void translate_forget(struct translator *t)
{
    memset(t->slots, 0, entry_count(t->cc) * sizeof(*t->slots));
}

struct translate_slot *translate_slots(struct translator *t)
{
    return t->slots;
}

void translate_counts(const struct translator *t, uint64_t *blocks, uint64_t *insns)
{
    *blocks = t ? t->nblocks : 0;
    *insns = t ? t->ninsns : 0;
}
