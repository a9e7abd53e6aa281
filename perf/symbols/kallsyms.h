/*
 * kallsyms: kernel symbols as perf reads them without a vmlinux
 * (tools/perf/util/symbol.c: dso__find_kallsyms, __dso__load_kallsyms,
 * maps__split_kallsyms). The text is /proc/kallsyms when the running
 * kernel is the recorded one (same build id, or none recorded), else the
 * copy perf record saved in the build-id cache. Symbols of types T, W, D
 * and B count; module symbols are left out (module maps are not
 * modelled: their addresses fold to [unknown]); the kernel's symbols are
 * moved by the difference between the recorded and the listed address of
 * the relocation symbol (KASLR across boots).
 */
#ifndef PERF_KALLSYMS_H
#define PERF_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/symbols/build_id.h"
#include "perf/symbols/symbol_rules.h"
#include "symtab/symtab.h"

struct kallsyms_reloc {
    const char *name; /* e.g. "_text" from "[kernel.kallsyms]_text"; NULL: none */
    uint64_t addr;    /* its address in the recording */
};

/*
 * Reads kallsyms text into `out` (kernel symbols only, relocated) and
 * gives the kernel map's range [start, end). Returns 1 with symbols, 0
 * when the text holds none usable (all addresses 0: kptr_restrict; or the
 * relocation symbol missing), -1 when memory runs out.
 */
int kallsyms_parse(const char *text, size_t len, const struct kallsyms_reloc *reloc, bool x86_64,
                   struct symtab *out, struct symbol_lookup *lookup, uint64_t *start,
                   uint64_t *end);

/* The text a loaded table's names live in. */
struct kallsyms_text {
    char *data;
    size_t size;
    bool mapped; /* a private mapping (else malloc'd) */
};

/*
 * kallsyms_parse over a file (/proc/kallsyms or a saved copy). Same
 * returns. With symbols, the names are in `text` (kallsyms_text_free
 * after the table): each ends at its line's end until kallsyms_name_end
 * ends it with a NUL, so loading touches no name; call it on a function
 * before reading its name.
 */
int kallsyms_load(const char *path, const struct kallsyms_reloc *reloc, bool x86_64,
                  struct symtab *out, struct symbol_lookup *lookup, uint64_t *start, uint64_t *end,
                  struct kallsyms_text *text);

/* Ends a function's name, found in a kallsyms_load table, with a NUL (again: no harm). */
void kallsyms_name_end(const struct symtab_func *f);

/*
 * The text of a kallsyms file, each line ended by '\n' or by a NUL after
 * the last. Returns 0, or -1 when it cannot be read.
 */
int kallsyms_text_open(const char *path, struct kallsyms_text *t);

void kallsyms_text_free(struct kallsyms_text *t);

/*
 * Picks the kallsyms file for a kernel with build id `id` (size 0: not
 * recorded), as perf does. Returns a malloc'd path or NULL when none fits.
 */
char *kallsyms_path_for(const struct build_id *id, const char *buildid_dir);

#endif
