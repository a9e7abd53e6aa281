/*
 * edwards: the constants and square root of the twisted Edwards curve
 * ed25519 (-x^2 + y^2 = 1 + d x^2 y^2 over p = 2^255 - 19, RFC 8032),
 * with GMP. SP1's calls on it are in executor/abi/sp1_curves.c.
 */
#ifndef EXECUTOR_PRECOMPILE_EDWARDS_H
#define EXECUTOR_PRECOMPILE_EDWARDS_H

#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * The even square root of a mod p into root, as SP1's ed25519_sqrt
 * returns it; false when a (below p) is not a square.
 */
bool ed25519_sqrt(mpz_t root, const mpz_t a);

/* Sets p to the field prime 2^255 - 19 (p initialised by the caller). */
void ed25519_prime(mpz_t p);

/* Sets d to the curve's -121665 / 121666 mod p (RFC 8032 5.1). */
void ed25519_d(mpz_t d);

#endif
