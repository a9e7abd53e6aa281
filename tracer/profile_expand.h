/*
 * profile_expand: a per-pc mode guest profile (call-site nodes, run
 * arrays) as a name-keyed trie, with inline frames expanded
 * (docs/CONTRACT.md, "Inline frames"). Internal to tracer/: the writers of
 * guest_profile_write.c use it.
 */
#ifndef TRACER_PROFILE_EXPAND_H
#define TRACER_PROFILE_EXPAND_H

#include "profile/frame_namer.h"
#include "profile/strtab.h"
#include "profile/trie.h"
#include "tracer/guest_profile.h"

/*
 * Adds the profile's own counts (its nodes hold inclusive ones) to `dst`,
 * keyed by names interned in `names`, frames named by `name`: each frame
 * node's pcs under the inline chains of those pcs, a call site's callees
 * under the chain of the call's pc, each where the pc lies in the frame's
 * function. `flags` (GUEST_WRITE_*): RAW expands nothing and writes the
 * pcs instead (docs/FORMATS.md, "Raw folded stacks"); LINES names each
 * pc's leaf `name:LINE` (its file and line set in `sources` when not NULL);
 * NO_INLINE leaves the chains out. Returns 0, or -1 with errno set.
 */
int profile_expand(struct guest_profile *p, frame_namer name, unsigned flags, struct trie *dst,
                   struct strtab *names, struct profile *sources);

/*
 * A weight other than the instruction count (tracer/weights.c): what a
 * pc's `count` instructions cost, what a node's own count outside its
 * function's pcs costs (an [ecall:NAME] leaf's: its calls), and costs of
 * no instruction (paging) that profile node `node` adds under its named
 * node `named` with profile_expand_add (`extra` may be NULL).
 */
struct expand;
struct expand_weigher {
    uint64_t (*pc)(void *ctx, uint64_t pc, uint64_t count);
    uint64_t (*node)(void *ctx, const struct call_node *n, uint64_t own);
    int (*extra)(void *ctx, struct expand *x, uint32_t node, uint32_t named);
    /*
     * The nodes' inclusive values of this weight (the cost clock's counts,
     * tracer.node_costs), which `node` then gets less what `pc` gave their
     * pcs; NULL: the nodes' instruction counts, less their pcs' counts.
     */
    const uint64_t *counts;
    void *ctx;
};

/* profile_expand with every value weighed by `weigh` (NULL: as profile_expand). */
int profile_expand_weighed(struct guest_profile *p, frame_namer name, unsigned flags,
                           const struct expand_weigher *weigh, struct trie *dst,
                           struct strtab *names, struct profile *sources);

/* The namer of the profile's frames (0x<target> with `raw`); NULL with errno set. */
frame_namer guest_profile_namer(struct guest_profile *p, bool raw);

/* Adds `value` to the child `name` of named node `parent`. 0, or -1 (ENOMEM). */
int profile_expand_add(struct expand *x, uint32_t parent, const char *name, uint64_t value);

#endif
