/*
 * profile_expand: a per-pc mode guest profile (call-site nodes, run
 * arrays) as a name-keyed trie, with inline frames expanded
 * (docs/CONTRACT.md, "Inline frames"). Internal to tracer/: the writers of
 * guest_profile_write.c use it.
 */
#ifndef TRACER_PROFILE_EXPAND_H
#define TRACER_PROFILE_EXPAND_H

#include "flamegraph/folded.h"
#include "flamegraph/strtab.h"
#include "flamegraph/trie.h"
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

#endif
