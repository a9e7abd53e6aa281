/*
 * symbol_rules: perf's symbols__fixup_end, symbols__fixup_duplicate and
 * choose_best_symbol, walking the replayed tree in order as perf walks
 * its rbtree, and perf's symbols__find where functions overlap.
 */
#include "perf/symbols/symbol_rules.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "perf/symbols/perf_demangle.h"

void symbol_builder_init(struct symbol_builder *b)
{
    memset(b, 0, sizeof(*b));
}

void symbol_builder_init_sorted(struct symbol_builder *b)
{
    symbol_builder_init(b);
    b->sorted_only = true;
}

void symbol_builder_free(struct symbol_builder *b)
{
    free(b->syms);
    free(b->names);
    free(b->order);
    free(b->dead);
    free(b->erasures);
    free(b->pending);
    free(b->fixed_order);
    bool sorted_only = b->sorted_only;
    symbol_builder_init(b);
    b->sorted_only = sorted_only;
}

static int reserve_names(struct symbol_builder *b, size_t more)
{
    if (b->names_len + more <= b->names_capacity)
        return 0;
    size_t cap = b->names_capacity ? b->names_capacity : 4096;
    while (cap < b->names_len + more)
        cap *= 2;
    char *names = realloc(b->names, cap);
    if (!names)
        return -1;
    b->names = names;
    b->names_capacity = cap;
    return 0;
}

/* Room for `cap` symbols in every per-symbol array. */
static int resize_symbols(struct symbol_builder *b, size_t cap)
{
    struct rule_symbol *syms = realloc(b->syms, cap * sizeof(*syms));
    if (syms)
        b->syms = syms;
    uint32_t *order = realloc(b->order, cap * sizeof(*order));
    if (order)
        b->order = order;
    uint8_t *dead = realloc(b->dead, cap);
    if (dead)
        b->dead = dead;
    uint32_t *erasures = b->sorted_only ? NULL : realloc(b->erasures, 2 * cap * sizeof(*erasures));
    if (erasures)
        b->erasures = erasures;
    if (!syms || !order || !dead || (!b->sorted_only && !erasures))
        return -1;
    b->capacity = cap;
    return 0;
}

static int reserve_symbols(struct symbol_builder *b)
{
    if (b->count < b->capacity)
        return 0;
    return resize_symbols(b, b->capacity ? b->capacity * 2 : 1024);
}

int symbol_builder_reserve(struct symbol_builder *b, size_t n)
{
    if (n <= b->capacity || n >= TREE_NIL - 1)
        return 0; /* (a hint: an impossible count is left to symbol_builder_add) */
    return resize_symbols(b, n);
}

/* Appends one symbol: its name at `name` in the builder's names, or `borrowed`. */
static int append_symbol(struct symbol_builder *b, const struct rule_symbol *sym)
{
    if (b->count >= TREE_NIL - 1 || reserve_symbols(b))
        return -1;
    b->syms[b->count] = *sym;
    b->dead[b->count] = 0; /* (the order takes it in when next asked) */
    b->count++;
    return 0;
}

int symbol_builder_add(struct symbol_builder *b, uint64_t start, uint64_t size, uint8_t binding,
                       const char *name, size_t name_len)
{
    if (reserve_names(b, name_len + 1))
        return -1;
    struct rule_symbol sym = {
        .start = start,
        .end = start + size, /* perf's symbol__new: len ? start + len : start */
        .name = b->names_len,
        .borrowed = NULL,
        .binding = binding,
        .module = memchr(name, '[', name_len) != NULL,
    };
    if (append_symbol(b, &sym))
        return -1;
    memcpy(b->names + b->names_len, name, name_len);
    b->names[b->names_len + name_len] = '\0';
    b->names_len += name_len + 1;
    return 0;
}

int symbol_builder_add_borrowed(struct symbol_builder *b, uint64_t start, uint64_t size,
                                uint8_t binding, const char *name)
{
    struct rule_symbol sym = {start, start + size, 0, name, binding, false};
    return append_symbol(b, &sym);
}

