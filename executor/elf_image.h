/*
 * elf_image: reads a guest ELF file and checks that it is a program the
 * executor can run (docs/CONTRACT.md#accepted-elf-files): a little-endian RISC-V ET_EXEC of
 * class 32 or 64 whose PT_LOAD segments fit the guest address space.
 *
 * The image owns the file's bytes; segments point into them.
 */
#ifndef EXECUTOR_ELF_IMAGE_H
#define EXECUTOR_ELF_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Rights of a segment, as in p_flags. */
enum seg_rights {
    SEG_X = 1,
    SEG_W = 2,
    SEG_R = 4,
};

struct elf_segment {
    uint64_t vaddr;
    uint64_t memsz;
    uint64_t filesz;
    const uint8_t *data; /* filesz bytes inside the image's file */
    unsigned rights;     /* enum seg_rights */
};

struct elf_image {
    char *path;
    uint8_t *file; /* whole file */
    size_t file_size;
    const char *container; /* "R0BF" when the ELF came out of a RISC Zero program binary */
    int xlen;              /* 32 or 64 */
    bool rvc; /* e_flags has EF_RISCV_RVC: the hart has C (instructions 2-byte aligned) */
    uint64_t entry;
    size_t nsegments;
    struct elf_segment *segments;
    /*
     * A raw image's bytes (elf_image_load_raw), which its segment holds;
     * `file` is then the ELF named for its symbols, or NULL.
     */
    uint8_t *raw;
    size_t raw_size;
};

/* The guest address space every image must fit, and the layout limits. */
struct elf_limits {
    uint64_t address_space_end; /* exclusive */
    uint64_t reserved_start;    /* stack region [reserved_start, reserved_end) */
    uint64_t reserved_end;
    uint64_t code_span_max; /* executable segments must lie within this many bytes; 0: any */
};

/*
 * Loads and validates `path` (a RISC Zero program binary: the user ELF it
 * holds). Returns 0, or -1 with the reason (without the path) in `e`:
 * ERROR_UNREADABLE when the file cannot be read, ERROR_CORRUPT when it is
 * damaged or not an ELF (a truncated table names its offset),
 * ERROR_UNSUPPORTED when it is a valid ELF but not a guest we run (not
 * RISC-V, not ET_EXEC, outside the limits), ERROR_NO_MEMORY.
 */
int elf_image_load(const char *path, const struct elf_limits *limits, struct elf_image *out,
                   struct error *e);

/*
 * A raw program image, as objcopy -O binary writes one (ZKsync Airbender's
 * app.bin): its bytes as one readable, executable RV32 segment at `base`,
 * the entry at `base`. `symbols`, when not NULL, is the ELF it was made
 * from (Airbender's app.elf, its .text removed): its bytes become `file`,
 * so that symbols, DWARF and the ABI's marks come from it. Errors as
 * elf_image_load; an empty image or one past `address_space_end` is
 * ERROR_UNSUPPORTED.
 */
int elf_image_load_raw(const char *path, uint64_t base, const char *symbols,
                       const struct elf_limits *limits, struct elf_image *out, struct error *e);

/* True when the file's first bytes are no ELF's but a RISC-V start routine's (a raw image). */
bool elf_image_file_is_raw(const char *path);

/* Validates an ELF already in memory (takes ownership of `file`, a malloc'd buffer), as above. */
int elf_image_from_memory(uint8_t *file, size_t size, const struct elf_limits *limits,
                          struct elf_image *out, struct error *e);

/* [lo, hi) covering every executable segment (lo > hi when there is none). */
void elf_image_exec_span(const struct elf_image *img, uint64_t *lo, uint64_t *hi);

/*
 * 0 when the executable segments lie within `max` bytes (0: any), else -1
 * with ERROR_UNSUPPORTED in `e` (the check elf_limits.code_span_max makes
 * at load, for a limit known only later: the ABI's).
 */
int elf_image_check_code_span(const struct elf_image *img, uint64_t max, struct error *e);

/*
 * The alignment of instructions (and of jump targets) on the image's
 * hart: 2 bytes with C (EF_RISCV_RVC), else 4, as on hardware: IALIGN
 * (the RISC-V unprivileged ISA, "Instruction Length Encoding").
 */
static inline unsigned elf_image_insn_align(const struct elf_image *img)
{
    return img->rvc ? 2 : 4;
}

/*
 * The length of the instruction at pc as the image's bytes say: 2 for a
 * compressed one on a hart with C, else 4 (also where no segment's bytes
 * hold pc).
 */
unsigned elf_image_insn_length(const struct elf_image *img, uint64_t pc);

/*
 * Runs the image on a hart without C (a zkVM's RV32IM or RV64IM), whatever
 * its e_flags ask: instructions are 4 bytes and 4-byte aligned from here on.
 * Fails with ERROR_UNSUPPORTED, the image unchanged, when its entry point is
 * not 4-byte aligned.
 */
int elf_image_drop_c(struct elf_image *img, struct error *e);

void elf_image_free(struct elf_image *img);

#endif
