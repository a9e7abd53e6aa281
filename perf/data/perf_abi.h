/*
 * perf_abi: the numbers of the perf.data format, as Linux writes them
 * (include/uapi/linux/perf_event.h for what the kernel emits, and
 * tools/perf/util/header.h and event.h for what `perf record` adds). Only
 * the numbers: the readers that use them live beside this file.
 *
 * A file is: a header (magic "PERFILE2", the attribute, data and
 * feature sections), the attributes (one per event, each with the ids of
 * its kernel streams), the data section (records: an 8-byte header, then
 * the body), then the feature sections the header's bitmap announces.
 */
#ifndef PERF_PERF_ABI_H
#define PERF_PERF_ABI_H

#include <stdint.h>

/* The file header. */
#define PERF_MAGIC                   "PERFILE2" /* the bytes a little-endian host writes */
#define PERF_MAGIC_SWAPPED           "2ELIFREP" /* the same u64 written on a big-endian host */
#define PERF_MAGIC_V1                "PERFFILE" /* the pre-2010 format */
#define PERF_HEADER_SIZE             104u       /* sizeof(struct perf_file_header) */
#define PERF_HEADER_SIZE_NO_FEATURES 72u        /* the older header, without the feature bitmap */
#define PERF_PIPE_HEADER_SIZE        16u        /* `perf record -o -`: magic and size only */
#define PERF_HEADER_ATTRS            24u        /* offset of the attribute section {offset, size} */
#define PERF_HEADER_DATA             40u        /* offset of the data section */
#define PERF_HEADER_FEATURES         72u        /* offset of the 256-bit feature bitmap */
#define PERF_FEATURE_BITS            256u

/* struct perf_event_attr: sizes of its versions and offsets of the fields read. */
#define PERF_ATTR_SIZE_VER0          64u /* an attr.size of 0 means this */
#define PERF_ATTR_TYPE               0u
#define PERF_ATTR_SIZE               4u
#define PERF_ATTR_CONFIG             8u
#define PERF_ATTR_SAMPLE_PERIOD      16u
#define PERF_ATTR_SAMPLE_TYPE        24u
#define PERF_ATTR_READ_FORMAT        32u
#define PERF_ATTR_FLAGS              40u
#define PERF_ATTR_BRANCH_SAMPLE_TYPE 72u /* from VER2 (80 bytes) */
#define PERF_ATTR_SAMPLE_REGS_USER   80u /* from VER3 (96 bytes) */
#define PERF_ATTR_SAMPLE_STACK_USER  88u
#define PERF_ATTR_SAMPLE_REGS_INTR   96u /* from VER4 (104 bytes) */
#define PERF_FILE_SECTION_SIZE       16u /* {u64 offset, u64 size}: the ids after each attr */

/* attr.type */
enum {
    PERF_TYPE_HARDWARE = 0,
    PERF_TYPE_SOFTWARE = 1,
    PERF_TYPE_TRACEPOINT = 2,
    PERF_TYPE_HW_CACHE = 3,
    PERF_TYPE_RAW = 4,
    PERF_TYPE_BREAKPOINT = 5,
};

/* attr flag bits (the bitfield at PERF_ATTR_FLAGS) */
#define PERF_ATTR_FLAG_FREQ                   (1ull << 10)
#define PERF_ATTR_FLAG_EXCLUDE_USER           (1ull << 4)
#define PERF_ATTR_FLAG_EXCLUDE_KERNEL         (1ull << 5)
#define PERF_ATTR_FLAG_EXCLUDE_HV             (1ull << 6)
#define PERF_ATTR_PRECISE_SHIFT               15 /* two bits */
#define PERF_ATTR_FLAG_SAMPLE_ID_ALL          (1ull << 18)
#define PERF_ATTR_FLAG_EXCLUDE_HOST           (1ull << 19)
#define PERF_ATTR_FLAG_EXCLUDE_GUEST          (1ull << 20)
#define PERF_ATTR_FLAG_EXCLUDE_CALLCHAIN_USER (1ull << 22)