struct sort_key {
    uint64_t start;
    uint32_t node;
};

#define DIGIT_BITS 11
#define DIGITS     (1u << DIGIT_BITS)

/* One stable counting pass over keys a -> out by the digit at `shift`. */
static void radix_pass(const struct sort_key *a, struct sort_key *out, size_t n, unsigned shift,
                       size_t *counts)
{
    memset(counts, 0, DIGITS * sizeof(*counts));
    for (size_t i = 0; i < n; i++)
        counts[(a[i].start >> shift) & (DIGITS - 1)]++;
    size_t at = 0;
    for (size_t d = 0; d < DIGITS; d++) {
        size_t c = counts[d];
        counts[d] = at;
        at += c;
    }
    for (size_t i = 0; i < n; i++)
        out[counts[(a[i].start >> shift) & (DIGITS - 1)]++] = a[i];
}

/*
 * Nodes [from, to) into out[] by start, ties in insertion order (perf's
 * tree puts an equal start right of the ones before): a stable radix
 * sort of the starts less the smallest, as many passes as their span
 * needs. False: out of memory.
 */
static bool sort_by_start(const struct symbol_builder *b, size_t from, size_t to, uint32_t *out)
{
    size_t n = to - from;
    bool sorted = true; /* (/proc/kallsyms mostly is) */
    uint64_t low = UINT64_MAX, high = 0;
    for (size_t i = from; i < to; i++) {
        uint64_t x = b->syms[i].start;
        sorted &= i == from || b->syms[i - 1].start <= x;
        low = x < low ? x : low;
        high = x > high ? x : high;
        out[i - from] = (uint32_t)i;
    }
    if (sorted)
        return true;
    struct sort_key *keys = malloc(n * sizeof(*keys)), *other = malloc(n * sizeof(*other));
    size_t *counts = malloc(DIGITS * sizeof(*counts));
    bool ok = keys && other && counts;
    if (ok) {
        for (size_t i = 0; i < n; i++)
            keys[i] = (struct sort_key){b->syms[from + i].start - low, (uint32_t)(from + i)};
        for (unsigned shift = 0; shift < 64 && ((high - low) >> shift) != 0; shift += DIGIT_BITS) {
            radix_pass(keys, other, n, shift, counts);
            struct sort_key *t = keys;
            keys = other;
            other = t;
        }
        for (size_t i = 0; i < n; i++)
            out[i] = keys[i].node;
    }
    free(keys);
    free(other);
    free(counts);
    return ok;
}

/* Merges the nodes added since the order was made (sorted apart) into it. False: out of memory. */
static bool merge_added(struct symbol_builder *b)
{
    size_t k = b->count - b->sorted_count;
    uint32_t *added = malloc(k * sizeof(*added));
    if (!added || !sort_by_start(b, b->sorted_count, b->count, added)) {
        free(added);
        return false;
    }
    size_t i = b->order_len, j = k, w = b->order_len + k;
    while (j > 0) { /* from the end: a tie puts the later node last */
        if (i > 0 && b->syms[b->order[i - 1]].start > b->syms[added[j - 1]].start)
            b->order[--w] = b->order[--i];
        else
            b->order[--w] = added[--j];
    }
    free(added);
    b->order_len += k;
    b->sorted_count = b->count;
    return true;
}

/*
 * Sorts every node once; nodes added later are merged in, and each call
 * drops the erased. Returns false when memory runs out.
 */
static bool sorted_order(struct symbol_builder *b, size_t *len)
{
    if (!b->order_valid) {
        if (!sort_by_start(b, 0, b->count, b->order))
            return false;
        b->order_len = b->sorted_count = b->count;
        b->order_valid = true;
    } else if (b->sorted_count < b->count && !merge_added(b)) {
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < b->order_len; i++)
        if (!b->dead[b->order[i]])
            b->order[n++] = b->order[i];
    b->order_len = n;
    *len = n;
    return true;
}

