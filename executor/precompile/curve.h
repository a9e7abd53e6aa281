/*
 * curve: short Weierstrass curves y^2 = x^3 + a x + b over a prime field
 * and that field's arithmetic, on little-endian 32-bit limbs (the layout
 * zkVM precompiles use: a point is x's limbs, then y's), with GMP.
 */
#ifndef EXECUTOR_PRECOMPILE_CURVE_H
#define EXECUTOR_PRECOMPILE_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum curve_id {
    CURVE_SECP256K1,
    CURVE_SECP256R1,
    CURVE_BN254,
    CURVE_BLS12_381,
};

/* Limbs of one field element: 8 (256-bit fields) or 12 (BLS12-381). */
size_t curve_limbs(enum curve_id c);

/*
 * p = p + q on the curve (affine; neither the point at infinity). False,
 * p untouched, when p and q share x (equal or opposite points), which the
 * zkVMs' add precompiles do not take.
 */
bool curve_add(enum curve_id c, uint32_t *p, const uint32_t *q);

/* p = 2p. False, p untouched, when y is 0 (the result is at infinity). */
bool curve_double(enum curve_id c, uint32_t *p);

/*
 * Decompression: the y of the point whose x is pt[n..2n] (n limbs), into
 * pt[0..n]. `sign` picks between y and p - y: for secp256k1 and
 * secp256r1 y's parity (1: odd), for BLS12-381 the ZCash flag (1: the
 * larger of the two). False, pt untouched, when x is not below p, no y
 * exists (y = 0 too: a point of order 2), or sign is not 0 or 1. The point
 * need not be in the prime-order subgroup (BLS12-381's cofactor is not 1).
 */
bool curve_decompress(enum curve_id c, uint32_t *pt, unsigned sign);

enum field_op { FIELD_ADD, FIELD_SUB, FIELD_MUL };

/* x = x op y in the curve's base field (inputs reduced first). */
void curve_field(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y);

/*
 * x = x op y in the quadratic extension Fp2 = Fp[u] / (u^2 + 1): each is
 * c0's limbs, then c1's.
 */
void curve_field2(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y);

#endif
