/*
 * dwarf_files: libc's debug file and a C++ test program (dwarf_files.h).
 */
#define _GNU_SOURCE
#include "dwarf_files.h"

#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int find_libc(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    if (strstr(info->dlpi_name, "/libc.so.6"))
        snprintf(data, 4096, "%s", info->dlpi_name);
    return 0;
}

/* The debug file named by a GNU build-id note in `data`; false: none there. */
static bool note_path(Elf_Data *data, char *path, size_t size)
{
    GElf_Nhdr nhdr;
    size_t pos = 0, name_at, desc_at;
    while ((pos = gelf_getnote(data, pos, &nhdr, &name_at, &desc_at)) > 0)
        if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_descsz > 1) {
            const unsigned char *id = (const unsigned char *)data->d_buf + desc_at;
            int len = snprintf(path, size, "/usr/lib/debug/.build-id/%02x/", id[0]);
            for (size_t i = 1; i < nhdr.n_descsz && (size_t)len + 8 < size; i++)
                len += snprintf(path + len, size - (size_t)len, "%02x", id[i]);
            snprintf(path + len, size - (size_t)len, ".debug");
            return access(path, R_OK) == 0;
        }
    return false;
}

bool dwarf_files_libc_debug(char *path, size_t size)
{
    char libc[4096] = "";
    dl_iterate_phdr(find_libc, libc);
    int fd = libc[0] ? open(libc, O_RDONLY) : -1;
    bool found = false;
    elf_version(EV_CURRENT);
    Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
    for (Elf_Scn *scn = elf ? elf_nextscn(elf, NULL) : NULL; scn && !found;
         scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        Elf_Data *data;
        if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_NOTE && (data = elf_getdata(scn, NULL)))
            found = note_path(data, path, size);
    }
    if (elf)
        elf_end(elf);
    if (fd >= 0)
        close(fd);
    return found;
}

long dwarf_files_with_cxx(const char *source, size_t (*check)(const char *path))
{
    char dir[] = "/tmp/zkprof-dwarf-XXXXXX", exe[64], cmd[8192];
    if (!source || !mkdtemp(dir))
        return -1;
    snprintf(exe, sizeof(exe), "%s/program", dir);
    snprintf(cmd, sizeof(cmd), "c++ -O2 -g '%s' -o %s 2>/dev/null", source, exe);
    long result = system(cmd) == 0 ? (long)check(exe) : -1;
    unlink(exe);
    rmdir(dir);
    return result;
}
