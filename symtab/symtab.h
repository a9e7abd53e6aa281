/*
 * symtab: the functions of an ELF file, from its symbol table, by the
 * rules of docs/CONTRACT.md#functions-and-names: which symbols are functions, how far each one
 * reaches, and which name wins when several share an address. Lookup is a
 * binary search; callers do it once per new trie node or jump target,
 * never per instruction.
 */
#ifndef SYMTAB_SYMTAB_H
#define SYMTAB_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct symtab_func {
    uint64_t start, end; /* [start, end) */
    const char *name;    /* as in the ELF (mangled) */
};

struct symtab {
    struct symtab_func *funcs; /* sorted by start, one per distinct start */
    uint64_t *max_end;         /* max_end[i]: largest end among funcs[0..i] */
    size_t count;
    char *names; /* storage for the names */
};

/*
 * Reads the functions of the ELF in `file` (which need not outlive the
 * table). A file without a symbol table gives an empty table. Returns 0,
 * or -1 with `e` set: ERROR_CORRUPT when the ELF cannot be parsed,
 * ERROR_NO_MEMORY.
 */
int symtab_load(struct symtab *tab, const uint8_t *file, size_t size, struct error *e);

/*
 * For a table filled by other rules (perf's): (re)builds max_end from
 * funcs[0..count), which must be sorted by start, so symtab_lookup finds
 * nested functions. Returns 0, or -1 when memory runs out.
 */
int symtab_index(struct symtab *tab);

/* The function covering `addr`, or NULL. */
const struct symtab_func *symtab_lookup(const struct symtab *tab, uint64_t addr);

void symtab_free(struct symtab *tab);

#endif
