/*
 * test_perf_units: the perf.data reader's data structures on their own
 * (cmocka): the replayed rbtree keeps the red-black invariants and
 * in-order sequence through random insertions and erasures; perf's
 * symbol rules (ends, aliases, overlaps; the tree built when a lookup
 * first needs it finds what it finds built at once); address spaces split by a new
 * mapping; the round-by-round ordering of records; kallsyms parsing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <elf.h>

#include "perf/symbols/kallsyms.h"
#include "perf/symbols/kallsyms_index.h"
#include "perf/machine/perf_maps.h"
#include "perf/data/perf_order.h"
#include "perf/symbols/symbol_rules.h"
#include "perf/symbols/symbol_tree.h"

/* --- symbol_tree ---------------------------------------------------------- */

/* Black height of the subtree at n; fails the test on a red-black violation. */
static int black_height(const struct symbol_tree *t, uint32_t n, uint32_t parent)
{
    if (n == TREE_NIL)
        return 1;
    assert_int_equal(t->parent[n], parent);
    if (!t->black[n]) {
        assert_true(t->left[n] == TREE_NIL || t->black[t->left[n]]);
        assert_true(t->right[n] == TREE_NIL || t->black[t->right[n]]);
    }
    if (t->left[n] != TREE_NIL)
        assert_true(t->key[t->left[n]] <= t->key[n]); /* equal keys may rotate left */
    if (t->right[n] != TREE_NIL)
        assert_true(t->key[t->right[n]] >= t->key[n]);
    int l = black_height(t, t->left[n], n), r = black_height(t, t->right[n], n);
    assert_int_equal(l, r);
    return l + (t->black[n] ? 1 : 0);
}

static void check_tree(const struct symbol_tree *t, const uint8_t *alive, size_t n)
{
    if (t->root != TREE_NIL)
        assert_true(t->black[t->root]);
    black_height(t, t->root, TREE_NIL);
    uint32_t *order = malloc((n ? n : 1) * sizeof(*order));
    assert_non_null(order);
    size_t count = symbol_tree_in_order(t, order), live = 0;
    for (size_t i = 0; i < n; i++)
        live += alive[i];
    assert_int_equal(count, live);
    for (size_t i = 1; i < count; i++) {
        assert_true(t->key[order[i - 1]] <= t->key[order[i]]);
        if (t->key[order[i - 1]] == t->key[order[i]])
            assert_true(order[i - 1] < order[i]); /* ties in insertion order */
    }
    free(order);
}

static void tree_random_insert_erase(void **state)
{
    (void)state;
    enum { N = 3000 };
    uint64_t seed = 12345;
    for (int round = 0; round < 4; round++) {
        struct symbol_tree t;
        uint8_t alive[N] = {0};
        symbol_tree_init(&t);
        assert_int_equal(symbol_tree_reserve(&t, N), 0);
        for (uint32_t i = 0; i < N; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t key = round == 0 ? i : (seed >> 33) % (round == 1 ? 50 : 100000);
            symbol_tree_insert(&t, i, key);
            alive[i] = 1;
            if (i % 7 == 3) { /* erase an earlier live node */
                uint32_t victim = (uint32_t)((seed >> 17) % (i + 1));
                if (alive[victim]) {
                    symbol_tree_erase(&t, victim);
                    alive[victim] = 0;
                }
            }
            if (i % 500 == 0)
                check_tree(&t, alive, i + 1);
        }
        check_tree(&t, alive, N);
        for (uint32_t i = 0; i < N; i += 2)
            if (alive[i]) {
                symbol_tree_erase(&t, i);
                alive[i] = 0;
            }
        check_tree(&t, alive, N);
        symbol_tree_free(&t);
    }
}

/* --- symbol_rules ----------------------------------------------------------- */

static struct symtab build(struct symbol_builder *b, bool kallsyms, struct symbol_lookup *lookup)
{
    struct symtab tab;
    assert_int_equal(symbol_builder_fixup(b, kallsyms), 0);
    assert_int_equal(symbol_builder_finish(b, &tab, lookup), 0);
    return tab;
}