const uint32_t *symbol_builder_in_order(struct symbol_builder *b, size_t *n)
{
    static const uint32_t none[1];
    *n = 0;
    if (b->count == 0)
        return none;
    return sorted_order(b, n) ? b->order : NULL;
}

void symbol_builder_erase(struct symbol_builder *b, uint32_t node)
{
    if (b->dead[node])
        return;
    b->dead[node] = 1;
    if (!b->sorted_only) { /* for perf's tree, if one is built */
        b->erasures[2 * b->nerasures] = node;
        b->erasures[2 * b->nerasures + 1] = (uint32_t)b->count;
        b->nerasures++;
    }
}

static const char *name_of(const struct symbol_builder *b, uint32_t node)
{
    const struct rule_symbol *s = &b->syms[node];
    return s->borrowed ? s->borrowed : b->names + s->name;
}

uint64_t symbol_page_up(uint64_t x)
{
    return (x + 4095) / 4096 * 4096;
}

/* perf's symbols__fixup_end over the symbols in order. */
static void fixup_end(struct symbol_builder *b, const uint32_t *order, size_t n, bool kallsyms)
{
    for (size_t i = 1; i < n; i++) {
        struct rule_symbol *prev = &b->syms[order[i - 1]], *curr = &b->syms[order[i]];
        if (prev->end != prev->start)
            continue;
        if (kallsyms && prev->module != curr->module)
            prev->end = symbol_page_up(prev->end + 4096); /* the last kernel or module symbol */
        else
            prev->end = curr->start;
    }
    if (n > 0) {
        struct rule_symbol *last = &b->syms[order[n - 1]];
        if (last->end == last->start)
            last->end = symbol_page_up(last->start) + 4096;
    }
}

static size_t leading_underscores(const char *s)
{
    size_t n = 0;
    while (s[n] == '_')
        n++;
    return n;
}

/* choose_best_symbol's first rules, which need no name: 1 keep a, 0 keep b, -1 undecided. */
static int keep_first_by_kind(bool a_sized, uint8_t a_binding, bool b_sized, uint8_t b_binding)
{
    if (a_sized != b_sized)
        return a_sized;
    bool a_weak = a_binding == STB_WEAK, b_weak = b_binding == STB_WEAK;
    if (a_weak != b_weak)
        return b_weak;
    bool a_global = a_binding == STB_GLOBAL, b_global = b_binding == STB_GLOBAL;
    if (a_global != b_global)
        return a_global;
    return -1;
}

bool symbol_keep_first(const struct symbol_choice *a, const struct symbol_choice *b)
{
    int kind = keep_first_by_kind(a->sized, a->binding, b->sized, b->binding);
    if (kind >= 0)
        return kind;
    size_t au = leading_underscores(a->name), bu = leading_underscores(b->name);
    if (au != bu)
        return au < bu;
    if (a->name_len != b->name_len)
        return a->name_len > b->name_len;
    /* perf's arch__choose_best_symbol: avoid the kernel's "SyS" syscall aliases */
    return strncmp(a->name, "SyS", 3) != 0 && strncmp(a->name, "compat_SyS", 10) != 0;
}

/*
 * A node's name as choose_best_symbol compares it: demangled (the costly
 * part) once, when size and binding do not decide, and kept while the
 * node stays the one its address's next aliases are compared with.
 */
struct compared_name {
    uint32_t node;
    bool made;
    char *readable; /* demangled, to free; NULL: the name as read (or out of memory) */
};

static struct symbol_choice choice_of(const struct symbol_builder *bl, struct compared_name *c)
{
    const struct rule_symbol *s = &bl->syms[c->node];
    if (!c->made) {
        c->readable = bl->demangle ? perf_demangle_symbol(name_of(bl, c->node)) : NULL;
        c->made = true;
    }
    const char *name = c->readable ? c->readable : name_of(bl, c->node);
    return (struct symbol_choice){s->end != s->start, s->binding, name, strlen(name)};
}

