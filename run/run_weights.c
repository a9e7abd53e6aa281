/*
 * run_weights: a run's weights once chosen: the costs the tracer's
 * weighers ask for (by the instruction at a pc, by zkVM call, by paging),
 * the cost clock, the page tracker, and the class mix for --stats.
 */
#include "run/run_weights.h"

#include <string.h>

#include "symtab/symtab.h"
#include "tracer/weights.h"

const struct cost_model *run_weights_paged(const struct run_weights *w)
{
    for (size_t i = 0; i < w->nmodels; i++)
        if (cost_model_pages(&w->models[i]))
            return &w->models[i];
    return NULL;
}

bool run_weights_start(struct run_weights *w, struct machine *m)
{
    const struct cost_model *paged = run_weights_paged(w);
    return !paged || page_touch_start(&w->pages, m, paged);
}

void run_weights_free(struct run_weights *w)
{
    page_touch_free(&w->pages);
    for (size_t i = 0; i < w->nmodels; i++)
        cost_model_free(&w->models[i]);
    w->nmodels = 0;
}

/* One weight's costs for the tracer's weigher (tracer/weights.h). */
struct model_costs {
    const struct cost_model *model;
    const struct elf_image *img;
    const struct elf_segment *seg; /* the executable segment of the last pc looked up */
    const struct page_touch *pages;
};

/* Whether the executable segment s holds the `len` bytes at pc. */
static bool segment_holds(const struct elf_segment *s, uint64_t pc, unsigned len)
{
    return (s->rights & SEG_X) && pc >= s->vaddr && pc + len <= s->vaddr + s->filesz;
}

/*
 * The instruction at pc from the ELF's executable segments: a 32-bit word,
 * or a compressed instruction in the low half; 0 when none holds it.
 */
static uint32_t word_at(struct model_costs *c, uint64_t pc)
{
    const struct elf_segment *s = c->seg;
    if (!s || !segment_holds(s, pc, 2)) {
        s = NULL;
        for (size_t i = 0; i < c->img->nsegments && !s; i++)
            if (segment_holds(&c->img->segments[i], pc, 2))
                s = &c->img->segments[i];
        if (!s)
            return 0;
        c->seg = s;
    }
    uint16_t half;
    memcpy(&half, s->data + (pc - s->vaddr), 2);
    if ((half & 3) != 3)
        return half;
    if (!segment_holds(s, pc, 4))
        return 0;
    uint32_t word;
    memcpy(&word, s->data + (pc - s->vaddr), 4);
    return word;
}

/* The class of the instruction at pc. */
static enum insn_class class_at(struct model_costs *c, uint64_t pc)
{
    return insn_class_of(word_at(c, pc), c->img->xlen);
}

static uint64_t pc_cost(void *ctx, uint64_t pc, uint64_t count)
{
    struct model_costs *c = ctx;
    return count * cost_model_insn(c->model, word_at(c, pc), c->img->xlen);
}

static uint64_t call_cost(void *ctx, const char *call, uint64_t calls)
{
    const struct model_costs *c = ctx;
    return calls * cost_model_call(c->model, call);
}

static uint64_t outside_cost(void *ctx, uint64_t count)
{
    const struct model_costs *c = ctx;
    return count * c->model->outside_cost;
}

static void paging_cost(void *ctx, uint32_t node, uint64_t *in, uint64_t *out)
{
    const struct model_costs *c = ctx;
    const struct page_touch *pt = c->pages;
    if (!pt || !pt->model || node >= pt->nodes_cap)
        return;
    if (pt->model == c->model) {
        *in = pt->charged[node].in;
        *out = pt->charged[node].out;
    } else if (c->model->counts_pages) {
        *in = pt->charged[node].pages_in;
        *out = pt->charged[node].pages_out;
    }
}

/* Whether weight `m` charges instruction `word` what it charges one at a pc of no function. */
static bool insn_is_plain(const struct cost_model *m, uint32_t word, int xlen)
{
    return cost_model_insn(m, word, xlen) == m->outside_cost;
}

/* Whether weight `m` charges some instruction other than one at a pc of no function. */
static bool model_differs(const struct cost_model *m)
{
    if (m->insn_cost) /* by word: any pc may differ */
        return true;
    for (size_t c = 0; c < INSN_CLASS_COUNT; c++)
        if (m->class_cost[c] != m->outside_cost)
            return true;
    return false;
}

bool run_weights_need_pcs(const struct run_weights *w)
{
    for (size_t i = 0; i < w->nmodels; i++)
        if (model_differs(&w->models[i]))
            return true;
    return false;
}

/*
 * guest_profile's pcs_differ: some instruction of [start, end) costs other
 * than plain under some weight.
 */
static bool function_pcs_differ(void *ctx, uint64_t start, uint64_t end)
{
    struct run_weights *w = ctx;
    struct model_costs code = {.img = w->img};
    for (uint64_t pc = start; pc < end;) {
        uint32_t word = word_at(&code, pc);
        for (size_t i = 0; i < w->nmodels; i++)
            if (!insn_is_plain(&w->models[i], word, w->img->xlen))
                return true;
        pc += elf_image_insn_length(w->img, pc);
    }
    return false;
}

