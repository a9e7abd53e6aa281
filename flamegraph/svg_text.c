/*
 * svg_text: one pass over the name, character by character (UTF-8
 * checked by json_utf8_sequence), writing unchanged runs with one fwrite.
 */
#include "flamegraph/svg_text.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "flamegraph/json_write.h"

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

/*
 * The length in bytes of the character at s[0..len) and, in *subst, what
 * to write instead of it (NULL: the bytes themselves).
 */
static size_t next_char(const unsigned char *s, size_t len, const char **subst)
{
    size_t skip, n;
    *subst = NULL;
    switch (s[0]) {
    case '&': *subst = "&amp;"; return 1;
    case '<': *subst = "&lt;"; return 1;
    case '>': *subst = "&gt;"; return 1;
    case '"': *subst = "&quot;"; return 1;
    case '\'': *subst = "&apos;"; return 1;
    default: break;
    }
    if (s[0] < 0x20 || s[0] == 0x7f) {
        *subst = replacement;
        return 1;
    }
    if (s[0] < 0x80)
        return 1;
    n = json_utf8_sequence(s, len, &skip);
    if (n == 0) {
        *subst = replacement;
        return skip;
    }
    if (n == 3 && s[0] == 0xEF && s[1] == 0xBF && (s[2] == 0xBE || s[2] == 0xBF))
        *subst = replacement; /* U+FFFE, U+FFFF: not XML characters */
    return n;
}

/* Writes at most `max_chars` characters of s[0..len), escaped. */
static void write_chars(FILE *out, const char *s, size_t len, size_t max_chars)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t span = 0, i = 0;
    for (size_t chars = 0; i < len && chars < max_chars; chars++) {
        const char *subst;
        size_t n = next_char(u + i, len - i, &subst);
        if (subst) {
            fwrite(s + span, 1, i - span, out);
            fputs(subst, out);
            span = i + n;
        }
        i += n;
    }
    fwrite(s + span, 1, i - span, out);
}

void svg_text_escape(FILE *out, const char *s, size_t len)
{
    write_chars(out, s, len, SIZE_MAX);
}

/* The number of characters in s[0..len) (each U+FFFD replacement counts one). */
static size_t svg_text_chars(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t chars = 0;
    for (size_t i = 0; i < len; chars++) {
        const char *subst;
        i += next_char(u + i, len - i, &subst);
    }
    return chars;
}

void svg_text_fit(FILE *out, const char *s, size_t len, size_t max_chars)
{
    if (max_chars < 3)
        return;
    if (len <= max_chars || svg_text_chars(s, len) <= max_chars) {
        write_chars(out, s, len, SIZE_MAX);
        return;
    }
    write_chars(out, s, len, max_chars - 2);
    fputs("..", out);
}

size_t svg_text_capacity(double box_width, double char_width)
{
    double room = (box_width - 6) / char_width;
    return room <= 0 || char_width <= 0 ? 0 : (size_t)floor(room);
}
