/*
 * render: the output formats every command writes a profile in, chosen
 * by --format or a file's extension, and writing a name-keyed trie (keys
 * are strtab ids, as folded_read and named_trie_build make them) in any
 * of them: folded stacks (folded.h), an SVG flamegraph (svg.h) or a
 * speedscope file (speedscope.h).
 */
#ifndef FLAMEGRAPH_RENDER_H
#define FLAMEGRAPH_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "flamegraph/strtab.h"
#include "flamegraph/svg.h"
#include "flamegraph/trie.h"

enum render_format { RENDER_SVG, RENDER_JSON, RENDER_FOLDED };

/* A --format name: svg, json (or speedscope) or folded. False for others. */
bool render_format_by_name(const char *name, enum render_format *f);

/*
 * The format `path`'s extension names (".svg", ".json", ".folded", as
 * render_format_by_name takes them after the dot), else `fallback`; also
 * `fallback` for a NULL path (stdout).
 */
enum render_format render_format_of_path(const char *path, enum render_format fallback);

/*
 * Writes `t` in `format`: an SVG with `svg`'s options, a speedscope file
 * named `profile_name` whose unit follows svg->unit (speedscope's time and
 * byte units pass, other counts are "none"), or folded stacks. Returns 0,
 * or -1 with errno set.
 */
int render_write_trie(FILE *out, const struct trie *t, const struct strtab *names,
                      enum render_format format, const struct svg_options *svg,
                      const char *profile_name);

#endif