static const char *name_at(const struct symtab *tab, struct symbol_lookup *l, uint64_t a)
{
    const struct symtab_func *f = symbol_find(tab, l, a);
    return f ? f->name : "(none)";
}

static void add(struct symbol_builder *b, uint64_t start, uint64_t size, uint8_t bind,
                const char *name)
{
    assert_int_equal(symbol_builder_add(b, start, size, bind, name, strlen(name)), 0);
}

static void rules_ends_and_aliases(void **state)
{
    (void)state;
    struct symbol_builder b;
    struct symbol_lookup l;
    symbol_builder_init(&b);
    add(&b, 0x100, 0, STB_GLOBAL, "sizeless"); /* ends where "next" starts */
    add(&b, 0x180, 0x20, STB_WEAK, "weak_alias");
    add(&b, 0x180, 0x20, STB_GLOBAL, "strong"); /* not weak wins */
    add(&b, 0x200, 0, STB_GLOBAL, "_under");
    add(&b, 0x200, 0, STB_GLOBAL, "plain"); /* fewer underscores win */
    add(&b, 0x300, 0x10, STB_LOCAL, "short");
    add(&b, 0x300, 0x10, STB_LOCAL, "longer_name"); /* the longer name wins */
    add(&b, 0x400, 0, STB_GLOBAL, "last");          /* the last ends a page on */
    struct symtab tab = build(&b, false, &l);
    assert_string_equal(name_at(&tab, &l, 0x17f), "sizeless");
    assert_string_equal(name_at(&tab, &l, 0x180), "strong");
    assert_string_equal(name_at(&tab, &l, 0x1a0), "(none)");
    assert_string_equal(name_at(&tab, &l, 0x2ff), "plain");
    assert_string_equal(name_at(&tab, &l, 0x305), "longer_name");
    assert_string_equal(name_at(&tab, &l, 0x1fff), "last");
    assert_string_equal(name_at(&tab, &l, 0x2000), "(none)");
    assert_null(l.left); /* nothing overlaps: symtab's binary search */
    assert_null(l.replay);
    symtab_free(&tab);
    symbol_lookup_free(&l);
}

static void rules_overlap_follows_the_tree(void **state)
{
    (void)state;
    /* "_init" stretched over the PLT, then PLT entries added after the fixups. */
    struct symbol_builder b;
    struct symbol_lookup l;
    symbol_builder_init(&b);
    add(&b, 0x1090, 0xc2, STB_GLOBAL, "main");
    add(&b, 0x1000, 0, STB_GLOBAL, "_init");
    assert_int_equal(symbol_builder_fixup(&b, false), 0);
    add(&b, 0x1030, 0x10, STB_GLOBAL, "puts@plt");
    add(&b, 0x1040, 0x10, STB_GLOBAL, "qsort@plt");
    struct symtab tab;
    assert_int_equal(symbol_builder_finish(&b, &tab, &l), 0);
    assert_non_null(l.replay); /* they overlap: perf's tree decides, built when needed */
    assert_null(l.left);
    /*
     * The rotations leave puts@plt at the root, _init left of it, main
     * right and qsort@plt left of main. A descent stops at the first
     * symbol that covers the address, and may miss one that does: 0x1060
     * lies in _init's range but the descent goes right at puts@plt.
     */
    assert_string_equal(name_at(&tab, &l, 0x1010), "_init");
    assert_string_equal(name_at(&tab, &l, 0x1030), "puts@plt");
    assert_string_equal(name_at(&tab, &l, 0x1045), "qsort@plt");
    assert_string_equal(name_at(&tab, &l, 0x1060), "(none)");
    assert_string_equal(name_at(&tab, &l, 0x1095), "main");
    symtab_free(&tab);
    symbol_lookup_free(&l);
}

