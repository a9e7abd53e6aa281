/*
 * named_trie: a copy of any call-graph trie (such as a guest profile's,
 * keyed by call target) keyed by frame name instead, in the form the
 * renderers take (svg_write, speedscope_write): keys are ids of a strtab.
 * Siblings that get the same name (two call targets inside one function)
 * become one node, their counts added, as folded_write merges them.
 */
#ifndef PROFILE_NAMED_TRIE_H
#define PROFILE_NAMED_TRIE_H

#include "profile/frame_namer.h"
#include "profile/strtab.h"
#include "profile/trie.h"

/*
 * Adds every node of `src`, named by `name`, to `dst` (initialized, keys
 * interned in `names`), with its count. Returns 0, or -1 with errno set
 * (ENOMEM, or what the namer failed with).
 */
int named_trie_build(const struct trie *src, frame_namer name, void *ctx, struct trie *dst,
                     struct strtab *names);

#endif
