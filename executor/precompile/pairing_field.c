/*
 * pairing_field: Fp2 = Fp[u] / (u^2 + 1) and Fp12 = Fp2[w] / (w^6 - xi)
 * on GMP, for the pairings' Miller loop and final exponentiation hint
 * (pairing_hint.c). Products accumulate unreduced and reduce once.
 */
#include "executor/precompile/pairing_field.h"

void pf_init(struct pf *F, const mpz_t p, unsigned long xi0)
{
    mpz_init_set(F->p, p);
    F->xi0 = xi0;
    for (int k = 0; k < 11; k++)
        mpz_inits(F->acc[k][0], F->acc[k][1], NULL);
    for (int k = 0; k < 4; k++)
        mpz_init(F->t[k]);
}

void pf_clear(struct pf *F)
{
    mpz_clear(F->p);
    for (int k = 0; k < 11; k++)
        mpz_clears(F->acc[k][0], F->acc[k][1], NULL);
    for (int k = 0; k < 4; k++)
        mpz_clear(F->t[k]);
}

void pf2_init(struct fp2 *x)
{
    mpz_inits(x->a, x->b, NULL);
}

void pf2_clear(struct fp2 *x)
{
    mpz_clears(x->a, x->b, NULL);
}

void pf2_set(struct fp2 *r, const struct fp2 *x)
{
    mpz_set(r->a, x->a);
    mpz_set(r->b, x->b);
}

bool pf2_is_zero(const struct fp2 *x)
{
    return mpz_sgn(x->a) == 0 && mpz_sgn(x->b) == 0;
}

void pf2_add(const struct pf *F, struct fp2 *r, const struct fp2 *x, const struct fp2 *y)
{
    mpz_add(r->a, x->a, y->a);
    mpz_mod(r->a, r->a, F->p);
    mpz_add(r->b, x->b, y->b);
    mpz_mod(r->b, r->b, F->p);
}

void pf2_sub(const struct pf *F, struct fp2 *r, const struct fp2 *x, const struct fp2 *y)
{
    mpz_sub(r->a, x->a, y->a);
    mpz_mod(r->a, r->a, F->p);
    mpz_sub(r->b, x->b, y->b);
    mpz_mod(r->b, r->b, F->p);
}

void pf2_neg(const struct pf *F, struct fp2 *r, const struct fp2 *x)
{
    mpz_neg(r->a, x->a);
    mpz_mod(r->a, r->a, F->p);
    mpz_neg(r->b, x->b);
    mpz_mod(r->b, r->b, F->p);
}

void pf2_mul(struct pf *F, struct fp2 *r, const struct fp2 *x, const struct fp2 *y)
{
    mpz_mul(F->t[0], x->a, y->a);
    mpz_submul(F->t[0], x->b, y->b);
    mpz_mul(F->t[1], x->a, y->b);
    mpz_addmul(F->t[1], x->b, y->a);
    mpz_mod(r->a, F->t[0], F->p);
    mpz_mod(r->b, F->t[1], F->p);
}

void pf2_mul_fp(const struct pf *F, struct fp2 *r, const struct fp2 *x, const mpz_t k)
{
    mpz_mul(r->a, x->a, k);
    mpz_mod(r->a, r->a, F->p);
    mpz_mul(r->b, x->b, k);
    mpz_mod(r->b, r->b, F->p);
}

bool pf2_div(struct pf *F, struct fp2 *r, const struct fp2 *x, const struct fp2 *y)
{
    /* 1 / (a + b u) = (a - b u) / (a^2 + b^2) */
    mpz_mul(F->t[2], y->a, y->a);
    mpz_addmul(F->t[2], y->b, y->b);
    if (!mpz_invert(F->t[2], F->t[2], F->p))
        return false;
    struct fp2 inv;
    pf2_init(&inv);
    mpz_mul(inv.a, y->a, F->t[2]);
    mpz_mod(inv.a, inv.a, F->p);
    mpz_mul(inv.b, y->b, F->t[2]);
    mpz_neg(inv.b, inv.b);
    mpz_mod(inv.b, inv.b, F->p);
    pf2_mul(F, r, x, &inv);
    pf2_clear(&inv);
    return true;
}

void pf2_conj(const struct pf *F, struct fp2 *r, const struct fp2 *x)
{
    mpz_set(r->a, x->a);
    mpz_neg(r->b, x->b);
    mpz_mod(r->b, r->b, F->p);
}

