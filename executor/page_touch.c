/*
 * page_touch: RISC Zero's segments and paging replayed on the slow paths
 * (page_touch.h), charging each page-in and page-out to the frame whose
 * instruction caused it.
 */
#include "executor/page_touch.h"

#include <stdlib.h>
#include <string.h>

#define LEAVES       (1ull << PAGE_TOUCH_DEPTH)
#define REGS_PAGE    (0xFFFF0000ull >> PAGE_TOUCH_SHIFT) /* RISC Zero's register file */
#define STATE_LOADED 1
#define STATE_DIRTY  2

_Static_assert(GUEST_RIGHTS_SHIFT == PAGE_TOUCH_SHIFT, "a rights entry is one RISC Zero page");

static bool list_add(struct page_touch *pt, struct page_list *l, uint64_t v)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        uint64_t *at = realloc(l->at, cap * sizeof(*at));
        if (!at) {
            pt->out_of_memory = true;
            return false;
        }
        l->at = at;
        l->cap = cap;
    }
    l->at[l->count++] = v;
    return true;
}

/* The profile node of the frame now running (the root without a tracer). */
static uint32_t current_node(const struct machine *m)
{
    return m->tracer && m->tracer->top ? m->tracer->top->link.node : 0;
}

static bool grow_nodes(struct page_touch *pt, uint32_t node)
{
    if (node < pt->nodes_cap)
        return true;
    size_t cap = pt->nodes_cap ? pt->nodes_cap : 1024;
    while (cap <= node)
        cap *= 2;
    struct page_charge *c = realloc(pt->charged, cap * sizeof(*c));
    if (!c) {
        pt->out_of_memory = true;
        return false;
    }
    memset(c + pt->nodes_cap, 0, (cap - pt->nodes_cap) * sizeof(*c));
    pt->charged = c;
    pt->nodes_cap = cap;
    return true;
}

/*
 * Charges paging cycles, and `pages_in` and `pages_out` pages, to the
 * running frame; past the run's slack, arms the stop.
 */
static void charge(struct page_touch *pt, struct machine *m, uint64_t in, uint64_t out,
                   unsigned pages_in, unsigned pages_out);

/* Sets Merkle node `n` to `goal` and each ancestor below it, charging as pager.rs's fixup_costs. */
static void fix_up(struct page_touch *pt, uint64_t n, uint8_t goal, uint64_t *in, uint64_t *out)
{
    for (; n != 0; n /= 2) {
        uint8_t s = pt->state[n];
        if (goal <= s)
            continue;
        if (n < LEAVES) { /* a node of the tree above the pages */
            if (s == 0)
                *in += pt->model->node_in;
            if (goal == STATE_DIRTY)
                *out += pt->model->node_out;
        }
        if (s == 0 && !list_add(pt, &pt->nodes, n))
            return;
        pt->state[n] = goal;
    }
}

/* Gives 1 KiB page `page` the inline bits of its state: loads once loaded, stores once dirty. */
static void give_bits(struct page_touch *pt, struct machine *m, uint64_t page)
{
    uint64_t entry = guest_rights_entry(page << PAGE_TOUCH_SHIFT);
    mem_track_give(&m->mem, entry, pt->state[LEAVES + page] == STATE_DIRTY);
}

/* A 1 KiB page's first load (or store) in the segment: pager.rs's page_in (page_for_writing). */
static void touch_page(struct page_touch *pt, struct machine *m, uint64_t page, bool store)
{
    uint64_t leaf = LEAVES + page, in = 0, out = 0;
    unsigned pages_in = pt->state[leaf] == 0, pages_out = 0;
    if (pages_in) {
        in += pt->model->page_in;
        fix_up(pt, leaf, STATE_LOADED, &in, &out);
        list_add(pt, &pt->rights, page); /* its bits go at the segment's end */
    }
    if (store && pt->state[leaf] == STATE_LOADED) {
        pages_out = 1;
        out += pt->model->page_out;
        fix_up(pt, leaf, STATE_DIRTY, &in, &out);
    }
    give_bits(pt, m, page);
    if (pages_in || pages_out)
        charge(pt, m, in, out, pages_in, pages_out);
}

