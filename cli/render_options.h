/*
 * render_options: the options of the commands that draw a trie (`cli
 * flamegraph`, `cli diff`, `cli perf fold`): the picture's options
 * (--title, --width, --colors, ...), the output file (-o, else stdout)
 * and its format (--format, else -o's extension; flamegraph/render.h).
 */
#ifndef CLI_RENDER_OPTIONS_H
#define CLI_RENDER_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "flamegraph/flamegraph.h"

struct render_options {
    const char *output;          /* -o FILE; NULL: stdout */
    const char *format_name;     /* --format; NULL: from -o's extension */
    enum render_format format;   /* settled by render_options_finish */
    enum render_format fallback; /* the command's format for stdout and unknown extensions */
    struct svg_options svg;
    double minwidth_percent; /* --minwidth P%; < 0: minwidth is in pixels */
    const char *weight;      /* --weight NAME; NULL: the first */
    bool svg_unit_given;     /* --unit: else a weight's name is the unit */
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
    RENDER_OPT_WEIGHT,
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
/* --weight, for commands whose input may hold several weights. */
#define RENDER_WEIGHT_OPTION {"weight", required_argument, NULL, RENDER_OPT_WEIGHT}
/* clang-format on */

/* The help text of the shared options (and -h), and a paragraph on using the SVG. */
extern const char render_options_help[];
extern const char render_viewer_help[];
extern const char render_weight_help[];

void render_options_init(struct render_options *r);

/*
 * Takes one option getopt_long returned. Returns CLI_GO_ON when it was
 * one of ours, CLI_NOT_OURS when it was not, or EXIT_USAGE after
 * reporting a bad value.
 */
int render_options_take(struct render_options *r, int opt, const char *arg);

/*
 * After the options: settles the format (--format, else -o's extension:
 * render_format_of_path, else `fallback`) and the minimum width.
 * Returns 0, or EXIT_USAGE after reporting why.
 */
int render_options_finish(struct render_options *r, const char *command,
                          enum render_format fallback);

/*
 * Writes `t` (keys: ids of `names`), as a profile of one weight named by
 * --unit (default "samples"), as render_options_write_profile does.
 * Returns 0, or the exit status after reporting the error.
 */
int render_options_write(const struct render_options *r, const struct trie *t,
                         const struct strtab *names, const char *name);

/*
 * Writes `p` to -o's file or stdout through profile_write: pprof, Gecko
 * and speedscope files with every weight, folded and SVG with --weight's
 * (else the first); `name` is the speedscope and Gecko profile's name
 * (without --title). Returns 0, or the exit status after reporting the
 * error (65 for a --weight the profile lacks).
 */
int render_options_write_profile(const struct render_options *r, struct profile *p,
                                 const char *name);

#endif
