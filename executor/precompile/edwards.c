/*
 * edwards: ed25519's field prime, d and square root (RFC 8032 5.1), with GMP.
 */
#include "executor/precompile/edwards.h"

#include "executor/precompile/bigint.h"

/* d = -121665 / 121666 mod p (RFC 8032 5.1). */
static const char *const ED25519_D =
    "37095705934669439343138083508754565189542113879843219016388785533085940283555";

void ed25519_prime(mpz_t p)
{
    mpz_set_ui(p, 1);
    mpz_mul_2exp(p, p, 255);
    mpz_sub_ui(p, p, 19);
}

bool ed25519_sqrt(mpz_t root, const mpz_t a)
{
    mpz_t p, two;
    mpz_inits(p, two, NULL);
    ed25519_prime(p);
    mpz_set_ui(two, 2); /* a non-residue: p = 5 mod 8 */
    bool ok = mpz_sgn(a) == 0 ? (mpz_set_ui(root, 0), true) : bigint_sqrt_mod(root, a, p, two);
    if (ok && mpz_odd_p(root))
        mpz_sub(root, p, root);
    mpz_clears(p, two, NULL);
    return ok;
}

void ed25519_d(mpz_t d)
{
    mpz_set_str(d, ED25519_D, 10);
}
