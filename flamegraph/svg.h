/*
 * svg: writes a call-graph trie of named frames as an interactive
 * flamegraph SVG in the tradition of flamegraph.pl and inferno: a box per
 * frame, as wide as its count, with hover details, click to zoom, Reset
 * Zoom, and Search (Ctrl-F) showing the matched percentage. A second set
 * of counts makes it a differential flamegraph. The SVG is self-contained
 * (no external resources) and its DOM is a documented contract (svg.c,
 * docs/FORMATS.md) that browser tests can drive.
 */
#ifndef FLAMEGRAPH_SVG_H
#define FLAMEGRAPH_SVG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "flamegraph/palette.h"
#include "profile/strtab.h"
#include "profile/trie.h"

struct svg_options {
    const char *title;    /* NULL: "Flame Graph" ("Icicle Graph", "Differential Flame Graph") */
    const char *subtitle; /* NULL: none */
    const char *unit;     /* what the counts count: "instructions", "samples" */
    unsigned width;       /* image width in pixels */
    double minwidth;      /* frames narrower (pixels) are merged away into their parent */
    bool inverted;        /* an icicle graph: the root at the top */
    enum palette palette;
    /*
     * Differential graphs: the "before" count of every node, indexed like
     * t->nodes (t->count of them), the trie's own counts being "after".
     * Widths follow the after counts; colors the change. NULL: a plain graph.
     */
    const uint64_t *diff;
};

/* The defaults: width 1200, minwidth 0.1, unit "samples", hot palette, no titles. */
void svg_options_init(struct svg_options *o);

/* The narrowest image svg_write takes. */
#define SVG_MIN_WIDTH 100u

/* The left and right margins: frames span width - 2 * SVG_PAD pixels. */
#define SVG_PAD 10

/*
 * Writes the trie `t` (keys are ids of `names`, as folded_read makes
 * them) as an SVG to `out`. A trie without counts gives a valid SVG that
 * says "No samples". Returns 0, or -1 with errno set: EINVAL for a width
 * below SVG_MIN_WIDTH, a negative minwidth, or a key that is not an id of
 * `names`; ENOMEM; or the write error.
 */
int svg_write(FILE *out, const struct trie *t, const struct strtab *names,
              const struct svg_options *o);

#endif
