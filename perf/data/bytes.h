/*
 * bytes: bounded reads from a part of the mapped perf.data file. Every
 * read checks what is left first, so a length field that points past the
 * end turns into a refusal, never into a read out of bounds. Values are
 * in the host's byte order (a byte-swapped file is refused up front) and
 * may be unaligned in the file, so they are copied out.
 */
#ifndef PERF_BYTES_H
#define PERF_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct bytes {
    const uint8_t *p; /* the first byte */
    size_t len;       /* bytes from p */
    size_t pos;       /* the next byte to read */
    uint64_t base;    /* file offset of p, for messages */
};

static inline struct bytes bytes_at(const uint8_t *p, size_t len, uint64_t base)
{
    struct bytes b = {p, len, 0, base};
    return b;
}

static inline size_t bytes_left(const struct bytes *b)
{
    return b->len - b->pos;
}

/* The file offset of the next byte. */
static inline uint64_t bytes_offset(const struct bytes *b)
{
    return b->base + b->pos;
}

static inline bool bytes_skip(struct bytes *b, uint64_t n)
{
    if (n > bytes_left(b))
        return false;
    b->pos += (size_t)n;
    return true;
}

static inline bool bytes_u64(struct bytes *b, uint64_t *v)
{
    if (bytes_left(b) < 8)
        return false;
    memcpy(v, b->p + b->pos, 8);
    b->pos += 8;
    return true;
}

static inline bool bytes_u32(struct bytes *b, uint32_t *v)
{
    if (bytes_left(b) < 4)
        return false;
    memcpy(v, b->p + b->pos, 4);
    b->pos += 4;
    return true;
}

/* Points *p at the next n bytes and skips them. */
static inline bool bytes_take(struct bytes *b, uint64_t n, const uint8_t **p)
{
    if (n > bytes_left(b))
        return false;
    *p = b->p + b->pos;
    b->pos += (size_t)n;
    return true;
}

/* A u64 at byte `at` of a buffer known to hold it. */
static inline uint64_t load_u64(const uint8_t *p, size_t at)
{
    uint64_t v;
    memcpy(&v, p + at, 8);
    return v;
}

static inline uint32_t load_u32(const uint8_t *p, size_t at)
{
    uint32_t v;
    memcpy(&v, p + at, 4);
    return v;
}

/* The length of a NUL-terminated string in p[0..max), or max when there is no NUL. */
static inline size_t bounded_strlen(const uint8_t *p, size_t max)
{
    const uint8_t *nul = memchr(p, '\0', max);
    return nul ? (size_t)(nul - p) : max;
}

#endif
