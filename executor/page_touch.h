/*
 * page_touch: RISC Zero's paging, as its executor charges it (pager.rs;
 * the figures in executor/cost_model.c), for the `cycles` weight. Guest
 * memory is cut into segments of at most 2^po2 cycles; within one, the
 * first load from a 1 KiB page (an instruction fetch too) pages it in and
 * the first store pages it out, each with the page-table (Merkle) nodes
 * above it that the segment had not loaded or dirtied yet. The cycles go
 * to the profile node of the frame whose instruction caused them.
 *
 * Cheap because it waits on the slow paths: at a segment's start every
 * rights entry (memory.h: one per 1 KiB, as RISC Zero's pages) loses its
 * inline-load and store bits and every code page its decoded
 * instructions, so a page's first access in the segment comes here; the
 * page gets its load (and store) bits back once it is paged in (out), a
 * code page its instructions at its first fetch. After that an access to
 * the page costs nothing more.
 */
#ifndef EXECUTOR_PAGE_TOUCH_H
#define EXECUTOR_PAGE_TOUCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "executor/call_cycles.h"
#include "executor/cost_model.h"
#include "executor/machine.h"

#define PAGE_TOUCH_SHIFT 10 /* RISC Zero's 1 KiB pages */
#define PAGE_TOUCH_DEPTH 22 /* its page table: 2^22 pages of the 4 GiB space */
#define PAGE_TOUCH_SIZE  (1u << PAGE_TOUCH_SHIFT)

/* A growable list of indexes (Merkle nodes, rights pages, code pages). */
struct page_list {
    uint64_t *at;
    size_t count, cap;
};

/* What a profile node was charged: paging cycles, and the 1 KiB pages paged in and out. */
struct page_charge {
    uint64_t in, out;
    uint64_t pages_in, pages_out;
};

struct page_touch {
    const struct cost_model *model; /* page, node and segment costs */
    uint8_t *state;                 /* per Merkle node (1 .. 2^23): 0 unloaded, 1 loaded, 2 dirty */
    struct page_list nodes;         /* the nodes set this segment, to clear at its end */
    struct page_list rights;        /* the rights entries given their bits back this segment */
    struct page_list code;          /* the 1 KiB code pages whose instructions are back */
    struct insn *keep;              /* every code cache entry as decoded at the start */
    uint8_t *shown;                 /* per 1 KiB page of the code span: in `code` */
    struct page_charge *charged;    /* per profile node: the paging charged to it */
    size_t nodes_cap;
    uint64_t threshold;     /* a segment splits once its cycles pass this */
    uint64_t seg_start;     /* instructions retired when the segment started */
    uint64_t seg_paging;    /* its paging cycles so far (RESERVED_PAGING included) */
    uint64_t run_budget;    /* the next run's budget: half the cycles left, at least 1 */
    uint64_t run_slack;     /* paging the run may charge before it must stop to check */
    uint64_t run_paging;    /* what it charged so far */
    uint64_t pending;       /* the paging of a fetch that stopped the run before its insn */
    uint64_t pending_pages; /* the pages that fetch paged in */
    uint64_t pages_in;      /* pages paged in so far, over all segments */
    uint32_t pending_node;  /* the profile node it went to */
    bool armed;             /* every code page hidden: the next fetch stops the run */
    bool rerun;             /* running the instruction whose fetch stopped the run */
    uint64_t segments;      /* segments finished */
    uint64_t paging_total;  /* every finished segment's paging cycles */
    uint64_t padded_total;  /* every finished segment's 2^po2 */
    bool out_of_memory;

    /* zkVM calls' own cycles (page_touch_call): by frame and call, the segment's share */
    struct call_cycles calls;
    uint64_t seg_calls;
};

/*
 * Starts tracking for `model` (cost_model_pages) on machine `m`, whose
 * tracer must be set: the first segment starts now. Returns false when
 * memory runs out.
 */
bool page_touch_start(struct page_touch *pt, struct machine *m, const struct cost_model *model);
void page_touch_free(struct page_touch *pt);

/*
 * machine_run for a tracked machine: runs at most `budget` instructions,
 * maybe fewer (STOP_BUDGET: the caller runs again), ending segments where
 * RISC Zero ends them, before the instruction that finds the segment's
 * cycles past the threshold. Each run gets most of the instructions that
 * would reach the threshold without paging; when its paging passes the
 * rest, the next fetch stops it (FAULT_SEGMENT_SPLIT, nothing retired) and
 * the segment is checked there (an instruction whose own fetch stopped it
 * but that belongs to the old segment is run there first).
 */
enum stop_reason page_touch_run(struct page_touch *pt, struct machine *m, uint64_t budget);

/* Ends the last segment (its cycles padded to a power of two, as RISC Zero's final one). */
void page_touch_finish(struct page_touch *pt, struct machine *m);

/*
 * After something recomputed every rights entry's bits (a snapshot's
 * restore): takes the inline bits back from the pages this segment has
 * not paged in. Nothing when paging is not tracked.
 */
void page_touch_resync(struct machine *m);

/* The slow paths' hooks (machine->pages): an access of [addr, addr+size). */
bool page_touch_load(struct machine *m, uint64_t addr, unsigned size);
bool page_touch_store(struct machine *m, uint64_t addr, unsigned size);
/* An instruction fetch from a code page that lost its instructions: gives them back. */
bool page_touch_fetch(struct machine *m, uint64_t pc);

/*
 * A zkVM call's own work, for RISC Zero's model only (a --cost-table's
 * pages take none): `cycles` beyond its ecall (the kernel's instructions,
 * the accelerator's: executor/abi/risc0_cycles.h) for the call `call` (a
 * static name) of the running frame, counted in the segment as user
 * cycles and shown in its [ecall:NAME] frame; and the [addr, addr+len)
 * its host side loads or stores, paged as the guest's own accesses.
 * No-ops on a machine without paging.
 */
void page_touch_call(struct machine *m, const char *call, uint64_t cycles);
void page_touch_host(struct machine *m, uint64_t addr, uint64_t len, bool store);

#endif
