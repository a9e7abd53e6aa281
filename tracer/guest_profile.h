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
#include "profile/profile.h"
#include "profile/strtab.h"
#include "profile/trie.h"
#include "symtab/inline_chain.h"
#include "symtab/symtab.h"
#include "tracer/target_cache.h"

#define GUEST_NO_RETURN UINT64_MAX

/*
 * Per-pc mode (inline frames): a call made inside inlined code hangs under
 * a call-site node of its caller, keyed by the id of the call pc's inline
 * chain (guest_profile.chains), shifted left, with this bit. Call targets
 * are even (jal's offset is, jalr clears bit 0), so no frame's key has it.
 */
#define GUEST_SITE_BIT 1ull

/*
 * A zkVM call's leaf frame ([ecall:NAME], docs/CONTRACT.md#4-zkvm-guests)
 * has this bit and the site bit, the index of its name in the profile's
 * call names between them. The site bit keeps it apart from a frame whose
 * target has bit 63 set (a wild jalr on RV64, which faults on the fetch
 * that follows): that key is even.
 */
#define GUEST_ECALL_KEY (1ull << 63)

static inline uint64_t guest_ecall_key(size_t index)
{
    return GUEST_ECALL_KEY | (uint64_t)index << 1 | GUEST_SITE_BIT;
}

static inline bool guest_key_is_ecall(uint64_t key)
{
    return (key & GUEST_ECALL_KEY) && (key & GUEST_SITE_BIT);
}

static inline size_t guest_ecall_index(uint64_t key)
{
    return (size_t)((key & ~GUEST_ECALL_KEY) >> 1);
}

static inline bool guest_key_is_site(uint64_t key)
{
    return (key & GUEST_SITE_BIT) && !(key & GUEST_ECALL_KEY);
}

struct guest_profile {
    struct flow_tracer tracer; /* first: the executor calls through it; owns top */
    const struct symtab *syms;
    struct trie trie;
    struct trace_frame *stack; /* stack[0] is the root frame, tracer.top the current one */
    size_t capacity;           /* frames; stack[capacity] is the guard slot */
    struct target_cache targets;
    struct trace_link *links; /* the tracer's link table: 1 << TRACE_LINK_BITS links */
    bool out_of_memory;
    bool runs_rewritten; /* a taken branch's slot held no branch when folded (code rewritten) */
    char **names;        /* demangled name per symtab function, made at write time */
    const char **calls;  /* the zkVM call names seen, for [ecall:NAME] frames */
    size_t ncalls, calls_cap;
    struct trace_frame *marked; /* the stack the tracer's mark noted, bottom first */
    size_t marked_depth;
    struct inline_chains *inlines; /* per-pc mode (inline frames) when not NULL; not owned */
    int64_t **runs;                /* per node: its run array (executor/trace.h), or NULL */
    size_t runs_cap;
    bool all_pcs; /* per-pc mode: every function's pcs counted (weights, --lines) */
    bool (*pcs_differ)(void *ctx, uint64_t start, uint64_t end); /* guest_profile_options */
    void *pcs_ctx;
    bool pcs_skipped;      /* some function's pcs were not counted (pcs_differ said no) */
    uint8_t *func_pcs;     /* per symtab function: 0 not asked, 1 pcs_differ no, 2 yes */
    uint8_t *func_inlines; /* per symtab function: whether it has inlined code */
    uint8_t *func_runs;    /* per symtab function: 0 not decided, 1 no run arrays, 2 run arrays */
                           /* (function_inlines; 0 not asked yet) */
    struct strtab chains;  /* per-pc mode: the distinct inline chains at call sites */
    uint64_t *chain_pcs;   /* by chain id: a pc whose chain it is */
    size_t chain_pcs_cap;
    /*
     * Per-pc mode on a hart with C (guest_profile_options): the
     * length of the instruction at pc (2 or 4), which tells the writers
     * where instructions start; NULL: every instruction is 4 bytes.
     */
    unsigned (*insn_length)(void *ctx, uint64_t pc);
    void *insn_ctx;
    /*
     * Per-pc mode, made by guest_profile_flush: the runs the live frames
     * below the top keep open (executor/trace.h, "Runs"), as (node, slot
     * where the run ends), sorted.
     */
    struct guest_open_run {
        uint32_t node, slot;
    } * open_runs;
    size_t nopen_runs;
    size_t node_costs_cap; /* cost mode: the nodes tracer.node_costs has room for */
};

