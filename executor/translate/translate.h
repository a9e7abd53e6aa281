/*
 * translate: the translation tier, the one header the rest of the
 * executor includes from executor/translate/. The guest's superblocks
 * (RV32IM/RV64IM ALU operations, loads and stores, branches, jals, calls
 * and the returns back from them, with C their compressed forms; last a
 * return out, or a call or jump through a register) become x86-64 host
 * code, translated once their start has run
 * a given number of times in the interpreter (translate_new); a code cache
 * entry that starts a block gets the bound fast loop's `translated`
 * handler (code_cache.h), which calls the block (translate_enter until it
 * is translated) and dispatches where the blocks it ran on into left off. The
 * interpreter runs everything else, and every access a block's fast test
 * does not allow, so results are the interpreter's exactly.
 *
 * Only on x86-64 hosts, for harts whose code no store can change and
 * whose pages no tracker follows (machine.c decides: `--engine`).
 */
#ifndef EXECUTOR_TRANSLATE_TRANSLATE_H
#define EXECUTOR_TRANSLATE_TRANSLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "executor/code_cache.h"
#include "executor/memory.h"

/* Where a block left off: the entry to run next, and the instructions it retired. */
struct translate_exit {
    struct insn *ip;
    uint64_t retired;
};

struct translator;
struct trace_frame;
struct trace_link;
struct flow_tracer;

/*
 * What the loops that run a machine's blocks tell them (struct
 * translate_hooks), fixed for its run: whether they trace, whether the
 * tracer counts per pc (the frames' run arrays) and whether it keeps a
 * cost clock. A block leaves out the hooks nobody reads.
 */
struct translate_mode {
    bool traced, per_pc, cost;
};

/*
 * What a block's taken transfers tell the loop that called it, as the
 * loop's handlers would (NULL fields: nothing to tell): the cost clock's
 * running sum (executor/trace.h, "Cost clock": the loop's `cl`) and,
 * under a tracer, its top frame. A block moves `top` as the tracer's fast
 * paths do at the calls and returns it runs (a call the fast path would
 * not take leaves the block before it, for the interpreter's handler);
 * a jal out of the top frame's function is a tail call, left to the
 * interpreter; and in per-pc mode the frame's run array counts the taken
 * branches ("Runs").
 */
struct translate_hooks {
    uint64_t *cost_cl;
    struct trace_frame *top;
    const struct flow_tracer *tracer; /* for a call the fast path misses (translate_trace_call) */
    /*
     * The instructions retired by the blocks before the one that returns,
     * which ran on into each other (0 on the way in): the loop adds them to
     * its count.
     */
    uint64_t chained;
};

/*
 * A block's host code (translate_block.h): it runs when `left`, the
 * instructions the budget still allows, holds at least one pass through
 * it, and loops back to its own start only while another pass fits.
 */
typedef struct translate_exit (*translate_block_fn)(void *regs, uint8_t *mem, uint8_t *rights,
                                                    uint64_t left, struct translate_hooks *hooks);

/*
 * Per code cache entry, at the same offset from translate_slots() as the
 * entry from the cache's first one (both are 16 bytes), so that a fast
 * loop finds it from ip: the block starting there and its length in
 * instructions (0: none translated yet).
 */
struct translate_slot {
    translate_block_fn fn;
    uint64_t n;
};
_Static_assert(sizeof(struct translate_slot) == sizeof(struct insn), "slots parallel the entries");

/* The translator's slots, parallel to the code cache's entries. */
struct translate_slot *translate_slots(struct translator *t);

/* Whether this host has a translator (x86-64). */
bool translate_host(void);

/*
 * A translator for the code cache `cc` of a hart of `xlen` whose memory is
 * `mem`: marks the entries that start blocks (branch and jal targets, the
 * entries after branches and jumps, and `entry`, the first pc) in the
 * cache. Blocks run on into the functions they call and back; traced,
 * their calls and returns move the tracer's frames (`mode`: the loops'
 * hooks, which translate_enter checks). A block start's first `cold`
 * entries (at most 255) run in the interpreter; the next one writes its
 * block. NULL without memory or on another host.
 */
struct translator *translate_new(struct code_cache *cc, const struct guest_memory *mem, int xlen,
                                 uint64_t entry, struct translate_mode mode, unsigned cold);
/* Gives back the translator's memory and clears the marks. */
void translate_free(struct translator *t, struct code_cache *cc);

/*
 * The slow way in: translates the block starting at `ip` on the entry
 * after its cold ones (translate_new) and runs it when `left` instructions
 * hold it, with the register file `regs` and the loop's `hooks`; else (a
 * cold entry: the interpreter runs it), or when no block starts there or the hooks are not
 * the translator's mode's (the entry gets its own handler back), retires
 * nothing ({ip, 0}).
 */
struct translate_exit translate_enter(struct translator *t, struct insn *ip, uint64_t left,
                                      void *regs, struct translate_hooks *hooks);

/*
 * A block's call at entry `ip` (guest pc `pc`) to `target`, which the
 * tracer's fast path did not take, at clock `now`: the tracer's next
 * fast path (trace_call_linked, or trace_call_linked_site in per-pc mode)
 * on hooks->top, as the loop's call handler runs it. 1 when it pushed the
 * frame, and then the call site's cache `site` (NULL: none) holds the
 * pushed frame's link (translate_block.h, "Site caches"); 0 leaves the
 * call to the loop's slow path.
 */
int translate_trace_call(struct translate_hooks *hooks, const struct insn *ip, uint64_t pc,
                         uint64_t target, uint64_t now, struct trace_link *site);

/*
 * A block's jal at entry `ip` (guest pc `pc`) to `target`, outside the
 * function of hooks->top, at clock `now`: a tail call, taken as the loop's
 * jal handler takes it when the tracer's link table knows its node
 * (trace_tail_fast; in per-pc mode the run ends at the jal and one starts
 * at the target, in the frame's new node). 1 when it did, and then `site`
 * (NULL: none) holds the frame's new link when its node lies in a
 * function; 0 changes nothing and leaves the jal to the loop.
 */
int translate_trace_tail(struct translate_hooks *hooks, const struct insn *ip, uint64_t pc,
                         uint64_t target, uint64_t now, struct trace_link *site);

/*
 * Forgets every block (each is written again on its next run): the code
 * cache took back that some branches may leave their run hooks out
 * (code_cache_note_runs), which blocks written before relied on. Call it
 * with no block running.
 */
void translate_forget(struct translator *t);

/* The blocks translated so far and the guest instructions they hold. */
void translate_counts(const struct translator *t, uint64_t *blocks, uint64_t *insns);

#endif
