/*
 * kallsyms_index: binary search over the kernel's lines of a kallsyms
 * text, and perf's rules applied to the group of lines at one address.
 */
#include "perf/symbols/kallsyms_index.h"

#include <stdlib.h>
#include <string.h>

#include "perf/symbols/kallsyms_line.h"
#include "perf/symbols/symbol_rules.h"

/* --- lines ------------------------------------------------------------------ */

static size_t line_end(const struct kallsyms_index *ix, size_t p)
{
    const char *nl = memchr(ix->text.data + p, '\n', ix->text.size - p);
    return nl ? (size_t)(nl - ix->text.data) : ix->text.size;
}

static size_t next_line(const struct kallsyms_index *ix, size_t p)
{
    return line_end(ix, p) + 1;
}

/* The line before the one at p (> 0). */
static size_t prev_line(const struct kallsyms_index *ix, size_t p)
{
    size_t q = p - 1; /* the '\n' ending the previous line */
    while (q > 0 && ix->text.data[q - 1] != '\n')
        q--;
    return q;
}

/* The first line starting at or after p. */
static size_t line_at_or_after(const struct kallsyms_index *ix, size_t p)
{
    if (p == 0 || ix->text.data[p - 1] == '\n')
        return p;
    return next_line(ix, p);
}

static bool read_line(const struct kallsyms_index *ix, size_t p, struct kallsyms_line *l)
{
    return p < ix->text.size && parse_line(ix->text.data + p, line_end(ix, p) - p, l);
}

/* Whether the line at p is one of perf's kernel symbols (kallsyms.c: read_symbol). */
static bool counted_at(const struct kallsyms_index *ix, size_t p, struct kallsyms_line *l)
{
    return read_line(ix, p, l) && type_counts(l->type) && !(l->name_len > 0 && l->name[0] == '$');
}

typedef bool (*line_test)(const struct kallsyms_index *ix, size_t p, uint64_t arg);

/* The last line in [lo, hi) passing `test`, which lo passes and which holds for a prefix. */
static size_t last_passing(const struct kallsyms_index *ix, size_t lo, size_t hi, line_test test,
                           uint64_t arg)
{
    for (;;) {
        size_t m = line_at_or_after(ix, lo + (hi - lo) / 2);
        if (m <= lo || m >= hi) /* the middle is in lo's line or the last one: the next line */
            m = next_line(ix, lo);
        if (m >= hi)
            return lo;
        if (test(ix, m, arg))
            lo = m;
        else
            hi = m;
    }
}

static bool kernel_own(const struct kallsyms_index *ix, size_t p, uint64_t unused)
{
    (void)unused;
    return !memchr(ix->text.data + p, '\t', line_end(ix, p) - p);
}

static bool at_or_below(const struct kallsyms_index *ix, size_t p, uint64_t x)
{
    struct kallsyms_line l;
    return !read_line(ix, p, &l) || l.addr <= x;
}

/* --- perf's rules on one address's group --------------------------------------- */

/* The symbol perf keeps at one address, and where it ends. */
struct group {
    size_t first, after; /* its lines: [first, after) */
    size_t winner;       /* the line of the symbol kept */
    uint64_t addr, end;
    bool dropped; /* the kept one is not the kernel's own (the x86-64 entry trampoline) */
};

static struct symbol_choice choice_at(const struct kallsyms_index *ix,
                                      const struct kallsyms_line *l, bool sized)
{
    return (struct symbol_choice){sized, binding_of(l->type), l->name, name_length(l->name)};
}

/*
 * perf's symbols__fixup_end and __fixup_duplicate over the counted lines
 * at address `addr`, from the first line at that address: all but the
 * last of them end where they start, the last where the next counted
 * line begins (a page on when none follows).
 */
static void resolve(const struct kallsyms_index *ix, size_t first, uint64_t addr, struct group *g)
{
    struct kallsyms_line l, best_line = {0};
    size_t p = first, best = SIZE_MAX;
    g->first = first;
    g->addr = addr;
    for (; p < ix->core_end && read_line(ix, p, &l) && l.addr == addr; p = next_line(ix, p)) {
        if (!counted_at(ix, p, &l))
            continue;
        if (best == SIZE_MAX) {
            best = p, best_line = l;
            continue;
        }
        /* the one before is unsized (it ends at this one); whether this one is, comes later */
        size_t q = next_line(ix, p);
        struct kallsyms_line n;
        while (q < ix->core_end && read_line(ix, q, &n) && n.addr == addr && !counted_at(ix, q, &n))
            q = next_line(ix, q);
        bool last = !(q < ix->core_end && read_line(ix, q, &n) && n.addr == addr);
        struct symbol_choice a = choice_at(ix, &best_line, false), b = choice_at(ix, &l, last);
        if (!symbol_keep_first(&a, &b))
            best = p, best_line = l;
    }
    g->after = p;
    while (p < ix->core_end && !counted_at(ix, p, &l))
        p = next_line(ix, p);
    g->end = p < ix->core_end ? l.addr : symbol_page_up(addr + 4096);
    g->winner = best;
    g->dropped = ix->x86_64 && best != SIZE_MAX && is_trampoline(&best_line);
}

