/*
 * symbol_rules: perf's rules for turning a binary's symbols into the
 * functions `perf script` names (tools/perf/util/symbol.c), which differ
 * from the guest rules of docs/CONTRACT.md#functions-and-names and which the host profile must
 * follow to print what perf prints:
 *   - a symbol without a size ends where the next one starts (the last
 *     one a page past its start; in kallsyms, the last symbol of the
 *     kernel or of a module ends a page on);
 *   - of several symbols at one address one is kept: one with a size,
 *     then not weak, then global, then fewer leading underscores, then the
 *     longer name, then the first (but never a "SyS" alias);
 *   - names are compared demangled (an ELF file's names are demangled
 *     for that only where two symbols share an address, and, with
 *     lazy_names, only when a frame needs that function's name).
 * The result is a `struct symtab` (symtab/) and, when functions overlap,
 * perf's tree over it (perf/symbols/symbol_tree.h), so that a lookup finds what
 * perf finds: symtab's binary search where at most one function covers an
 * address, perf's tree descent where several do.
 */
#ifndef PERF_SYMBOL_RULES_H
#define PERF_SYMBOL_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/symbols/symbol_tree.h"
#include "symtab/symtab.h"

struct rule_symbol {
    uint64_t start, end;
    size_t name;          /* offset into the builder's names */
    const char *borrowed; /* else: the name in memory that outlives the table */
    uint8_t binding;      /* STB_LOCAL, STB_GLOBAL, STB_WEAK */
    bool module;          /* the name holds '[' (kallsyms: "name\t[module]") */
};

/*
 * Symbols being read (nodes are indexes into syms: insertion order). The
 * order of perf's tree is a stable sort by start; the tree itself (its
 * shape decides lookups where functions overlap) is built only when they
 * do, from the insertions and the erasures, in the order they were made,
 * and only when a lookup first lands near an overlap (symbol_find).
 */
struct symbol_builder {
    struct rule_symbol *syms;
    size_t count, capacity;
    char *names;
    size_t names_len, names_capacity;
    uint32_t *erasures; /* [node, nodes added before its erasure] each */
    size_t nerasures;
    uint32_t *order;  /* scratch: the symbols in order */
    bool sorted_only; /* no tree ever (kallsyms never overlap) */
    bool demangle;    /* names as read from an ELF file: ties compare them demangled, as perf */
    bool borrow;      /* the ELF file outlives the table: names are not copied */
    uint8_t *dead;    /* erased symbols */
    bool order_valid; /* order[0..order_len) is sorted, holds every live node below sorted_count */
    size_t order_len, sorted_count;
    /*
     * lazy_names (set by the caller, tree builders only): aliases that
     * only their demangled names tell apart are not demangled now; the
     * first of them stays in the tree and symbol_name picks the name
     * when a frame needs it. Such groups are in `pending` ([count,
     * node...] each). The erasures do not follow perf's order then, so
     * when functions overlap at the end (perf's tree decides lookups)
     * the duplicates are fixed again in perf's order.
     */
    bool lazy_names, erased_lazily;
    uint32_t *pending;
    size_t pending_len, pending_capacity;
    size_t fixed_count;    /* nodes when the duplicates were fixed */
    uint32_t *fixed_order; /* lazy_names: the order of those nodes (all live), kept for a refix */
};

/* A function whose name perf picks among aliases by their demangled names (lazy_names). */
struct name_choice {
    uint32_t func;         /* index in the symtab */
    uint32_t first, count; /* its aliases' names: choice_names[first, first + count), in order */
};

/* Finding a function as perf does, when functions overlap, and naming it. */
/*
 * What perf's tree is built from: its insertions and erasures, replayed
 * when a lookup first needs the tree (most never do: only an address
 * near overlapping functions does).
 */
struct symbol_replay {
    /*
     * Aliases were left undecided (lazy_names) and functions overlap:
     * perf's erasures, which shape its tree, are those of deciding them
     * in its order, names demangled; the builder is kept to do that when
     * the tree is first needed. NULL: starts and erasures are set.
     */
    struct symbol_builder *refix;
    uint64_t *starts; /* per node, in insertion order */
    size_t count;
    uint32_t *erasures; /* [node, nodes added before its erasure] each */
    size_t nerasures;
    uint32_t *func_of; /* node -> function index; TREE_NIL: erased */
};

