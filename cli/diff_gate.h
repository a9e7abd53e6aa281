/*
 * diff_gate: `cli diff --summary` and `--fail-above`: both sides read as
 * profiles of any format zkprof reads (several files per side summed, as
 * `cli merge` sums them), the summary written, and the limits checked:
 * exit 1 when a cost grew by more than its limit, after the summary.
 */
#ifndef CLI_DIFF_GATE_H
#define CLI_DIFF_GATE_H

#include <stddef.h>

#include "flamegraph/flamegraph.h"

#define DIFF_GATE_MAX_FILES  64
#define DIFF_GATE_MAX_LIMITS 32

struct diff_gate_args {
    char *before[DIFF_GATE_MAX_FILES], *after[DIFF_GATE_MAX_FILES];
    size_t nbefore, nafter;
    struct diff_limit limits[DIFF_GATE_MAX_LIMITS];
    size_t nlimits;
    enum diff_summary_format format;
    size_t top;
    const char *output; /* NULL: stdout */
};

/* "md", "json", "text" -> the format; false when it is none of them. */
bool diff_gate_format(const char *name, enum diff_summary_format *format);

/* "2", "2.5%", "cycles=3", "verify_query=0.5" -> a limit; false when it reads as none. */
bool diff_gate_limit(char *text, struct diff_limit *limit);

/* Runs it; returns the exit status (1: a limit was exceeded). */
int diff_gate_run(struct diff_gate_args *a);

#endif