static bool touch(struct machine *m, uint64_t addr, unsigned size, bool store)
{
    struct page_touch *pt = m->pages;
    if (addr >= (1ull << 32) || pt->out_of_memory)
        return !pt->out_of_memory; /* RV32 addresses only; the access faults elsewhere */
    uint64_t last = (addr + size - 1) & 0xffffffffull;
    for (uint64_t p = addr >> PAGE_TOUCH_SHIFT;; p = (p + 1) & (LEAVES - 1)) {
        touch_page(pt, m, p, store);
        if (p == last >> PAGE_TOUCH_SHIFT)
            break;
    }
    return !pt->out_of_memory;
}

bool page_touch_load(struct machine *m, uint64_t addr, unsigned size)
{
    return touch(m, addr, size, false);
}

bool page_touch_store(struct machine *m, uint64_t addr, unsigned size)
{
    return touch(m, addr, size, true);
}

/* Hides every code page whose instructions are back: the next fetch comes to page_touch_fetch. */
static void arm(struct page_touch *pt, struct machine *m)
{
    for (size_t i = 0; i < pt->code.count; i++)
        code_cache_hide(&m->code, pt->code.at[i] << PAGE_TOUCH_SHIFT, 1u << PAGE_TOUCH_SHIFT,
                        pt->keep);
    pt->armed = true;
}

static void disarm(struct page_touch *pt, struct machine *m)
{
    for (size_t i = 0; pt->armed && i < pt->code.count; i++)
        code_cache_show(&m->code, pt->code.at[i] << PAGE_TOUCH_SHIFT, 1u << PAGE_TOUCH_SHIFT,
                        pt->keep);
    pt->armed = false;
}

static void charge(struct page_touch *pt, struct machine *m, uint64_t in, uint64_t out,
                   unsigned pages_in, unsigned pages_out)
{
    uint32_t node = current_node(m);
    if (!grow_nodes(pt, node))
        return;
    pt->charged[node].in += in;
    pt->charged[node].out += out;
    pt->charged[node].pages_in += pages_in;
    pt->charged[node].pages_out += pages_out;
    pt->pages_in += pages_in;
    pt->seg_paging += in + out;
    pt->run_paging += in + out;
    if (pt->run_paging > pt->run_slack && !pt->armed)
        arm(pt, m);
}

/* The length of the instruction at pc: 2 for a compressed one on a hart with C, else 4. */
static unsigned fetch_length(const struct machine *m, uint64_t pc)
{
    uint16_t half;
    if (m->code.slot_shift != 1 || !mem_range_has(&m->mem, pc, 2, PAGE_X))
        return 4;
    memcpy(&half, mem_host(&m->mem, pc), 2);
    return (half & 3) == 3 ? 4 : 2;
}

bool page_touch_fetch(struct machine *m, uint64_t pc)
{
    struct page_touch *pt = m->pages;
    if (pt->armed && !pt->rerun)
        return false; /* stop before this instruction: the segment may be over */
    uint64_t before = pt->seg_paging, pages_before = pt->pages_in;
    touch(m, pc, fetch_length(m, pc), false);
    if (pt->armed && !pt->rerun) { /* this fetch armed: stop, noting what it charged */
        pt->pending = pt->seg_paging - before;
        pt->pending_pages = pt->pages_in - pages_before;
        pt->pending_node = current_node(m);
        return false;
    }
    uint64_t page = pc >> PAGE_TOUCH_SHIFT, i = (pc - m->code.lo) >> PAGE_TOUCH_SHIFT;
    if (pt->shown[i] && !pt->armed)
        return true; /* shown: an instruction not decoded yet (code decoded as it runs) */
    if (!pt->shown[i] && !list_add(pt, &pt->code, page))
        return true; /* out of memory: the profile says so when written */
    pt->shown[i] = 1;
    code_cache_show(&m->code, page << PAGE_TOUCH_SHIFT, 1u << PAGE_TOUCH_SHIFT, pt->keep);
    return true;
}

