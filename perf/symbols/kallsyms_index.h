/*
 * kallsyms_index: kernel symbols found in a kallsyms text without reading
 * all of it, for the kernel's own text (the copy perf record saved, or
 * /proc/kallsyms). The kernel lists its own symbols first and in address
 * order (its kallsyms table is sorted: the kernel binary-searches it
 * itself), then those of modules, BPF programs and trampolines, each
 * marked "\t[name]". So the kernel's lines are found by binary search,
 * and perf's rules (perf/symbols/kallsyms.h: types T, W, D and B, one symbol per
 * address by choose_best_symbol, each ending where the next begins, the
 * last a page on, the x86-64 entry trampoline left out, moved by the
 * relocation symbol) are applied to the few lines around an address when
 * a frame needs it: a recording pays for the functions it hits, not for
 * 100,000-odd lines. A function found is added to a table once and keeps
 * its index (for caches of frame names), and its range [start, end) is
 * remembered: another address inside it is answered without the text
 * (the kernel's lines are sorted, so the search would find the same
 * group), only an address outside every function found searches the
 * text. A file given with --kallsyms
 * is read whole (kallsyms_load): nothing promises its order.
 */
#ifndef PERF_KALLSYMS_INDEX_H
#define PERF_KALLSYMS_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/symbols/kallsyms.h"
#include "symtab/symtab.h"

/* A function found: its range in the text's addresses and its index in the table. */
struct kallsyms_found {
    uint64_t start, end;
    uint32_t func;
};

struct kallsyms_index {
    struct kallsyms_text text;
    size_t core_end; /* the kernel's own lines: text[0, core_end) */
    uint64_t delta;  /* an address in the text minus the recorded one */
    bool x86_64;
    uint32_t *keys, *values; /* found functions: line offset + 1 -> index in the table */
    size_t slots, used;
    char **names; /* theirs, copied (the text's lines stay as they are, for the search) */
    struct kallsyms_found *found; /* their ranges, sorted by start (they never overlap) */
    size_t nfound, found_capacity;
};

/*
 * Opens the text at `path` and gives the kernel map's range [start, end).
 * Returns 1 when it holds kernel symbols, 0 when not (as kallsyms_parse),
 * -1 when memory runs out.
 */
int kallsyms_index_open(struct kallsyms_index *ix, const char *path,
                        const struct kallsyms_reloc *reloc, bool x86_64, uint64_t *start,
                        uint64_t *end);

/*
 * The function perf names for `ip` (NULL: none), added to `tab` the
 * first time. Returns 0, or -1 when memory runs out.
 */
int kallsyms_index_find(struct kallsyms_index *ix, struct symtab *tab, uint64_t ip,
                        const struct symtab_func **func);

void kallsyms_index_free(struct kallsyms_index *ix);

#endif
