/*
 * folded: writes a call-graph trie as folded stacks (docs/FORMATS.md#folded-stacks):
 * `root;caller;...;leaf COUNT`, one line per distinct stack, identical stacks merged, zero counts
 * left out, lines sorted bytewise. The format flamegraph.pl, inferno and speedscope read.
 */
#ifndef FLAMEGRAPH_FOLDED_H
#define FLAMEGRAPH_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/frame_namer.h"
#include "profile/trie.h"

/* Returns 0, or -1 with errno set. */
int folded_write(FILE *out, const struct trie *t, frame_namer name, void *ctx);

/*
 * The two-count form (difffolded.pl's output, which folded_read reads
 * back with its `second` counts): `stack FIRST COUNT` for every stack
 * where either is not zero, FIRST from `first` (indexed like t->nodes),
 * COUNT from the nodes; otherwise as folded_write. Returns 0, or -1 with
 * errno set.
 */
int folded_write_pair(FILE *out, const struct trie *t, const uint64_t *first, frame_namer name,
                      void *ctx);

#endif
