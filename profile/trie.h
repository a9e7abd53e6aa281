/*
 * trie: a call-graph trie. Each node is one frame in one context: the
 * pair (parent node, frame key), where the key is a guest call target or
 * an interned host frame name. The writers read a node's count as what
 * was spent while it was the innermost frame (its own count); an owner may
 * keep other counts while it fills the trie (the guest tracer keeps
 * inclusive ones and turns them into own counts to write). Nodes live in
 * one growing array and are found by hashing (parent, key), so a push, a
 * pop and a count cost the same at any depth.
 */
#ifndef PROFILE_TRIE_H
#define PROFILE_TRIE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/call_node.h"

#define TRIE_ROOT 0u /* the virtual node above every outermost frame */

struct trie_slot {
    uint64_t key;
    uint32_t parent;
    uint32_t node; /* 0: empty (node 0, the root, is never a child) */
};

struct trie {
    struct call_node *nodes;
    size_t count, capacity;
    struct trie_slot *slots; /* open addressing, power-of-two size */
    size_t slot_mask;
};

bool trie_init(struct trie *t);
void trie_free(struct trie *t);

/*
 * The child of `parent` for `key`, created (with aux 0) if new; *created
 * says which. Returns UINT32_MAX when memory runs out.
 */
uint32_t trie_child(struct trie *t, uint32_t parent, uint64_t key, bool *created);

/* Sum of all counts. */
uint64_t trie_total(const struct trie *t);

#endif
