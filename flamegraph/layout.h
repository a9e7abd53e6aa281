/*
 * layout: where each frame of a flamegraph goes, in counts rather than
 * pixels. A frame's width is its total (its own count plus all its
 * descendants'); a frame's own count comes first, then its children side
 * by side, sorted bytewise by name (as in flamegraph.pl, whose sorted
 * input puts `a 3` before `a;b 5`). Frames whose total is below a
 * threshold are left out with all their descendants, but still take
 * their place in their parent and in the grand total: they are merged
 * away, never lost.
 */
#ifndef FLAMEGRAPH_LAYOUT_H
#define FLAMEGRAPH_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "profile/strtab.h"
#include "profile/trie.h"

/* One frame to draw. */
struct layout_box {
    uint32_t node;   /* trie node; TRIE_ROOT is the "all" frame */
    uint32_t depth;  /* 0 for "all", 1 for outermost frames */
    uint64_t start;  /* left edge, in counts from the left of "all" */
    uint64_t total;  /* width: the node's count plus its descendants' */
    uint64_t before; /* differential graphs: the same total in the before counts */
};

struct layout {
    struct layout_box *boxes; /* depth-first: a parent before its children, children by name */
    size_t count;             /* 0 when the trie has no counts */
    uint64_t grand_total;     /* the total of "all" */
    uint32_t max_depth;       /* the deepest box's depth */
};

/*
 * Lays out the trie `t`, whose keys are ids of `names`. `before`, when
 * not NULL, holds a second (self) count per node, indexed like t->nodes,
 * whose totals go to each box's `before`. Frames with a total below
 * `min_total` (and all frames with a total of 0) are left out. Returns 0,
 * or -1 with errno set: EINVAL when a node's key is not an id of
 * `names`, ENOMEM. Free with layout_free either way.
 */
int layout_build(struct layout *l, const struct trie *t, const struct strtab *names,
                 const uint64_t *before, double min_total);

void layout_free(struct layout *l);

#endif
