/*
 * edwards: the twisted Edwards curve ed25519 (-x^2 + y^2 = 1 + d x^2 y^2
 * over p = 2^255 - 19, RFC 8032), on little-endian 32-bit limbs: a point
 * is x's 8 limbs, then y's. With GMP.
 */
#ifndef EXECUTOR_PRECOMPILE_EDWARDS_H
#define EXECUTOR_PRECOMPILE_EDWARDS_H

#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * p = p + q by the complete addition law. False, p untouched, when a
 * denominator is 0 (a point off the curve).
 */
bool ed25519_add(uint32_t p[16], const uint32_t q[16]);

/*
 * The x of the point whose y is pt[8..16] (bit 255 ignored) and whose x
 * has the parity `sign`, into pt[0..8]. False, pt untouched, when y is
 * not below p, no x exists, or x would be 0 with sign 1 (RFC 8032 5.1.3).
 */
bool ed25519_decompress(uint32_t pt[16], unsigned sign);

/*
 * The even square root of a mod p into root, as SP1's ed25519_sqrt
 * returns it; false when a (below p) is not a square.
 */
bool ed25519_sqrt(mpz_t root, const mpz_t a);

/* Sets p to the field prime 2^255 - 19 (p initialised by the caller). */
void ed25519_prime(mpz_t p);

#endif
