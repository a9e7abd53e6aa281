/*
 * pprof: a profile as pprof's profile.proto (third_party/pprof), gzipped,
 * as `go tool pprof` and Pyroscope read it (docs/FORMATS.md#pprof): one
 * sample type per weight, one function per frame name (with its source
 * file and line where known), one location per function, and one sample
 * per stack with a value.
 */
#ifndef FLAMEGRAPH_PPROF_H
#define FLAMEGRAPH_PPROF_H

#include <stddef.h>
#include <stdio.h>

#include "common/error.h"
#include "profile/profile.h"

/*
 * Writes `p` as a gzipped profile.proto. Returns 0, or -1 with errno set:
 * ENOMEM, EOVERFLOW for a value past 2^63 (pprof's values are int64), or
 * the write error.
 */
int pprof_write(FILE *out, const struct profile *p);

/*
 * Adds the pprof profile in data[0..len) (gzipped or not) to `p` (owned):
 * its sample types become weights (matched by name), its stacks the
 * trie's, inlined frames included (outermost first). Returns 0, or -1
 * with `e` set: ERROR_CORRUPT (damaged gzip, a message that does not
 * parse, an index out of range, "NAME: ..." prefixed), ERROR_UNSUPPORTED
 * (negative values, too many sample types), ERROR_NO_MEMORY.
 */
int pprof_read(const unsigned char *data, size_t len, const char *name, struct profile *p,
               struct error *e);

#endif