static void compare_name(struct compared_name *c, uint32_t node)
{
    free(c->readable);
    *c = (struct compared_name){node, false, NULL};
}

static bool keep_first(const struct symbol_builder *bl, struct compared_name *a,
                       struct compared_name *b)
{
    const struct rule_symbol *sa = &bl->syms[a->node], *sb = &bl->syms[b->node];
    int kind =
        keep_first_by_kind(sa->end != sa->start, sa->binding, sb->end != sb->start, sb->binding);
    if (kind >= 0)
        return kind;
    struct symbol_choice ca = choice_of(bl, a), cb = choice_of(bl, b);
    return symbol_keep_first(&ca, &cb);
}

/* perf's choose_best_symbol over one address's symbols g[0, n), losers erased in its order. */
static void fold_group(struct symbol_builder *b, const uint32_t *g, size_t n)
{
    struct compared_name curr = {g[0], false, NULL}, next = {0, false, NULL};
    for (size_t i = 1; i < n; i++) {
        compare_name(&next, g[i]);
        if (keep_first(b, &curr, &next)) {
            symbol_builder_erase(b, next.node);
        } else {
            symbol_builder_erase(b, curr.node);
            free(curr.readable);
            curr = next; /* its name, made or not, goes with it */
            next = (struct compared_name){0, false, NULL};
        }
    }
    compare_name(&curr, 0);
    compare_name(&next, 0);
}

static bool same_kind(const struct rule_symbol *a, const struct rule_symbol *b)
{
    return keep_first_by_kind(a->end != a->start, a->binding, b->end != b->start, b->binding) < 0;
}

static bool push_pending(struct symbol_builder *b, uint32_t value)
{
    if (b->pending_len == b->pending_capacity) {
        size_t cap = b->pending_capacity ? b->pending_capacity * 2 : 256;
        uint32_t *pending = realloc(b->pending, cap * sizeof(*pending));
        if (!pending)
            return false;
        b->pending = pending;
        b->pending_capacity = cap;
    }
    b->pending[b->pending_len++] = value;
    return true;
}

/* Whether perf's fold over g[0, n) compares two names (size and binding do not decide). */
static bool names_needed(const struct symbol_builder *b, const uint32_t *g, size_t n)
{
    uint32_t curr = g[0];
    for (size_t i = 1; i < n; i++) {
        const struct rule_symbol *x = &b->syms[curr], *y = &b->syms[g[i]];
        int kind =
            keep_first_by_kind(x->end != x->start, x->binding, y->end != y->start, y->binding);
        if (kind < 0)
            return true;
        if (kind == 0)
            curr = g[i];
    }
    return false;
}

/*
 * lazy_names: one address's symbols g[0, n) without demangling. perf's
 * fold keeps a symbol of the best kind (size, then binding: a total
 * order), the first of that kind unless names differ. When those of the
 * best kind end alike (sized: the function's range is the same whoever
 * wins), the first stays and the group waits in `pending`. False (nothing
 * done): the names would decide the range, so fold_group must.
 */
static bool defer_group(struct symbol_builder *b, const uint32_t *g, size_t n)
{
    if (!names_needed(b, g, n))
        return false; /* fold_group erases in perf's order and demangles nothing */
    size_t best = 0, count = 0;
    for (size_t i = 1; i < n; i++) {
        const struct rule_symbol *x = &b->syms[g[best]], *y = &b->syms[g[i]];
        if (keep_first_by_kind(x->end != x->start, x->binding, y->end != y->start, y->binding) == 0)
            best = i;
    }
    const struct rule_symbol *w = &b->syms[g[best]];
    bool same_ends = true;
    for (size_t i = 0; i < n; i++)
        if (same_kind(w, &b->syms[g[i]])) {
            same_ends &= b->syms[g[i]].end == w->end;
            count++;
        }
    if (count > 1 && (!same_ends || w->end == w->start))
        return false;
    best = 0;
    while (!same_kind(w, &b->syms[g[best]]))
        best++; /* the first of the best kind */
    size_t mark = b->pending_len;
    if (count > 1) {
        bool ok = push_pending(b, (uint32_t)count);
        for (size_t i = best; ok && i < n; i++)
            if (same_kind(w, &b->syms[g[i]]))
                ok = push_pending(b, g[i]);
        if (!ok) {
            b->pending_len = mark;
            return false; /* (out of memory: decided now) */
        }
    }
    for (size_t i = 0; i < n; i++)
        if (i != best)
            symbol_builder_erase(b, g[i]);
    b->erased_lazily = true;
    return true;
}