/*
 * Starts with the root frame at `entry`. `syms` must outlive the profile,
 * and so must `inlines` when not NULL: then the profile is in per-pc mode
 * and expands inline frames when it is written (docs/CONTRACT.md, "Inline
 * frames").
 */
bool guest_profile_init(struct guest_profile *p, const struct symtab *syms, uint64_t entry,
                        struct inline_chains *inlines);

/* How a profile counts, beyond guest_profile_init's defaults (all zero). */
struct guest_profile_options {
    struct inline_chains *inlines; /* as in guest_profile_init */
    /*
     * Every function's pcs counted (not only those of functions with
     * inlined code), with or without `inlines`: weights of opcode classes
     * need each pc's count (docs/ARCHITECTURE.md, "Weights"), --lines each
     * pc's line.
     */
    bool all_pcs;
    /*
     * A hart with C: instructions may start at any halfword (per-pc mode:
     * run arrays get 2-byte slots) and insn_length(insn_ctx, pc) gives the
     * length of the instruction at pc; NULL: every instruction is 4 bytes.
     */
    unsigned (*insn_length)(void *ctx, uint64_t pc);
    void *insn_ctx;
    /*
     * With all_pcs: whether function [start, end) needs its pcs counted
     * (weights whose cost differs between its pcs); NULL: every one does.
     * A function that does not keeps no run arrays unless it has inlined
     * code, and its instructions count on its frame (guest_profile_node_pcs
     * does not see them).
     */
    bool (*pcs_differ)(void *ctx, uint64_t start, uint64_t end);
    void *pcs_ctx;
    /*
     * Cost mode (executor/trace.h, "Cost clock"; the machine must have a
     * cost clock, machine_set_cost_clock): beside the instructions, the
     * nodes count one weight's cost (tracer.node_costs, inclusive as the
     * counts are), with no per-pc counts for it; the weighted writer
     * (tracer/weights.h) reads it for that weight. Per-pc mode, for inline
     * frames, without all_pcs.
     */
    bool cost_clock;
};

/* guest_profile_init with options. */
bool guest_profile_init_with(struct guest_profile *p, const struct symtab *syms, uint64_t entry,
                             const struct guest_profile_options *o);
void guest_profile_free(struct guest_profile *p);

/*
 * Brings the counts up to `retired` instructions: the live frames' time so
 * far, and what every slot still holds, is added to the nodes; notes the
 * runs the live frames keep open for guest_profile_node_pcs. Call before
 * writing.
 */
void guest_profile_flush(struct guest_profile *p, uint64_t retired);

/* How a profile is written: 0 (names, inline frames in per-pc mode) or these bits. */
enum guest_write_flags {
    GUEST_WRITE_RAW = 1,       /* frames 0x<target>, per-pc mode adds @0x<pc> (no names) */
    GUEST_WRITE_LINES = 2,     /* per-pc mode: a pc's leaf frame is `name:LINE` */
    GUEST_WRITE_NO_INLINE = 4, /* per-pc mode: no inline frames (--lines --no-inline) */
};

/*
 * Copies the profile into `dst`, keyed by frame name interned in `names`
 * (0x<target> with GUEST_WRITE_RAW), the form the renderers (svg_write,
 * speedscope_write) take. With GUEST_WRITE_LINES and `sources` (a profile
 * over `dst` and `names`, or NULL), each `name:LINE` leaf gets its file and
 * line there, for the writers with source fields (speedscope, pprof,
 * Gecko). Returns 0, or -1 with errno set.
 */
int guest_profile_named(struct guest_profile *p, unsigned flags, struct trie *dst,
                        struct strtab *names, struct profile *sources);

/*
 * Per-pc mode: calls `visit` for each pc of the function of frame node
 * `node` that ran in that node, with its count (instructions retired at
 * that pc while the node was the innermost frame; an ecall that counts in
 * an [ecall:NAME] leaf not included), in increasing pc order, and stores
 * their sum in *sum (the rest of the node's own count ran outside its
 * function). Nodes without a run array visit nothing. Stops at the first
 * non-zero return of `visit` and returns it; else 0. For the writers
 * (inline frames; source lines and raw pcs can build on it).
 */
typedef int (*guest_pc_visitor)(void *ctx, uint64_t pc, uint64_t count);
int guest_profile_node_pcs(const struct guest_profile *p, uint32_t node, guest_pc_visitor visit,
                           void *ctx, uint64_t *sum);

#endif
