/*
 * child_index: the children of every trie node as one array (CSR form),
 * so writers can walk a trie depth-first from the root, which the trie
 * itself (nodes know only their parent) cannot do.
 */
#ifndef PROFILE_CHILD_INDEX_H
#define PROFILE_CHILD_INDEX_H

#include <stdint.h>

#include "profile/trie.h"

/* Children of node n: children[first[n]] .. children[first[n + 1] - 1], by node id. */
struct child_index {
    uint32_t *first; /* t->count + 1 entries */
    uint32_t *children;
};

/* Returns 0, or -1 when memory runs out; free with child_index_free either way. */
int child_index_build(const struct trie *t, struct child_index *ci);

void child_index_free(struct child_index *ci);

#endif
