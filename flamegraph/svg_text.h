/*
 * svg_text: frame names as XML text. Any bytes become well-formed XML:
 * `& < > " '` are escaped (so a name is safe in an attribute as well as
 * in element text), ill-formed UTF-8 and characters XML 1.0 forbids
 * (controls, U+FFFE, U+FFFF) become U+FFFD. Names too long for their box
 * are cut to whole characters and end in "..", as in flamegraph.pl.
 */
#ifndef FLAMEGRAPH_SVG_TEXT_H
#define FLAMEGRAPH_SVG_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Writes s[0..len) escaped. Write errors show in ferror(out). */
void svg_text_escape(FILE *out, const char *s, size_t len);

/*
 * Writes s[0..len) escaped if it has at most `max_chars` characters;
 * else its first max_chars - 2 characters and "..", or nothing when
 * max_chars < 3 (no room for a letter and the dots).
 */
void svg_text_fit(FILE *out, const char *s, size_t len, size_t max_chars);

/* How many characters of `char_width` pixels fit a box `box_width` wide (3 px margins). */
size_t svg_text_capacity(double box_width, double char_width);

#endif
