/*
 * profile_read: reads any profile file zkprof writes into a profile
 * (profile.h), telling the format by its content: gzip (pprof), a JSON
 * object (speedscope, or the Firefox Profiler's Gecko format), an SVG
 * picture (refused: it is written, not read), else folded stacks; a file
 * named *.pb or *.pprof is pprof without gzip. A folded, one-profile
 * speedscope or one-thread Gecko file has one unnamed count (shown as
 * "samples"; profile_merge adds it to the first weight).
 */
#ifndef FLAMEGRAPH_PROFILE_READ_H
#define FLAMEGRAPH_PROFILE_READ_H

#include <stddef.h>

#include "common/error.h"
#include "profile/profile.h"

/*
 * Reads `path` ("-" or NULL: stdin, "<stdin>" in messages) into `p`
 * (owned, fresh). Returns 0, or -1 with `e` set: ERROR_UNREADABLE
 * ("cannot read PATH: ..."), ERROR_CORRUPT ("PATH: line 3: ...", "PATH:
 * ..."), ERROR_UNSUPPORTED, ERROR_NO_MEMORY.
 */
int profile_read_path(const char *path, struct profile *p, struct error *e);

/* The same for a file's bytes, called `name` in messages. */
int profile_read_bytes(const unsigned char *data, size_t len, const char *name, bool pprof_named,
                       struct profile *p, struct error *e);

#endif
