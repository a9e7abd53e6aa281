/*
 * qsort.c: sorts n pseudo-random 32-bit numbers (n from the private input,
 * default 1000) with picolibc's qsort and a comparator function, checks
 * the order and prints a checksum. Exercises library code calling back
 * into the guest through a function pointer, and malloc.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "guest.h"

static uint32_t rng_state = 0x12345678u;

static uint32_t xorshift32(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}

__attribute__((noinline)) static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    uint64_t n64 = guest_input_u64(1000);
    if (n64 < 1)
        n64 = 1;
    if (n64 > (1u << 24))
        n64 = 1u << 24;
    size_t n = (size_t)n64;

    uint32_t *a = malloc(n * sizeof *a);
    if (!a) {
        printf("out of memory\n");
        return 2;
    }
    uint32_t sum_before = 0;
    for (size_t i = 0; i < n; i++) {
        a[i] = xorshift32() % 100000u; /* duplicates too */
        sum_before += a[i];
    }

    qsort(a, n, sizeof *a, cmp_u32);

    uint32_t sum_after = 0, checksum = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && a[i - 1] > a[i]) {
            printf("not sorted at %u\n", (unsigned)i);
            return 1;
        }
        sum_after += a[i];
        checksum = checksum * 31u + a[i] * (uint32_t)(i + 1);
    }
    if (sum_after != sum_before) {
        printf("elements lost\n");
        return 1;
    }
    printf("sorted %u numbers: min %" PRIu32 " max %" PRIu32 " checksum %08" PRIx32 "\n",
           (unsigned)n, a[0], a[n - 1], checksum);
    free(a);
    return 0;
}