/* A builder's symbols for one trial of rules_lazy_names_as_perf (the same for both builders). */
static void add_trial(struct symbol_builder *b, unsigned seed, bool plt)
{
    static const char *const names[] = {"_Z3foov", "_Z6foobarv", "_ZN1AC1Ev", "_ZN1AC2Ev",
                                        "_under",  "__x",        "SyS_read",  "sys_read",
                                        "plain",   "_Z1fi",      "longer_one"};
    static const uint8_t bindings[] = {STB_GLOBAL, STB_GLOBAL, STB_WEAK, STB_LOCAL};
    srand(seed);
    for (int i = 0; i < 40; i++) {
        uint64_t start = 0x1000 + (uint64_t)(rand() % 12) * 0x20;
        uint64_t size = rand() % 3 == 0 ? 0 : (uint64_t)(rand() % 2 + 1) * 0x10;
        add(b, start, size, bindings[rand() % 4], names[rand() % 11]);
    }
    if (!plt)
        return;
    assert_int_equal(symbol_builder_fixup(b, false), 0);
    add(b, 0x1008, 0x10, STB_GLOBAL, "puts@plt"); /* over what the fixups stretched */
    add(b, 0x1108, 0x8, STB_GLOBAL, "_Z3foov@plt");
}

/* A builder's table, fixed up (the trial's own fixup when it has PLT entries). */
static struct symtab finish_trial(struct symbol_builder *b, bool plt, struct symbol_lookup *l)
{
    struct symtab tab;
    if (!plt)
        assert_int_equal(symbol_builder_fixup(b, false), 0);
    assert_int_equal(symbol_builder_finish(b, &tab, l), 0);
    return tab;
}

/*
 * Aliases left undecided (lazy_names) and named when a frame needs them
 * get perf's answers: the same function (range) for every address as
 * deciding them at once (names demangled, perf's order of erasures, its
 * tree where functions overlap), the same demangled name and the same
 * symbol kept (its name as read, which inline frames compare with).
 */
static void rules_lazy_names_as_perf(void **state)
{
    (void)state;
    size_t deferred = 0, overlapped = 0;
    for (unsigned seed = 1; seed <= 200; seed++) {
        bool plt = seed % 2 == 0;
        struct symbol_builder now, later;
        struct symbol_lookup ln, ll;
        symbol_builder_init(&now);
        symbol_builder_init(&later);
        now.demangle = later.demangle = true;
        later.lazy_names = true;
        add_trial(&now, seed, plt);
        add_trial(&later, seed, plt);
        struct symtab tn = finish_trial(&now, plt, &ln), tl = finish_trial(&later, plt, &ll);
        assert_int_equal(tn.count, tl.count);
        deferred += ll.nchoices;
        overlapped += ll.replay != NULL;
        for (uint64_t a = 0xff0; a < 0x1300; a++) {
            const struct symtab_func *fn = symbol_find(&tn, &ln, a), *fl = symbol_find(&tl, &ll, a);
            assert_true((fn == NULL) == (fl == NULL));
            if (!fn)
                continue;
            assert_true(fn->start == fl->start && fn->end == fl->end);
            char *want = symbol_name(&tn, &ln, (size_t)(fn - tn.funcs), true);
            char *got = symbol_name(&tl, &ll, (size_t)(fl - tl.funcs), true);
            assert_string_equal(got, want);
            assert_string_equal(symbol_kept_name(&tl, &ll, (size_t)(fl - tl.funcs), true),
                                symbol_kept_name(&tn, &ln, (size_t)(fn - tn.funcs), true));
            free(want);
            free(got);
        }
        symtab_free(&tn);
        symtab_free(&tl);
        symbol_lookup_free(&ln);
        symbol_lookup_free(&ll);
    }
    assert_true(deferred > 0 && overlapped > 0); /* both ways were taken */
}

/* A random soup of nested, overlapping, size-less and tied symbols, PLT entries after the fixup. */
static void add_soup(struct symbol_builder *b, unsigned seed)
{
    static const uint8_t bindings[] = {STB_GLOBAL, STB_WEAK, STB_LOCAL};
    char name[32];
    srand(seed);
    int n = 5 + rand() % 60;
    for (int i = 0; i < n; i++) {
        uint64_t start = 0x1000 + (uint64_t)(rand() % 64) * 8;
        uint64_t size = rand() % 4 == 0 ? 0 : (uint64_t)(rand() % (rand() % 5 == 0 ? 0x200 : 0x20));
        snprintf(name, sizeof(name), "f%d", i);
        add(b, start, size, bindings[rand() % 3], name);
    }
    assert_int_equal(symbol_builder_fixup(b, false), 0);
    for (int i = rand() % 4; i > 0; i--) {
        snprintf(name, sizeof(name), "p%d@plt", i);
        add(b, 0x1000 + (uint64_t)(rand() % 64) * 8, 0x10, STB_GLOBAL, name);
    }
}

