/*
 * detect_code: the second phase of abi_detect, for ELFs without the
 * toolchains' symbol and string marks (stripped ones, or runtimes that
 * leave none): which zkVM's memory map the segments fit, and which custom
 * instructions, CSRs and ecall numbers the code uses.
 */
#ifndef EXECUTOR_ABI_DETECT_CODE_H
#define EXECUTOR_ABI_DETECT_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct abi;
struct elf_image;

/*
 * The ABI the layout and the code decide, `reason` saying what decided
 * ("text at 0x80000000 ... (Jolt's RAM)"); abi_linux for a program a Linux
 * toolchain built; NULL when nothing decides, `reason` then one sentence
 * naming the likely zkVMs and the --zkvm values to try.
 */
const struct abi *detect_from_code(const struct elf_image *img, char *reason, size_t reason_size);

/*
 * Whether `img` is an ELF that is no program of its own (ZisK's float
 * library, RISC Zero's machine-mode kernel): true with one sentence in
 * `why` saying what it is and what to pass instead.
 */
bool detect_not_program(const struct elf_image *img, char *why, size_t why_size);

/*
 * The addresses in [lo, hi) that the code's loads read through a register
 * it has just set to a constant (li, lui, addi, slli in the same block),
 * at most `max` of them (16 are kept) into `out`; returns how many. An ABI
 * asks this to tell apart releases that put a region at other addresses.
 */
size_t code_load_addresses(const struct elf_image *img, uint64_t lo, uint64_t hi, uint64_t *out,
                           size_t max);

#endif
