/*
 * collapse: `perf script` text -> a trie of folded stacks (docs/PERF.md#folding-rules,
 * `cli perf collapse`), read as Brendan Gregg's stackcollapse-perf.pl
 * reads it: a sample header line ("comm pid/tid [cpu] time: period
 * event:"), the call chain leaf first, one frame per line, then a blank
 * line. Stacks go into the trie root first: the comm frame, then the
 * outermost caller down to the sampled leaf; keys are strtab ids of the
 * frame names (perf/fold/frame_name.h), so folded_write with folded_name_of
 * writes the result.
 */
#ifndef PERF_COLLAPSE_H
#define PERF_COLLAPSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "perf/fold/frame_name.h"
#include "profile/strtab.h"
#include "profile/trie.h"

struct perf_collapse_opts {
    const char *event; /* count only this event; NULL: the first one in the input */
    struct perf_name_opts names;
};

#define PERF_COLLAPSE_MAX_EVENTS 8

/* What a caller may want to warn about; free with perf_collapse_report_free. */
struct perf_collapse_report {
    uint64_t samples;         /* samples counted */
    uint64_t skipped_samples; /* samples of other events, left out */
    char *counted_event;      /* the event counted (NULL: none named or none matched) */
    char *other_events[PERF_COLLAPSE_MAX_EVENTS]; /* the first distinct events left out */
    size_t other_count;                           /* how many distinct events were left out */
    size_t unrecognized;       /* lines that are no header, frame, blank line or comment */
    size_t first_unrecognized; /* the line number of the first of them */
    char first_unrecognized_text[64];
    size_t stray_frames; /* frame lines in no sample: after a blank line or a one-line sample */
    size_t first_stray;  /* the line number of the first of them */
    size_t unterminated; /* the header line of a last sample left out: no blank line after it */
};

void perf_collapse_report_free(struct perf_collapse_report *r);

/*
 * Adds every counted sample of `in` (called `in_name` in messages) to
 * `t`, its weight (the period when the header gives one, else 1) on the
 * stack's leaf node. Returns 0, or -1 with `e` set: ERROR_CORRUPT ("NAME:
 * line N: ..."), ERROR_UNREADABLE, ERROR_NO_MEMORY; `report` is filled in
 * either way.
 */
int perf_collapse(FILE *in, const char *in_name, const struct perf_collapse_opts *o, struct trie *t,
                  struct strtab *names, struct perf_collapse_report *report, struct error *e);

#endif
