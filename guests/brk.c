/*
 * brk.c: exercises the brk ecall (214) directly, with Linux semantics:
 * brk(0) returns the break, growing gives zeroed memory that can be
 * written, shrinking works, a huge or too-low request fails and returns
 * the old break. Then many malloc/realloc/free calls (picolibc's malloc
 * grows the heap through the runtime's sbrk). Prints what held and exits
 * 1 if anything did not. No addresses are printed, so rv32 and rv64 print
 * the same.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest.h"

extern char _end[]; /* end of .bss, from guest.ld */

static int failures;

static void check(const char *what, int ok)
{
    printf("%-44s %s\n", what, ok ? "ok" : "FAILED");
    if (!ok)
        failures++;
}

static void brk_tests(void)
{
    const uintptr_t grow = 16 * 1024; /* four pages */
    uintptr_t b0 = guest_brk(0);
    check("brk(0) lies at or above _end", b0 >= (uintptr_t)_end);
    check("brk(0) again returns the same break", guest_brk(0) == b0);

    check("grow by 16 KiB", guest_brk(b0 + grow) == b0 + grow);
    check("brk(0) reports the new break", guest_brk(0) == b0 + grow);
    volatile uint32_t *p = (volatile uint32_t *)b0; /* the break is word aligned */
    uint32_t bits = 0;
    for (uintptr_t i = 0; i < grow / 4; i++)
        bits |= p[i];
    check("new heap memory reads as zero", bits == 0);
    for (uintptr_t i = 0; i < grow / 4; i++)
        p[i] = (uint32_t)(i * 0x9e3779b9u + 1);
    uint32_t diff = 0;
    for (uintptr_t i = 0; i < grow / 4; i++)
        diff |= p[i] ^ (uint32_t)(i * 0x9e3779b9u + 1);
    check("written heap memory reads back", diff == 0);

    check("shrink to 4 KiB", guest_brk(b0 + 4096) == b0 + 4096);
    check("the first 4 KiB are kept", p[100] == 100 * 0x9e3779b9u + 1);

    uintptr_t huge = ~(uintptr_t)0xfff; /* the top page of the address space */
    check("a huge request fails, returns the old break", guest_brk(huge) == b0 + 4096);
    check("below the initial break fails", guest_brk(b0 - 4096) == b0 + 4096);
    check("the break is unchanged after failures", guest_brk(0) == b0 + 4096);
    check("shrink back to the initial break", guest_brk(b0) == b0);
}

static void malloc_tests(void)
{
    enum { NBLOCKS = 200 };
    static uint8_t *blocks[NBLOCKS];
    static size_t sizes[NBLOCKS];
    int ok = 1;

    for (int i = 0; i < NBLOCKS; i++) {
        sizes[i] = (size_t)(i * 37 % 500) + 1;
        blocks[i] = malloc(sizes[i]);
        if (!blocks[i]) {
            ok = 0;
            break;
        }
        memset(blocks[i], i & 0xff, sizes[i]);
    }
    check("malloc 200 blocks", ok);
    if (!ok)
        return;

    for (int i = 0; i < NBLOCKS; i += 3) { /* free every third */
        free(blocks[i]);
        blocks[i] = NULL;
    }
    for (int i = 1; i < NBLOCKS; i += 5) { /* grow some */
        if (!blocks[i])
            continue;
        uint8_t *q = realloc(blocks[i], sizes[i] * 3);
        if (!q) {
            ok = 0;
            continue;
        }
        memset(q + sizes[i], i & 0xff, sizes[i] * 2);
        blocks[i] = q;
        sizes[i] *= 3;
    }
    check("realloc", ok);

    uint32_t checksum = 0;
    int intact = 1;
    for (int i = 0; i < NBLOCKS; i++) {
        if (!blocks[i])
            continue;
        for (size_t j = 0; j < sizes[i]; j++)
            intact &= blocks[i][j] == (uint8_t)(i & 0xff);
        checksum = checksum * 33u + (uint32_t)sizes[i] * (uint32_t)i;
    }
    check("block contents intact", intact);

    uintptr_t before = guest_brk(0);
    /* picolibc's malloc zeroes every block (its calloc is plain malloc),
     * a byte at a time: keep this block small */
    const size_t bigsize = 64 * 1024;
    uint8_t *big = malloc(bigsize);
    check("malloc 64 KiB", big != NULL);
    check("the break grew by at least 64 KiB", guest_brk(0) >= before + bigsize);
    if (big) {
        big[0] = 1;
        big[bigsize - 1] = 2;
        check("both ends of the 64 KiB block are usable", big[0] + big[bigsize - 1] == 3);
        free(big);
    }
    for (int i = 0; i < NBLOCKS; i++)
        free(blocks[i]);
    printf("malloc checksum %08" PRIx32 "\n", checksum);
}

int main(void)
{
    brk_tests();
    malloc_tests();
    printf("%s\n", failures ? "brk: FAILED" : "brk: all ok");
    return failures ? 1 : 0;
}
