/*
 * json_read: the JSON profiles zkprof reads (private to the readers):
 * speedscope files and Firefox Profiler Gecko files, parsed once with
 * jansson and told apart by their keys (flamegraph/json_profile.h: the
 * two readers and what they share).
 */
#ifndef FLAMEGRAPH_JSON_READ_H
#define FLAMEGRAPH_JSON_READ_H

#include <stddef.h>

#include "common/error.h"
#include "profile/profile.h"

/*
 * Adds the JSON profile in data[0..len) (speedscope, or Gecko: "meta" and
 * "threads") to `p` (owned, fresh), named `name` in messages. Returns 0,
 * or -1 with `e` set: ERROR_CORRUPT, ERROR_UNSUPPORTED, ERROR_NO_MEMORY.
 */
int json_profile_read(const unsigned char *data, size_t len, const char *name, struct profile *p,
                      struct error *e);

#endif