/*
 * perf's tree built when a lookup first lands near an overlap finds, at
 * every address, what the tree built at once finds (500 random soups),
 * whatever address is asked first.
 */
static void rules_tree_built_when_needed(void **state)
{
    (void)state;
    size_t built_late = 0, never = 0;
    for (unsigned seed = 1; seed <= 500; seed++) {
        struct symbol_builder now, later;
        struct symbol_lookup ln, ll;
        symbol_builder_init(&now);
        symbol_builder_init(&later);
        now.lazy_names = later.lazy_names = seed % 2 == 0;
        now.demangle = later.demangle = true;
        add_soup(&now, seed);
        add_soup(&later, seed);
        struct symtab tn, tl;
        assert_int_equal(symbol_builder_finish(&now, &tn, &ln), 0);
        assert_int_equal(symbol_builder_finish(&later, &tl, &ll), 0);
        assert_int_equal(symbol_lookup_build_tree(&tn, &ln), 0);
        assert_null(ln.replay);
        assert_int_equal(tn.count, tl.count);
        bool had_replay = ll.replay != NULL;
        uint64_t first = 0xff8 + (uint64_t)(seed * 37 % 0x300);
        for (uint64_t i = 0; i < 0x308; i++) {
            uint64_t a = first + i < 0x1300 ? first + i : first + i - 0x308; /* wrapped */
            const struct symtab_func *fn = symbol_find(&tn, &ln, a), *fl = symbol_find(&tl, &ll, a);
            assert_true((fn == NULL) == (fl == NULL));
            if (fn)
                assert_int_equal(fn - tn.funcs, fl - tl.funcs);
        }
        built_late += had_replay && ll.left != NULL;
        never += had_replay && ll.left == NULL;
        symtab_free(&tn);
        symtab_free(&tl);
        symbol_lookup_free(&ln);
        symbol_lookup_free(&ll);
    }
    assert_true(built_late > 0); /* the tree was needed, and built, in some */
    (void)never;
}

static void kallsyms_rules(void **state)
{
    (void)state;
    static const char text[] = "ffffffff81000000 T _text\n"
                               "ffffffff81000000 T _stext\n"
                               "ffffffff81000100 t helper\n"
                               "ffffffff81000200 W weak_fn\n"
                               "ffffffff81000300 r not_counted\n"
                               "ffffffff81000400 D some_data\n"
                               "ffffffff81000500 T __entry_SYSCALL_64_trampoline\n"
                               "ffffffff81000600 T last_fn\n"
                               "ffffffffc0001000 t mod_fn\t[mod]\n";
    struct symtab tab;
    struct symbol_lookup l;
    uint64_t start, end;
    /* recorded with _text at ...81001000: everything moves up by 0x1000 */
    struct kallsyms_reloc reloc = {"_text", 0xffffffff81001000ull};
    assert_int_equal(kallsyms_parse(text, sizeof(text) - 1, &reloc, true, &tab, &l, &start, &end),
                     1);
    assert_true(start == 0xffffffff81001000ull);
    assert_string_equal(name_at(&tab, &l, 0xffffffff81001050ull), "_stext");  /* the later alias */
    assert_string_equal(name_at(&tab, &l, 0xffffffff81001350ull), "weak_fn"); /* 'r' skipped */
    assert_string_equal(name_at(&tab, &l, 0xffffffff81001450ull), "some_data");
    /* the trampoline is dropped after the ends were fixed: a gap where it was */
    assert_string_equal(name_at(&tab, &l, 0xffffffff81001550ull), "(none)");
    assert_string_equal(name_at(&tab, &l, 0xffffffff81001700ull), "last_fn");
    assert_true(end == 0xffffffff81003000ull); /* last kernel symbol: page rounded, a page on */
    symtab_free(&tab);
    symbol_lookup_free(&l);
    static const char restricted[] = "0000000000000000 T _text\n0000000000000000 t x\n";
    assert_int_equal(
        kallsyms_parse(restricted, sizeof(restricted) - 1, NULL, true, &tab, &l, &start, &end), 0);
}