/* perf's symbols__fixup_duplicate: one symbol per address. */
static void fixup_duplicate(struct symbol_builder *b, const uint32_t *order, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && b->syms[order[j]].start == b->syms[order[i]].start)
            j++;
        if (j - i > 1 && !(b->lazy_names && !b->sorted_only && defer_group(b, order + i, j - i)))
            fold_group(b, order + i, j - i);
        i = j;
    }
}

int symbol_builder_fixup(struct symbol_builder *b, bool kallsyms)
{
    size_t n;
    const uint32_t *order = symbol_builder_in_order(b, &n);
    if (!order)
        return -1;
    fixup_end(b, order, n, kallsyms);
    free(b->fixed_order);
    b->fixed_order = NULL;
    if (b->lazy_names && !b->sorted_only && n == b->count &&
        (b->fixed_order = malloc((n ? n : 1) * sizeof(*order))))
        memcpy(b->fixed_order, order, n * sizeof(*order)); /* (none: sorted again if needed) */
    fixup_duplicate(b, order, n);
    b->fixed_count = b->count;
    return 0;
}

static bool overlapping(const struct symtab *tab)
{
    for (size_t i = 0; i < tab->count; i++)
        if ((i > 0 && tab->max_end[i - 1] > tab->funcs[i].start) ||
            tab->funcs[i].start == tab->funcs[i].end)
            return true; /* several cover one address, or perf's zero-length match */
    return false;
}

/* The builder's starts and erasures, as perf's tree is built from them. */
static int keep_insertions(const struct symbol_builder *b, struct symbol_replay *r)
{
    size_t count = b->count ? b->count : 1, nerasures = b->nerasures ? b->nerasures : 1;
    r->starts = malloc(count * sizeof(*r->starts));
    r->erasures = malloc(2 * nerasures * sizeof(*r->erasures));
    if (!r->starts || !r->erasures) {
        free(r->starts);
        free(r->erasures);
        r->starts = NULL, r->erasures = NULL;
        return -1;
    }
    r->count = b->count;
    r->nerasures = b->nerasures;
    for (size_t i = 0; i < b->count; i++)
        r->starts[i] = b->syms[i].start;
    memcpy(r->erasures, b->erasures, 2 * b->nerasures * sizeof(*r->erasures));
    return 0;
}

/*
 * What perf's tree is built from, for symbol_find to build it when first
 * needed; with `refix`, the builder itself (moved out of `b`). Each node
 * kept, and each alias of a group left undecided, maps to its function.
 */
static int keep_replay(struct symbol_builder *b, const uint32_t *order, size_t n, bool refix,
                       struct symbol_lookup *lookup)
{
    struct symbol_replay *r = calloc(1, sizeof(*r));
    if (!r)
        return -1;
    lookup->replay = r;
    if (!(r->func_of = malloc((b->count ? b->count : 1) * sizeof(*r->func_of))))
        return -1;
    for (size_t i = 0; i < b->count; i++)
        r->func_of[i] = TREE_NIL;
    for (size_t i = 0; i < n; i++)
        r->func_of[order[i]] = (uint32_t)i;
    for (size_t p = 0; p < b->pending_len; p += 1 + b->pending[p])
        for (uint32_t k = 1; k < b->pending[p]; k++) /* the first of a group stays */
            r->func_of[b->pending[p + 1 + k]] = r->func_of[b->pending[p + 1]];
    if (!refix)
        return keep_insertions(b, r);
    if (!(r->refix = malloc(sizeof(*r->refix))))
        return -1;
    *r->refix = *b;
    symbol_builder_init(b); /* (its arrays are the replay's now) */
    return 0;
}

