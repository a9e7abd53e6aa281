/*
 * diff_counts: two profiles in one trie, for differential flamegraphs.
 * Read the "before" profile into the trie, move its counts aside, read
 * the "after" profile into the same trie: the nodes are then the union of
 * both profiles' stacks, their counts the after profile's, and `before`
 * (indexed like the nodes) the before profile's; 0 where a stack is
 * missing from one side.
 */
#ifndef PROFILE_DIFF_COUNTS_H
#define PROFILE_DIFF_COUNTS_H

#include <stddef.h>
#include <stdint.h>

#include "profile/trie.h"

struct diff_counts {
    uint64_t *before; /* one per node */
    size_t count;
};

/* Moves the trie's counts into d->before and zeroes them. Returns 0, or -1 without memory. */
int diff_counts_take_before(struct diff_counts *d, struct trie *t);

/* Gives the nodes created since a before count of 0. Returns 0, or -1 without memory. */
int diff_counts_cover(struct diff_counts *d, const struct trie *t);

void diff_counts_free(struct diff_counts *d);

#endif