/*
 * A kernel's own lines with aliases, types not counted, '$' names, a
 * name at an address of its own between aliases, the trampoline, the
 * last symbol, then modules.
 */
static const char index_text[] = "ffffffff81000000 T _text\n"
                                 "ffffffff81000000 T _stext\n"
                                 "ffffffff81000000 r rodata_alias\n"
                                 "ffffffff81000040 t $x\n"
                                 "ffffffff81000100 t helper\n"
                                 "ffffffff81000100 t _helper_alias\n"
                                 "ffffffff81000180 W weak_fn\n"
                                 "ffffffff81000180 T strong_fn\n"
                                 "ffffffff81000180 T SyS_fn\n"
                                 "ffffffff81000300 r not_counted\n"
                                 "ffffffff81000400 D some_data\n"
                                 "ffffffff81000500 T __entry_SYSCALL_64_trampoline\n"
                                 "ffffffff81000600 T last_fn\n"
                                 "ffffffff81000600 b last_alias_long\n"
                                 "ffffffffc0001000 t mod_fn\t[mod]\n"
                                 "ffffffffc0000000 t mod_low\t[mod2]\n";

static const struct kallsyms_reloc index_reloc = {"_text", 0xffffffff81001000ull};

/* index_text in a file, opened as an index; its map's range in *start, *end. */
static void open_index_text(struct kallsyms_index *ix, uint64_t *start, uint64_t *end)
{
    char path[] = "/tmp/zkprof-kallsyms-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    ssize_t len = (ssize_t)(sizeof(index_text) - 1);
    assert_int_equal(write(fd, index_text, (size_t)len), len);
    close(fd);
    assert_int_equal(kallsyms_index_open(ix, path, &index_reloc, true, start, end), 1);
    unlink(path);
}

/* The index's answer for a equals perf's function from the whole text (NULL: none). */
static void assert_index_names(struct kallsyms_index *ix, struct symtab *found,
                               const struct symtab_func *want, uint64_t a)
{
    const struct symtab_func *got;
    assert_int_equal(kallsyms_index_find(ix, found, a, &got), 0);
    assert_true((want == NULL) == (got == NULL));
    if (want) {
        assert_string_equal(got->name, want->name);
        assert_true(got->start == want->start && got->end == want->end);
    }
}

/* The lazy index (searched, not read) names every address as the whole text read by kallsyms_parse
 * does. */
static void kallsyms_index_matches_parse(void **state)
{
    (void)state;
    struct symtab whole, found = {0};
    struct symbol_lookup l;
    struct kallsyms_index ix;
    uint64_t start, end, istart, iend;
    assert_int_equal(kallsyms_parse(index_text, sizeof(index_text) - 1, &index_reloc, true, &whole,
                                    &l, &start, &end),
                     1);
    open_index_text(&ix, &istart, &iend);
    assert_true(istart == start && iend == end);
    for (uint64_t a = start - 0x10; a < end + 0x10; a++)
        assert_index_names(&ix, &found, symbol_find(&whole, &l, a), a);
    assert_true(found.count < 10); /* each function once */
    symtab_free(&found);
    kallsyms_index_free(&ix);
    symtab_free(&whole);
    symbol_lookup_free(&l);
}

/*
 * The functions found are remembered by range: addresses in a scrambled
 * order (a function's inside before its start, gaps, the dropped
 * trampoline, group boundaries, past the last symbol) get the same
 * answers from the remembering index as from a fresh one (nothing
 * remembered) and from the whole text, and each function is added once.
 */
