/*
 * code_cache: the guest's executable span as predecoded instructions, one
 * entry per 4-byte slot (per 2-byte slot on a hart with C, where an
 * instruction may start at any halfword), decoded when first executed. Each entry also
 * holds the handler the bound fast interpreter loop runs for it: the
 * handler of its own operation, or a fused one that runs it and the next
 * instruction with a single dispatch (an indirect jump per guest
 * instruction is what an interpreter's speed is made of).
 */
#ifndef EXECUTOR_CODE_CACHE_H
#define EXECUTOR_CODE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "executor/decode.h"
#include "executor/elf_image.h"

/*
 * How far apart the executable segments may lie (pass it to elf_image_load
 * as code_span_max): the cache has an entry for every 4-byte slot in
 * between, and binding it to a loop writes every entry (16 bytes per 4
 * bytes of span).
 */
#define CODE_SPAN_MAX ((uint64_t)64 << 20)

/*
 * The widest span an ABI may ask for (abi->code_span_max): its entries take
 * 4 bytes per byte of span, and its cost clock's sums would not fit below
 * CODE_COST_OFFSET, so code_cache_set_costs refuses a span over CODE_SPAN_MAX.
 */
#define CODE_SPAN_LARGE ((uint64_t)1 << 30)

/* A fast loop's handler tables, which entries' handlers point into. */
struct code_dispatch {
    const void *const *single; /* [2 * INSN_PAGE_MARK]: by op, page mark included */
    const void *const *pair; /* [OP_COUNT * OP_COUNT]: op a then op b (a * OP_COUNT + b), or NULL */
    /*
     * The same loop's tables whose branch and jal handlers leave out the
     * tracer's run hooks (executor/trace.h, "Runs"), for code where those
     * hooks do nothing (code_cache_note_runs); NULL: the loop has none.
     */
    const struct code_dispatch *unhooked;
    /*
     * The handler of an entry that starts a translated block (block_starts;
     * executor/translate/translate.h), or NULL: the loop runs no blocks.
     */
    const void *translated;
};

/* What the tracer said of a slot's function (code_cache_note_runs). */
enum code_runs {
    CODE_RUNS_UNKNOWN, /* nothing yet */
    CODE_RUNS_NONE,    /* its frames keep no run arrays */
    CODE_RUNS_KEPT,    /* some function holding it keeps them */
};

/*
 * The cost clock's sums at one entry (executor/trace.h, "Cost clock"):
 * clock ticks of the entries before it, and through it, along the cache.
 * They lie CODE_COST_OFFSET bytes above the entry (both are 16 bytes), a
 * constant, so that the loops reach them without a register or a load.
 */
#define CODE_COST_OFFSET ((uint64_t)1 << 29)

struct code_cost {
    uint64_t before;
    uint64_t through;
};

/* The sums at entry `at` (a cache with them: code_cache_set_costs). */
static inline const struct code_cost *code_cost_at(const struct insn *at)
{
    return (const struct code_cost *)((uintptr_t)at + CODE_COST_OFFSET);
}

struct code_cache {
    struct insn *insns;  /* span / slot + 1 entries; the last one is past the end */
    struct insn *end;    /* that last one (kept for the traced return, which compares with it) */
    uint64_t lo, span;   /* the guest addresses [lo, lo + span) */
    unsigned slot_shift; /* log2 of the bytes per entry: 2, or 1 with C (elf_image_insn_align) */
    /* an entry's guest pc is its address / (16 / slot) + pc_bias (mod 2^64) */
    uint64_t pc_bias;
    size_t bytes;                         /* size of the entries */
    const struct code_dispatch *dispatch; /* the bound loop's tables (NULL: none yet) */
    uint8_t *runs;                        /* enum code_runs per entry (NULL: nothing said yet) */
    bool fixed; /* decoded once from the image (code_cache_predecode); stores never reset it */
    bool aligned_access;     /* decode wide loads and stores as their aligned forms (abi.h) */
    struct code_cost *costs; /* per entry, for a cost clock (NULL: none): insns + the offset */
    size_t mapped;           /* size of the mapping: the entries, and without C the sums' room */
    uint64_t cost_cl; /* the running loop's sum `cl` (executor/trace.h, "Cost clock"), kept in */
                      /* memory so that it takes none of the loop's registers */
    /*
     * Per entry, nonzero where a translated block may start (the
     * translator's): such an entry gets the loop's `translated` handler,
     * and no pair ends in it. NULL: no translator.
     */
    uint8_t *block_starts;
};

