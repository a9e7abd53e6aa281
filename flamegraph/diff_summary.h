/*
 * diff_summary: what changed between two profiles, as a reviewer reads it
 * (docs/FORMATS.md#diff-summaries): per weight the totals before and after,
 * the functions whose inclusive or self cost changed most, the functions
 * that appeared or vanished, and each zkVM call ([ecall:NAME]) whose count
 * or cost changed; as text, Markdown for a pull request, or JSON. Limits
 * (`--fail-above`) say whether a cost grew by more than allowed.
 */
#ifndef FLAMEGRAPH_DIFF_SUMMARY_H
#define FLAMEGRAPH_DIFF_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "profile/frame_sums.h"
#include "profile/profile.h"

enum diff_summary_format { DIFF_SUMMARY_TEXT, DIFF_SUMMARY_MARKDOWN, DIFF_SUMMARY_JSON };

/* One function (frame name) of either profile, with its sums on both sides. */
struct diff_function {
    const char *name;
    size_t len;
    uint32_t before_id, after_id; /* DIFF_ABSENT when that side has no such frame */
};

#define DIFF_ABSENT UINT32_MAX

/* The weight `w` of `after` and the same-named weight of `before`. */
struct diff_weight {
    size_t after_w, before_w;
    uint64_t before_total, after_total;
};

struct diff_summary {
    const struct profile *before, *after;
    struct frame_sums before_sums, after_sums;
    struct diff_weight weights[PROFILE_MAX_WEIGHTS];
    size_t nweights;
    struct diff_function *functions; /* every name of either side, sorted bytewise */
    size_t nfunctions;
};

/* A limit: the cost of `name` (a weight's total, or a function's inclusive cost of the first
 * weight; NULL: the first weight's total) may grow by `percent` at most. */
struct diff_limit {
    const char *name;
    double percent;
};

struct diff_summary_options {
    enum diff_summary_format format;
    size_t top; /* rows before the rest is folded away (Markdown) or left out; 0: all */
    const char *const *before_inputs, *const *after_inputs;
    size_t nbefore, nafter;
    const struct diff_limit *limits;
    size_t nlimits;
};

/*
 * Joins the two profiles. Fails with ERROR_CORRUPT when their weights
 * differ by name, ERROR_NO_MEMORY when memory runs out; `ds` is to be
 * freed with diff_summary_free either way.
 */
int diff_summary_build(struct diff_summary *ds, const struct profile *before,
                       const struct profile *after, struct error *e);

void diff_summary_free(struct diff_summary *ds);

/* Writes the summary. Returns 0, or -1 with errno set. */
int diff_summary_write(FILE *out, const struct diff_summary *ds,
                       const struct diff_summary_options *o);

/*
 * Checks the limits: for each one that is exceeded (or names neither a
 * weight nor a function: ERROR_UNSUPPORTED in `e`, -1), `breach` gets a
 * line saying what grew by how much. Returns the number exceeded.
 */
int diff_summary_check(const struct diff_summary *ds, const struct diff_limit *limits, size_t n,
                       void (*breach)(void *ctx, const char *line), void *ctx, struct error *e);

#endif