void pf2_pow(struct pf *F, struct fp2 *r, const struct fp2 *x, const mpz_t e)
{
    struct fp2 acc;
    pf2_init(&acc);
    mpz_set_ui(acc.a, 1);
    for (size_t i = mpz_sizeinbase(e, 2); i-- > 0;) {
        pf2_mul(F, &acc, &acc, &acc);
        if (mpz_tstbit(e, i))
            pf2_mul(F, &acc, &acc, x);
    }
    pf2_set(r, &acc);
    pf2_clear(&acc);
}

void pf12_init(struct fp12 *x)
{
    for (int k = 0; k < 6; k++)
        pf2_init(&x->c[k]);
}

void pf12_clear(struct fp12 *x)
{
    for (int k = 0; k < 6; k++)
        pf2_clear(&x->c[k]);
}

void pf12_set(struct fp12 *r, const struct fp12 *x)
{
    for (int k = 0; k < 6; k++)
        pf2_set(&r->c[k], &x->c[k]);
}

void pf12_set_one(struct fp12 *r)
{
    for (int k = 0; k < 6; k++) {
        mpz_set_ui(r->c[k].a, k == 0);
        mpz_set_ui(r->c[k].b, 0);
    }
}

bool pf12_is_one(const struct fp12 *x)
{
    if (mpz_cmp_ui(x->c[0].a, 1) != 0 || mpz_sgn(x->c[0].b) != 0)
        return false;
    for (int k = 1; k < 6; k++)
        if (!pf2_is_zero(&x->c[k]))
            return false;
    return true;
}

bool pf12_is_zero(const struct fp12 *x)
{
    for (int k = 0; k < 6; k++)
        if (!pf2_is_zero(&x->c[k]))
            return false;
    return true;
}

/* F->acc[i + j] += x y over u (unreduced). */
static void accumulate(struct pf *F, int k, const struct fp2 *x, const struct fp2 *y)
{
    mpz_addmul(F->acc[k][0], x->a, y->a);
    mpz_submul(F->acc[k][0], x->b, y->b);
    mpz_addmul(F->acc[k][1], x->a, y->b);
    mpz_addmul(F->acc[k][1], x->b, y->a);
}

void pf12_mul(struct pf *F, struct fp12 *r, const struct fp12 *x, const struct fp12 *y)
{
    for (int k = 0; k < 11; k++) {
        mpz_set_ui(F->acc[k][0], 0);
        mpz_set_ui(F->acc[k][1], 0);
    }
    for (int j = 0; j < 6; j++) {
        if (pf2_is_zero(&y->c[j]))
            continue;
        for (int i = 0; i < 6; i++)
            accumulate(F, i + j, &x->c[i], &y->c[j]);
    }
    /* w^(k + 6) = xi w^k, xi (a + b u) = (xi0 a - b) + (xi0 b + a) u */
    for (int k = 0; k < 6; k++) {
        mpz_ptr a = F->acc[k][0], b = F->acc[k][1];
        if (k + 6 < 11) {
            mpz_addmul_ui(a, F->acc[k + 6][0], F->xi0);
            mpz_sub(a, a, F->acc[k + 6][1]);
            mpz_addmul_ui(b, F->acc[k + 6][1], F->xi0);
            mpz_add(b, b, F->acc[k + 6][0]);
        }
        mpz_mod(r->c[k].a, a, F->p);
        mpz_mod(r->c[k].b, b, F->p);
    }
}

void pf12_pow(struct pf *F, struct fp12 *r, const struct fp12 *x, const mpz_t e)
{
    struct fp12 acc;
    pf12_init(&acc);
    pf12_set_one(&acc);
    for (size_t i = mpz_sizeinbase(e, 2); i-- > 0;) {
        pf12_mul(F, &acc, &acc, &acc);
        if (mpz_tstbit(e, i))
            pf12_mul(F, &acc, &acc, x);
    }
    pf12_set(r, &acc);
    pf12_clear(&acc);
}

void pf12_inv(struct pf *F, struct fp12 *r, const struct fp12 *x)
{
    mpz_t e;
    mpz_init(e);
    mpz_pow_ui(e, F->p, 12);
    mpz_sub_ui(e, e, 2);
    pf12_pow(F, r, x, e);
    mpz_clear(e);
}

void pf12_conj(const struct pf *F, struct fp12 *r, const struct fp12 *x)
{
    for (int k = 0; k < 6; k++) {
        if (k % 2)
            pf2_neg(F, &r->c[k], &x->c[k]);
        else
            pf2_set(&r->c[k], &x->c[k]);
    }
}
