/*
 * pairing_hint: OpenVM's pairing hint (the HintFinalExp phantom): the
 * multi-Miller loop f of pairs (P, Q) on BN254 or BLS12-381, then the
 * final exponentiation hint (c, u) with f u = c^lambda when the pairing
 * product is 1, as OpenVM's host computes it (pairing_miller.c,
 * pairing_hint.c).
 */
#ifndef EXECUTOR_PRECOMPILE_PAIRING_HINT_H
#define EXECUTOR_PRECOMPILE_PAIRING_HINT_H

#include <stddef.h>
#include <stdint.h>

enum pairing_curve { PAIRING_BN254, PAIRING_BLS12_381 };

/* The bytes of one Fp element: 32 (BN254) or 48 (BLS12-381). */
size_t pairing_fp_bytes(enum pairing_curve c);

/*
 * The hint of the n pairs: p holds n G1 points (x, y), q n G2 points
 * (x.c0, x.c1, y.c0, y.c1), each coordinate pairing_fp_bytes(c)
 * little-endian bytes. hint (24 * pairing_fp_bytes(c) bytes) = c's six
 * Fp2 coefficients (of w^0 .. w^5), then u's, each c0 then c1, little-
 * endian. -1, *why set, where OpenVM's host stops: no pairs, a coordinate
 * not below p, a division by 0 (points off the curve can make one).
 */
int pairing_final_exp_hint(enum pairing_curve c, const uint8_t *p, const uint8_t *q, size_t n,
                           uint8_t *hint, const char **why);

#endif