/* attr.sample_type: the fields of a SAMPLE record, in this bit order on disk except IDENTIFIER */
enum {
    PERF_SAMPLE_IP = 1u << 0,
    PERF_SAMPLE_TID = 1u << 1,
    PERF_SAMPLE_TIME = 1u << 2,
    PERF_SAMPLE_ADDR = 1u << 3,
    PERF_SAMPLE_READ = 1u << 4,
    PERF_SAMPLE_CALLCHAIN = 1u << 5,
    PERF_SAMPLE_ID = 1u << 6,
    PERF_SAMPLE_CPU = 1u << 7,
    PERF_SAMPLE_PERIOD = 1u << 8,
    PERF_SAMPLE_STREAM_ID = 1u << 9,
    PERF_SAMPLE_RAW = 1u << 10,
    PERF_SAMPLE_BRANCH_STACK = 1u << 11,
    PERF_SAMPLE_REGS_USER = 1u << 12,
    PERF_SAMPLE_STACK_USER = 1u << 13,
    PERF_SAMPLE_WEIGHT = 1u << 14,
    PERF_SAMPLE_DATA_SRC = 1u << 15,
    PERF_SAMPLE_IDENTIFIER = 1u << 16,
    PERF_SAMPLE_TRANSACTION = 1u << 17,
    PERF_SAMPLE_REGS_INTR = 1u << 18,
    PERF_SAMPLE_PHYS_ADDR = 1u << 19,
    PERF_SAMPLE_AUX = 1u << 20,
    PERF_SAMPLE_CGROUP = 1u << 21,
    PERF_SAMPLE_DATA_PAGE_SIZE = 1u << 22,
    PERF_SAMPLE_CODE_PAGE_SIZE = 1u << 23,
    PERF_SAMPLE_WEIGHT_STRUCT = 1u << 24,
};
#define PERF_SAMPLE_KNOWN ((1u << 25) - 1)

/* attr.read_format */
enum {
    PERF_FORMAT_TOTAL_TIME_ENABLED = 1u << 0,
    PERF_FORMAT_TOTAL_TIME_RUNNING = 1u << 1,
    PERF_FORMAT_ID = 1u << 2,
    PERF_FORMAT_GROUP = 1u << 3,
    PERF_FORMAT_LOST = 1u << 4,
};

/* attr.branch_sample_type: a u64 hw_idx precedes the branch entries */
#define PERF_SAMPLE_BRANCH_HW_INDEX (1ull << 17)

/* Record types: the kernel's, then those `perf record` writes itself (from 64). */
enum {
    PERF_RECORD_MMAP = 1,
    PERF_RECORD_LOST = 2,
    PERF_RECORD_COMM = 3,
    PERF_RECORD_EXIT = 4,
    PERF_RECORD_THROTTLE = 5,
    PERF_RECORD_UNTHROTTLE = 6,
    PERF_RECORD_FORK = 7,
    PERF_RECORD_READ = 8,
    PERF_RECORD_SAMPLE = 9,
    PERF_RECORD_MMAP2 = 10,
    PERF_RECORD_USER_TYPE_START = 64,
    PERF_RECORD_HEADER_ATTR = 64,
    PERF_RECORD_HEADER_BUILD_ID = 67,
    PERF_RECORD_FINISHED_ROUND = 68,
    PERF_RECORD_AUXTRACE = 71,
    PERF_RECORD_COMPRESSED = 81,  /* perf record -z: zstd data, to the record's end */
    PERF_RECORD_COMPRESSED2 = 83, /* the same with a u64 data size first (8-byte aligned) */
};
#define PERF_RECORD_HEADER_SIZE 8u /* {u32 type, u16 misc, u16 size} */

/* header.misc */
#define PERF_RECORD_MISC_CPUMODE_MASK 7u
enum {
    PERF_RECORD_MISC_CPUMODE_UNKNOWN = 0,
    PERF_RECORD_MISC_KERNEL = 1,
    PERF_RECORD_MISC_USER = 2,
    PERF_RECORD_MISC_HYPERVISOR = 3,
    PERF_RECORD_MISC_GUEST_KERNEL = 4,
    PERF_RECORD_MISC_GUEST_USER = 5,
};
#define PERF_RECORD_MISC_MMAP_DATA     (1u << 13) /* MMAP: not an executable mapping */
#define PERF_RECORD_MISC_COMM_EXEC     (1u << 13) /* COMM: the comm changed by exec */
#define PERF_RECORD_MISC_FORK_EXEC     (1u << 13) /* FORK: synthesized, do not clone maps */
#define PERF_RECORD_MISC_MMAP_BUILD_ID (1u << 14) /* MMAP2: build id instead of inode */
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1u << 15) /* build-id feature: byte 20 is the size */

/* Call chain context markers (the top 4095 values of a u64). */
#define PERF_CONTEXT_HV           ((uint64_t)-32)
#define PERF_CONTEXT_KERNEL       ((uint64_t)-128)
#define PERF_CONTEXT_USER         ((uint64_t)-512)
#define PERF_CONTEXT_GUEST        ((uint64_t)-2048)
#define PERF_CONTEXT_GUEST_KERNEL ((uint64_t)-2176)
#define PERF_CONTEXT_GUEST_USER   ((uint64_t)-2560)
#define PERF_CONTEXT_MAX          ((uint64_t)-4095)

/* Feature sections (bits of the header's bitmap). */
enum {
    PERF_FEAT_BUILD_ID = 2,
    PERF_FEAT_ARCH = 6,
    PERF_FEAT_EVENT_DESC = 12,
};

#define PERF_BUILD_ID_MAX 20u /* bytes of a GNU build id (SHA-1) */

#endif
