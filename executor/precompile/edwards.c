/*
 * edwards: ed25519 point addition and decompression (RFC 8032 sections
 * 5.1.3 and 5.1.4 with affine coordinates), with GMP.
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

bool ed25519_add(uint32_t pt[16], const uint32_t q[16])
{
    mpz_t p, d, x1, y1, x2, y2, t, dx, dy, a, b;
    mpz_inits(p, d, x1, y1, x2, y2, t, dx, dy, a, b, NULL);
    ed25519_prime(p);
    mpz_set_str(d, ED25519_D, 10);
    bigint_import(x1, pt, 8);
    bigint_import(y1, pt + 8, 8);
    bigint_import(x2, q, 8);
    bigint_import(y2, q + 8, 8);
    /* t = d x1 x2 y1 y2; x3 = (x1 y2 + x2 y1) / (1 + t), y3 = (y1 y2 + x1 x2) / (1 - t) */
    mpz_mul(t, x1, x2);
    mpz_mul(t, t, y1);
    mpz_mul(t, t, y2);
    mpz_mul(t, t, d);
    mpz_add_ui(dx, t, 1);
    mpz_ui_sub(dy, 1, t);
    bool ok = mpz_invert(dx, dx, p) != 0 && mpz_invert(dy, dy, p) != 0;
    if (ok) {
        mpz_mul(a, x1, y2);
        mpz_addmul(a, x2, y1);
        mpz_mul(a, a, dx);
        mpz_mod(a, a, p);
        mpz_mul(b, y1, y2);
        mpz_addmul(b, x1, x2);
        mpz_mul(b, b, dy);
        mpz_mod(b, b, p);
        bigint_export(pt, 8, a);
        bigint_export(pt + 8, 8, b);
    }
    mpz_clears(p, d, x1, y1, x2, y2, t, dx, dy, a, b, NULL);
    return ok;
}

bool ed25519_decompress(uint32_t pt[16], unsigned sign)
{
    mpz_t p, d, y, u, v, x;
    mpz_inits(p, d, y, u, v, x, NULL);
    ed25519_prime(p);
    mpz_set_str(d, ED25519_D, 10);
    bigint_import(y, pt + 8, 8);
    mpz_clrbit(y, 255);
    bool ok = sign <= 1 && mpz_cmp(y, p) < 0;
    if (ok) {
        /* x^2 = (y^2 - 1) / (d y^2 + 1) */
        mpz_mul(u, y, y);
        mpz_mul(v, u, d);
        mpz_add_ui(v, v, 1);
        mpz_sub_ui(u, u, 1);
        ok = mpz_invert(v, v, p) != 0;
        if (ok) {
            mpz_mul(u, u, v);
            mpz_mod(u, u, p);
            ok = ed25519_sqrt(x, u) && !(sign && mpz_sgn(x) == 0);
        }
    }
    if (ok) {
        if (sign)
            mpz_sub(x, p, x);
        bigint_export(pt, 8, x);
    }
    mpz_clears(p, d, y, u, v, x, NULL);
    return ok;
}
