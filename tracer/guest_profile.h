/*
 * guest_profile: the guest tracer. It follows a guest's call stack from
 * its jal/jalr control flow by the rules of docs/CONTRACT.md#2-guest-profiles ("How the stack
 * moves") and counts retired instructions into a call-graph trie. It is
 * the executor's flow_tracer (executor/trace.h) and the trie's owner, so
 * it sits between the two: the executor knows only trace.h, and the trie
 * and its writers (flamegraph/) know nothing of either. Symbol lookups
 * happen once per new node or jump target.
 */
#ifndef TRACER_GUEST_PROFILE_H
#define TRACER_GUEST_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "executor/trace.h"
#include "flamegraph/strtab.h"
#include "flamegraph/trie.h"
#include "symtab/symtab.h"
#include "tracer/target_cache.h"

#define GUEST_NO_RETURN UINT64_MAX

/*
 * A trie key with this bit stands for a zkVM call's leaf frame
 * ([ecall:NAME], docs/CONTRACT.md#4-zkvm-guests), the rest of the key indexing the
 * profile's call names; guest addresses never have it.
 */
#define GUEST_ECALL_KEY (1ull << 63)

struct guest_profile {
    struct flow_tracer tracer; /* first: the executor calls through it; owns top */
    const struct symtab *syms;
    struct trie trie;
    struct trace_frame *stack; /* stack[0] is the root frame, tracer.top the current one */
    size_t capacity;           /* frames; stack[capacity] is the guard slot */
    struct target_cache targets;
    struct trace_link *links; /* the tracer's link table: 1 << TRACE_LINK_BITS links */
    bool out_of_memory;
    char **names;       /* demangled name per symtab function, made at write time */
    const char **calls; /* the zkVM call names seen, for [ecall:NAME] frames */
    size_t ncalls, calls_cap;
    struct trace_frame *marked; /* the stack the tracer's mark noted, bottom first */
    size_t marked_depth;
};

/* Starts with the root frame at `entry`. `syms` must outlive the profile. */
bool guest_profile_init(struct guest_profile *p, const struct symtab *syms, uint64_t entry);
void guest_profile_free(struct guest_profile *p);

/*
 * Brings the counts up to `retired` instructions: the live frames' time so
 * far, and what every slot still holds, is added to the nodes. Call before
 * writing.
 */
void guest_profile_flush(struct guest_profile *p, uint64_t retired);

/*
 * Writes the folded stacks (docs/FORMATS.md#folded-stacks, #raw-folded-stacks): with `raw`, every
 * frame as 0x<target>; else the demangled function names. Returns 0, or -1 with errno set (ENOMEM
 * also when the profile itself ran out of memory).
 */
int guest_profile_write_folded(struct guest_profile *p, FILE *out, bool raw);

/*
 * Copies the profile into `dst`, keyed by frame name interned in `names`
 * (0x<target> with `raw`), the form the renderers (svg_write,
 * speedscope_write) take. Returns 0, or -1 with errno set.
 */
int guest_profile_named(struct guest_profile *p, bool raw, struct trie *dst, struct strtab *names);

#endif
