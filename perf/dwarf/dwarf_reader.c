/*
 * dwarf_reader: a DWARF section's bytes as libdw reads them
 * (perf/dwarf/dwarf_reader.h).
 */
#include "perf/dwarf/dwarf_reader.h"

#include <gelf.h>
#include <string.h>

const unsigned char *dwarf_section_bytes(Dwarf *dw, const char *name, size_t *size)
{
    Elf *elf = dw ? dwarf_getelf(dw) : NULL;
    const unsigned char *ident = elf ? (const unsigned char *)elf_getident(elf, NULL) : NULL;
    size_t shstrndx;
    if (!ident || ident[EI_DATA] != ELFDATA2LSB || elf_getshdrstrndx(elf, &shstrndx) != 0)
        return NULL;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        const char *n = gelf_getshdr(scn, &shdr) ? elf_strptr(elf, shstrndx, shdr.sh_name) : NULL;
        if (!n || strcmp(n, name) != 0)
            continue;
        if ((shdr.sh_flags & SHF_COMPRESSED) || shdr.sh_type == SHT_NOBITS)
            return NULL;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || !data->d_buf)
            return NULL;
        *size = data->d_size;
        return data->d_buf;
    }
    return NULL;
}
