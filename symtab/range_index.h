/*
 * range_index: finding the address range [start, end) that holds an
 * address in an array sorted by start, where ranges may nest (a function
 * inside another's bytes, a compile unit's ranges): a binary search, then
 * a walk back bounded by the largest end so far. Shared by symtab.c (the
 * functions of the symbol table) and inline_chain.c (DWARF units and
 * functions). Each element begins with `uint64_t start, end;`.
 */
#ifndef SYMTAB_RANGE_INDEX_H
#define SYMTAB_RANGE_INDEX_H

#include <stddef.h>
#include <stdint.h>

#define RANGE_NONE SIZE_MAX

/*
 * For `count` elements of `size` bytes at `items`, sorted by start: a
 * malloc'd array whose [i] is the largest end among elements 0..i, or
 * NULL when memory runs out.
 */
uint64_t *range_index_build(const void *items, size_t count, size_t size);

/* The index of the element holding addr that starts nearest below it, or RANGE_NONE. */
size_t range_index_find(const void *items, const uint64_t *max_end, size_t count, size_t size,
                        uint64_t addr);

#endif