struct symbol_lookup {
    uint32_t *left, *right; /* perf's tree over symtab's functions; NULL: not built (yet) */
    uint32_t root;
    struct symbol_replay *replay; /* functions overlap and the tree is not built yet */
    struct name_choice *choices;  /* by func */
    size_t nchoices;
    const char **choice_names;
};

/* What perf's choose_best_symbol compares of two symbols at one address. */
struct symbol_choice {
    bool sized;
    uint8_t binding;
    const char *name;
    size_t name_len;
};

/* perf's choose_best_symbol: true when `a` is kept over `b`. */
bool symbol_keep_first(const struct symbol_choice *a, const struct symbol_choice *b);

/* x rounded up to a page (perf's roundup(x, PAGE_SIZE)). */
uint64_t symbol_page_up(uint64_t x);

void symbol_builder_init(struct symbol_builder *b);

/*
 * A builder that never builds perf's tree (nor notes its erasures), for
 * symbol sets that cannot overlap once fixed up (kallsyms: no sizes,
 * every end is the next start).
 */
void symbol_builder_init_sorted(struct symbol_builder *b);
void symbol_builder_free(struct symbol_builder *b);

/* Adds a symbol (size 0: unknown). Returns 0, or -1 when memory runs out. */
/*
 * Room for n symbols at once (a table's size is known before it is read):
 * no arrays copied as they grow. Returns 0, or -1 when memory runs out.
 */
int symbol_builder_reserve(struct symbol_builder *b, size_t n);

int symbol_builder_add(struct symbol_builder *b, uint64_t start, uint64_t size, uint8_t binding,
                       const char *name, size_t name_len);

/*
 * Adds a symbol whose name stays where it is (an ELF string table kept
 * mapped as long as the table): nothing is copied, and a name no frame
 * needs is never even read. Returns 0, or -1 when memory runs out.
 */
int symbol_builder_add_borrowed(struct symbol_builder *b, uint64_t start, uint64_t size,
                                uint8_t binding, const char *name);

/*
 * Applies the end and duplicate rules (kallsyms: its variant), erasing
 * the losers from the tree in perf's order. Returns 0, or -1 when memory
 * runs out.
 */
int symbol_builder_fixup(struct symbol_builder *b, bool kallsyms);

/*
 * The symbols in the tree, in address order (ties in insertion order);
 * valid until the next change. Sets *n. NULL when memory runs out.
 */
const uint32_t *symbol_builder_in_order(struct symbol_builder *b, size_t *n);

/* Removes one symbol (a node) from the tree. */
void symbol_builder_erase(struct symbol_builder *b, uint32_t node);

/*
 * Moves the symbols into `tab` (address order) and, when they overlap,
 * what perf's tree is built from into `lookup`, emptying the builder. Returns 0, or -1 when
 * memory runs out.
 */
int symbol_builder_finish(struct symbol_builder *b, struct symtab *tab,
                          struct symbol_lookup *lookup);

/*
 * The function perf names for `addr`, or NULL: symtab's binary search
 * where no function overlaps the one found (the tree's descent would find
 * the same), else perf's tree, built the first time.
 */
const struct symtab_func *symbol_find(const struct symtab *tab, struct symbol_lookup *lookup,
                                      uint64_t addr);

/* Builds perf's tree now, if it is owed. Returns 0, or -1 when memory runs out. */
int symbol_lookup_build_tree(const struct symtab *tab, struct symbol_lookup *lookup);

/*
 * The name perf prints for function `index` of `tab` (demangled when
 * `demangle`), malloc'd; NULL when memory runs out. Where aliases were
 * left undecided (lazy_names), perf's choice among them is made here.
 */
char *symbol_name(const struct symtab *tab, const struct symbol_lookup *lookup, size_t index,
                  bool demangle);

/*
 * The name, as read (not demangled), of the symbol perf keeps for
 * function `index`: where aliases were left undecided, the one
 * symbol_name picks (the table's name when memory runs out).
 */
const char *symbol_kept_name(const struct symtab *tab, const struct symbol_lookup *lookup,
                             size_t index, bool demangle);

void symbol_lookup_free(struct symbol_lookup *lookup);

#endif
