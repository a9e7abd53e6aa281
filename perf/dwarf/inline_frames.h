/*
 * inline_frames: the functions inlined at an address of a DSO, as perf
 * script shows them on DWARF-unwound frames (perf's append_inlines, which
 * asks `addr2line -i -f` about the file the symbols came from): the
 * innermost inlined function first, then each function it was inlined
 * into, ending with the function that holds the code. Read from the
 * DWARF with libdw the way binutils' addr2line answers:
 *
 *   - no answer (the frame keeps its symbol) when the file has no
 *     .debug_line, no unit covers the address, or its line is unknown;
 *   - names are the DWARF's (the linkage name first), demangled as perf
 *     demangles symbols;
 *   - the chain stops at an inlined call without a line (addr2line
 *     prints "??:0" there, where perf stops reading).
 *
 * Answers are kept per (DSO, address); each DSO's DWARF is opened once.
 */
#ifndef PERF_INLINE_FRAMES_H
#define PERF_INLINE_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "perf/machine/perf_dso.h"

struct inline_chain {
    size_t count;     /* 0: no inline information (the frame is its symbol) */
    char **names;     /* innermost first */
    uint32_t *frames; /* the caller's cache of frame ids per name (0: not made), count long */
};

struct inline_frames;

/*
 * `debug_cache`: where inflated DWARF is kept (NULL: not); `later`: where
 * its stores go (perf/dwarf/debug_cache.h; NULL: stored on threads this waits
 * for when freed). NULL when memory runs out.
 */
struct inline_frames *inline_frames_new(const char *debug_cache, struct debug_cache_later *later);
void inline_frames_free(struct inline_frames *in);

/*
 * The chain at `offset` (a file offset, as perf_location.addr) of a loaded
 * DSO. NULL when memory runs out.
 */
struct inline_chain *inline_frames_at(struct inline_frames *in, struct perf_dso *dso,
                                      uint64_t offset);

/*
 * Opens the DWARF of a loaded DSO ahead of its questions, when it must be
 * inflated on worker threads so that the caller can go on meanwhile.
 * Returns whether a question about the DSO would be answered without
 * waiting for that (also when memory runs out: the question says so).
 */
bool inline_frames_prefetch(struct inline_frames *in, struct perf_dso *dso);

/* Whether no question would wait for DWARF being inflated. */
bool inline_frames_ready(struct inline_frames *in);

/*
 * How many debug files had compressed DWARF sections that did not inflate
 * (their frames keep their symbols there), and the first one's path.
 */
size_t inline_frames_damaged(const struct inline_frames *in, const char **path);

#endif
