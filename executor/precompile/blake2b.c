/*
 * blake2b: BLAKE2b's compression function F (see blake2b.h), as RFC 7693
 * section 3.2 gives it: the working vector is the state and the IV, the
 * counter in v[12] (and its high half, here 0, in v[13]), the final-block
 * word in v[14]; twelve rounds (blake2b_round.c), then the state XORed with
 * both halves of the vector.
 */
#include "executor/precompile/blake2b.h"

#include "executor/precompile/blake2b_round.h"

static const uint64_t iv[8] = {0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull,
                               0xa54ff53a5f1d36f1ull, 0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
                               0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull};

void blake2b_compress(uint64_t h[8], const uint64_t m[16], uint64_t t, uint64_t last)
{
    uint64_t v[16];
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[i + 8] = iv[i];
    }
    v[12] ^= t;
    v[14] ^= last;
    for (uint32_t r = 0; r < 12; r++)
        blake2b_round(v, m, r);
    for (int i = 0; i < 8; i++)
        h[i] ^= v[i] ^ v[i + 8];
}
