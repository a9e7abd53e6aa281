/*
 * debug_inflate: compressed ELF sections inflated by libdeflate, several
 * at once on threads (perf/dwarf/debug_inflate.h).
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "perf/dwarf/debug_inflate.h"

#include <elf.h>
#include <libdeflate.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "perf/dwarf/helper_thread.h"

static uint64_t read_le(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

size_t debug_compressed_size(const unsigned char *bytes, size_t size, bool elf64)
{
    size_t header = elf64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr);
    if (size < header || read_le(bytes, 4) != ELFCOMPRESS_ZLIB)
        return 0;
    uint64_t inflated = elf64 ? read_le(bytes + 8, 8) : read_le(bytes + 4, 4);
    return inflated <= SIZE_MAX / 2 ? (size_t)inflated : 0;
}

/* The zlib stream's two-byte header: deflate, a 32 KiB window at most, no dictionary. */
static bool zlib_header(const unsigned char *p)
{
    return (p[0] & 0x0f) == 8 && (p[0] >> 4) <= 7 && ((p[0] << 8) | p[1]) % 31 == 0 &&
           !(p[1] & 0x20);
}

/* debug_inflate with a decompressor of the caller's (libdeflate's are one thread's each). */
static int inflate_with(struct libdeflate_decompressor *d, const unsigned char *bytes, size_t size,
                        bool elf64, void *out, size_t out_size)
{
    size_t header = elf64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr), got = 0;
    if (!d || debug_compressed_size(bytes, size, elf64) != out_size || out_size == 0 ||
        size < header + 2 || !zlib_header(bytes + header))
        return -1;
    /* raw deflate after the zlib header; the Adler-32 trailer is not read */
    enum libdeflate_result rc = libdeflate_deflate_decompress(
        d, bytes + header + 2, size - header - 2, out, out_size, &got);
    return rc == LIBDEFLATE_SUCCESS && got == out_size ? 0 : -1;
}

int debug_inflate(const unsigned char *bytes, size_t size, bool elf64, void *out, size_t out_size)
{
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    int rc = inflate_with(d, bytes, size, elf64, out, out_size);
    if (d)
        libdeflate_free_decompressor(d);
    return rc;
}

/* Takes jobs until none is left; each job is one thread's, so `ok` needs no lock. */
static void *take_jobs(void *arg)
{
    struct debug_inflate_pool *pool = arg;
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    for (;;) {
        size_t i = __atomic_fetch_add(&pool->next, 1, __ATOMIC_RELAXED);
        if (i >= pool->count)
            break;
        struct debug_inflate_job *job = &pool->jobs[i];
        job->ok = inflate_with(d, job->bytes, job->size, pool->elf64, job->out, job->out_size) == 0;
        __atomic_fetch_add(&pool->done, 1, __ATOMIC_RELEASE); /* publishes `ok` and the bytes */
    }
    if (d)
        libdeflate_free_decompressor(d);
    return NULL;
}

/* Sorts the jobs, the largest first (an insertion sort: a file has a few). */
static void larger_first(struct debug_inflate_job *jobs, size_t count)
{
    for (size_t i = 1; i < count; i++) {
        struct debug_inflate_job job = jobs[i];
        size_t k = i;
        for (; k > 0 && jobs[k - 1].out_size < job.out_size; k--)
            jobs[k] = jobs[k - 1];
        jobs[k] = job;
    }
}

void debug_inflate_start(struct debug_inflate_pool *pool, struct debug_inflate_job *jobs,
                         size_t count, bool elf64, unsigned workers)
{
    *pool = (struct debug_inflate_pool){.jobs = jobs, .count = count, .elf64 = elf64};
    larger_first(jobs, count);
    for (size_t i = 0; i < count; i++)
        jobs[i].ok = false;
    if (workers > DEBUG_INFLATE_MAX_WORKERS)
        workers = DEBUG_INFLATE_MAX_WORKERS;
    while (pool->started < workers && pool->started < count &&
           helper_thread_start(&pool->threads[pool->started], take_jobs, pool) == 0)
        pool->started++;
}

bool debug_inflate_done(struct debug_inflate_pool *pool)
{
    return __atomic_load_n(&pool->done, __ATOMIC_ACQUIRE) == pool->count;
}

void debug_inflate_finish(struct debug_inflate_pool *pool)
{
    take_jobs(pool);
    for (unsigned i = 0; i < pool->started; i++)
        pthread_join(pool->threads[i], NULL);
    pool->started = 0;
}

unsigned debug_inflate_workers(void)
{
    cpu_set_t set;
    long usable = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
                                                               : sysconf(_SC_NPROCESSORS_ONLN);
    if (usable <= 1)
        return 0;
    return usable - 1 > DEBUG_INFLATE_MAX_WORKERS ? DEBUG_INFLATE_MAX_WORKERS
                                                  : (unsigned)(usable - 1);
}
