/*
 * elf_file: libelf over a private read-only mapping. Section lookups go
 * by name as perf's elf_section_by_name does; names come from elf_strptr,
 * which checks them against the string table.
 */
#include "perf/symbols/elf_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

Elf_Scn *elf_file_section(const struct elf_file *ef, const char *name, GElf_Shdr *shdr,
                          size_t *index)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(ef->elf, &shstrndx) != 0)
        return NULL;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(ef->elf, scn)) != NULL) {
        if (!gelf_getshdr(scn, shdr))
            return NULL;
        const char *s = elf_strptr(ef->elf, shstrndx, shdr->sh_name);
        if (s && strcmp(s, name) == 0) {
            if (index)
                *index = elf_ndxscn(scn);
            return scn;
        }
    }
    return NULL;
}

/* perf's elf_read_build_id: .note.gnu.build-id, else .notes, else .note. */
static void read_build_id(struct elf_file *ef)
{
    static const char *const sections[] = {".note.gnu.build-id", ".notes", ".note"};
    GElf_Shdr shdr;
    for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
        Elf_Scn *scn = elf_file_section(ef, sections[i], &shdr, NULL);
        if (!scn)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (data && data->d_buf)
            notes_build_id(data->d_buf, data->d_size, &ef->build_id);
        return;
    }
}

static void find_symbol_tables(struct elf_file *ef)
{
    GElf_Shdr shdr;
    Elf_Scn *scn = elf_file_section(ef, ".symtab", &shdr, NULL);
    ef->symtab = scn && shdr.sh_type == SHT_SYMTAB ? scn : NULL;
    scn = elf_file_section(ef, ".dynsym", &shdr, &ef->dynsym_index);
    ef->dynsym = scn && shdr.sh_type == SHT_DYNSYM ? scn : NULL;
}

int elf_file_from_memory(struct elf_file *ef, const void *data, size_t size)
{
    memset(ef, 0, sizeof(*ef));
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    ef->elf = elf_memory((char *)data, size);
    GElf_Ehdr ehdr;
    if (!ef->elf || elf_kind(ef->elf) != ELF_K_ELF || !gelf_getehdr(ef->elf, &ehdr)) {
        elf_file_close(ef);
        return -1;
    }
    read_build_id(ef);
    find_symbol_tables(ef);
    return 0;
}

int elf_file_open(struct elf_file *ef, const char *path)
{
    memset(ef, 0, sizeof(*ef));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 64) {
        close(fd);
        return -1;
    }
    /* Private and writable: libelf may touch the image, the file never changes. */
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return -1;
    if (elf_file_from_memory(ef, map, (size_t)st.st_size) != 0) {
        munmap(map, (size_t)st.st_size);
        return -1;
    }
    ef->map = map;
    ef->size = (size_t)st.st_size;
    return 0;
}

void elf_file_close(struct elf_file *ef)
{
    if (ef->elf)
        elf_end(ef->elf);
    if (ef->map)
        munmap(ef->map, ef->size);
    memset(ef, 0, sizeof(*ef));
}

char *elf_file_debuglink(const struct elf_file *ef)
{
    GElf_Shdr shdr;
    Elf_Scn *scn = elf_file_section(ef, ".gnu_debuglink", &shdr, NULL);
    Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
    if (!data || !data->d_buf || data->d_size == 0)
        return NULL;
    const char *name = data->d_buf;
    size_t n = strnlen(name, data->d_size);
    if (n == 0 || n == data->d_size)
        return NULL;
    return strndup(name, n);
}
