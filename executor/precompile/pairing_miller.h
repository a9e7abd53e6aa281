/*
 * pairing_miller: OpenVM's multi-Miller loop of BN254 and BLS12-381 on
 * affine points, step by step as its host computes it (openvm-org/openvm
 * extensions/pairing/guest/src/pairing/miller_loop.rs and halo2curves_shims/
 * {bn254,bls12_381}/miller_loop.rs, line.rs at v1.7.0): the same lines,
 * normalized the same way, so the same Fp12 element f.
 */
#ifndef EXECUTOR_PRECOMPILE_PAIRING_MILLER_H
#define EXECUTOR_PRECOMPILE_PAIRING_MILLER_H

#include <stddef.h>

#include "executor/precompile/pairing_field.h"

/* A G1 point (x, y) in Fp and a G2 point (x, y) in Fp2; (0, 0) is the point at infinity. */
struct pairing_g1 {
    mpz_t x, y;
};

struct pairing_g2 {
    struct fp2 x, y;
};

/*
 * f = the multi-Miller loop of the n pairs (P[i], Q[i]) on BN254 (bn
 * true; F over its p with xi = 9 + u) or BLS12-381 (xi = 1 + u). Pairs
 * with a point at infinity are left out. -1, *why set, where OpenVM's host
 * panics: a division by 0 (a P with y = 0, or a step whose points share
 * x, as points off the curve can make).
 */
int pairing_miller_loop(struct pf *F, bool bn, const struct pairing_g1 *P,
                        const struct pairing_g2 *Q, size_t n, struct fp12 *f, const char **why);

#endif
