/*
 * flamegraph: the one header a program includes from flamegraph/, the
 * readers and writers of profile files (docs/FORMATS.md). What it offers:
 *
 *   - profile_read: any profile file zkprof writes, told by its content;
 *     folded_read: folded stacks into a trie (one or two counts a line);
 *   - profile_write: the one way a profile leaves zkprof, its format
 *     chosen by --format or the file's name (folded, SVG, speedscope,
 *     pprof, Gecko); folded_write and svg_write for a bare trie, as the
 *     differential flamegraph and `cli perf collapse` write one;
 *   - report_write: a profile summed up as text; diff_summary: what
 *     changed between two profiles (text, Markdown, JSON);
 *   - output_file: every command's output, written beside its place and
 *     renamed into it when complete.
 *
 * The files behind this header (layout, palette, the JSON and pprof
 * codecs) are flamegraph/'s own.
 */
#ifndef FLAMEGRAPH_FLAMEGRAPH_H
#define FLAMEGRAPH_FLAMEGRAPH_H

#include "flamegraph/diff_summary.h"
#include "flamegraph/folded.h"
#include "flamegraph/folded_read.h"
#include "flamegraph/output_file.h"
#include "flamegraph/profile_read.h"
#include "flamegraph/profile_write.h"
#include "flamegraph/report.h"
#include "flamegraph/svg.h"

#endif
