/*
 * detect: which zkVM's toolchain built a guest, from the marks it leaves.
 * Each zkVM's guest runtime is a Rust crate whose name is in its symbols
 * (sp1_zkvm, risc0_zkvm_platform, lambda_vm_syscalls, nexus_rt, openvm,
 * ziskos, jolt_sdk, jolt_inlines, jolt_platform),
 * across versions and whatever the program's own code; RISC Zero's
 * software calls also name themselves in strings
 * ("risc0_zkvm_platform::syscall::nr::SYS_READ"), which stay in a
 * stripped file. An ELF that shows none is a Linux guest.
 */
#define _GNU_SOURCE /* memmem */
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/elf_image.h"

/* A mark: a substring of a symbol name or of the file's bytes, and the ABI it means. */
struct mark {
    const char *text;
    const struct abi *abi;
    int xlen; /* 0: either */
};

static const struct mark symbol_marks[] = {
    {"sp1_zkvm", &abi_sp1, 0}, /* sp1_zkvm (RV32), sp1_zkvm_64 (v6, RV64) */
    {"risc0_zkvm_platform", &abi_risc0, 32},
    {"risc0_zkvm", &abi_risc0, 32},
    {"lambda_vm_syscalls", &abi_lambda, 64},
    {"nexus_rt", &abi_nexus, 32},
    {"openvm", &abi_openvm, 32}, /* openvm, openvm_platform, openvm_rv32im_guest, ... */
    {"ziskos", &abi_zisk, 64},
    {"jolt_sdk", &abi_jolt, 64},     /* jolt_sdk, its macros' jolt_sdk::... paths */
    {"jolt_inlines", &abi_jolt, 64}, /* jolt_inlines_sha2, _keccak256, ... */
    {"jolt_platform", &abi_jolt, 64},
};

static const struct mark string_marks[] = {
    {"risc0_zkvm_platform::syscall::nr::", &abi_risc0, 32},
    {"sp1_zkvm", &abi_sp1, 0},
    {"lambda_vm_syscalls", &abi_lambda, 64},
};

static const struct mark *match_symbol(const char *name, int xlen)
{
    for (size_t i = 0; i < sizeof(symbol_marks) / sizeof(symbol_marks[0]); i++) {
        const struct mark *k = &symbol_marks[i];
        if ((!k->xlen || k->xlen == xlen) && strstr(name, k->text))
            return k;
    }
    return NULL;
}

/*
 * The shortest symbol name that carries a mark (the clearest to show), or
 * NULL; *name is set to a copy of it in `buf`.
 */
static const struct mark *scan_symbols(const struct elf_image *img, char *buf, size_t size)
{
    Elf *elf = elf_memory((char *)img->file, img->file_size);
    if (!elf)
        return NULL;
    const struct mark *found = NULL;
    size_t found_len = SIZE_MAX;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data)
            continue;
        size_t n = data->d_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            const char *s;
            if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) == STT_FILE ||
                !(s = elf_strptr(elf, sh.sh_link, sym.st_name)))
                continue; /* a source file's name says less than a function's */
            const struct mark *k = match_symbol(s, img->xlen);
            if (k && strlen(s) < found_len && (!found || k == found)) {
                found = k;
                found_len = strlen(s);
                snprintf(buf, size, "%s", s);
            }
        }
    }
    elf_end(elf);
    return found;
}

static const struct mark *scan_bytes(const struct elf_image *img)
{
    for (size_t i = 0; i < sizeof(string_marks) / sizeof(string_marks[0]); i++) {
        const struct mark *k = &string_marks[i];
        if ((!k->xlen || k->xlen == img->xlen) &&
            memmem(img->file, img->file_size, k->text, strlen(k->text)))
            return k;
    }
    return NULL;
}

const struct abi *abi_detect(const struct elf_image *img, char *reason, size_t reason_size)
{
    char name[160];
    const struct mark *k = scan_symbols(img, name, sizeof(name));
    if (k) {
        snprintf(reason, reason_size, "symbol %s names %s's guest crate", name, k->text);
        return k->abi;
    }
    k = scan_bytes(img);
    if (k) {
        snprintf(reason, reason_size, "the file holds the string \"%s\"", k->text);
        return k->abi;
    }
    snprintf(reason, reason_size, "no zkVM's marks in the ELF");
    return &abi_linux;
}
