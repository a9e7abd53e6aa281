/*
 * perf_decomp: the records inside the PERF_RECORD_COMPRESSED and
 * COMPRESSED2 records of `perf record -z`, decompressed with libzstd as
 * perf does it (tools/perf/util/session.c:
 * perf_session__process_compressed_event): one zstd stream runs through
 * all compressed records of the file, and a record whose bytes end one
 * compressed record's output continues at the start of the next one's.
 *
 * Each compressed record decompresses into a buffer of its own; records
 * handed out point into it and carry the file offset of the compressed
 * record they came from (for messages and for perf_decomp_release), so
 * a buffer lives until no queued record needs it.
 */
#ifndef PERF_PERF_DECOMP_H
#define PERF_PERF_DECOMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "perf/data/perf_record.h"

struct perf_decomp_buffer {
    uint8_t *data;
    size_t size;     /* bytes decompressed (with the previous buffer's unfinished record first) */
    size_t head;     /* where the next record starts */
    uint64_t offset; /* the compressed record's file offset */
};

struct perf_decomp {
    void *stream;                    /* ZSTD_DStream; NULL until the first compressed record */
    struct perf_decomp_buffer *bufs; /* oldest first; the last is the one being read */
    size_t count, capacity;
    bool block_cut;   /* the last compressed record ended inside a zstd block */
    uint64_t records; /* compressed records read */
};

void perf_decomp_init(struct perf_decomp *d);
void perf_decomp_free(struct perf_decomp *d);

/* Whether `r` is a compressed record. */
bool perf_record_is_compressed(const struct perf_record *r);

/* Decompresses compressed record `r` into a new buffer. Returns 0, or -1 with `e` set. */
int perf_decomp_add(struct perf_decomp *d, const struct perf_record *r, struct error *e);

/*
 * The next whole record of the newest buffer: 1 with *r set, 0 when the
 * rest of the buffer is an unfinished record (it waits for the next
 * compressed record), -1 with `e` set for a record that cannot be (a
 * size below its header, a compressed record inside compressed data).
 */
int perf_decomp_next(struct perf_decomp *d, struct perf_record *r, struct error *e);

/* Frees the buffers, save the newest, whose compressed record lies below file offset `below`. */
void perf_decomp_release(struct perf_decomp *d, uint64_t below);

/* Bytes of an unfinished record left at the end (after the last compressed record). */
size_t perf_decomp_leftover(const struct perf_decomp *d);

#endif