/* The first line at the address of the counted line at p. */
static size_t group_start(const struct kallsyms_index *ix, size_t p, uint64_t addr)
{
    struct kallsyms_line l;
    while (p > 0 && read_line(ix, prev_line(ix, p), &l) && l.addr == addr)
        p = prev_line(ix, p);
    return p;
}

/* The last counted line at or before p; SIZE_MAX: none. */
static size_t counted_before(const struct kallsyms_index *ix, size_t p, struct kallsyms_line *l)
{
    for (;;) {
        if (counted_at(ix, p, l))
            return p;
        if (p == 0)
            return SIZE_MAX;
        p = prev_line(ix, p);
    }
}

/* The group holding the last counted line at or before p. False: none. */
static bool group_at(const struct kallsyms_index *ix, size_t p, struct group *g)
{
    struct kallsyms_line l;
    size_t c = counted_before(ix, p, &l);
    if (c == SIZE_MAX)
        return false;
    resolve(ix, group_start(ix, c, l.addr), l.addr, g);
    return true;
}

/* --- opening ------------------------------------------------------------------ */

static bool find_reloc(const struct kallsyms_index *ix, const struct kallsyms_reloc *reloc,
                       uint64_t *addr)
{
    size_t len = strlen(reloc->name);
    for (size_t p = 0; p < ix->text.size; p = next_line(ix, p)) {
        struct kallsyms_line l;
        if (read_line(ix, p, &l) && (is_function_type(l.type) || l.type == 'A') &&
            l.name_len == len && memcmp(l.name, reloc->name, len) == 0) {
            *addr = l.addr;
            return true;
        }
    }
    return false;
}

/* The kernel map: from the first symbol kept to the end of the last. False: none kept. */
static bool kernel_range(const struct kallsyms_index *ix, uint64_t *start, uint64_t *end)
{
    struct group g;
    size_t p = 0;
    struct kallsyms_line l;
    do { /* the first group whose symbol stays */
        while (p < ix->core_end && !counted_at(ix, p, &l))
            p = next_line(ix, p);
        if (p >= ix->core_end)
            return false;
        resolve(ix, p, l.addr, &g);
        p = g.after;
    } while (g.dropped);
    *start = g.addr - ix->delta;
    p = prev_line(ix, ix->core_end);
    while (group_at(ix, p, &g) && g.dropped && g.first > 0)
        p = prev_line(ix, g.first);
    *end = g.end - ix->delta;
    return !g.dropped;
}

int kallsyms_index_open(struct kallsyms_index *ix, const char *path,
                        const struct kallsyms_reloc *reloc, bool x86_64, uint64_t *start,
                        uint64_t *end)
{
    memset(ix, 0, sizeof(*ix));
    ix->x86_64 = x86_64;
    if (kallsyms_text_open(path, &ix->text))
        return 0;
    struct kallsyms_line l;
    uint64_t reloc_addr = 0;
    int rc = 0;
    if (ix->text.size > 0 && kernel_own(ix, 0, 0) &&
        (!reloc || !reloc->name || find_reloc(ix, reloc, &reloc_addr))) {
        ix->delta = reloc && reloc->name ? reloc_addr - reloc->addr : 0;
        ix->core_end = next_line(ix, last_passing(ix, 0, ix->text.size, kernel_own, 0));
        if (ix->core_end > ix->text.size)
            ix->core_end = ix->text.size;
        size_t last = counted_before(ix, prev_line(ix, ix->core_end), &l);
        /* all addresses 0 (kptr_restrict): no symbols, as perf */
        if (last != SIZE_MAX && l.addr != 0 && kernel_range(ix, start, end))
            rc = 1;
    }
    if (rc != 1)
        kallsyms_index_free(ix);
    return rc;
}

/* --- finding ------------------------------------------------------------------ */

static size_t slot_of(const struct kallsyms_index *ix, uint32_t key)
{
    size_t i = (key * 0x9e3779b1u) & (ix->slots - 1);
    while (ix->keys[i] && ix->keys[i] != key)
        i = (i + 1) & (ix->slots - 1);
    return i;
}

