/*
 * inline.c: hot code inlined several levels deep, for the inline-frame
 * tests (symtab/inline.c against llvm-addr2line --inlines). At -O2 -g:
 * - an always_inline chain four deep (mix -> round_step -> rotate_mix ->
 *   rotl) called from a loop in checksum();
 * - a `static inline` chain three deep (scale -> clamp_add -> saturate);
 * - the same function (rotate_mix) inlined into two callers, checksum()
 *   and digest();
 * - a call inlined inside a loop (round_step once per element).
 * The caller functions are noinline so that each is its own symbol.
 * n (elements) from the private input, default 64.
 */
#include <inttypes.h>
#include <stdio.h>

#include "guest.h"

__attribute__((always_inline)) static inline uint32_t rotl(uint32_t x, unsigned k)
{
    return (x << (k & 31)) | (x >> ((32 - k) & 31));
}

__attribute__((always_inline)) static inline uint32_t rotate_mix(uint32_t a, uint32_t b)
{
    uint32_t r = rotl(a ^ b, 7);
    r += rotl(b, 13);
    return r;
}

__attribute__((always_inline)) static inline uint32_t round_step(uint32_t h, uint32_t x)
{
    h = rotate_mix(h, x * 0x9E3779B1u);
    return h ^ (h >> 15);
}

__attribute__((always_inline)) static inline uint32_t mix(uint32_t h, uint32_t x)
{
    return round_step(h, x) + 0x7F4A7C15u;
}

static inline uint32_t saturate(uint64_t v)
{
    return v > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)v;
}

static inline uint32_t clamp_add(uint32_t a, uint32_t b)
{
    return saturate((uint64_t)a + b);
}

static inline uint32_t scale(uint32_t a, uint32_t factor)
{
    return clamp_add(a * factor, a >> 3);
}

/* The four-deep chain, inlined once per element of the loop. */
__attribute__((noinline)) static uint32_t checksum(const uint32_t *v, uint32_t n)
{
    uint32_t h = 0x811C9DC5u;
    for (uint32_t i = 0; i < n; i++)
        h = mix(h, v[i]);
    return h;
}

/* rotate_mix again, in a second caller. */
__attribute__((noinline)) static uint32_t digest(const uint32_t *v, uint32_t n)
{
    uint32_t h = 1;
    for (uint32_t i = 0; i < n; i++)
        h = rotate_mix(h, v[i]) + i;
    return h;
}

/* The static inline chain, in a loop. */
__attribute__((noinline)) static void fill(uint32_t *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        v[i] = scale(i + 1, 2654435761u);
}

/* The same numbers without inlining tricks, as a self-check. */
static uint32_t checksum_reference(const uint32_t *v, uint32_t n)
{
    uint32_t h = 0x811C9DC5u;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = h, b = v[i] * 0x9E3779B1u;
        uint32_t x = a ^ b;
        uint32_t r = (x << 7) | (x >> 25);
        r += (b << 13) | (b >> 19);
        h = (r ^ (r >> 15)) + 0x7F4A7C15u;
    }
    return h;
}

int main(void)
{
    static uint32_t v[4096];
    uint64_t n = guest_input_u64(64);
    if (n > 4096)
        n = 4096;
    fill(v, (uint32_t)n);
    uint32_t c = checksum(v, (uint32_t)n);
    uint32_t d = digest(v, (uint32_t)n);
    printf("checksum %08" PRIx32 " digest %08" PRIx32 "\n", c, d);
    if (c != checksum_reference(v, (uint32_t)n)) {
        printf("self-check failed\n");
        return 1;
    }
    return 0;
}