static int fix_again_in_perf_order(struct symbol_builder *b);

/*
 * The erasures of deciding the aliases in perf's order (names demangled,
 * read from the table), as the tree is built from; the nodes perf erases
 * are no function's. Returns 0, or -1 when memory runs out.
 */
static int refix_now(const struct symtab *tab, struct symbol_replay *r)
{
    struct symbol_builder *b = r->refix;
    b->names = (char *)tab->names;
    int rc = fix_again_in_perf_order(b);
    b->names = NULL; /* (the table's) */
    if (rc == 0)
        rc = keep_insertions(b, r);
    if (rc != 0)
        return -1;
    for (size_t i = 0; i < b->count; i++)
        if (b->dead[i])
            r->func_of[i] = TREE_NIL;
    symbol_builder_free(b);
    free(b);
    r->refix = NULL;
    return 0;
}

static void replay_free(struct symbol_replay *r)
{
    if (!r)
        return;
    if (r->refix) {
        r->refix->names = NULL; /* (the table's) */
        symbol_builder_free(r->refix);
        free(r->refix);
    }
    free(r->starts);
    free(r->func_of);
    free(r->erasures);
    free(r);
}

/* perf's tree: its insertions (in node order) and erasures, in the order they were made. */
static void replay_tree(const struct symbol_replay *r, struct symbol_tree *t)
{
    t->root = TREE_NIL;
    uint32_t next = 0;
    for (size_t e = 0; e < r->nerasures; e++) {
        for (; next < r->erasures[2 * e + 1]; next++)
            symbol_tree_insert(t, next, r->starts[next]);
        symbol_tree_erase(t, r->erasures[2 * e]);
    }
    for (; next < r->count; next++)
        symbol_tree_insert(t, next, r->starts[next]);
}

/* The tree renumbered by function index (the nodes left in it are the table's functions). */
int symbol_lookup_build_tree(const struct symtab *tab, struct symbol_lookup *lookup)
{
    struct symbol_replay *r = lookup->replay;
    if (!r)
        return 0;
    if (r->refix && refix_now(tab, r))
        return -1;
    struct symbol_tree t;
    symbol_tree_init(&t);
    size_t n = tab->count ? tab->count : 1;
    lookup->left = malloc(n * sizeof(*lookup->left));
    lookup->right = malloc(n * sizeof(*lookup->right));
    if (!lookup->left || !lookup->right || symbol_tree_reserve(&t, r->count)) {
        free(lookup->left);
        free(lookup->right);
        lookup->left = lookup->right = NULL;
        symbol_tree_free(&t);
        return -1;
    }
    replay_tree(r, &t);
    for (size_t node = 0; node < r->count; node++) {
        uint32_t f = r->func_of[node], l = t.left[node], rt = t.right[node];
        if (f == TREE_NIL)
            continue;
        lookup->left[f] = l == TREE_NIL ? TREE_NIL : r->func_of[l];
        lookup->right[f] = rt == TREE_NIL ? TREE_NIL : r->func_of[rt];
    }
    lookup->root = t.root == TREE_NIL ? TREE_NIL : r->func_of[t.root];
    symbol_tree_free(&t);
    replay_free(r);
    lookup->replay = NULL;
    return 0;
}

/* overlapping() over the symbols in order, before they become a table. */
static bool order_overlaps(const struct symbol_builder *b, const uint32_t *order, size_t n)
{
    uint64_t largest = 0;
    for (size_t i = 0; i < n; i++) {
        const struct rule_symbol *s = &b->syms[order[i]];
        if ((i > 0 && largest > s->start) || s->start == s->end)
            return true;
        if (s->end > largest)
            largest = s->end;
    }
    return false;
}

/*
 * The duplicates fixed again, in perf's order (names demangled), over the
 * symbols read before they were fixed. Returns 0, or -1 when memory runs out.
 */
