/*
 * elf_loads: a file offset's segment, read from the program headers of an
 * image in memory.
 */
#include "perf/dwarf/elf_loads.h"

#include <gelf.h>

bool elf_load_delta(const void *image, size_t size, uint64_t offset, bool mapped, int64_t *delta)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return false;
    Elf *elf = elf_memory((char *)image, size);
    size_t count;
    bool found = false;
    uint64_t best = 0;
    if (elf && elf_getphdrnum(elf, &count) == 0)
        for (size_t i = 0; i < count; i++) {
            GElf_Phdr ph;
            if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
                continue;
            uint64_t page = ph.p_align > 1 ? ph.p_offset & ~(ph.p_align - 1) : ph.p_offset;
            uint64_t from = mapped ? page : ph.p_offset;
            if (offset < from || offset >= ph.p_offset + ph.p_filesz ||
                (found && ph.p_offset < best))
                continue;
            *delta = (int64_t)(ph.p_vaddr - ph.p_offset);
            best = ph.p_offset;
            found = true;
        }
    if (elf)
        elf_end(elf);
    return found;
}
