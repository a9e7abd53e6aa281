/*
 * speedscope: writes a trie of named frames (keys are strtab ids, as
 * folded_read makes them) as a speedscope JSON file, one "sampled"
 * profile (https://www.speedscope.app/file-format-schema.json): frames
 * deduplicated by name in shared.frames, and one sample per node with a
 * count, its stack from the outermost frame, weighted by the count.
 */
#ifndef FLAMEGRAPH_SPEEDSCOPE_H
#define FLAMEGRAPH_SPEEDSCOPE_H

#include <stdio.h>

#include "profile/profile.h"
#include "profile/strtab.h"
#include "profile/trie.h"

/*
 * Frames are listed sorted bytewise by name, and samples in depth-first
 * order with siblings by name, so speedscope's time-order view reads like
 * a flamegraph. `unit` is a speedscope unit: "none" (instruction counts,
 * samples), "nanoseconds", "microseconds", "milliseconds", "seconds" or
 * "bytes". The output is streamed; memory grows with the trie, not with
 * the output. Returns 0, or -1 with errno set: EINVAL for another unit or
 * a node key that is not an id of `names`, ENOMEM, or the write error.
 */
int speedscope_write(FILE *out, const struct trie *t, const struct strtab *names,
                     const char *profile_name, const char *unit);

/*
 * A profile of several weights: one sampled profile per weight, named by
 * the weight, unit "none", all sharing the frames (docs/FORMATS.md#speedscope).
 * With one weight, speedscope_write's file of it. Frames whose source the
 * profile knows (profile_set_frame_source) get "file" and "line". Loads
 * each weight into the trie's counts in turn (profile_select_weight).
 * Returns as above.
 */
int speedscope_write_weights(FILE *out, struct profile *p, const char *profile_name,
                             const char *unit);

#endif
