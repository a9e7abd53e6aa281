/*
 * bigint: GMP's mpz on limb arrays: mpz_import and mpz_export convert
 * little-endian 32-bit words both ways.
 */
#include "executor/precompile/bigint.h"

#include <string.h>

void bigint_import(mpz_t z, const uint32_t *w, size_t n)
{
    mpz_import(z, n, -1, sizeof(uint32_t), 0, 0, w);
}

void bigint_export(uint32_t *w, size_t n, const mpz_t z)
{
    size_t count = 0;
    memset(w, 0, n * sizeof(*w));
    mpz_export(w, &count, -1, sizeof(uint32_t), 0, 0, z);
}

void bigint_mulmod_256(uint32_t z[8], const uint32_t x[8], const uint32_t y[8], const uint32_t m[8])
{
    mpz_t a, b, mod;
    mpz_inits(a, b, mod, NULL);
    bigint_import(a, x, 8);
    bigint_import(b, y, 8);
    bigint_import(mod, m, 8);
    mpz_mul(a, a, b);
    if (mpz_sgn(mod) == 0)
        mpz_tdiv_r_2exp(a, a, 256);
    else
        mpz_mod(a, a, mod);
    bigint_export(z, 8, a);
    mpz_clears(a, b, mod, NULL);
}
