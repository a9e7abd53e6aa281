/*
 * bigint: big-integer precompiles on little-endian 32-bit limbs, with GMP.
 */
#ifndef EXECUTOR_PRECOMPILE_BIGINT_H
#define EXECUTOR_PRECOMPILE_BIGINT_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

/* z = the n little-endian limbs at w. */
void bigint_import(mpz_t z, const uint32_t *w, size_t n);

/* w = z (non-negative, below 2^(32n)) as n limbs, zero-filled. */
void bigint_export(uint32_t *w, size_t n, const mpz_t z);

/* z = x * y mod m on 8-limb (256-bit) numbers; m = 0 means mod 2^256. z may alias x or y. */
void bigint_mulmod_256(uint32_t z[8], const uint32_t x[8], const uint32_t y[8],
                       const uint32_t m[8]);

#endif
