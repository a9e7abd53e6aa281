/*
 * secp256k1_hint: inverses and square roots for lambda_vm's Hint call
 * (see secp256k1_hint.h). p = 3 mod 4, so x^((p+1)/4) is a root of x when
 * x has one.
 */
#include "executor/precompile/secp256k1_hint.h"

#include "executor/precompile/bigint.h"

#include <gmp.h>
#include <string.h>

static const char *const SECP256K1_P =
    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f";
static const char *const SECP256K1_N =
    "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";

/* out = y as 32 big-endian bytes (y < 2^256). */
static void export_be32(uint8_t out[32], const mpz_t y)
{
    size_t count = 0;
    uint8_t buf[32];
    memset(out, 0, 32);
    mpz_export(buf, &count, 1, 1, 1, 0, y);
    memcpy(out + 32 - count, buf, count);
}

/* y = the hint of x modulo m; false when there is none. */
static bool compute(enum secp256k1_hint kind, mpz_t y, const mpz_t x, const mpz_t m)
{
    if (mpz_cmp(x, m) >= 0)
        return false;
    if (kind != HINT_FIELD_SQRT)
        return mpz_invert(y, x, m) != 0;
    return bigint_sqrt_3mod4(y, x, m);
}

void secp256k1_hint(enum secp256k1_hint kind, const uint8_t x[32], uint8_t out[32])
{
    mpz_t m, a, y;
    mpz_inits(m, a, y, NULL);
    bigint_set_constant(m, kind == HINT_SCALAR_INV ? SECP256K1_N : SECP256K1_P);
    mpz_import(a, 32, 1, 1, 1, 0, x);
    if (compute(kind, y, a, m))
        export_be32(out, y);
    else
        memset(out, 0, 32);
    mpz_clears(m, a, y, NULL);
}