static int grow_slots(struct kallsyms_index *ix)
{
    size_t slots = ix->slots ? ix->slots * 2 : 1024;
    struct kallsyms_index bigger = *ix;
    bigger.keys = calloc(slots, sizeof(*bigger.keys));
    bigger.values = calloc(slots, sizeof(*bigger.values));
    bigger.slots = slots;
    if (!bigger.keys || !bigger.values) {
        free(bigger.keys);
        free(bigger.values);
        return -1;
    }
    for (size_t i = 0; i < ix->slots; i++)
        if (ix->keys[i]) {
            size_t s = slot_of(&bigger, ix->keys[i]);
            bigger.keys[s] = ix->keys[i];
            bigger.values[s] = ix->values[i];
        }
    free(ix->keys);
    free(ix->values);
    *ix = bigger;
    return 0;
}

/* Room for as many names as the slots allow keys. */
static int grow_names(struct kallsyms_index *ix)
{
    char **names = realloc(ix->names, ix->slots / 2 * sizeof(*names));
    if (!names)
        return -1;
    ix->names = names;
    return 0;
}

/* The table's function for the group (added the first time). NULL when memory runs out. */
static const struct symtab_func *function_of(struct kallsyms_index *ix, struct symtab *tab,
                                             const struct group *g)
{
    if ((ix->used + 1) * 2 > ix->slots && (grow_slots(ix) || grow_names(ix)))
        return NULL;
    uint32_t key = (uint32_t)g->winner + 1;
    size_t s = slot_of(ix, key);
    if (ix->keys[s])
        return &tab->funcs[ix->values[s]];
    struct kallsyms_line l;
    read_line(ix, g->winner, &l);
    char *name = strndup(l.name, name_length(l.name));
    struct symtab_func *funcs =
        name ? realloc(tab->funcs, (tab->count + 1) * sizeof(*funcs)) : NULL;
    if (!funcs) {
        free(name);
        return NULL;
    }
    tab->funcs = funcs;
    funcs[tab->count] = (struct symtab_func){g->addr - ix->delta, g->end - ix->delta, name};
    ix->names[ix->used] = name;
    ix->keys[s] = key;
    ix->values[s] = (uint32_t)tab->count;
    ix->used++;
    return &funcs[tab->count++];
}

/* --- functions found ------------------------------------------------------------ */

/* The number of ranges found that start at or before x. */
static size_t found_upto(const struct kallsyms_index *ix, uint64_t x)
{
    size_t lo = 0, hi = ix->nfound;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (ix->found[m].start <= x)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

/* The function found before whose range holds x; NULL: none. */
static const struct kallsyms_found *found_holding(const struct kallsyms_index *ix, uint64_t x)
{
    size_t n = found_upto(ix, x);
    return n > 0 && x < ix->found[n - 1].end ? &ix->found[n - 1] : NULL;
}

/* Remembers the group's range (its function at table index `func`). Returns -1 when memory runs
 * out. */
static int remember(struct kallsyms_index *ix, const struct group *g, uint32_t func)
{
    size_t at = found_upto(ix, g->addr);
    if (at > 0 && ix->found[at - 1].start == g->addr)
        return 0;
    if (ix->nfound == ix->found_capacity) {
        size_t cap = ix->found_capacity ? ix->found_capacity * 2 : 256;
        struct kallsyms_found *found = realloc(ix->found, cap * sizeof(*found));
        if (!found)
            return -1;
        ix->found = found;
        ix->found_capacity = cap;
    }
    memmove(&ix->found[at + 1], &ix->found[at], (ix->nfound - at) * sizeof(*ix->found));
    ix->found[at] = (struct kallsyms_found){g->addr, g->end, func};
    ix->nfound++;
    return 0;
}

int kallsyms_index_find(struct kallsyms_index *ix, struct symtab *tab, uint64_t ip,
                        const struct symtab_func **func)
{
    *func = NULL;
    uint64_t x = ip + ix->delta;
    const struct kallsyms_found *known = found_holding(ix, x);
    if (known) {
        *func = &tab->funcs[known->func];
        return 0;
    }
    struct kallsyms_line l;
    if (!read_line(ix, 0, &l) || l.addr > x)
        return 0;
    struct group g;
    if (!group_at(ix, last_passing(ix, 0, ix->core_end, at_or_below, x), &g) ||
        g.winner == SIZE_MAX || g.dropped || x >= g.end)
        return 0;
    if (!(*func = function_of(ix, tab, &g)))
        return -1;
    return remember(ix, &g, (uint32_t)(*func - tab->funcs));
}

void kallsyms_index_free(struct kallsyms_index *ix)
{
    kallsyms_text_free(&ix->text);
    for (size_t i = 0; i < ix->used; i++)
        free(ix->names[i]);
    free(ix->names);
    free(ix->keys);
    free(ix->values);
    free(ix->found);
    memset(ix, 0, sizeof(*ix));
}
