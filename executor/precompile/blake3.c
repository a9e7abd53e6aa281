/*
 * blake3: the seven rounds of BLAKE3's compression function (see blake3.h).
 * Each round mixes the columns, then the diagonals, with G, and then
 * permutes the message words as the specification's fixed permutation does.
 */
#include "executor/precompile/blake3.h"

#include <string.h>

static uint32_t rotr(uint32_t x, unsigned n)
{
    return x >> n | x << (32 - n);
}

/* G on the state words a, b, c, d with the message words x, y. */
static void g(uint32_t *s, int a, int b, int c, int d, uint32_t x, uint32_t y)
{
    s[a] = s[a] + s[b] + x;
    s[d] = rotr(s[d] ^ s[a], 16);
    s[c] = s[c] + s[d];
    s[b] = rotr(s[b] ^ s[c], 12);
    s[a] = s[a] + s[b] + y;
    s[d] = rotr(s[d] ^ s[a], 8);
    s[c] = s[c] + s[d];
    s[b] = rotr(s[b] ^ s[c], 7);
}

static void round_fn(uint32_t *s, const uint32_t *m)
{
    g(s, 0, 4, 8, 12, m[0], m[1]); /* columns */
    g(s, 1, 5, 9, 13, m[2], m[3]);
    g(s, 2, 6, 10, 14, m[4], m[5]);
    g(s, 3, 7, 11, 15, m[6], m[7]);
    g(s, 0, 5, 10, 15, m[8], m[9]); /* diagonals */
    g(s, 1, 6, 11, 12, m[10], m[11]);
    g(s, 2, 7, 8, 13, m[12], m[13]);
    g(s, 3, 4, 9, 14, m[14], m[15]);
}

void blake3_compress_inner(uint32_t state[16], const uint32_t m[16])
{
    static const int permutation[16] = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};
    uint32_t block[16], next[16];
    memcpy(block, m, sizeof(block));
    for (int r = 0; r < 7; r++) {
        round_fn(state, block);
        for (int i = 0; i < 16; i++)
            next[i] = block[permutation[i]];
        memcpy(block, next, sizeof(block));
    }
}
