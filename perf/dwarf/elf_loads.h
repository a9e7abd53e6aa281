/*
 * elf_loads: where a file offset of an ELF image sits in its address
 * space: the PT_LOAD segment holding the offset (its first page counted,
 * as mmap maps whole pages) gives vaddr - offset. For files linked with
 * lld, whose code does not sit at its file offset, the unwinder places
 * modules and addr2line's addresses are found this way.
 */
#ifndef PERF_ELF_LOADS_H
#define PERF_ELF_LOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * vaddr - offset of the segment of `image` that holds file offset
 * `offset`; false: none. `mapped`: the offset is a mapping's (page
 * aligned) pgoff, and of two segments sharing its page the one that
 * starts in it is the one mapped there.
 */
bool elf_load_delta(const void *image, size_t size, uint64_t offset, bool mapped, int64_t *delta);

#endif
