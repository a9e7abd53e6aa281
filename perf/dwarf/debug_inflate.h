/*
 * debug_inflate: SHF_COMPRESSED ELF sections (zlib) inflated for
 * perf/dwarf/debug_image.c, with libdeflate (about 1.6 times fewer
 * instructions than zlib's inflate; docs/PERF.md, "Memory and speed"),
 * and several sections at once on worker threads: they are independent
 * streams, and libc's debug file has seven wanted ones (.debug_info,
 * 68% of the bytes, on one thread, the others beside it).
 */
#ifndef PERF_DEBUG_INFLATE_H
#define PERF_DEBUG_INFLATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* The inflated size a compression header gives; 0: not a zlib header. */
size_t debug_compressed_size(const unsigned char *bytes, size_t size, bool elf64);

/*
 * Inflates one SHF_COMPRESSED section's bytes (its compression header
 * first; `elf64`: Elf64_Chdr, else Elf32_Chdr) into `out`, which holds
 * the header's ch_size bytes (debug_compressed_size). Returns 0, or -1
 * when they are not exactly that many zlib-compressed bytes (zlib's
 * Adler-32 checksum is not checked: a damaged stream still fails on its
 * codes or its length).
 */
int debug_inflate(const unsigned char *bytes, size_t size, bool elf64, void *out, size_t out_size);

/* One section to inflate (debug_inflate's arguments) and how it went. */
struct debug_inflate_job {
    const unsigned char *bytes;
    size_t size;
    void *out;
    size_t out_size;
    size_t tag; /* the caller's (jobs are reordered) */
    bool ok;    /* set once the pool is finished */
};

#define DEBUG_INFLATE_MAX_WORKERS 3

/*
 * Jobs being inflated by worker threads while the caller goes on; the
 * caller takes the jobs no worker has begun when it finishes the pool.
 * Its fields are debug_inflate.c's.
 */
struct debug_inflate_pool {
    struct debug_inflate_job *jobs;
    size_t count;
    size_t next; /* the next job to take (atomic) */
    size_t done; /* jobs inflated, by anyone (atomic) */
    bool elf64;
    unsigned started;
    pthread_t threads[DEBUG_INFLATE_MAX_WORKERS];
};

/*
 * Starts inflating `jobs` (the caller's until the pool is finished;
 * reordered, the largest first) on up to `workers` threads (fewer when
 * there are fewer jobs; none when threads cannot be made: then
 * debug_inflate_finish inflates them all).
 */
void debug_inflate_start(struct debug_inflate_pool *pool, struct debug_inflate_job *jobs,
                         size_t count, bool elf64, unsigned workers);

/* Inflates the jobs left, waits for the workers and sets each job's ok. */
void debug_inflate_finish(struct debug_inflate_pool *pool);

/* Whether every job is inflated already (debug_inflate_finish would not wait). */
bool debug_inflate_done(struct debug_inflate_pool *pool);

/*
 * Worker threads worth starting here: the processors this process may run
 * on (taskset, cpusets) less the caller's, at most 3.
 */
unsigned debug_inflate_workers(void);

#endif
