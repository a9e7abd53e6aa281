/*
 * perf_decomp: a streaming zstd decompressor over the file's compressed
 * records, and the record walk over what it gives.
 */
#include "perf/data/perf_decomp.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "perf/data/bytes.h"

/*
 * perf decompresses each record into a buffer of its ring-buffer size
 * (HEADER_COMPRESSED's mmap_len, 512 KiB by default); far more than that
 * from one record is a damaged (or hostile) file, not a recording.
 */
#define MAX_OUTPUT ((size_t)256 << 20)
#define MIN_OUTPUT ((size_t)64 << 10)
/*
 * perf record flushes the stream after each record without ending the
 * frame, so a record normally ends where zstd wants a block header (3
 * bytes) next; wanting anything else, it ended inside a block.
 */
#define BLOCK_HEADER_SIZE 3

void perf_decomp_init(struct perf_decomp *d)
{
    memset(d, 0, sizeof(*d));
}

void perf_decomp_free(struct perf_decomp *d)
{
    for (size_t i = 0; i < d->count; i++)
        free(d->bufs[i].data);
    free(d->bufs);
    ZSTD_freeDStream(d->stream);
    memset(d, 0, sizeof(*d));
}

bool perf_record_is_compressed(const struct perf_record *r)
{
    return r->type == PERF_RECORD_COMPRESSED || r->type == PERF_RECORD_COMPRESSED2;
}

static int no_memory(struct error *e)
{
    return error_fail(e, ERROR_NO_MEMORY, "out of memory decompressing records");
}

/* The zstd data of a compressed record. Returns 0, or -1 with `e` set. */
static int payload_of(const struct perf_record *r, const uint8_t **src, size_t *len,
                      struct error *e)
{
    if (r->type == PERF_RECORD_COMPRESSED) {
        *src = r->body;
        *len = r->body_len;
        return 0;
    }
    /* A body shorter than its own size field must not wrap the subtraction below. */
    if (r->body_len < 8 || load_u64(r->body, 0) > r->body_len - 8)
        return error_fail(e, ERROR_CORRUPT,
                          "the COMPRESSED2 record at offset %" PRIu64 " (%zu bytes) gives a data "
                          "size past its end",
                          r->offset, r->body_len + PERF_RECORD_HEADER_SIZE);
    *src = r->body + 8;
    *len = (size_t)load_u64(r->body, 0);
    return 0;
}

/* A new buffer holding the newest one's unfinished record; NULL when memory runs out. */
static struct perf_decomp_buffer *new_buffer(struct perf_decomp *d, size_t room, uint64_t offset)
{
    if (d->count == d->capacity) {
        size_t cap = d->capacity ? d->capacity * 2 : 8;
        struct perf_decomp_buffer *bufs = realloc(d->bufs, cap * sizeof(*bufs));
        if (!bufs)
            return NULL;
        d->bufs = bufs;
        d->capacity = cap;
    }
    size_t carry = perf_decomp_leftover(d);
    struct perf_decomp_buffer b = {.data = malloc(carry + room), .size = carry, .offset = offset};
    if (!b.data)
        return NULL;
    if (carry) {
        const struct perf_decomp_buffer *last = &d->bufs[d->count - 1];
        memcpy(b.data, last->data + last->head, carry);
    }
    d->bufs[d->count++] = b;
    return &d->bufs[d->count - 1];
}

/* Runs the stream over `in` into b, growing it. Returns 0, or -1 with `e` set. */
static int inflate(struct perf_decomp *d, struct perf_decomp_buffer *b, size_t cap,
                   ZSTD_inBuffer *in, const struct perf_record *r, struct error *e)
{
    size_t start = b->size;
    for (;;) {
        ZSTD_outBuffer out = {b->data, cap, b->size};
        size_t ret = ZSTD_decompressStream(d->stream, &out, in);
        b->size = out.pos;
        if (ZSTD_isError(ret))
            return error_fail(e, ERROR_CORRUPT,
                              "the compressed record at offset %" PRIu64 " does not decompress "
                              "(zstd: %s)",
                              r->offset, ZSTD_getErrorName(ret));
        d->block_cut = ret != 0 && ret != BLOCK_HEADER_SIZE;
        if (in->pos == in->size && out.pos < cap)
            return 0; /* all input taken, all output flushed */
        if (cap - start >= MAX_OUTPUT)
            return error_fail(e, ERROR_CORRUPT,
                              "the compressed record at offset %" PRIu64 " decompresses to more "
                              "than %zu MiB",
                              r->offset, MAX_OUTPUT >> 20);
        size_t grown = cap * 2;
        uint8_t *data = realloc(b->data, grown);
        if (!data)
            return no_memory(e);
        b->data = data;
        cap = grown;
    }
}

int perf_decomp_add(struct perf_decomp *d, const struct perf_record *r, struct error *e)
{
    const uint8_t *src = NULL;
    size_t len = 0;
    if (payload_of(r, &src, &len, e))
        return -1;
    if (!d->stream && !(d->stream = ZSTD_createDStream()))
        return no_memory(e);
    if (d->records++ == 0)
        ZSTD_initDStream(d->stream);
    size_t room = len * 4 > MIN_OUTPUT ? len * 4 : MIN_OUTPUT;
    size_t carry = perf_decomp_leftover(d);
    struct perf_decomp_buffer *b = new_buffer(d, room, r->offset);
    if (!b)
        return no_memory(e);
    ZSTD_inBuffer in = {src, len, 0};
    return inflate(d, b, carry + room, &in, r, e);
}

int perf_decomp_next(struct perf_decomp *d, struct perf_record *r, struct error *e)
{
    if (d->count == 0)
        return 0;
    struct perf_decomp_buffer *b = &d->bufs[d->count - 1];
    size_t left = b->size - b->head;
    if (left < PERF_RECORD_HEADER_SIZE)
        return 0;
    const uint8_t *p = b->data + b->head;
    uint16_t size = perf_record_size(p);
    if (size < PERF_RECORD_HEADER_SIZE)
        return error_fail(e, ERROR_CORRUPT,
                          "a record decompressed from offset %" PRIu64 " gives a size of %u bytes, "
                          "less than its own header",
                          b->offset, size);
    if (size > left)
        return 0;
    perf_record_at(r, p, b->offset);
    if (perf_record_is_compressed(r) || r->type == PERF_RECORD_AUXTRACE)
        return error_fail(e, ERROR_CORRUPT,
                          "the data decompressed from offset %" PRIu64 " holds a record of type "
                          "%u, which cannot be inside compressed data",
                          b->offset, r->type);
    b->head += size;
    return 1;
}

void perf_decomp_release(struct perf_decomp *d, uint64_t below)
{
    size_t n = 0;
    while (n + 1 < d->count && d->bufs[n].offset < below)
        free(d->bufs[n++].data);
    if (n == 0)
        return;
    memmove(d->bufs, d->bufs + n, (d->count - n) * sizeof(*d->bufs));
    d->count -= n;
}

size_t perf_decomp_leftover(const struct perf_decomp *d)
{
    if (d->count == 0)
        return 0;
    const struct perf_decomp_buffer *b = &d->bufs[d->count - 1];
    return b->size - b->head;
}
