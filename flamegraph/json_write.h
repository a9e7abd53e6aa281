/*
 * json_write: streams JSON text to a FILE. Strings are escaped so the
 * output is always valid JSON: quotes, backslashes and control characters
 * escaped, valid UTF-8 passed through, each maximal invalid UTF-8
 * subsequence replaced by U+FFFD (as Unicode recommends, and as Python's
 * "replace" decoder does). The first write error is kept and every later
 * write skipped, so callers check once, at json_finish.
 */
#ifndef FLAMEGRAPH_JSON_WRITE_H
#define FLAMEGRAPH_JSON_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_out {
    FILE *f;
    int error; /* errno of the first failed write, 0 while none failed */
};

/* Writes `text` as is (punctuation, keys the caller knows need no escaping). */
void json_raw(struct json_out *j, const char *text);

/* Writes a non-negative integer. */
void json_u64(struct json_out *j, uint64_t v);

/* Writes the `len` bytes of `s` (NULs allowed) as one quoted JSON string. */
void json_out_string(struct json_out *j, const char *s, size_t len);

/* Flushes; returns 0, or -1 with errno set when any write failed. */
int json_finish(struct json_out *j);

/*
 * The length of the well-formed UTF-8 sequence starting s[0..len), or 0
 * when it is ill-formed; then *skip is the length of its maximal
 * ill-formed subpart (at least 1), which is replaced by one U+FFFD.
 */
size_t json_utf8_sequence(const unsigned char *s, size_t len, size_t *skip);

#endif
