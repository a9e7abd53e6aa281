/*
 * symbol_tree: perf's red-black tree of symbols, replayed. perf keeps a
 * DSO's symbols in a Linux rbtree keyed by start address and finds the
 * symbol of an address by descending it (symbols__find). Where symbols
 * overlap (perf adds "name@plt" entries after it has stretched a
 * size-less "_init" over the PLT; a size-less label inside a function),
 * the symbol found depends on the tree's shape, and the shape on the
 * exact sequence of insertions and erasures and on the rebalancing of
 * lib/rbtree.c. This file repeats that sequence with the same algorithm
 * (our own code, the same case analysis), so the same symbol is found.
 *
 * Nodes are small integers, each with its start address as key.
 */
#ifndef PERF_SYMBOL_TREE_H
#define PERF_SYMBOL_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TREE_NIL UINT32_MAX

struct symbol_tree {
    uint64_t *key;
    uint32_t *parent, *left, *right;
    uint8_t *black;
    size_t capacity;
    uint32_t root;
};

void symbol_tree_init(struct symbol_tree *t);
void symbol_tree_free(struct symbol_tree *t);

/* Room for nodes 0..n-1. Returns 0, or -1 when memory runs out. */
int symbol_tree_reserve(struct symbol_tree *t, size_t n);

/* perf's __symbols__insert: node goes left of larger starts, right of the rest. */
void symbol_tree_insert(struct symbol_tree *t, uint32_t node, uint64_t key);

/* lib/rbtree.c's rb_erase. */
void symbol_tree_erase(struct symbol_tree *t, uint32_t node);

/* The nodes in order (smallest start first, ties in insertion order); returns how many. */
size_t symbol_tree_in_order(const struct symbol_tree *t, uint32_t *out);

#endif