static int fix_again_in_perf_order(struct symbol_builder *b)
{
    size_t count = b->count, n;
    memset(b->dead, 0, count);
    b->nerasures = 0;
    b->count = b->fixed_count;               /* (the symbols added later were not there yet) */
    b->order_valid = b->fixed_order != NULL; /* the order they were fixed in, else sorted again */
    if (b->fixed_order) {
        memcpy(b->order, b->fixed_order, b->fixed_count * sizeof(*b->order));
        b->order_len = b->sorted_count = b->fixed_count;
    }
    const uint32_t *order = symbol_builder_in_order(b, &n);
    if (order) {
        b->lazy_names = false;
        fixup_duplicate(b, order, n);
    }
    b->count = count; /* the later ones are merged into the order when next asked */
    b->pending_len = 0;
    return order ? 0 : -1;
}

/* The pending groups as choices of the table's functions (order: the table's). */
static int keep_choices(const struct symbol_builder *b, const uint32_t *order, size_t n,
                        const struct symtab *tab, struct symbol_lookup *lookup)
{
    size_t groups = 0;
    for (size_t p = 0; p < b->pending_len; p += 1 + b->pending[p])
        groups++;
    if (groups == 0)
        return 0;
    lookup->choices = malloc(groups * sizeof(*lookup->choices));
    lookup->choice_names = malloc(b->pending_len * sizeof(*lookup->choice_names));
    if (!lookup->choices || !lookup->choice_names)
        return -1;
    size_t f = 0, names = 0;
    for (size_t p = 0; p < b->pending_len; p += 1 + b->pending[p]) {
        uint32_t count = b->pending[p], keep = b->pending[p + 1];
        while (f < n && order[f] != keep)
            f++;
        if (f == n)
            return -1; /* (cannot happen: the first of a group stays) */
        lookup->choices[lookup->nchoices++] =
            (struct name_choice){(uint32_t)f, (uint32_t)names, count};
        for (uint32_t k = 0; k < count; k++) {
            const struct rule_symbol *s = &b->syms[b->pending[p + 1 + k]];
            lookup->choice_names[names++] = s->borrowed ? s->borrowed : tab->names + s->name;
        }
    }
    return 0;
}

int symbol_builder_finish(struct symbol_builder *b, struct symtab *tab,
                          struct symbol_lookup *lookup)
{
    memset(tab, 0, sizeof(*tab));
    memset(lookup, 0, sizeof(*lookup));
    lookup->root = TREE_NIL;
    size_t n;
    const uint32_t *order = symbol_builder_in_order(b, &n);
    /* aliases left undecided where functions overlap: perf's tree needs them decided in its order
     */
    bool refix = order && b->erased_lazily && order_overlaps(b, order, n);
    if (!order) {
        symbol_builder_free(b);
        return -1;
    }
    tab->funcs = calloc(n ? n : 1, sizeof(*tab->funcs));
    tab->names = b->names ? b->names : malloc(1);
    b->names = NULL;
    int rc = !tab->funcs || !tab->names ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const struct rule_symbol *s = &b->syms[order[i]];
        tab->funcs[i] = (struct symtab_func){s->start, s->end,
                                             s->borrowed ? s->borrowed : tab->names + s->name};
    }
    tab->count = rc == 0 ? n : 0;
    if (rc == 0)
        rc = symtab_index(tab);
    if (rc == 0)
        rc = keep_choices(b, order, n, tab, lookup);
    if (rc == 0 && !b->sorted_only && overlapping(tab))
        rc = keep_replay(b, order, n, refix, lookup); /* (last: it may take the builder) */
    if (rc != 0) {
        symtab_free(tab);
        symbol_lookup_free(lookup);
    }
    symbol_builder_free(b);
    return rc;
}

/*
 * Whether the tree's descent finds what symtab's search finds at `addr`:
 * the last function starting at or below it starts alone and above every
 * earlier function's end, and has a size. The descent then passes it (the
 * largest start not above addr), and no other node holds addr. Then
 * *found is that answer: the function, when it holds addr, else none.
 */
