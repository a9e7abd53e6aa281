/*
 * curve: short Weierstrass curves y^2 = x^3 + a x + b over a prime field
 * and that field's arithmetic, on little-endian 32-bit limbs (the layout
 * zkVM precompiles use: a point is x's limbs, then y's), with GMP.
 */
#ifndef EXECUTOR_PRECOMPILE_CURVE_H
#define EXECUTOR_PRECOMPILE_CURVE_H

#include <gmp.h>
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

/* The field's prime and the curve's a, into initialised p and a. */
void curve_prime_and_a(enum curve_id c, mpz_t p, mpz_t a);

/* The order of the curve's generator group (its scalar field), into initialised r. */
void curve_order(enum curve_id c, mpz_t r);

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

/* True when the n limbs at p are the field prime of one of the curves here. */
bool curve_is_known_prime(const uint32_t *p, size_t n);

/*
 * True when the n limbs at p and a are the prime and a of one of the
 * curves here; its b into initialised b.
 */
bool curve_b_of(const uint32_t *p, const uint32_t *a, size_t n, mpz_t b);

/* True when the field element x (curve_limbs(c) limbs) is below p. */
bool curve_reduced(enum curve_id c, const uint32_t *x);

/*
 * True when pt (x's limbs, then y's) is a point of the curve: both
 * coordinates below p, and y^2 = x^3 + a x + b.
 */
bool curve_on_curve(enum curve_id c, const uint32_t *pt);

/* True when 0 < k < r, k 8 limbs, r the order of the curve's generator group. */
bool curve_scalar_in_range(enum curve_id c, const uint32_t k[8]);

/* k = k^-1 mod r (r as above, k 8 limbs). False, k untouched, unless 0 < k < r. */
bool curve_scalar_invert(enum curve_id c, uint32_t k[8]);

/*
 * pt = k pt, k 8 limbs (256 bits), pt a point of the curve (affine), by
 * double-and-add from k's top bit. False, pt untouched, when the result
 * is the point at infinity (k = 0, or a multiple of pt's order).
 */
bool curve_mul(enum curve_id c, uint32_t *pt, const uint32_t k[8]);

enum field_op { FIELD_ADD, FIELD_SUB, FIELD_MUL, FIELD_DIV };

/*
 * curve_add and curve_double on a curve that is given rather than named
 * (OpenVM's setup instructions pass it): its prime and a, n limbs each.
 */
bool curve_add_on(const uint32_t *prime, size_t n, uint32_t *p, const uint32_t *q);
bool curve_double_on(const uint32_t *prime, const uint32_t *a, size_t n, uint32_t *p);

/* x = x op y in the curve's base field (inputs reduced first; not FIELD_DIV). */
void curve_field(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y);

/*
 * x = x op y in the quadratic extension Fp2 = Fp[u] / (u^2 + 1): each is
 * c0's limbs, then c1's.
 */
void curve_field2(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y);

/*
 * The same in Fp2 over the field of `prime` (n limbs), FIELD_DIV too:
 * false, x untouched, when y is 0.
 */
bool curve_field2_on(const uint32_t *prime, size_t n, enum field_op op, uint32_t *x,
                     const uint32_t *y);

#endif
