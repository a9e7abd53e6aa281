/*
 * elf_file: a binary on disk opened for its symbols: mapped read-only,
 * handed to libelf, with the facts perf's symbol search asks of each
 * candidate file: its build id, whether it has a .symtab (full symbols)
 * and a .dynsym (a runtime image), and its .gnu_debuglink name.
 */
#ifndef PERF_ELF_FILE_H
#define PERF_ELF_FILE_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>

#include "perf/symbols/build_id.h"

struct elf_file {
    void *map;
    size_t size;
    Elf *elf;
    Elf_Scn *symtab, *dynsym; /* NULL when absent */
    size_t dynsym_index;
    struct build_id build_id; /* size 0: none */
};

/* Opens a regular ELF file. Returns 0, or -1 (not there, not ELF, damaged). */
int elf_file_open(struct elf_file *ef, const char *path);

/* Same, over bytes the caller keeps alive (the vdso image, tests, fuzzing). */
int elf_file_from_memory(struct elf_file *ef, const void *data, size_t size);

void elf_file_close(struct elf_file *ef);

/* The section named `name` and its header, or NULL. */
Elf_Scn *elf_file_section(const struct elf_file *ef, const char *name, GElf_Shdr *shdr,
                          size_t *index);

/* The .gnu_debuglink file name (malloc'd), or NULL. */
char *elf_file_debuglink(const struct elf_file *ef);

#endif
