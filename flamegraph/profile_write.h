/*
 * profile_write: the one way a profile leaves zkprof. Every producer (a
 * guest run, `cli perf fold`, `cli merge`, the readers behind `cli
 * flamegraph`) hands a profile (profile/profile.h) to profile_write, which
 * picks the format (render_format_choose: --format, else the file's
 * extension), the weight that folded and SVG files show, the unit and the
 * title, and writes the file under a temporary name (output_file.h).
 */
#ifndef FLAMEGRAPH_PROFILE_WRITE_H
#define FLAMEGRAPH_PROFILE_WRITE_H

#include <stdbool.h>

#include "common/error.h"
#include "flamegraph/render.h"
#include "flamegraph/svg.h"
#include "profile/profile.h"

struct profile_write_options {
    const char *format;          /* a --format name (checked), or NULL: by the file's extension */
    enum render_format fallback; /* stdout's format, and that of a file no extension names */
    const char *weight;          /* the weight folded and SVG files show; NULL: the first */
    struct svg_options svg;      /* the picture; its unit and title as below */
    bool unit_given;             /* svg.unit stands; else the shown weight's name is the unit */
    const char *name;            /* the profile's name (speedscope, Gecko), unless svg.title */
    bool title_total;            /* without svg.title: the SVG's title is "NAME: TOTAL UNIT" */
};

/*
 * Writes `p` to `path` (NULL: stdout): pprof, Gecko and speedscope files
 * with every weight, folded and SVG with o->weight's. Returns 0, or -1
 * with `e` set: ERROR_UNSUPPORTED for a weight `p` lacks, else as
 * output_file_write.
 */
int profile_write(const char *path, struct profile *p, const struct profile_write_options *o,
                  struct error *e);

#endif
