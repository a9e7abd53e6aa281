/*
 * gecko: a profile as the Firefox Profiler's Gecko profile JSON (format
 * version 24, the shape SP1's profiler writes with the gecko_profile
 * crate; docs/FORMATS.md#gecko): one thread per weight, named by the
 * weight; a frame per name, a stack per trie node, and one sample per
 * stack with a value. The Gecko format counts each sample once, so a
 * sample's value is its time span (the clock advances by the value, one
 * microsecond per unit, as SP1's one microsecond per instruction) and is
 * also kept exactly in a `weight` column.
 */
#ifndef FLAMEGRAPH_GECKO_H
#define FLAMEGRAPH_GECKO_H

#include <stdio.h>

#include "profile/profile.h"

/* Returns 0, or -1 with errno set (ENOMEM, or the write error). */
int gecko_write(FILE *out, const struct profile *p, const char *profile_name);

#endif
