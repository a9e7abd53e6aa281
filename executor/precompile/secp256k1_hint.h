/*
 * secp256k1_hint: the values lambda_vm's Hint call gives a guest to check:
 * inverses modulo secp256k1's field prime p and group order n, and square
 * roots modulo p, on 32-byte big-endian numbers, with GMP.
 */
#ifndef EXECUTOR_PRECOMPILE_SECP256K1_HINT_H
#define EXECUTOR_PRECOMPILE_SECP256K1_HINT_H

#include <stdbool.h>
#include <stdint.h>

enum secp256k1_hint {
    HINT_FIELD_INV = 0,  /* x^-1 mod p */
    HINT_SCALAR_INV = 1, /* x^-1 mod n */
    HINT_FIELD_SQRT = 2, /* y with y^2 = x mod p: x^((p+1)/4) */
    HINT_KINDS = 3,
};

/*
 * out = the hint of x (x below the modulus), or 32 zero bytes when there
 * is none: x not reduced, x = 0 for an inverse, x not a square.
 */
void secp256k1_hint(enum secp256k1_hint kind, const uint8_t x[32], uint8_t out[32]);

#endif
