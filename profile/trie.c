/*
 * trie: node array plus an open-addressing hash of (parent, key) -> child.
 *
 * Why not uthash, which the project uses for its other tables: this one is
 * on `perf fold`'s per-sample path (a lookup per frame of every sample) and
 * on the guest tracer's when its link table misses, and there uthash is
 * clearly slower.
 * scripts/bench_tables, with the memo below kept in both: drawing 3 million
 * lookups from real perf profiles (bench_perf's busy program, 823 nodes;
 * python compiling the stdlib, 4400 nodes), uthash took 1.4 to 2.7 times
 * as long (ns per lookup 5 to 23 here, 12 to 36 with uthash); copying a
 * guest profile node by node, 1.9 to 3.9 times. uthash chains its buckets
 * and lets chains grow to about ten before doubling, and hashes a 16-byte
 * key as bytes; here a probe is two multiplies and, mostly, one cache
 * line.
 */
#include "profile/trie.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_pair(uint32_t parent, uint64_t key)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull ^ ((uint64_t)parent * 0xc2b2ae3d27d4eb4full);
    return h ^ (h >> 29);
}

bool trie_init(struct trie *t)
{
    memset(t, 0, sizeof(*t));
    t->capacity = 1024;
    t->nodes = calloc(t->capacity, sizeof(*t->nodes));
    t->slot_mask = 2048 - 1;
    t->slots = calloc(t->slot_mask + 1, sizeof(*t->slots));
    if (!t->nodes || !t->slots) {
        trie_free(t);
        return false;
    }
    t->count = 1; /* the virtual root */
    return true;
}

void trie_free(struct trie *t)
{
    free(t->nodes);
    free(t->slots);
    memset(t, 0, sizeof(*t));
}

static struct trie_slot *find_slot(struct trie_slot *slots, size_t mask, uint32_t parent,
                                   uint64_t key)
{
    for (size_t i = hash_pair(parent, key) & mask;; i = (i + 1) & mask) {
        struct trie_slot *s = &slots[i];
        if (s->node == 0 || (s->key == key && s->parent == parent))
            return s;
    }
}

/* Doubles the hash table; keeps the load factor under one half. */
static bool grow_slots(struct trie *t)
{
    size_t new_mask = t->slot_mask * 2 + 1;
    struct trie_slot *slots = calloc(new_mask + 1, sizeof(*slots));
    if (!slots)
        return false;
    for (size_t i = 0; i <= t->slot_mask; i++) {
        const struct trie_slot *s = &t->slots[i];
        if (s->node)
            *find_slot(slots, new_mask, s->parent, s->key) = *s;
    }
    free(t->slots);
    t->slots = slots;
    t->slot_mask = new_mask;
    return true;
}

static bool grow_nodes(struct trie *t)
{
    size_t cap = t->capacity * 2;
    struct call_node *nodes = realloc(t->nodes, cap * sizeof(*nodes));
    if (!nodes)
        return false;
    t->nodes = nodes;
    t->capacity = cap;
    return true;
}

/* Keeps the child just looked up in the parent's two-entry memo, newest first. */
static void remember_child(struct call_node *p, uint64_t key, uint32_t child)
{
    p->memo_key[1] = p->memo_key[0];
    p->memo_child[1] = p->memo_child[0];
    p->memo_key[0] = key;
    p->memo_child[0] = child;
}

uint32_t trie_child(struct trie *t, uint32_t parent, uint64_t key, bool *created)
{
    struct call_node *p = &t->nodes[parent];
    *created = false;
    for (int i = 0; i < 2; i++)
        if (p->memo_child[i] && p->memo_key[i] == key)
            return p->memo_child[i];
    struct trie_slot *s = find_slot(t->slots, t->slot_mask, parent, key);
    if (s->node) {
        remember_child(p, key, s->node);
        return s->node;
    }
    if (t->count >= UINT32_MAX - 1)
        return UINT32_MAX;
    if ((t->count + 1) * 2 > t->slot_mask + 1) {
        if (!grow_slots(t))
            return UINT32_MAX;
        s = find_slot(t->slots, t->slot_mask, parent, key);
    }
    if (t->count == t->capacity && !grow_nodes(t))
        return UINT32_MAX;
    uint32_t id = (uint32_t)t->count++;
    t->nodes[id] = (struct call_node){.key = key, .parent = parent};
    *s = (struct trie_slot){.key = key, .parent = parent, .node = id};
    remember_child(&t->nodes[parent], key, id); /* `p` may have moved with the nodes */
    *created = true;
    return id;
}

uint64_t trie_total(const struct trie *t)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < t->count; i++)
        sum += t->nodes[i].count;
    return sum;
}
