/*
 * palette: the fill color of a flamegraph frame. Colors come from a hash
 * of the frame's name, never from chance or position, so a function keeps
 * its color from one graph to the next (flamegraph.pl --hash, always on).
 * Differential graphs color by the change instead: red for growth, blue
 * for shrinking, deeper the bigger the change.
 */
#ifndef FLAMEGRAPH_PALETTE_H
#define FLAMEGRAPH_PALETTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum palette {
    PALETTE_HOT, /* red to yellow (the default) */
    PALETTE_MEM, /* greens and blues */
    PALETTE_IO,  /* blues and grays */
    PALETTE_RED,
    PALETTE_GREEN,
    PALETTE_BLUE,
    PALETTE_AQUA,
    PALETTE_YELLOW,
    PALETTE_PURPLE,
    PALETTE_ORANGE,
    PALETTE_GRAY,
    PALETTE_LANG, /* a hue per language, guessed from the name (see palette_language) */
};

struct rgb {
    uint8_t r, g, b;
};

/*
 * The palette called `name`: hot, mem, io, red, green, blue, aqua,
 * yellow, purple, orange, gray, lang; java, js, perl and rust (the
 * language palettes of flamegraph.pl and inferno) are names for lang.
 * Returns false for anything else.
 */
bool palette_parse(const char *name, enum palette *out);

/* The palette names palette_parse takes, for help and error messages. */
extern const char palette_names[];

/* The color of a frame named s[0..len) (bytes, any content). */
struct rgb palette_color(enum palette p, const char *s, size_t len);

/* Languages the lang palette tells apart. */
enum language {
    LANG_C,        /* a plain identifier: C, assembly, or anything else */
    LANG_CPP,      /* C++ (qualified names, templates, operators) */
    LANG_RUST,     /* Rust user code */
    LANG_RUST_STD, /* Rust's core, alloc and std */
    LANG_GO,
    LANG_JAVA,
    LANG_SCRIPT,  /* Python, JavaScript, Perl, Ruby frames (file.ext:line) */
    LANG_KERNEL,  /* Linux kernel frames ([k] and [kernel.kallsyms]) */
    LANG_UNKNOWN, /* no symbol: 0x1234, [unknown], [libc.so.6] */
};

/* The language a frame name looks like (heuristics in the style of inferno's). */
enum language palette_language(const char *s, size_t len);

/*
 * A differential frame's color: delta > 0 red, delta < 0 blue, 0 white,
 * saturated in proportion to |delta| / max_abs_delta.
 */
struct rgb palette_diff_color(double delta, double max_abs_delta);

#endif