static void kallsyms_index_remembers_found(void **state)
{
    (void)state;
    struct symtab whole, found = {0};
    struct symbol_lookup l;
    struct kallsyms_index ix;
    uint64_t start, end;
    assert_int_equal(kallsyms_parse(index_text, sizeof(index_text) - 1, &index_reloc, true, &whole,
                                    &l, &start, &end),
                     1);
    open_index_text(&ix, &start, &end);
    uint64_t span = end + 0x20 - (start - 0x20);
    for (int pass = 0; pass < 2; pass++) {
        for (uint64_t i = 0; i < span; i++) {
            uint64_t a = start - 0x20 + (i * 7919 + (uint64_t)pass * 13) % span; /* 7919: prime */
            assert_index_names(&ix, &found, symbol_find(&whole, &l, a), a);
        }
    }
    size_t added = found.count;
    assert_true(added > 0 && added < 10);
    for (size_t f = 0; f < whole.count; f++) { /* around every boundary, also from a fresh index */
        uint64_t edges[2] = {whole.funcs[f].start, whole.funcs[f].end};
        for (int e = 0; e < 2; e++)
            for (uint64_t a = edges[e] - 1; a <= edges[e] + 1; a++) {
                struct kallsyms_index fresh;
                struct symtab fresh_found = {0};
                uint64_t s, t;
                open_index_text(&fresh, &s, &t);
                const struct symtab_func *want;
                assert_int_equal(kallsyms_index_find(&fresh, &fresh_found, a, &want), 0);
                assert_index_names(&ix, &found, want, a);
                symtab_free(&fresh_found);
                kallsyms_index_free(&fresh);
            }
    }
    assert_int_equal(found.count, added); /* nothing found twice */
    symtab_free(&found);
    kallsyms_index_free(&ix);
    symtab_free(&whole);
    symbol_lookup_free(&l);
}

/* --- perf_maps ---------------------------------------------------------------- */

static void maps_split_on_overlap(void **state)
{
    (void)state;
    uint64_t serial = 0;
    struct perf_maps *m = perf_maps_new(&serial);
    assert_non_null(m);
    struct perf_dso a = {.name = "a"}, b = {.name = "b"};
    struct perf_map big = {0x1000, 0x9000, 0x100, &a, false};
    struct perf_map mid = {0x3000, 0x4000, 0, &b, false};
    assert_int_equal(perf_maps_insert(m, &big), 0);
    uint64_t g = m->generation;
    assert_int_equal(perf_maps_insert(m, &mid), 0);
    assert_true(m->generation != g);
    assert_int_equal(m->count, 3);
    const struct perf_map *p = perf_maps_find(m, 0x2fff);
    assert_ptr_equal(p->dso, &a);
    assert_true(perf_map_ip(p, 0x2fff) == 0x2fff - 0x1000 + 0x100);
    assert_ptr_equal(perf_maps_find(m, 0x3000)->dso, &b);
    p = perf_maps_find(m, 0x4000); /* the piece after keeps its file offsets */
    assert_ptr_equal(p->dso, &a);
    assert_true(perf_map_ip(p, 0x4000) == 0x4000 - 0x1000 + 0x100);
    assert_null(perf_maps_find(m, 0x9000));
    assert_null(perf_maps_find(m, 0xfff));
    struct perf_map cover = {0x0, 0x10000, 0, &b, false}; /* replaces all three */
    assert_int_equal(perf_maps_insert(m, &cover), 0);
    assert_int_equal(m->count, 1);
    perf_maps_put(m);
}

/* --- perf_order ------------------------------------------------------------------ */

struct delivered {
    uint64_t offsets[16];
    size_t n;
};

static int collect(void *ctx, const struct perf_record *r)
{
    struct delivered *d = ctx;
    d->offsets[d->n++] = r->offset;
    return 0;
}

static void push(struct perf_order *o, uint64_t time, uint64_t offset)
{
    struct perf_record r = {.type = 9, .offset = offset};
    assert_int_equal(perf_order_push(o, time, &r), 0);
}