/* The cost clock's costs: one weight's, by word; at a pc of no function, the default. */
struct clock_costs {
    const struct cost_model *model;
    const struct symtab *syms;
    const struct symtab_func *func; /* the function of the last pc asked, or NULL */
    int xlen;
};

/* The machine asks pc by pc, in order: one lookup per function. */
static uint64_t clock_cost(void *ctx, uint64_t pc, uint32_t word)
{
    struct clock_costs *c = ctx;
    if (!c->func || pc < c->func->start || pc >= c->func->end)
        c->func = symtab_lookup(c->syms, pc);
    if (!c->func)
        return c->model->outside_cost;
    return cost_model_insn(c->model, word, c->xlen);
}

bool run_weights_clock(struct run_weights *w, struct machine *m, const struct symtab *syms)
{
    size_t differ = 0;
    for (size_t i = 0; i < w->nmodels; i++)
        if (model_differs(&w->models[i])) {
            w->clocked = i;
            differ++;
        }
    if (differ != 1) /* the others count as instructions do */
        return false;
    struct clock_costs c = {.model = &w->models[w->clocked], .syms = syms, .xlen = m->xlen};
    return machine_set_cost_clock(m, clock_cost, &c);
}

void run_weights_watch(struct run_weights *w, struct guest_profile_options *o,
                       const struct elf_image *img)
{
    w->img = img;
    o->pcs_differ = function_pcs_differ;
    o->pcs_ctx = w;
}

/* A call's cycles, when it is the one looked for (call_cycles_each stops there). */
struct call_sought {
    const char *call;
    uint64_t cycles;
};

static int take_if_sought(void *ctx, const char *call, uint64_t cycles)
{
    struct call_sought *s = ctx;
    if (strcmp(call, s->call) != 0)
        return 0;
    s->cycles = cycles;
    return 1;
}

static uint64_t call_extra_cost(void *ctx, uint32_t node, const char *call)
{
    const struct model_costs *c = ctx;
    const struct page_touch *pt = c->pages;
    struct call_sought s = {.call = call};
    if (pt && pt->model == c->model)
        call_cycles_each(&pt->calls, node, take_if_sought, &s);
    return s.cycles;
}

int run_weights_profile(const struct run_weights *w, struct guest_profile *p, unsigned flags,
                        const struct elf_image *img, struct profile *out)
{
    struct model_costs costs[PROFILE_MAX_WEIGHTS];
    struct guest_weigher weighers[PROFILE_MAX_WEIGHTS];
    for (size_t i = 0; i < w->nmodels; i++) {
        costs[i] = (struct model_costs){.model = &w->models[i], .img = img, .pages = &w->pages};
        weighers[i] = (struct guest_weigher){.name = w->models[i].name,
                                             .unit = w->models[i].unit,
                                             .pc = pc_cost,
                                             .call = call_cost,
                                             .outside = outside_cost,
                                             .paging = paging_cost,
                                             .call_extra = call_extra_cost,
                                             .clocked = p->tracer.cost_clock && i == w->clocked,
                                             .ctx = &costs[i]};
    }
    return guest_profile_weighted(p, flags, weighers, w->nmodels, out);
}

/* --stats: the retired instructions by opcode class. */
struct class_mix {
    struct model_costs code; /* for word_at */
    uint64_t count[INSN_CLASS_COUNT];
};

static int count_class(void *ctx, uint64_t pc, uint64_t count)
{
    struct class_mix *x = ctx;
    x->count[class_at(&x->code, pc)] += count;
    return 0;
}

static void print_class_mix(struct guest_profile *p, const struct elf_image *img, FILE *out)
{
    struct class_mix x = {.code = {.img = img}};
    uint64_t calls = 0, sum;
    for (uint32_t n = 1; n < p->trie.count; n++) {
        if (guest_key_is_ecall(p->trie.nodes[n].key))
            calls += p->trie.nodes[n].count;
        else
            guest_profile_node_pcs(p, n, count_class, &x, &sum);
    }
    fputs("opcode-classes:", out);
    for (size_t c = 0; c < INSN_CLASS_COUNT; c++)
        if (x.count[c])
            fprintf(out, " %s %llu,", insn_class_name(c), (unsigned long long)x.count[c]);
    fprintf(out, " zkVM calls %llu\n", (unsigned long long)calls);
}

void run_weights_stats(const struct run_weights *w, struct guest_profile *p,
                       const struct elf_image *img, FILE *out)
{
    if (p && p->all_pcs && !p->pcs_skipped) /* every pc counted */
        print_class_mix(p, img, out);
    if (p && p->tracer.cost_clock)
        fprintf(out, "cost-clock: %s (counted by the clock, not per pc)\n",
                w->models[w->clocked].name);
    const struct page_touch *pt = &w->pages;
    if (!pt->model)
        return;
    fprintf(out, "segments: %llu (2^%u cycles each)\n", (unsigned long long)pt->segments,
            pt->model->segment_po2);
    fprintf(out, "paging-cycles: %llu\n", (unsigned long long)pt->paging_total);
    if (pt->model->node_in) /* RISC Zero's own model: its calls' kernel and accelerator cycles */
        fprintf(out, "call-cycles: %llu (the zkVM calls' own, beyond their ecalls)\n",
                (unsigned long long)pt->calls.total);
    fprintf(out, "total-cycles: %llu (every segment padded to a power of two)\n",
            (unsigned long long)pt->padded_total);
}
