/*
 * execute_weights: --weight and --cost-table for `cli execute`, their
 * models and the page tracker, and the profile written with every weight.
 */
#include "cli/execute_weights.h"

#include <errno.h>
#include <string.h>

#include "cli/cli.h"
#include "symtab/symtab.h"
#include "tracer/weights.h"

const char execute_weights_help[] =
    "  --weight NAME          a weight of the profile, repeatable, in order (folded and\n"
    "                         SVG files show the first; pprof, Gecko and speedscope\n"
    "                         keep all): instructions; cycles (one per instruction,\n"
    "                         but RISC Zero's: with its kernel's and\n"
    "                         accelerators' cycles in each call's frame and paging,\n"
    "                         as [PageIn] and [PageOut] frames); gas (SP1: RV32 trace\n"
    "                         cells, v6 gas in tenths); area (ZisK); cells (OpenVM);\n"
    "                         class:NAME (one opcode class's instructions), classes\n"
    "                         (one weight per class); pages (the 1 KiB pages paging\n"
    "                         touches); or a --cost-table's name (docs/ZKVMS.md,\n"
    "                         \"Weights\"). One weight whose costs differ by class\n"
    "                         (gas, area, cells, class:NAME, a table) costs the run\n"
    "                         little (a cost clock), alone or beside instructions,\n"
    "                         cycles or pages; a second such weight costs more\n"
    "  --cost-table FILE      a weight from a JSON table of costs per opcode class,\n"
    "                         per call and per 1 KiB page (docs/FORMATS.md, \"Cost\n"
    "                         tables\"); added after the --weight ones unless named\n";

int execute_weights_option(struct execute_weights *w, int opt, const char *arg)
{
    size_t *n;
    const char *what;
    if (opt == EXECUTE_OPT_WEIGHT) {
        n = &w->nnames;
        what = "--weight";
    } else if (opt == EXECUTE_OPT_COST_TABLE) {
        n = &w->ntables;
        what = "--cost-table";
    } else {
        return CLI_NOT_OURS;
    }
    if (*n == EXECUTE_MAX_WEIGHTS) {
        cli_error("at most %d %s options per run", EXECUTE_MAX_WEIGHTS, what);
        return EXIT_USAGE;
    }
    if (opt == EXECUTE_OPT_WEIGHT && (!*arg || strchr(arg, ';'))) {
        cli_error("--weight wants a weight's name, not '%s'", arg);
        return EXIT_USAGE;
    }
    (opt == EXECUTE_OPT_WEIGHT ? w->names : w->tables)[(*n)++] = arg;
    return CLI_GO_ON;
}

static bool model_named(const struct execute_weights *w, const char *name)
{
    for (size_t i = 0; i < w->nmodels; i++)
        if (strcmp(w->models[i].name, name) == 0)
            return true;
    return false;
}

/* The cost tables, read, go after the --weight names that do not name one. */
static int read_tables(struct cost_model *tables, const struct execute_weights *w)
{
    for (size_t i = 0; i < w->ntables; i++) {
        struct error e = ERROR_INIT;
        if (cost_model_read(&tables[i], w->tables[i], &e) != 0) {
            for (size_t j = 0; j < i; j++)
                cost_model_free(&tables[j]);
            return cli_fail(&e, NULL);
        }
    }
    return 0;
}

/* Moves table `t` into the weights (NULL name: it is used). */
static void take_table(struct execute_weights *w, struct cost_model *t)
{
    w->models[w->nmodels++] = *t;
    memset(t, 0, sizeof(*t));
}

/* The built-in weight `name`; 0, or the exit status after reporting the error. */
static int add_builtin(struct execute_weights *w, const char *name, const char *abi, int xlen)
{
    if (model_named(w, name) || w->nmodels == PROFILE_MAX_WEIGHTS) {
        cli_error("--weight %s: given twice, or past %d weights", name, PROFILE_MAX_WEIGHTS);
        return EXIT_USAGE;
    }
    struct error e = ERROR_INIT;
    if (cost_model_builtin(&w->models[w->nmodels], name, abi, xlen, &e) != 0) {
        cli_fail(&e, NULL);
        return EXIT_USAGE;
    }
    w->nmodels++;
    return 0;
}