/*
 * Maps the cache for the executable segments of `img`: 0, or -1 with
 * ERROR_UNSUPPORTED (a span over CODE_SPAN_LARGE) or ERROR_NO_MEMORY in `e`.
 */
int code_cache_init(struct code_cache *cc, const struct elf_image *img, struct error *e);
void code_cache_destroy(struct code_cache *cc);

/*
 * Points every entry's handler into `d`, the tables of the fast loop about
 * to run; the fast loops call this on entry when the cache is bound to
 * other tables (or none).
 */
void code_cache_bind(struct code_cache *cc, const struct code_dispatch *d);

/*
 * The tracer's word on the function [lo, end): whether its frames keep
 * run arrays (`kept`). A near branch or jal gets its unhooked handler
 * when every slot from it to its target lies in functions that keep none:
 * the hooks it leaves out then do nothing, whichever frame is on top (a
 * frame's run array covers its own function, and both ends of such a
 * branch fall outside it, on the same side). A function said to keep
 * runs after a part of it was said to keep none (overlapping symbols)
 * rebinds the whole cache. Without memory for the notes, nothing changes.
 */
bool code_cache_note_runs(struct code_cache *cc, uint64_t lo, uint64_t end, bool kept);

/*
 * Whether the branch or jal at entry i may leave the run hooks out, as its
 * unhooked handler does (code_cache_note_runs): every slot from it to its
 * target lies in functions said to keep no runs. code_cache_note_runs
 * returns true when it took that back for some slot.
 */
bool code_cache_runs_unhooked(const struct code_cache *cc, size_t i);

/* Says whether entry i starts a translated block, and chooses its handler again. */
void code_cache_mark_block(struct code_cache *cc, size_t i, bool start);

/*
 * Stores `in`, just decoded from the word at `pc`, and returns its entry.
 * Branch and jal offsets become entry counts, or the FAR variants
 * when the target is outside the code or misaligned; the first instruction
 * of a page, and one that crosses into a page, gets INSN_PAGE_MARK. The
 * handlers of this entry and the ones before that may end at it are
 * chosen again (any may now start a fused pair).
 */
struct insn *code_cache_fill(struct code_cache *cc, uint64_t pc, struct insn in);

/*
 * Decodes the instruction whose first bytes are `word` (a 32-bit
 * instruction, or with C a compressed one in the low half); a wide load
 * or store as its aligned form under `aligned_access`.
 */
struct insn code_cache_decode(const struct code_cache *cc, uint32_t word, int xlen);

/*
 * Decodes every instruction of the image's executable segments now, as a
 * zkVM that translates its program once does: from here on the code is
 * fixed, stores into it never reach it (code_cache_invalidate does
 * nothing), and a fetch from a slot no segment holds faults.
 */
void code_cache_predecode(struct code_cache *cc, const struct elf_image *img, int xlen);

/* The clock ticks of entry `entry`'s instruction, under the owner's weight. */
typedef uint64_t (*code_entry_ticks)(void *ctx, size_t entry);

/*
 * Sets up the cost clock's sums of a cache without C, asking `ticks` about
 * each entry in order (the entry past the end costs nothing). False when
 * their room cannot be made writable.
 */
bool code_cache_set_costs(struct code_cache *cc, code_entry_ticks ticks, void *ctx);

/* Drops predecoded instructions overlapping [addr, addr+len) after a store into code. */
void code_cache_invalidate(struct code_cache *cc, uint64_t addr, uint64_t len);

/*
 * Page tracking (executor/page_touch.h): a copy of every entry (NULL: no
 * memory); the entries of [pc, pc + len) made undecoded, so that their
 * first run goes to OP_DECODE, after saving them into `save` (a copy;
 * NULL: not saved); or given back from such a copy.
 */
struct insn *code_cache_copy(const struct code_cache *cc);
void code_cache_hide(struct code_cache *cc, uint64_t pc, uint64_t len, struct insn *save);
void code_cache_show(struct code_cache *cc, uint64_t pc, uint64_t len, const struct insn *copy);

#endif
