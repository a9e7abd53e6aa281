/*
 * fuzz_translate: libFuzzer target for the translation tier against the
 * interpreter. The input steers a random instruction stream
 * (translate_diff.c draws from its bytes first, 8 a draw; its first byte
 * picks RV32 or RV64, and a hart with or without C), which runs from the same registers and data under
 * --engine interp and --engine translate in steps of drawn budgets. Any
 * difference in a register, the data page, the pc, the instructions
 * retired, how the run stopped or a fault aborts, as does any crash or
 * sanitizer report.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/translate_diff/translate_diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* FNV-1a of the input: the generator's seed once the input's bytes are drawn. */
static uint64_t input_hash(const uint8_t *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 0x100000001b3ull;
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static union tdiff_code code;
    static uint8_t page[TDIFF_DATA_SIZE];
    if (size == 0)
        return 0;
    int xlen = data[0] & 1 ? 64 : 32;
    bool rvc = (data[0] & 2) != 0; /* a hart with C: compressed instructions mixed in */
    tdiff_seed(input_hash(data, size));
    tdiff_feed(data + 1, size - 1);
    size_t bytes = tdiff_make_code(&code, xlen, rvc);
    for (size_t k = 0; k < sizeof(page); k++)
        page[k] = (uint8_t)tdiff_rnd();
    struct tdiff_pair p;
    if (tdiff_build(&p, &code, bytes, page, xlen, rvc) != 0)
        return 0;
    /* the fast loops need 8192 or more; the last step may end anywhere */
    uint64_t budgets[3] = {8192 + tdiff_below(20000), 1 + tdiff_below(10000),
                           8192 + tdiff_below(30000)};
    uint64_t blocks;
    const char *differs = tdiff_run_both(&p, budgets, 3, &blocks);
    tdiff_destroy(&p);
    if (differs) {
        fprintf(stderr, "fuzz_translate: the engines differ in %s\n", differs);
        abort();
    }
    return 0;
}
