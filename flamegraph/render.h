/*
 * render: the output formats every command writes a profile in, chosen
 * by --format or a file's extension, and writing a name-keyed trie (keys
 * are strtab ids, as folded_read and named_trie_build make them) in any
 * of them: folded stacks (folded.h), an SVG flamegraph (svg.h), a
 * speedscope file (speedscope.h), a pprof profile (pprof.h) or a Firefox
 * Profiler (Gecko) file (gecko.h). A profile of several weights
 * (profile.h) is written whole by the last three and one weight at a time
 * by folded and SVG.
 */
#ifndef FLAMEGRAPH_RENDER_H
#define FLAMEGRAPH_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "flamegraph/svg.h"
#include "profile/profile.h"
#include "profile/strtab.h"
#include "profile/trie.h"

enum render_format { RENDER_SVG, RENDER_JSON, RENDER_FOLDED, RENDER_PPROF, RENDER_GECKO };

/*
 * A --format name: svg, json (or speedscope), folded, pprof or gecko.
 * False for others.
 */
bool render_format_by_name(const char *name, enum render_format *f);

/*
 * The format `path`'s extension names (".pb.gz" pprof, ".gecko.json"
 * gecko, else ".svg", ".json", ".folded", ".pprof", ".gecko" as
 * render_format_by_name takes them after the dot), else `fallback`; also
 * `fallback` for a NULL path (stdout).
 */
enum render_format render_format_of_path(const char *path, enum render_format fallback);

/*
 * The format of an output, decided here only: `name` (a --format name)
 * when given, else the one `path`'s extension names (render_format_of_path),
 * else `fallback`. False, with *f the path's format, for a name of none.
 */
bool render_format_choose(const char *name, const char *path, enum render_format fallback,
                          enum render_format *f);

/*
 * Writes `t` in `format`: an SVG with `svg`'s options, a speedscope file
 * named `profile_name` whose unit follows svg->unit (speedscope's time and
 * byte units pass, other counts are "none"), folded stacks, or a pprof or
 * Gecko file of one weight named svg->unit ("samples" when unset).
 * Returns 0, or -1 with errno set.
 */
int render_write_trie(FILE *out, const struct trie *t, const struct strtab *names,
                      enum render_format format, const struct svg_options *svg,
                      const char *profile_name);

/*
 * Writes `p` in `format`: pprof, gecko and speedscope with every weight,
 * folded and SVG with weight `weight` (loaded into the trie's counts);
 * a one-weight speedscope file as render_write_trie writes it. Returns 0,
 * or -1 with errno set.
 */
int render_write_profile(FILE *out, struct profile *p, size_t weight, enum render_format format,
                         const struct svg_options *svg, const char *profile_name);

#endif
