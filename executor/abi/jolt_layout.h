/*
 * jolt_layout: Jolt's I/O region below RAM, as MemoryLayout::new lays it out
 * from the sizes a guest's #[jolt::provable(...)] attribute declares
 * (a16z/jolt @ 01f781858cd3ff3e04e3b4b801042494e1f9446a,
 * common/src/jolt_device.rs); the --jolt-memory spelling of those sizes, and
 * the linker symbols some jolt-sdk builds leave them in. Docs: docs/ZKVMS.md.
 */
#ifndef EXECUTOR_ABI_JOLT_LAYOUT_H
#define EXECUTOR_ABI_JOLT_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct elf_image;

#define JOLT_RAM_START 0x80000000ull /* RAM_START_ADDRESS */

/* The sizes, by the attribute's names; stack_size and memory_size lay out RAM, not the I/O region.
 */
struct jolt_memory {
    uint64_t max_input_size, max_output_size;
    uint64_t max_trusted_advice_size, max_untrusted_advice_size;
    uint64_t stack_size, memory_size;
};

/* MemoryLayout's I/O addresses: each area [start, end); the panic and termination words. */
struct jolt_layout {
    uint64_t trusted_advice_start, trusted_advice_end;
    uint64_t untrusted_advice_start, untrusted_advice_end;
    uint64_t input_start, input_end;
    uint64_t output_start, output_end;
    uint64_t panic, termination, io_end;
};

/* Jolt's defaults (common/src/constants.rs): 4 KiB each of advice, input and output. */
struct jolt_memory jolt_memory_default(void);

/*
 * The layout MemoryLayout::new computes for `c`. False, with
 * ERROR_UNSUPPORTED in `e`, where Jolt's own asserts refuse the sizes (an
 * advice size not a power of two or 0 after rounding up to 8; a region
 * larger than the 2 GiB below RAM).
 */
int jolt_layout_compute(const struct jolt_memory *c, struct jolt_layout *l, struct error *e);

/*
 * Reads `spec`, "max_input_size=N,max_output_size=N,..." (decimal or 0x
 * hex; each name at most once; those not given keep their value in `c`),
 * into `c`. False with ERROR_UNSUPPORTED and what is wrong in `e`.
 */
int jolt_memory_parse(const char *spec, struct jolt_memory *c, struct error *e);

/*
 * The I/O sizes of a guest whose jolt-sdk left them as the values of the
 * linker symbols __jolt_max_{input,output,trusted_advice,untrusted_advice}_size
 * (those missing keep their value in `c`): true when any is there.
 */
bool jolt_memory_from_symbols(const struct elf_image *img, struct jolt_memory *c);

/* "max_input_size=4096,max_output_size=4096,..." (the I/O sizes), for messages and --stats. */
void jolt_memory_format(const struct jolt_memory *c, char *buf, size_t size);

#endif
