/*
 * perf_file: a perf.data file opened for reading: mapped into memory
 * whole (mmap), its header checked (magic "PERFILE2", byte order, the
 * section offsets and sizes against the file's size), its attributes and
 * their stream ids read, and the feature sections it announces found.
 * Nothing here trusts a length field: each is checked against the bytes
 * that are really there before anything is read through it.
 */
#ifndef PERF_PERF_FILE_H
#define PERF_PERF_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "perf/data/bytes.h"
#include "perf/data/perf_attr.h"

struct perf_file {
    const uint8_t *data; /* the whole file */
    size_t size;
    bool mapped;                     /* data is our mmap (else the caller's memory) */
    uint64_t data_offset, data_size; /* the data section (the records) */
    bool data_size_guessed;    /* the header said 0: a recording that was not stopped cleanly */
    uint8_t features[32];      /* the feature bitmap */
    uint8_t features_lost[32]; /* features whose section the file does not hold whole (cut) */
    unsigned nr_features_lost;
    struct perf_attr *attrs;
    size_t nr_attrs;
    uint64_t released; /* pages of the data section below this were given back */
};

/* Maps and checks the file at `path`. Returns 0, or -1 with `e` set. */
int perf_file_open(struct perf_file *f, const char *path, struct error *e);

/* Checks a file already in memory (which must outlive `f`). */
int perf_file_from_memory(struct perf_file *f, const uint8_t *data, size_t size, struct error *e);

void perf_file_close(struct perf_file *f);

/*
 * Gives back the memory of the data section's pages below file offset
 * `below` (records that were handled and will not be read again), so that
 * a long recording does not stay resident. Reading them again stays
 * correct (the pages come back from the file), only slower. Pages are
 * given back PERF_FILE_RELEASE_STEP bytes or more at a time: each madvise
 * interrupts every other CPU running one of our threads to flush its TLB
 * (DWARF is inflated on threads while samples are read), and a 256 KiB
 * round at a time that was 34 interrupts for an 8.5 MB DWARF recording.
 */
void perf_file_release(struct perf_file *f, uint64_t below);

/* What perf_file_release gives back at least: the resident data it may leave. */
#define PERF_FILE_RELEASE_STEP (16u << 20)

/*
 * The feature section of bit `feat` as a bounded reader. Returns 1 when
 * the file has it, 0 when not (or when it was lost: a feature section
 * cut by the file's end costs only that feature, as in perf, and is
 * listed in features_lost when the file is opened), -1 with `e` set when
 * its entry points outside the file.
 */
int perf_file_feature(const struct perf_file *f, unsigned feat, struct bytes *out, struct error *e);

/* Whether feature `feat` was announced but lost (its section cut). */
bool perf_file_feature_lost(const struct perf_file *f, unsigned feat);

#endif