static void order_rounds(void **state)
{
    (void)state;
    struct perf_order o;
    struct delivered d = {.n = 0};
    perf_order_init(&o);
    push(&o, 30, 1);
    push(&o, 10, 2);
    push(&o, 30, 3); /* a tie: after the earlier 30 */
    assert_int_equal(perf_order_round(&o, collect, &d), 0);
    assert_int_equal(d.n, 0); /* the first round only learns how far it may go */
    push(&o, 20, 4);
    push(&o, 40, 5);
    assert_int_equal(perf_order_round(&o, collect, &d), 0);
    assert_int_equal(d.n, 4); /* up to 30, the previous round's maximum */
    assert_true(d.offsets[0] == 2 && d.offsets[1] == 4 && d.offsets[2] == 1 && d.offsets[3] == 3);
    assert_int_equal(perf_order_finish(&o, collect, &d), 0);
    assert_int_equal(d.n, 5);
    assert_true(d.offsets[4] == 5);
    perf_order_free(&o);
}

/* Records as CPU buffers give them: runs in time order, interleaved in chunks. */
struct model_item {
    uint64_t time, seq;
};

static int by_model_order(const void *pa, const void *pb)
{
    const struct model_item *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct long_delivery {
    uint64_t offsets[4096];
    size_t n;
};

static int collect_long(void *ctx, const struct perf_record *r)
{
    struct long_delivery *d = ctx;
    d->offsets[d->n++] = r->offset;
    return 0;
}

/*
 * The merge of runs delivers what a plain sort by (time, arrival) does,
 * round by round: the model keeps perf's rule (a round delivers up to the
 * previous round's maximum) with qsort.
 */
static void order_merges_runs(void **state)
{
    (void)state;
    static struct long_delivery got, want;
    static struct model_item queue[4096];
    for (unsigned seed = 1; seed <= 20; seed++) {
        srand(seed);
        struct perf_order o;
        perf_order_init(&o);
        got.n = want.n = 0;
        size_t queued = 0, seq = 0;
        uint64_t cpu_time[4] = {0, 0, 0, 0}, max_time = 0, next_flush = 0;
        for (int chunk = 0; chunk < 150; chunk++) {
            int cpu = rand() % 4, len = rand() % 8 + 1;
            for (int k = 0; k < len && seq < 1000; k++) {
                cpu_time[cpu] += (uint64_t)(rand() % 50); /* ties too */
                push(&o, cpu_time[cpu], seq);
                max_time = queued == 0 || cpu_time[cpu] > max_time ? cpu_time[cpu] : max_time;
                queue[queued++] = (struct model_item){cpu_time[cpu], seq++};
            }
            if (rand() % 5 == 0 && queued > 0) { /* a round */
                assert_int_equal(perf_order_round(&o, collect_long, &got), 0);
                qsort(queue, queued, sizeof(*queue), by_model_order);
                size_t i = 0;
                for (; i < queued && queue[i].time <= next_flush; i++)
                    want.offsets[want.n++] = queue[i].seq;
                memmove(queue, queue + i, (queued - i) * sizeof(*queue));
                queued -= i;
                next_flush = max_time;
            }
        }
        assert_int_equal(perf_order_finish(&o, collect_long, &got), 0);
        qsort(queue, queued, sizeof(*queue), by_model_order);
        for (size_t i = 0; i < queued; i++)
            want.offsets[want.n++] = queue[i].seq;
        assert_int_equal(got.n, want.n);
        assert_memory_equal(got.offsets, want.offsets, got.n * sizeof(*got.offsets));
        perf_order_free(&o);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tree_random_insert_erase),
        cmocka_unit_test(rules_ends_and_aliases),
        cmocka_unit_test(rules_overlap_follows_the_tree),
        cmocka_unit_test(rules_lazy_names_as_perf),
        cmocka_unit_test(rules_tree_built_when_needed),
        cmocka_unit_test(kallsyms_rules),
        cmocka_unit_test(kallsyms_index_matches_parse),
        cmocka_unit_test(kallsyms_index_remembers_found),
        cmocka_unit_test(maps_split_on_overlap),
        cmocka_unit_test(order_rounds),
        cmocka_unit_test(order_merges_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