/* `classes`: one class:NAME weight per opcode class, in the classes' order. */
static int add_classes(struct execute_weights *w, const char *abi, int xlen)
{
    for (size_t c = 0; c < INSN_CLASS_COUNT; c++) {
        char name[64];
        snprintf(name, sizeof(name), CLASS_WEIGHT_PREFIX "%s", insn_class_name(c));
        int rc = add_builtin(w, name, abi, xlen);
        if (rc)
            return rc;
    }
    return 0;
}

static int resolve_names(struct execute_weights *w, struct cost_model *tables, const char *abi,
                         int xlen)
{
    for (size_t i = 0; i < w->nnames; i++) {
        if (model_named(w, w->names[i])) {
            cli_error("--weight %s is given twice", w->names[i]);
            return EXIT_USAGE;
        }
        size_t t = 0;
        while (t < w->ntables && !(tables[t].name && strcmp(tables[t].name, w->names[i]) == 0))
            t++;
        if (t < w->ntables) {
            take_table(w, &tables[t]);
            continue;
        }
        int rc = strcmp(w->names[i], "classes") == 0 ? add_classes(w, abi, xlen)
                                                     : add_builtin(w, w->names[i], abi, xlen);
        if (rc)
            return rc;
    }
    for (size_t t = 0; t < w->ntables; t++) {
        if (!tables[t].name)
            continue;
        if (model_named(w, tables[t].name) || w->nmodels == PROFILE_MAX_WEIGHTS) {
            cli_error("cost table %s: its weight '%s' is there already", w->tables[t],
                      tables[t].name);
            return EXIT_USAGE;
        }
        take_table(w, &tables[t]);
    }
    return 0;
}

int execute_weights_resolve(struct execute_weights *w, const char *abi, int xlen)
{
    struct cost_model tables[EXECUTE_MAX_WEIGHTS] = {0};
    int rc = read_tables(tables, w);
    if (rc)
        return rc;
    rc = resolve_names(w, tables, abi, xlen);
    for (size_t t = 0; t < w->ntables; t++)
        cost_model_free(&tables[t]);
    return rc;
}

int execute_weights_start(struct execute_weights *w, struct machine *m)
{
    const struct cost_model *paged = NULL;
    for (size_t i = 0; i < w->nmodels; i++) {
        if (!cost_model_pages(&w->models[i]))
            continue;
        if (paged) {
            cli_error("weights %s and %s both page memory: give one", paged->name,
                      w->models[i].name);
            return EXIT_USAGE;
        }
        paged = &w->models[i];
    }
    for (size_t i = 0; i < w->nmodels && !paged; i++) {
        if (w->models[i].counts_pages) {
            cli_error("--weight pages counts the pages another weight pages in and out: give "
                      "one that pages (RISC Zero's cycles, or a --cost-table with pages)");
            return EXIT_USAGE;
        }
    }
    if (paged && !page_touch_start(&w->pages, m, paged)) {
        cli_error("out of memory setting up the page tracker");
        return EXIT_OSERR;
    }
    return 0;
}

void execute_weights_free(struct execute_weights *w)
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

bool execute_weights_need_pcs(const struct execute_weights *w)
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
    struct execute_weights *w = ctx;
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

bool execute_weights_clock(struct execute_weights *w, struct machine *m, const struct symtab *syms)
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

void execute_weights_watch(struct execute_weights *w, struct guest_profile_options *o,
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

int execute_weights_write(FILE *out, struct guest_profile *p, unsigned flags,
                          const struct execute_weights *w, const struct elf_image *img,
                          enum render_format format, const struct svg_options *svg,
                          const char *name, const struct report_options *report)
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
    struct profile prof;
    if (!profile_init(&prof)) {
        errno = ENOMEM;
        return -1;
    }
    int rc = guest_profile_weighted(p, flags, weighers, w->nmodels, &prof);
    if (rc == 0 && report)
        rc = report_write(out, &prof, report);
    else if (rc == 0) {
        struct svg_options o = *svg;
        char title[512];
        o.unit = profile_weight_name(&prof, 0);
        snprintf(title, sizeof(title), "%s: %llu %s", name,
                 (unsigned long long)profile_total(&prof, 0), o.unit);
        o.title = title;
        rc = render_write_profile(out, &prof, 0, format, &o, name);
    }
    int saved = errno;
    profile_free(&prof);
    errno = saved;
    return rc;
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

void execute_weights_stats(const struct execute_weights *w, struct guest_profile *p,
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
