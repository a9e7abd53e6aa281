/*
 * fold: a perf.data file into a trie of folded stacks (docs/PERF.md#folding-rules,
 * `cli perf fold`), the same stacks `perf script | cli perf collapse`
 * gives for the file on the same machine: records in perf script's
 * order (perf/data/perf_order.h), the recorded system followed through them
 * (perf/machine/perf_machine.h), each sample of the counted event added with its
 * weight (its period when the file records periods, or the fixed period
 * of `perf record -c N`, else 1) under its
 * comm frame, outermost caller first (perf/fold/stack.h). Keys are strtab ids
 * of frame names, so folded_write with folded_name_of writes the result
 * and the SVG renderer draws it.
 *
 * The counted event is the first sample's, or the one --event names
 * (its name as perf prints it, with or without perf's modifiers).
 */
#ifndef PERF_FOLD_H
#define PERF_FOLD_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "perf/fold/frame_name.h"
#include "perf/machine/maps_snapshot.h"
#include "perf/machine/perf_dso.h"
#include "perf/data/perf_file.h"
#include "perf/dwarf/unwind_dwarf.h"
#include "profile/strtab.h"
#include "profile/trie.h"

struct perf_fold_opts {
    const char *event; /* count only this event; NULL: the first sample's */
    struct perf_name_opts names;
    struct symbol_paths paths;
    const char *kallsyms; /* use this kallsyms file for the kernel (NULL: perf's choice) */
    bool no_inline;       /* --no-inline: DWARF-unwound frames without their inlined functions */

    struct maps_snapshot *maps; /* mappings the recording lacks (--maps); NULL: none */
};

/* What the caller may want to say about the run. */
struct perf_fold_report {
    uint64_t samples;       /* samples counted */
    uint64_t other_samples; /* samples of other events, left out */
    uint64_t dwarf_samples; /* counted samples whose user stack was unwound (or tried) */
    uint64_t dwarf_ends[UNWIND_NO_MEMORY + 1]; /* how those unwindings ended */
    uint64_t unknown_samples;                  /* samples of no known event (perf skips them too) */
    const char *counted_event;    /* the event counted (into the file's attributes); NULL: none */
    const char *other_event;      /* one event left out, for the message */
    bool no_callchain;            /* the counted event has no call chains: leaves only */
    bool kernel_unresolved;       /* kernel frames were hit but no kallsyms fitted */
    uint64_t compressed_records;  /* PERF_RECORD_COMPRESSED(2) records read (perf record -z) */
    bool compressed_cut;          /* the compressed data ends inside a zstd block */
    size_t compressed_leftover;   /* bytes of an unfinished record after the last one */
    size_t damaged_debug_files;   /* debug files whose compressed DWARF did not inflate */
    char damaged_debug_path[256]; /* the first of them */
};

/*
 * Adds the file's counted samples to `t` (naming the events first, when the
 * caller has not: perf_name_events). Returns 0, or -1 with `e` set
 * (the file is corrupt at some offset, or memory ran out).
 */
int perf_fold(struct perf_file *f, const struct perf_fold_opts *o, struct trie *t,
              struct strtab *names, struct perf_fold_report *report, struct error *e);

#endif
