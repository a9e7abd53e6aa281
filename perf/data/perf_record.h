/*
 * perf_record: the records of the data section, one by one, and the
 * decoding of those that folding needs: SAMPLE, MMAP, MMAP2 (with a
 * device/inode or a build id), COMM (exec too), FORK and EXIT, each with
 * the sample_id_all trailer (pid, tid, time, ...) that the kernel appends
 * to non-sample records and that is read from the record's end.
 *
 * Every record's size is checked against the data section, and every
 * field against the record's size: a record that claims more than it
 * holds is refused with its offset.
 */
#ifndef PERF_PERF_RECORD_H
#define PERF_PERF_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "perf/data/perf_abi.h"
#include "perf/data/perf_attr.h"
#include "perf/data/perf_file.h"

struct perf_record {
    uint32_t type;
    uint16_t misc;
    const uint8_t *body; /* after the 8-byte record header */
    size_t body_len;
    uint64_t offset; /* of the record in the file */
};

struct perf_record_iter {
    const struct perf_file *f;
    uint64_t pos, end;
};

void perf_records_begin(struct perf_record_iter *it, const struct perf_file *f);

/* The size field of the record header at p (8 bytes there). */
uint16_t perf_record_size(const uint8_t *p);

/* *r for the record at p, whose size (at least the header's) the caller checked. */
void perf_record_at(struct perf_record *r, const uint8_t *p, uint64_t offset);

/* 1: *r is the next record; 0: the data section is done; -1: `e` says why not. */
int perf_records_next(struct perf_record_iter *it, struct perf_record *r, struct error *e);

/*
 * The index of the attribute a kernel record belongs to (perf's
 * evlist__event2evsel): the only one, or the one whose stream id the
 * record carries. -1: the id is no event's.
 */
int perf_record_attr(const struct perf_file *f, const struct perf_record *r);

/* The sample_id_all trailer; fields the attribute does not record keep their defaults. */
struct perf_sample_id {
    int32_t pid, tid; /* -1: unknown */
    uint64_t time;    /* UINT64_MAX: none */
};

/* Reads the trailer of a non-sample record. Returns 0, or -1 with `e` set. */
int perf_parse_trailer(const struct perf_attr *a, const struct perf_record *r,
                       struct perf_sample_id *s, struct error *e);

struct perf_sample {
    uint8_t cpumode; /* PERF_RECORD_MISC_KERNEL, _USER, ... */
    uint64_t ip;
    int32_t pid, tid;
    uint64_t time;   /* UINT64_MAX: not recorded */
    uint64_t period; /* the attribute's sample_period when not recorded */
    bool has_period;
    const uint8_t *callchain; /* nr_callchain u64s, maybe unaligned; NULL: none */
    uint64_t nr_callchain;
    uint64_t user_regs_abi; /* 0: no user registers */
    const uint8_t *user_regs;
    uint64_t user_regs_mask;
    const uint8_t *user_stack; /* the copy of the user stack from the sampled sp, maybe unaligned */
    uint64_t user_stack_size;  /* bytes of it captured (dyn_size) */
};

/* Decodes a SAMPLE record. Returns 0, or -1 with `e` set. */
int perf_parse_sample(const struct perf_attr *a, const struct perf_record *r, struct perf_sample *s,
                      struct error *e);

/* Only the time of a SAMPLE (for ordering). Returns 0, or -1 with `e` set. */
int perf_sample_time(const struct perf_attr *a, const struct perf_record *r, uint64_t *time,
                     struct error *e);

struct perf_mmap_event {
    int32_t pid, tid;
    uint64_t start, len, pgoff;
    uint32_t prot;        /* PROT_EXEC for code */
    uint32_t flags;       /* mmap flags (MMAP2 only) */
    const char *filename; /* NUL-terminated, inside the record */
    bool has_build_id;
    uint8_t build_id_size;
    uint8_t build_id[PERF_BUILD_ID_MAX];
};

/* MMAP or MMAP2 (by r->type); `trailer` bytes at the end are not the file name. */
int perf_parse_mmap(const struct perf_record *r, size_t trailer, struct perf_mmap_event *m,
                    struct error *e);

struct perf_comm_event {
    int32_t pid, tid;
    const char *comm; /* NUL-terminated, inside the record */
    bool exec;
};

int perf_parse_comm(const struct perf_record *r, size_t trailer, struct perf_comm_event *c,
                    struct error *e);

/* FORK and EXIT share a layout. */
struct perf_task_event {
    int32_t pid, ppid, tid, ptid;
    uint64_t time;
};

int perf_parse_task(const struct perf_record *r, struct perf_task_event *t, struct error *e);

#endif
