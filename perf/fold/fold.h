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
#include "perf/data/perf_file.h"
#include "perf/machine/perf_dso.h"
#include "perf/perf.h" /* struct perf_fold_opts, struct perf_fold_report */
#include "profile/strtab.h"
#include "profile/trie.h"

/*
 * Adds the file's counted samples to `t` (naming the events first, when the
 * caller has not: perf_name_events), reading symbols along `paths` (the
 * options' buildid_dir and debug_cache_later are perf_recording_fold's, which
 * makes `paths` from them). Returns 0, or -1 with `e` set (the file is
 * corrupt at some offset, or memory ran out).
 */
int perf_fold(struct perf_file *f, const struct perf_fold_opts *o, const struct symbol_paths *paths,
              struct trie *t, struct strtab *names, struct perf_fold_report *report,
              struct error *e);

#endif
