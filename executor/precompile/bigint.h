/*
 * bigint: big-integer precompiles on little-endian 32-bit limbs, with GMP.
 */
#ifndef EXECUTOR_PRECOMPILE_BIGINT_H
#define EXECUTOR_PRECOMPILE_BIGINT_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* z = the n little-endian limbs at w. */
void bigint_import(mpz_t z, const uint32_t *w, size_t n);

/* w = |z| as n limbs, zero-filled (the low 32n bits: z should be below 2^(32n)). */
void bigint_export(uint32_t *w, size_t n, const mpz_t z);

/*
 * z = the hexadecimal digits at `hex`, a constant that lives as long as
 * the process (a modulus, a curve's coefficient): parsed once, then
 * copied (mpz_set_str at each call took a sixth of a precompile-heavy
 * guest's run).
 */
void bigint_set_constant(mpz_t z, const char *hex);

/* z = x * y mod m on 8-limb (256-bit) numbers; m = 0 means mod 2^256. z may alias x or y. */
void bigint_mulmod_256(uint32_t z[8], const uint32_t x[8], const uint32_t y[8],
                       const uint32_t m[8]);

/* r (na + nb limbs) = a (na limbs) * b (nb limbs). */
void bigint_mul_wide(uint32_t *r, const uint32_t *a, size_t na, const uint32_t *b, size_t nb);

/*
 * r (16 limbs: the low 256 bits, then the high) = a * b + c when `mul`,
 * else a + b + c, on 8-limb numbers.
 */
void bigint_op_add_256(uint32_t r[16], const uint32_t a[8], const uint32_t b[8],
                       const uint32_t c[8], bool mul);

/* z = the n bytes at b, big-endian or little-endian. */
void bigint_import_bytes(mpz_t z, const uint8_t *b, size_t n, bool big_endian);

/* b = the low n bytes of z (non-negative), zero-padded, big-endian or little-endian. */
void bigint_export_bytes(uint8_t *b, size_t n, const mpz_t z, bool big_endian);

/*
 * r = x^(p-2) mod p for a prime p, the inverse the zkVMs' formulas take by
 * Fermat: x's inverse, or 0 when x is 0 mod p; by mpz_invert, a fraction of
 * the exponentiation's cost. (For a p that may not be prime, a guest's
 * modulus, only mpz_powm gives the formula's value.)
 */
void bigint_fermat_inverse(mpz_t r, const mpz_t x, const mpz_t p);

/*
 * A square root of a modulo p, as SP1's hooks compute it (its sqrt_fp):
 * a^((p + 1) / 4) when p = 3 mod 4, else Tonelli-Shanks with the
 * non-residue nqr. False when a is not a square (a must be below p, not 0).
 */
bool bigint_sqrt_mod(mpz_t root, const mpz_t a, const mpz_t p, const mpz_t nqr);

/*
 * root = a^((p + 1) / 4) mod p, a square root of a when p = 3 mod 4 and a
 * has one: true when root^2 = a (mod p; a may be unreduced).
 */
bool bigint_sqrt_3mod4(mpz_t root, const mpz_t a, const mpz_t p);

#endif
