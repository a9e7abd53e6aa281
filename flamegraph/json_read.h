/*
 * json_read: the JSON profiles zkprof reads (private to the readers):
 * speedscope files and Firefox Profiler Gecko files, parsed once with
 * jansson and told apart by their keys, and what both readers share.
 */
#ifndef FLAMEGRAPH_JSON_READ_H
#define FLAMEGRAPH_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "profile/profile.h"

struct json_t; /* jansson's */

/*
 * Adds the JSON profile in data[0..len) (speedscope, or Gecko: "meta" and
 * "threads") to `p` (owned, fresh), named `name` in messages. Returns 0,
 * or -1 with `e` set: ERROR_CORRUPT, ERROR_UNSUPPORTED, ERROR_NO_MEMORY.
 */
int json_profile_read(const unsigned char *data, size_t len, const char *name, struct profile *p,
                      struct error *e);

/* Each sampled profile a weight (named by the profile when there are several). */
int speedscope_read(struct json_t *root, const char *name, struct profile *p, struct error *e);

/* Each thread a weight (named by the thread when there are several). */
int gecko_read(struct json_t *root, const char *name, struct profile *p, struct error *e);

/*
 * A frame's name interned as folded files spell it (';' becomes ':', line
 * breaks spaces); 0 when out of memory.
 */
uint32_t profile_intern_frame(struct profile *p, const char *text, size_t len);

/*
 * The weight the samples of one part of a JSON profile (a speedscope
 * profile, a Gecko thread) add to: the part's name when the file has
 * several parts and the part a name (parts of one name add up), else the
 * unnamed "samples". Returns its index, or -1 with `e` set (`parts` says
 * what the parts are in the message: "profiles", "threads").
 */
int profile_json_weight(struct profile *p, const char *part_name, size_t nparts, const char *parts,
                        const char *name, struct error *e);

/* A count as an exact non-negative integer (integral reals pass). */
bool profile_json_count(struct json_t *v, uint64_t *out);

#endif
