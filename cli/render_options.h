/*
 * render_options: what `cli flamegraph` and `cli diff` share: the
 * picture's options (--title, --width, --colors, ...), the output file
 * (-o, else stdout) and its format (from -o's extension, else --format),
 * and writing it (under a temporary name, renamed into place).
 */
#ifndef CLI_RENDER_OPTIONS_H
#define CLI_RENDER_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "flamegraph/strtab.h"
#include "flamegraph/svg.h"
#include "flamegraph/trie.h"

enum render_format { RENDER_SVG, RENDER_JSON, RENDER_FOLDED };

struct render_options {
    const char *output;      /* -o FILE; NULL: stdout */
    const char *format_name; /* --format; NULL: from -o's extension */
    enum render_format format;
    struct svg_options svg;
    double minwidth_percent; /* --minwidth P%; < 0: minwidth is in pixels */
};

enum {
    RENDER_OPT_FORMAT = 1000,
    RENDER_OPT_TITLE,
    RENDER_OPT_SUBTITLE,
    RENDER_OPT_UNIT,
    RENDER_OPT_WIDTH,
    RENDER_OPT_MINWIDTH,
    RENDER_OPT_INVERTED,
    RENDER_OPT_COLORS,
};

/* The getopt_long entries of the shared options (and -o). */
/* clang-format off */
#define RENDER_LONG_OPTIONS                                       \
    {"output", required_argument, NULL, 'o'},                     \
    {"format", required_argument, NULL, RENDER_OPT_FORMAT},       \
    {"title", required_argument, NULL, RENDER_OPT_TITLE},         \
    {"subtitle", required_argument, NULL, RENDER_OPT_SUBTITLE},   \
    {"unit", required_argument, NULL, RENDER_OPT_UNIT},           \
    {"countname", required_argument, NULL, RENDER_OPT_UNIT},      \
    {"width", required_argument, NULL, RENDER_OPT_WIDTH},         \
    {"minwidth", required_argument, NULL, RENDER_OPT_MINWIDTH},   \
    {"inverted", no_argument, NULL, RENDER_OPT_INVERTED},         \
    {"colors", required_argument, NULL, RENDER_OPT_COLORS},       \
    {"colours", required_argument, NULL, RENDER_OPT_COLORS}
/* clang-format on */

/* The help text of the shared options (and -h), and a paragraph on using the SVG. */
extern const char render_options_help[];
extern const char render_viewer_help[];

void render_options_init(struct render_options *r);

/* A --format name: svg, json (or speedscope) or folded. False for others. */
bool render_format_by_name(const char *name, enum render_format *f);

/*
 * Writes a name-keyed trie in one of the formats: an SVG with `svg`'s
 * options, a speedscope file named `profile_name` counting in
 * `speedscope_unit`, or folded stacks. Returns 0 or -1 with errno set.
 */
int render_write_trie(FILE *out, const struct trie *t, const struct strtab *names,
                      enum render_format format, const struct svg_options *svg,
                      const char *profile_name, const char *speedscope_unit);

/*
 * Takes one option getopt_long returned. Returns 1 when it was one of
 * ours, 0 when it was not, or EXIT_USAGE after reporting a bad value.
 */
int render_options_take(struct render_options *r, int opt, const char *arg);

/*
 * After the options: settles the format (-o's extension .svg, .json or
 * .folded, unless --format says otherwise; SVG by default) and the
 * minimum width. Returns 0, or EXIT_USAGE after reporting why.
 */
int render_options_finish(struct render_options *r, const char *command);

/* Writes the output: `write` gets the stream and `ctx`, returns 0 or -1 with errno set. */
typedef int (*render_writer)(FILE *out, void *ctx);

/*
 * Runs `write` on stdout, or on -o's file under a temporary name renamed
 * into place on success. Returns 0 or an exit status, the error reported.
 */
int render_options_write(const struct render_options *r, render_writer write, void *ctx);

#endif
