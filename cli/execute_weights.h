/*
 * execute_weights: `cli execute`'s --weight and --cost-table (issue [10]):
 * which weights the profile carries, and their cost models for the
 * guest's ABI, handed to the run (run/run_weights.h), which weighs.
 */
#ifndef CLI_EXECUTE_WEIGHTS_H
#define CLI_EXECUTE_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>

#include "run/run.h"

#define EXECUTE_MAX_WEIGHTS 8 /* --weight and --cost-table options each */

struct execute_weights {
    const char *names[EXECUTE_MAX_WEIGHTS]; /* --weight, in order */
    size_t nnames;
    const char *tables[EXECUTE_MAX_WEIGHTS]; /* --cost-table files */
    size_t ntables;
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
 * cost tables) into `out`'s models, which `out` owns whether or not this
 * fails. Returns 0, or the exit status after reporting the error.
 */
int execute_weights_resolve(const struct execute_weights *w, const char *abi, int xlen,
                            struct run_weights *out);

#endif
