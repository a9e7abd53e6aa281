/*
 * stack: one sample's stack as folded frames, the way `perf script`
 * prints it and `cli perf collapse` then names it (docs/PERF.md#folding-rules):
 *
 *   - the call chain's entries, leaf first; context markers
 *     (PERF_CONTEXT_KERNEL, _USER, _HV) switch how the entries after
 *     them are resolved and are no frames themselves; an unknown marker
 *     voids the chain (perf drops it); at most 127 entries (perf script's
 *     default --max-stack);
 *   - each entry named from its function ("+0x..." and arguments cut by
 *     perf/fold/frame_name.c), else "[module basename]", else "[unknown]"; an
 *     entry named "a->b" (an inline chain) is the frames a and b_[i];
 *   - a sample recorded without a call chain is its sampled address;
 *   - a --call-graph dwarf sample (user registers and stack) is its
 *     chain, then its user stack unwound from them (perf/dwarf/unwind_dwarf.h),
 *     at most 127 more entries, as perf script's unwinder gives them.
 *
 * Names are made once per function and kept in the DSO (perf_dso.frames);
 * an address seen before in the same, unchanged address space is not even
 * looked up again, nor its inlined functions (perf/fold/frame_memo.h, keyed by
 * the space's generation).
 */
#ifndef PERF_STACK_H
#define PERF_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/fold/frame_memo.h"
#include "perf/fold/frame_name.h"
#include "perf/dwarf/inline_frames.h"
#include "perf/data/perf_attr.h"
#include "perf/machine/perf_machine.h"
#include "perf/data/perf_record.h"
#include "perf/dwarf/unwind_dwarf.h"
#include "profile/strtab.h"

#define STACK_MAX_ENTRIES 127 /* perf script's default --max-stack */

struct stack {
    struct perf_machine *m;
    struct strtab *names;
    const struct perf_name_opts *opts;
    int ip_register; /* index of the user-mode pc among PERF_SAMPLE_REGS_USER registers; -1: unknown
                      */
    struct perf_name name; /* scratch for frame_name */
    char *text;            /* scratch for "symbol+0x0" */
    size_t text_cap;
    uint32_t unknown_frame; /* "[unknown]" */
    uint8_t *chain_ids;     /* by strtab id: 1 for the name of an inline chain's frames */
    size_t chain_ids_len;
    struct frame_memo memo; /* resolved addresses (empty: memory was short) */
    /* The frames of the sample being folded: strtab ids, leaf first. */
    uint32_t *frames;
    size_t count, capacity;
    struct unwind_dwarf *unwind;     /* NULL: memory was short (the sampled pc only) */
    struct inline_frames *inlines;   /* NULL: --no-inline, or memory was short */
    uint64_t ips[STACK_MAX_ENTRIES]; /* the unwound user addresses, innermost first */
    size_t nips;
    bool dwarf;                /* the last sample's user stack was unwound (or tried) */
    bool dwarf_attr;           /* a sample of a --call-graph dwarf event was seen */
    enum unwind_end dwarf_end; /* and how that ended */
};

/*
 * `arch` is HEADER_ARCH's string (NULL: unknown); `inlines`: unwound frames
 * get their inlined functions (perf script's default; false: --no-inline).
 */
void stack_init(struct stack *s, struct perf_machine *m, struct strtab *names,
                const struct perf_name_opts *opts, const char *arch, bool inlines);
void stack_free(struct stack *s);

/* The process `pid` exited (its unwinding state can go). */
void stack_process_exit(struct stack *s, int32_t pid);

/* The comm frame of a thread (cached on it). Returns the id, or 0 when memory runs out. */
uint32_t stack_comm_frame(struct stack *s, struct perf_thread *t, int32_t pid, int32_t tid);

#define STACK_WAITS 1

/*
 * Fills s->frames for a sample of `thread`. Returns 0, -1 when memory
 * runs out, or STACK_WAITS: the sample's user stack is unwound into
 * s->ips (s->nips addresses) but not named, because the DWARF of their
 * inlined functions is being inflated on worker threads (or
 * `others_wait`: the caller holds earlier samples that wait so, and
 * samples are named in their order: perf's inline answers depend on
 * it). The caller keeps s->frames and s->ips and names them with
 * stack_name_unwound later, with nothing but samples folded between.
 */
int stack_build(struct stack *s, const struct perf_attr *a, const struct perf_sample *sample,
                struct perf_thread *thread, bool others_wait);

/* Appends to s->frames the frames of unwound user addresses of `thread`. 0, or -1: no memory. */
int stack_name_unwound(struct stack *s, struct perf_thread *t, const uint64_t *ips, size_t n);

/* Whether no DWARF is being inflated any more (samples that waited can be named at no cost). */
bool stack_dwarf_ready(struct stack *s);

#endif
