/*
 * abi_util: what the ABIs share: register numbers, the checks of an
 * image against an ABI's memory map, copies between guest memory and the
 * host that respect page rights, writes to host files, and ecall faults.
 * Internal to the ABIs.
 */
#ifndef EXECUTOR_ABI_ABI_UTIL_H
#define EXECUTOR_ABI_ABI_UTIL_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "executor/abi/abi.h"
#include "executor/elf_image.h"
#include "executor/machine.h"

enum {
    REG_RA = 1,
    REG_SP = 2,
    REG_T0 = 5,
    REG_A0 = 10,
    REG_A1 = 11,
    REG_A2 = 12,
    REG_A3 = 13,
    REG_A4 = 14,
    REG_A5 = 15,
    REG_A7 = 17,
    REG_T6 = 31,
};

/* The fields of a 32-bit instruction word that a zkVM's own instructions use. */
struct abi_insn {
    unsigned opcode, rd, rs1, rs2, funct3, funct7;
    int32_t imm; /* the I-type immediate, sign-extended */
};

static inline struct abi_insn abi_insn_fields(uint32_t w)
{
    return (struct abi_insn){.opcode = w & 0x7f,
                             .rd = (w >> 7) & 31,
                             .rs1 = (w >> 15) & 31,
                             .rs2 = (w >> 20) & 31,
                             .funct3 = (w >> 12) & 7,
                             .funct7 = w >> 25,
                             .imm = (int32_t)w >> 20};
}

/*
 * 0 when no segment of `img` overlaps [start, end); else -1 with
 * ERROR_UNSUPPORTED, "segment [a, b) overlaps <what> [start, end)<hint>",
 * in `e`.
 */
int abi_check_clear_of(const struct elf_image *img, uint64_t start, uint64_t end, const char *what,
                       const char *hint, struct error *e);

/*
 * 0 when every segment of `img` lies inside [start, end); else -1
 * with ERROR_UNSUPPORTED, "segment [a, b) lies outside <what> [start,
 * end)", in `e`.
 */
int abi_check_inside(const struct elf_image *img, uint64_t start, uint64_t end, const char *what,
                     struct error *e);

/* Copies len guest bytes at addr to dst; false when a byte is not readable. */
bool abi_load(const struct machine *m, uint64_t addr, void *dst, uint64_t len);

/* Copies len host bytes to guest addr; false when a byte is not writable. */
bool abi_store(struct machine *m, uint64_t addr, const void *src, uint64_t len);

/*
 * Copies len guest bytes from src to dst, the ranges possibly overlapping
 * (as memmove); false, nothing written, when a byte of src is not readable
 * or one of dst not writable.
 */
bool abi_move(struct machine *m, uint64_t dst, uint64_t src, uint64_t len);

/* Sets len guest bytes at dst to `byte`; false, nothing written, when one is not writable. */
bool abi_fill(struct machine *m, uint64_t dst, uint8_t byte, uint64_t len);

/* The host copy of the len guest bytes at addr, or NULL when one is not readable. */
const uint8_t *abi_view(const struct machine *m, uint64_t addr, uint64_t len);

/* Writes all of buf to host_fd (nothing when host_fd < 0); false on an I/O error. */
bool abi_write_fd(int host_fd, const void *buf, size_t len);

/*
 * Faults the ecall at m->pc: kind FAULT_UNSUPPORTED_ECALL (the call is not
 * implemented) or FAULT_ECALL_ARGUMENT (its memory at addr cannot be used,
 * for the reason `why`). `call` and `why` are static strings.
 */
enum ecall_result abi_fault(struct machine *m, enum fault_kind kind, const char *call,
                            uint64_t addr, const char *why);

/*
 * Keccak-f[1600] in place on the 25 u64 lanes at `at`, as ZisK's and
 * Jolt's precompiles run it; an ECALL_ARGUMENT fault naming `call` when
 * the state is not in memory or not writable.
 */
enum ecall_result abi_keccakf_in_place(struct machine *m, const char *call, uint64_t at);

/*
 * Allocates m->abi_state, zeroed: the state, or NULL with ERROR_NO_MEMORY
 * in `e` (setup then fails; the ABI's destroy frees what it made).
 */
void *abi_alloc_state(struct machine *m, size_t size, struct error *e);

/*
 * The zkVM memory: [lo, hi) read-write, the image's segments with their
 * rights on top, and the program decoded once from the image (fixed code,
 * as SP1 and lambda_vm run it: stores into the text stay on the fast path).
 */
void abi_map_flat(struct machine *m, const struct elf_image *img, uint64_t lo, uint64_t hi);

/* The same, but the page holding `device` (inside [lo, hi)) is read-only: a device's page. */
void abi_map_flat_with_device(struct machine *m, const struct elf_image *img, uint64_t lo,
                              uint64_t hi, uint64_t device);

/*
 * Calls fn for each symbol in img's symbol tables but source file names
 * (STT_FILE), with its name; `elf` (img's file) is open during the calls.
 */
void abi_each_symbol(const struct elf_image *img,
                     void (*fn)(void *ctx, Elf *elf, const GElf_Sym *sym, const char *name),
                     void *ctx);

/*
 * True for an ELF whose code was taken out, kept for its symbols (as
 * Airbender's examples keep app.elf: `objcopy -R .text`, the program run
 * from app.bin): section headers without an executable section with
 * bytes, or, without section headers, executable segments of zeros. A raw
 * image is the code itself: false.
 */
bool abi_elf_without_code(const struct elf_image *img);

/* An ABI's destroy when its state is one allocation. */
void abi_free_state(struct machine *m);

/* Little-endian words of guest memory, for precompiles: false when not readable/writable. */
bool abi_load_words(const struct machine *m, uint64_t addr, uint32_t *w, size_t n);
bool abi_store_words(struct machine *m, uint64_t addr, const uint32_t *w, size_t n);

/* Bytes a guest writes at offsets of a space of its own (Nexus's output, OpenVM's public values).
 */
struct abi_buffer {
    uint8_t *data;
    size_t size; /* one past the highest byte written; the bytes below never written read 0 */
};

/* Puts n bytes at `at`: false when at + n > max, or when the host refuses the memory. */
bool abi_buffer_put(struct abi_buffer *b, uint64_t at, const void *src, size_t n, size_t max);

#endif
