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
    for (int k = 0; k < 6; k++)
        mpz_inits(F->dbl[k][0], F->dbl[k][1], NULL);
    for (int k = 0; k < 4; k++)
        mpz_init(F->t[k]);
}

void pf_clear(struct pf *F)
{
    mpz_clear(F->p);
    for (int k = 0; k < 11; k++)
        mpz_clears(F->acc[k][0], F->acc[k][1], NULL);
    for (int k = 0; k < 6; k++)
        mpz_clears(F->dbl[k][0], F->dbl[k][1], NULL);
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

/* F->acc[k] += (xa + xb u)(ya + yb u) (unreduced). */
static void accumulate(struct pf *F, int k, mpz_srcptr xa, mpz_srcptr xb, mpz_srcptr ya,
                       mpz_srcptr yb)
{
    mpz_addmul(F->acc[k][0], xa, ya);
    mpz_submul(F->acc[k][0], xb, yb);
    mpz_addmul(F->acc[k][1], xa, yb);
    mpz_addmul(F->acc[k][1], xb, ya);
}

/* F->acc = x y, or x^2 with the cross products once, doubled. */
static void products(struct pf *F, const struct fp12 *x, const struct fp12 *y)
{
    for (int k = 0; k < 11; k++) {
        mpz_set_ui(F->acc[k][0], 0);
        mpz_set_ui(F->acc[k][1], 0);
    }
    if (x != y) {
        for (int j = 0; j < 6; j++) {
            if (pf2_is_zero(&y->c[j]))
                continue;
            for (int i = 0; i < 6; i++)
                accumulate(F, i + j, x->c[i].a, x->c[i].b, y->c[j].a, y->c[j].b);
        }
        return;
    }
    for (int j = 0; j < 6; j++) {
        mpz_mul_2exp(F->dbl[j][0], x->c[j].a, 1);
        mpz_mul_2exp(F->dbl[j][1], x->c[j].b, 1);
        accumulate(F, 2 * j, x->c[j].a, x->c[j].b, x->c[j].a, x->c[j].b);
        for (int i = 0; i < j; i++)
            accumulate(F, i + j, x->c[i].a, x->c[i].b, F->dbl[j][0], F->dbl[j][1]);
    }
}

void pf12_mul(struct pf *F, struct fp12 *r, const struct fp12 *x, const struct fp12 *y)
{
    products(F, x, y);
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
    struct fp12 acc, table[16];
    pf12_init(&acc);
    for (int k = 0; k < 16; k++)
        pf12_init(&table[k]);
    pf12_set_one(&table[0]);
    for (int k = 1; k < 16; k++)
        pf12_mul(F, &table[k], &table[k - 1], x);
    pf12_set_one(&acc);
    size_t windows = (mpz_sizeinbase(e, 2) + 3) / 4;
    for (size_t w = windows; w-- > 0;) {
        for (int k = 0; k < 4; k++)
            pf12_mul(F, &acc, &acc, &acc);
        unsigned nibble = 0;
        for (int k = 3; k >= 0; k--)
            nibble = nibble << 1 | (unsigned)mpz_tstbit(e, 4 * w + (size_t)k);
        if (nibble)
            pf12_mul(F, &acc, &acc, &table[nibble]);
    }
    pf12_set(r, &acc);
    pf12_clear(&acc);
    for (int k = 0; k < 16; k++)
        pf12_clear(&table[k]);
}

/* r = xi x. */
static void mul_xi(const struct pf *F, struct fp2 *r, const struct fp2 *x)
{
    struct fp2 t;
    pf2_init(&t);
    mpz_mul_ui(t.a, x->a, F->xi0);
    mpz_sub(t.a, t.a, x->b);
    mpz_mod(t.a, t.a, F->p);
    mpz_mul_ui(t.b, x->b, F->xi0);
    mpz_add(t.b, t.b, x->a);
    mpz_mod(t.b, t.b, F->p);
    pf2_set(r, &t);
    pf2_clear(&t);
}

/* r = a b - xi c d: the cubic inverse's terms. */
static void minus_xi(struct pf *F, struct fp2 *r, const struct fp2 *a, const struct fp2 *b,
                     const struct fp2 *c, const struct fp2 *d)
{
    struct fp2 t;
    pf2_init(&t);
    pf2_mul(F, &t, c, d);
    mul_xi(F, &t, &t);
    pf2_mul(F, r, a, b);
    pf2_sub(F, r, r, &t);
    pf2_clear(&t);
}

/*
 * y = y^-1 in Fp6 = Fp2[v] / (v^3 - xi), y = y0 + y1 v + y2 v^2: t0 = y0^2 -
 * xi y1 y2, t1 = xi y2^2 - y0 y1, t2 = y1^2 - y0 y2, y^-1 = (t0 + t1 v + t2
 * v^2) / (y0 t0 + xi (y2 t1 + y1 t2)). False when y is 0.
 */
static bool fp6_inv(struct pf *F, struct fp2 *y[3])
{
    struct fp2 t[3], d, e;
    for (int k = 0; k < 3; k++)
        pf2_init(&t[k]);
    pf2_init(&d);
    pf2_init(&e);
    minus_xi(F, &t[0], y[0], y[0], y[1], y[2]);
    pf2_mul(F, &t[1], y[2], y[2]);
    mul_xi(F, &t[1], &t[1]);
    pf2_mul(F, &d, y[0], y[1]);
    pf2_sub(F, &t[1], &t[1], &d);
    pf2_mul(F, &t[2], y[1], y[1]);
    pf2_mul(F, &d, y[0], y[2]);
    pf2_sub(F, &t[2], &t[2], &d);
    pf2_mul(F, &d, y[2], &t[1]);
    pf2_mul(F, &e, y[1], &t[2]);
    pf2_add(F, &d, &d, &e);
    mul_xi(F, &d, &d);
    pf2_mul(F, &e, y[0], &t[0]);
    pf2_add(F, &d, &d, &e);
    mpz_set_ui(e.a, 1);
    mpz_set_ui(e.b, 0);
    bool ok = pf2_div(F, &d, &e, &d);
    for (int k = 0; k < 3; k++) {
        if (ok)
            pf2_mul(F, y[k], &t[k], &d);
        pf2_clear(&t[k]);
    }
    pf2_clear(&d);
    pf2_clear(&e);
    return ok;
}

bool pf12_inv(struct pf *F, struct fp12 *r, const struct fp12 *x)
{
    struct fp12 conj, n;
    pf12_init(&conj);
    pf12_init(&n);
    pf12_conj(F, &conj, x);
    pf12_mul(F, &n, x, &conj); /* in Fp6: the coefficients of w^0, w^2, w^4 */
    struct fp2 *y[3] = {&n.c[0], &n.c[2], &n.c[4]};
    bool ok = fp6_inv(F, y);
    if (ok)
        pf12_mul(F, r, &conj, &n);
    pf12_clear(&conj);
    pf12_clear(&n);
    return ok;
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