/* The segment's cycles so far, as RISC Zero's segment_cycles(). */
static uint64_t segment_cycles(const struct page_touch *pt, const struct machine *m)
{
    return (m->retired - pt->seg_start) + pt->seg_calls + pt->seg_paging +
           pt->model->segment_reserved;
}

/*
 * The next run, of at most `budget`: 7/8 of the instructions that would
 * reach the threshold without paging (at least 1), the rest its slack.
 */
static void plan_run(struct page_touch *pt, const struct machine *m, uint64_t budget)
{
    uint64_t now = segment_cycles(pt, m);
    uint64_t left = now > pt->threshold ? 1 : pt->threshold + 1 - now;
    pt->run_budget = left - left / 8;
    if (pt->run_budget > budget)
        pt->run_budget = budget;
    pt->run_slack = left - pt->run_budget;
    pt->run_paging = 0;
}

/*
 * A segment's start, as RISC Zero's resume: RESERVED_PAGING_CYCLES (half
 * charged now as [PageIn], half at its end as [PageOut]) and the register
 * page, which resume writes the input digest into, paged in and out.
 */
static void start_segment(struct page_touch *pt, struct machine *m)
{
    pt->seg_start = m->retired;
    pt->seg_calls = 0;
    pt->seg_paging = pt->model->segment_out; /* charged to the frame at the end */
    pt->run_slack = UINT64_MAX;              /* no run yet to stop */
    charge(pt, m, pt->model->segment_in, 0, 0, 0);
    if (pt->model->node_in) /* RISC Zero's own layout: not for a --cost-table's pages */
        touch_page(pt, m, REGS_PAGE, true);
}

/* Ends the segment (padded to 2^po2 cycles) and clears what it touched. */
static void end_segment(struct page_touch *pt, struct machine *m, unsigned po2)
{
    uint32_t node = current_node(m);
    if (grow_nodes(pt, node))
        pt->charged[node].out += pt->model->segment_out;
    pt->segments++;
    pt->paging_total += pt->seg_paging;
    pt->padded_total += 1ull << po2;
    disarm(pt, m);
    for (size_t i = 0; i < pt->nodes.count; i++)
        pt->state[pt->nodes.at[i]] = 0;
    pt->nodes.count = 0;
    for (size_t i = 0; i < pt->rights.count; i++)
        mem_track_strip(&m->mem, guest_rights_entry(pt->rights.at[i] << PAGE_TOUCH_SHIFT));
    pt->rights.count = 0;
    for (size_t i = 0; i < pt->code.count; i++) {
        code_cache_hide(&m->code, pt->code.at[i] << PAGE_TOUCH_SHIFT, 1u << PAGE_TOUCH_SHIFT,
                        pt->keep);
        pt->shown[((pt->code.at[i] << PAGE_TOUCH_SHIFT) - m->code.lo) >> PAGE_TOUCH_SHIFT] = 0;
    }
    pt->code.count = 0;
}

static void split(struct page_touch *pt, struct machine *m)
{
    end_segment(pt, m, pt->model->segment_po2);
    start_segment(pt, m);
}

/* After a run: splits the segment, or plans the next run, as page_touch_run says. */
static enum stop_reason after_run(struct page_touch *pt, struct machine *m, enum stop_reason why)
{
    bool check = why == STOP_BUDGET;
    if (why == STOP_FAULT && m->fault.kind == FAULT_SEGMENT_SPLIT) {
        check = true;
        uint64_t pending = pt->pending;
        pt->pending = 0;
        if (segment_cycles(pt, m) - pending > pt->threshold) { /* over before this insn */
            /* its fetch belongs to the next segment */
            pt->charged[pt->pending_node].in -= pending;
            pt->charged[pt->pending_node].pages_in -= pt->pending_pages;
            pt->pages_in -= pt->pending_pages;
            pt->seg_paging -= pending;
        } else if (pending) { /* its fetch belongs here, and so does it */
            pt->rerun = true;
            why = machine_run(m, 1);
            pt->rerun = false;
            if (why != STOP_BUDGET)
                return why;
        }
        why = STOP_BUDGET;
    }
    if (!check)
        return why;
    if (segment_cycles(pt, m) > pt->threshold) {
        split(pt, m);
        return why;
    }
    disarm(pt, m);
    return why;
}

