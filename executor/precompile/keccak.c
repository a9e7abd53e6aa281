/*
 * keccak: Keccak-f[1600] as FIPS 202 section 3 defines it: theta, rho
 * and pi, chi, iota, 24 rounds.
 */
#include "executor/precompile/keccak.h"

static const uint64_t round_constants[24] = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
    0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
    0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
    0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
    0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
    0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

/* Rotation offsets r[x + 5y] (rho). */
static const unsigned rho_offsets[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                         25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

static uint64_t rotl(uint64_t v, unsigned n)
{
    return n ? (v << n) | (v >> (64 - n)) : v;
}

void keccak_f1600(uint64_t a[25])
{
    for (int round = 0; round < 24; round++) {
        uint64_t c[5], b[25];
        for (int x = 0; x < 5; x++)
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        for (int x = 0; x < 5; x++) {
            uint64_t d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
            for (int y = 0; y < 5; y++)
                a[x + 5 * y] ^= d;
        }
        /* rho and pi: B[y, 2x + 3y] = rot(A[x, y], r[x, y]) */
        for (int x = 0; x < 5; x++)
            for (int y = 0; y < 5; y++)
                b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], rho_offsets[x + 5 * y]);
        for (int x = 0; x < 5; x++)
            for (int y = 0; y < 5; y++)
                a[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
        a[0] ^= round_constants[round];
    }
}

enum { KECCAK256_RATE = 136 };

/* XORs a block of `n` <= 136 bytes into the state's first lanes, little-endian. */
static void absorb(uint64_t state[25], const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        state[i / 8] ^= (uint64_t)p[i] << (8 * (i % 8));
}

void keccak256_digest(const uint8_t *msg, size_t len, uint8_t out[32])
{
    uint64_t state[25] = {0};
    uint8_t last[KECCAK256_RATE] = {0};
    for (; len >= KECCAK256_RATE; msg += KECCAK256_RATE, len -= KECCAK256_RATE) {
        absorb(state, msg, KECCAK256_RATE);
        keccak_f1600(state);
    }
    for (size_t i = 0; i < len; i++)
        last[i] = msg[i];
    last[len] ^= 0x01;
    last[KECCAK256_RATE - 1] ^= 0x80;
    absorb(state, last, KECCAK256_RATE);
    keccak_f1600(state);
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(state[i / 8] >> (8 * (i % 8)));
}
