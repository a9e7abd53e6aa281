/*
 * execute_weights: `cli execute`'s --weight and --cost-table (issue [10]):
 * which weights the profile carries, their cost models for the guest's
 * ABI, the page tracker RISC Zero's cycles need, and writing the profile
 * with all of them.
 */
#ifndef CLI_EXECUTE_WEIGHTS_H
#define CLI_EXECUTE_WEIGHTS_H

#include <stdbool.h>
#include <stdio.h>

#include "executor/cost_model.h"
#include "executor/machine.h"
#include "executor/page_touch.h"
#include "flamegraph/render.h"
#include "flamegraph/report.h"
#include "flamegraph/svg.h"
#include "profile/profile.h"
#include "tracer/guest_profile.h"

#define EXECUTE_MAX_WEIGHTS 8 /* --weight and --cost-table options each */

struct execute_weights {
    const char *names[EXECUTE_MAX_WEIGHTS]; /* --weight, in order */
    size_t nnames;
    const char *tables[EXECUTE_MAX_WEIGHTS]; /* --cost-table files */
    size_t ntables;
    struct cost_model models[PROFILE_MAX_WEIGHTS]; /* resolved: the weights, in order */
    size_t nmodels;
    size_t clocked;              /* the model the cost clock counts (execute_weights_clock) */
    struct page_touch pages;     /* when a model pages (pages.model set) */
    const struct elf_image *img; /* the guest's code, for execute_weights_watch */
};

enum { EXECUTE_OPT_WEIGHT = 512, EXECUTE_OPT_COST_TABLE };

#define EXECUTE_WEIGHT_OPTIONS                                                                     \
    {"weight", required_argument, NULL, EXECUTE_OPT_WEIGHT},                                       \
    {                                                                                              \
        "cost-table", required_argument, NULL, EXECUTE_OPT_COST_TABLE                              \
    }

extern const char execute_weights_help[];

/* One of the options above: CLI_GO_ON, CLI_NOT_OURS, or an exit status. */
int execute_weights_option(struct execute_weights *w, int opt, const char *arg);

/* True when weights were asked for: the profile is then in per-pc mode. */
static inline bool execute_weights_asked(const struct execute_weights *w)
{
    return w->nnames > 0 || w->ntables > 0;
}

/*
 * Resolves the weights for a guest of ABI `abi` and `xlen` (built-ins and
 * cost tables). Returns 0, or the exit status after reporting the error.
 */
int execute_weights_resolve(struct execute_weights *w, const char *abi, int xlen);

/*
 * True when a weight's cost differs between opcode classes (or from that of
 * pcs of no function): the profile must count pcs (per-pc mode). Weights of
 * one cost per instruction (instructions, cycles) need no per-pc counts.
 */
bool execute_weights_need_pcs(const struct execute_weights *w);

/*
 * With one weight whose costs differ (execute_weights_need_pcs), beside
 * any number of weights of one cost per instruction: gives `m` a cost
 * clock for it (machine_set_cost_clock), for a profile in cost mode, which
 * then counts no pcs for it, and notes it as `clocked`. False when several
 * weights differ or the machine cannot: count pcs then.
 */
bool execute_weights_clock(struct execute_weights *w, struct machine *m, const struct symtab *syms);

/*
 * Has the profile of options `o` (all_pcs) count the pcs only of functions
 * whose instructions' costs differ under some weight (its pcs_differ);
 * `img` holds their code and must outlive the profile.
 */
void execute_weights_watch(struct execute_weights *w, struct guest_profile_options *o,
                           const struct elf_image *img);

/*
 * Starts the page tracker on `m` (its tracer set) when a weight pages.
 * Returns 0, or the exit status after reporting the error.
 */
int execute_weights_start(struct execute_weights *w, struct machine *m);

void execute_weights_free(struct execute_weights *w);

/*
 * Writes the profile with every weight in `format` (folded and SVG show
 * the first, the SVG titled "NAME: TOTAL WEIGHT"), or its report when
 * `report` is not NULL. Returns 0, or -1 with errno set.
 */
int execute_weights_write(FILE *out, struct guest_profile *p, unsigned flags,
                          const struct execute_weights *w, const struct elf_image *img,
                          enum render_format format, const struct svg_options *svg,
                          const char *name, const struct report_options *report);

/*
 * --stats: the instructions by opcode class (`p` in per-pc mode), and the
 * segments and cycles when paging was tracked.
 */
void execute_weights_stats(const struct execute_weights *w, struct guest_profile *p,
                           const struct elf_image *img, FILE *out);

#endif
