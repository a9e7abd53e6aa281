/*
 * json_profile: the two JSON readers (speedscope, Gecko) that json_read
 * chooses between, and what both share (private to the readers). Each
 * reader includes only this, so json_read.c, speedscope_read.c and
 * gecko_read.c form no circle: json_read -> the readers -> json_profile.
 */
#ifndef FLAMEGRAPH_JSON_PROFILE_H
#define FLAMEGRAPH_JSON_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "profile/profile.h"

struct json_t; /* jansson's */

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
