/*
 * sp1_curves: SP1's curve and field calls computed as SP1's executor
 * computes them, including where the math leaves the answer undefined
 * (succinctlabs/sp1 crates/curves: weierstrass/mod.rs sw_add, sw_double,
 * the k256 route of v6's secp256k1, edwards/mod.rs ed_add,
 * edwards/ed25519.rs decompress; crates/core/executor fptower/). Each
 * returns NULL, the operand at its first pointer updated, or the reason
 * SP1's executor panics (a static string), the operand untouched.
 */
#ifndef EXECUTOR_ABI_SP1_CURVES_H
#define EXECUTOR_ABI_SP1_CURVES_H

#include <stdint.h>

#include "executor/precompile/curve.h"

/*
 * sw_add on SP1's unsigned big integers: P = Q (as numbers) panics, a
 * subtraction below zero panics, a zero denominator inverts to 0 (so
 * P + (-P) is (-2x, -y)); coordinates are not reduced first.
 */
const char *sp1_sw_add(enum curve_id c, uint32_t *p, const uint32_t *q);

/* sw_double likewise: y = 0 inverts to 0. */
const char *sp1_sw_double(enum curve_id c, uint32_t *p);

/*
 * v6's secp256k1 (the k256 crate): both points must be on the curve with
 * coordinates below p; P + P is 2P; a sum at infinity panics.
 */
const char *sp1_k256_add(uint32_t p[16], const uint32_t q[16]);
const char *sp1_k256_double(uint32_t p[16]);

/*
 * FP2_ADD, FP2_SUB, FP2_MUL on c0 then c1, n limbs each: the inputs are not
 * reduced first, so FP2_SUB panics when b's part exceeds a's plus p.
 * `packed` writes the result as v1.2 to v3 did: c0's limbs without its
 * leading zero limbs, then c1's likewise, then zeros.
 */
const char *sp1_fp2(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y, int packed);

/* ed_add: any input, a zero denominator inverting to 0. */
void sp1_ed_add(uint32_t p[16], const uint32_t q[16]);

/*
 * ED_DECOMPRESS: x (first half) from y (second half, bit 255 ignored, not
 * reduced) and the sign. `v4` picks v4 and later, which take y = 0 mod p
 * (x = sqrt(-1)) and write x = 0 with sign 1 as 0; v1 to v3 panic on the
 * first and write p for the second.
 */
const char *sp1_ed_decompress(uint32_t pt[16], unsigned sign, int v4);

#endif
