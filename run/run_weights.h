/*
 * run_weights: the weights a guest run's profile carries besides its
 * instructions (docs/ARCHITECTURE.md, "Weights"), once their cost models
 * are chosen (cli: --weight, --cost-table): whether the profile must count
 * pcs for them, the cost clock that can count one of them instead, the
 * page tracker RISC Zero's cycles need, and the weighers that turn the
 * profile's counts into one column per weight (tracer/weights.h).
 */
#ifndef RUN_RUN_WEIGHTS_H
#define RUN_RUN_WEIGHTS_H

#include <stdbool.h>
#include <stdio.h>

#include "executor/cost_model.h"
#include "executor/machine.h"
#include "executor/page_touch.h"
#include "profile/profile.h"
#include "tracer/guest_profile.h"

struct run_weights {
    struct cost_model models[PROFILE_MAX_WEIGHTS]; /* the weights, in order; owned */
    size_t nmodels;
    size_t clocked;              /* the model the cost clock counts (run_weights_clock) */
    struct page_touch pages;     /* when a model pages (pages.model set) */
    const struct elf_image *img; /* the guest's code, for run_weights_watch */
};

/*
 * True when a weight's cost differs between opcode classes (or from that of
 * pcs of no function): the profile must count pcs (per-pc mode). Weights of
 * one cost per instruction (instructions, cycles) need no per-pc counts.
 */
bool run_weights_need_pcs(const struct run_weights *w);

/*
 * With one weight whose costs differ (run_weights_need_pcs), beside any
 * number of weights of one cost per instruction: gives `m` a cost clock
 * for it (machine_set_cost_clock), for a profile in cost mode, which then
 * counts no pcs for it, and notes it as `clocked`. False when several
 * weights differ or the machine cannot: count pcs then.
 */
bool run_weights_clock(struct run_weights *w, struct machine *m, const struct symtab *syms);

/*
 * Has the profile of options `o` (all_pcs) count the pcs only of functions
 * whose instructions' costs differ under some weight (its pcs_differ);
 * `img` holds their code and must outlive the profile.
 */
void run_weights_watch(struct run_weights *w, struct guest_profile_options *o,
                       const struct elf_image *img);

/* The model that pages memory (RISC Zero's cycles, a table with pages), or NULL. */
const struct cost_model *run_weights_paged(const struct run_weights *w);

/* Starts the page tracker on `m` (its tracer set) when a weight pages. False: no memory. */
bool run_weights_start(struct run_weights *w, struct machine *m);

void run_weights_free(struct run_weights *w);

/*
 * Fills `out` (an empty owned profile) with the profile's stacks, named as
 * `flags` say (GUEST_WRITE_*), and one weight per model, in order.
 * Returns 0, or -1 with errno set.
 */
int run_weights_profile(const struct run_weights *w, struct guest_profile *p, unsigned flags,
                        const struct elf_image *img, struct profile *out);

/*
 * --stats: the instructions by opcode class (`p` in per-pc mode, or
 * NULL), and the segments and cycles when paging was tracked.
 */
void run_weights_stats(const struct run_weights *w, struct guest_profile *p,
                       const struct elf_image *img, FILE *out);

#endif