static bool alone_at(const struct symtab *tab, uint64_t addr, const struct symtab_func **found)
{
    size_t lo = 0, hi = tab->count; /* the first function starting above addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tab->funcs[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = NULL;
    if (lo == 0)
        return true; /* below every function: both find none */
    const struct symtab_func *f = &tab->funcs[lo - 1];
    if (f->start == f->end ||
        (lo > 1 && (tab->max_end[lo - 2] > f->start || tab->funcs[lo - 2].start == f->start)))
        return false;
    *found = addr < f->end ? f : NULL;
    return true;
}

const struct symtab_func *symbol_find(const struct symtab *tab, struct symbol_lookup *lookup,
                                      uint64_t addr)
{
    const struct symtab_func *alone;
    if (lookup->replay && alone_at(tab, addr, &alone))
        return alone;
    if (lookup->replay)
        symbol_lookup_build_tree(tab, lookup); /* (memory short: symtab's answer) */
    if (!lookup->left)
        return symtab_lookup(tab, addr);
    for (uint32_t n = lookup->root; n != TREE_NIL;) {
        const struct symtab_func *s = &tab->funcs[n];
        if (addr < s->start)
            n = lookup->left[n];
        else if (addr > s->end || (addr == s->end && addr != s->start))
            n = lookup->right[n];
        else
            return s;
    }
    return NULL;
}

static const struct name_choice *choice_for(const struct symbol_lookup *lookup, size_t index)
{
    size_t lo = 0, hi = lookup->nchoices;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (lookup->choices[m].func < index)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < lookup->nchoices && lookup->choices[lo].func == index ? &lookup->choices[lo] : NULL;
}

static char *readable_name(const char *name, bool demangle)
{
    return demangle ? perf_demangle_symbol(name) : strdup(name);
}

/*
 * perf's fold over aliases of one kind (fold_group's, by names only): the
 * winner's place among them, its readable name in *best (malloc'd).
 * -1: memory ran out.
 */
static int chosen(const struct symbol_lookup *lookup, const struct name_choice *c, bool demangle,
                  char **best)
{
    const char *const *names = lookup->choice_names + c->first;
    int winner = 0;
    *best = readable_name(names[0], demangle);
    for (uint32_t k = 1; *best && k < c->count; k++) {
        char *other = readable_name(names[k], demangle);
        if (!other) {
            free(*best);
            *best = NULL;
            break;
        }
        struct symbol_choice a = {true, 0, *best, strlen(*best)},
                             b = {true, 0, other, strlen(other)};
        if (symbol_keep_first(&a, &b)) {
            free(other);
        } else {
            free(*best);
            *best = other;
            winner = (int)k;
        }
    }
    return *best ? winner : -1;
}

char *symbol_name(const struct symtab *tab, const struct symbol_lookup *lookup, size_t index,
                  bool demangle)
{
    const struct name_choice *c = lookup->nchoices ? choice_for(lookup, index) : NULL;
    char *best = NULL;
    if (c)
        chosen(lookup, c, demangle, &best);
    return c ? best : readable_name(tab->funcs[index].name, demangle);
}

const char *symbol_kept_name(const struct symtab *tab, const struct symbol_lookup *lookup,
                             size_t index, bool demangle)
{
    const struct name_choice *c = lookup->nchoices ? choice_for(lookup, index) : NULL;
    char *best = NULL;
    int winner = c ? chosen(lookup, c, demangle, &best) : -1;
    free(best);
    return winner >= 0 ? lookup->choice_names[c->first + (uint32_t)winner] : tab->funcs[index].name;
}

void symbol_lookup_free(struct symbol_lookup *lookup)
{
    replay_free(lookup->replay);
    free(lookup->left);
    free(lookup->right);
    free(lookup->choices);
    free(lookup->choice_names);
    memset(lookup, 0, sizeof(*lookup));
    lookup->root = TREE_NIL;
}
