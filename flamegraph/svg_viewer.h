/*
 * svg_viewer: the JavaScript that makes a flamegraph SVG interactive.
 * Its source is flamegraph/svg_viewer.js; the build embeds it as this
 * NUL-terminated string (cmake/EmbedText.cmake).
 */
#ifndef FLAMEGRAPH_SVG_VIEWER_H
#define FLAMEGRAPH_SVG_VIEWER_H

extern const char svg_viewer_js[];

#endif
