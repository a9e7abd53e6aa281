/*
 * detect: which zkVM's toolchain built a guest, from the marks it leaves.
 * Each zkVM's guest runtime is a Rust crate whose name is in its symbols
 * (sp1_zkvm, risc0_zkvm_platform, lambda_vm_syscalls, nexus_rt, openvm,
 * ziskos, jolt_sdk, jolt_inlines, jolt_platform),
 * across versions and whatever the program's own code; RISC Zero's
 * software calls also name themselves in strings
 * ("risc0_zkvm_platform::syscall::nr::SYS_READ"), which stay in a
 * stripped file. An ELF that shows none goes to detect_code.c, which
 * reads the memory map and the code.
 */
#define _GNU_SOURCE /* memmem */
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/abi/detect_code.h"
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
    {"pico_sdk", &abi_pico, 32}, /* pico_sdk, pico_patch_libs: Pico's guest crates */
    {"pico_patch_libs", &abi_pico, 32},
    {"ceno_rt", &abi_ceno, 32}, /* ceno_rt, ceno_syscall */
    {"ceno_syscall", &abi_ceno, 32},
    {"riscv_common", &abi_airbender, 32}, /* zksync_os_finish_success, csr_read_word */
};

static const struct mark string_marks[] = {
    {"risc0_zkvm_platform::syscall::nr::", &abi_risc0, 32},
    {"sp1_zkvm", &abi_sp1, 0},
    {"lambda_vm_syscalls", &abi_lambda, 64},
    {"zksync_os_finish_", &abi_airbender, 32}, /* riscv_common's finish calls */
    {"ceno_rt", &abi_ceno, 32},
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

/* What scan_symbols found so far. */
struct scan {
    const struct mark *found;
    size_t found_len;
    char *buf;
    size_t size;
    int xlen;
};

static void scan_one(void *ctx, Elf *elf, const GElf_Sym *sym, const char *name)
{
    struct scan *sc = ctx;
    (void)elf;
    (void)sym;
    const struct mark *k = match_symbol(name, sc->xlen);
    if (k && strlen(name) < sc->found_len && (!sc->found || k == sc->found)) {
        sc->found = k;
        sc->found_len = strlen(name);
        snprintf(sc->buf, sc->size, "%s", name);
    }
}

/*
 * The shortest symbol name that carries a mark (the clearest to show; a
 * source file's name says less than a function's), or NULL; *name is set
 * to a copy of it in `buf`.
 */
static const struct mark *scan_symbols(const struct elf_image *img, char *buf, size_t size)
{
    struct scan sc = {.found_len = SIZE_MAX, .buf = buf, .size = size, .xlen = img->xlen};
    abi_each_symbol(img, scan_one, &sc);
    return sc.found;
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
    /* No mark: what the memory map and the code show (detect_code.c), or NULL. */
    return detect_from_code(img, reason, reason_size);
}
