/*
 * fuzz_dwarf: libFuzzer target for symtab/inline_chain.c. The input is an
 * ELF file (seeded with the bundled -g guests); every 4-byte slot of its
 * executable sections (at most 8192) is asked for its inline chain, twice
 * for the first one (the memoized answer), and each 256 bytes whether a
 * pc has a named inline level. Damaged DWARF must give a
 * warning and empty chains; any crash, leak or sanitizer report is a bug.
 */
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symtab/inline_chain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

static size_t length(const char *s)
{
    return s ? strlen(s) : 0;
}

/* Asks for every instruction slot of the executable sections. */
static void ask_text(struct inline_chains *ic, const uint8_t *data, size_t size)
{
    Elf *elf = elf_memory((char *)data, size);
    if (!elf)
        return;
    size_t asked = 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL && asked < 8192) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR))
            continue;
        for (uint64_t pc = sh.sh_addr; pc - sh.sh_addr < sh.sh_size && asked < 8192; pc += 4) {
            struct error e = ERROR_INIT;
            const struct inline_chain *c = inline_chain_at(ic, pc, &e);
            if (!c)
                break;
            for (size_t i = 0; i < c->depth; i++) /* read every string */
                sink += length(c->frames[i].name) + length(c->frames[i].call_file);
            sink += length(c->file);
            asked++;
        }
        struct error e = ERROR_INIT; /* and whether any pc of each 256 bytes has a named level */
        for (uint64_t lo = sh.sh_addr; lo - sh.sh_addr < sh.sh_size && asked < 8192; lo += 256) {
            int named = inline_chains_any_named(ic, lo, lo + 256, 2, &e);
            if (named < 0)
                break;
            sink += (size_t)named;
            asked += 64;
        }
    }
    elf_end(elf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct error e = ERROR_INIT;
    struct inline_chains *ic;
    if (elf_version(EV_CURRENT) == EV_NONE || inline_chains_open(&ic, data, size, &e) != 0)
        return 0;
    ask_text(ic, data, size);
    (void)inline_chains_warning(ic);
    inline_chains_close(ic);
    return 0;
}
