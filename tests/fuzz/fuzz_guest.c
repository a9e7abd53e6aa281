/*
 * fuzz_guest: libFuzzer target for everything a guest file reaches: the
 * ELF checks, the symbol table, and (when the file is accepted) the
 * machine running it for a few thousand instructions with a profile
 * attached, then the folded writers. Any crash, leak or sanitizer report
 * is a bug: bad input must end in an error, never in undefined behaviour.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/elf_image.h"
#include "executor/machine.h"
#include "tracer/guest_profile.h"
#include "symtab/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run_guest(const struct elf_image *img, const struct symtab *syms)
{
    struct machine_io io = {.private_input_fd = -1,
                            .stdout_fd = -1,
                            .stderr_fd = -1,
                            .public_output_fd = -1,
                            .stack_size = 1 << 16};
    struct machine m;
    struct guest_profile profile;
    struct error e = ERROR_INIT;
    char detected[256];
    const struct abi *abi = abi_detect(img, detected, sizeof(detected));
    if (machine_init(&m, img, abi ? abi : &abi_linux, &io, &e) != 0)
        return;
    if (guest_profile_init(&profile, syms, img->entry, NULL)) {
        machine_attach_tracer(&m, &profile.tracer);
        machine_run(&m, 3000); /* folded output grows with depth squared: keep runs short */
        guest_profile_flush(&profile, m.retired);
        FILE *out = fopen("/dev/null", "w");
        if (out) {
            guest_profile_write_folded(&profile, out, 0);
            guest_profile_write_folded(&profile, out, GUEST_WRITE_RAW);
            fclose(out);
        }
        guest_profile_free(&profile);
    }
    machine_destroy(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct elf_limits limits = {
        .address_space_end = GUEST_SPACE_SIZE,
        .code_span_max = CODE_SPAN_MAX,
    };
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    struct elf_image img;
    struct error e = ERROR_INIT;
    if (elf_image_from_memory(copy, size, &limits, &img, &e) != 0)
        return 0; /* copy is freed by the failed load */
    struct symtab syms;
    if (symtab_load(&syms, img.file, img.file_size, &e) == 0) {
        run_guest(&img, &syms);
        symtab_free(&syms);
    }
    elf_image_free(&img);
    return 0;
}