enum stop_reason page_touch_run(struct page_touch *pt, struct machine *m, uint64_t budget)
{
    plan_run(pt, m, budget);
    return after_run(pt, m, machine_run_about(m, pt->run_budget));
}

void page_touch_finish(struct page_touch *pt, struct machine *m)
{
    uint64_t cycles = segment_cycles(pt, m);
    unsigned po2 = 0;
    while ((1ull << po2) < cycles)
        po2++;
    end_segment(pt, m, po2);
    m->pages = NULL;
}

void page_touch_resync(struct machine *m)
{
    struct page_touch *pt = m->pages;
    if (!pt)
        return;
    mem_track_strip_all(&m->mem);
    for (size_t i = 0; i < pt->rights.count; i++)
        give_bits(pt, m, pt->rights.at[i]);
}

bool page_touch_start(struct page_touch *pt, struct machine *m, const struct cost_model *model)
{
    memset(pt, 0, sizeof(*pt));
    pt->model = model;
    pt->state = calloc(2 * LEAVES, 1);
    pt->keep = code_cache_copy(&m->code);
    pt->shown = calloc((m->code.span >> PAGE_TOUCH_SHIFT) + 2, 1);
    if (!pt->state || !pt->keep || !pt->shown) {
        page_touch_free(pt);
        return false;
    }
    unsigned po2 = model->segment_po2;
    uint64_t limit = po2 ? 1ull << po2 : UINT64_MAX / 4;
    pt->threshold = limit > model->segment_insn_max ? limit - model->segment_insn_max : 0;
    mem_track_strip_all(&m->mem);
    code_cache_hide(&m->code, m->code.lo, m->code.span, NULL);
    m->pages = pt;
    start_segment(pt, m);
    return !pt->out_of_memory;
}

void page_touch_free(struct page_touch *pt)
{
    free(pt->state);
    free(pt->keep);
    free(pt->shown);
    free(pt->nodes.at);
    free(pt->rights.at);
    free(pt->code.at);
    free(pt->charged);
    call_cycles_free(&pt->calls);
    memset(pt, 0, sizeof(*pt));
}

/* ---- a zkVM call's own work (RISC Zero's kernel and accelerators) ---- */

/* Whether `m` tracks RISC Zero's own paging, which its calls' work belongs to. */
static bool tracks_risc0(const struct machine *m)
{
    return m->pages && m->pages->model->node_in;
}

void page_touch_call(struct machine *m, const char *call, uint64_t cycles)
{
    struct page_touch *pt = m->pages;
    if (!tracks_risc0(m) || !cycles)
        return;
    if (!call_cycles_add(&pt->calls, current_node(m), call, cycles)) {
        pt->out_of_memory = true;
        return;
    }
    pt->seg_calls += cycles;
    pt->run_paging += cycles; /* the run's slack covers them too: past it, stop and check */
    if (pt->run_paging > pt->run_slack && !pt->armed)
        arm(pt, m);
}

void page_touch_host(struct machine *m, uint64_t addr, uint64_t len, bool store)
{
    if (!tracks_risc0(m) || len == 0 || addr >= (1ull << 32))
        return;
    if (len > (1ull << 32) - addr)
        len = (1ull << 32) - addr;
    while (len) { /* touch takes an unsigned size: 2 GiB at a time */
        unsigned part = len > (1u << 31) ? 1u << 31 : (unsigned)len;
        touch(m, addr, part, store);
        addr += part;
        len -= part;
    }
}
