/*
 * pairing_miller: OpenVM's multi-Miller loop (openvm-org/openvm v1.7.0,
 * extensions/pairing/guest/src/pairing/miller_loop.rs multi_miller_loop,
 * halo2curves_shims/{bn254,bls12_381}/miller_loop.rs: the steps, pre_loop,
 * post_loop; line.rs and mod.rs: where a line's coefficients go). Lines
 * are l = 1 + b w + c w^3 on BN254 (D-type) and c + b w^2 + w^3 on
 * BLS12-381 (M-type), b = -lambda x_P / y_P, c = (lambda x_S - y_S) / y_P.
 */
#include "executor/precompile/pairing_miller.h"

#include <stdlib.h>

/* 6x + 2 (BN254) and |x| (BLS12-381, x < 0), digits in {-1, 0, 1}, lowest first. */
static const signed char bn254_digits[66] = {
    0,  0, 0, 1,  0, 1, 0, -1, 0,  0, -1, 0,  0, 0,  1, 0, 0, -1, 0, -1, 0, 0,
    0,  1, 0, -1, 0, 0, 0, 0,  -1, 0, 0,  1,  0, -1, 0, 0, 1, 0,  0, 0,  0, 0,
    -1, 0, 0, -1, 0, 1, 0, -1, 0,  0, 0,  -1, 0, -1, 0, 0, 0, 1,  0, -1, 0, 1,
};
static const signed char bls12_381_digits[64] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 1,
};

/* One pair's state: the accumulated point S, Q, and x_P / y_P, 1 / y_P. */
struct pair {
    struct pairing_g2 S, Q;
    mpz_t x_over_y, y_inv;
};

/* The loop's state: the field, f, one line's element, the step's scratch. */
struct loop {
    struct pf *F;
    bool bn;
    struct fp12 f, line;
    struct fp2 lam, lam2, t, u, b, c;
    const char *why;
};

static void g2_init(struct pairing_g2 *g)
{
    pf2_init(&g->x);
    pf2_init(&g->y);
}

static void g2_clear(struct pairing_g2 *g)
{
    pf2_clear(&g->x);
    pf2_clear(&g->y);
}

/* f *= the line (b, c) evaluated at the pair's P. */
static void mul_line(struct loop *L, const struct pair *pr, const struct fp2 *b,
                     const struct fp2 *c)
{
    struct fp12 *l = &L->line;
    pf12_set_one(l);
    mpz_set_ui(l->c[0].a, 0);
    int at_b = L->bn ? 1 : 2, at_c = L->bn ? 3 : 0, at_one = L->bn ? 0 : 3;
    mpz_set_ui(l->c[at_one].a, 1);
    pf2_mul_fp(L->F, &l->c[at_b], b, pr->x_over_y);
    pf2_mul_fp(L->F, &l->c[at_c], c, pr->y_inv);
    pf12_mul(L->F, &L->f, &L->f, l);
}

/* lambda = num / den, or the panic's reason. */
static bool slope(struct loop *L, struct fp2 *lam, const struct fp2 *num, const struct fp2 *den)
{
    if (pf2_div(L->F, lam, num, den))
        return true;
    L->why = "a Miller step divides by 0 (points off the curve; OpenVM's host panics)";
    return false;
}

/* The line through S with slope lam: b = -lam, c = lam x_S - y_S; f *= it. */
static void line_of(struct loop *L, const struct pair *pr, const struct fp2 *lam)
{
    pf2_neg(L->F, &L->b, lam);
    pf2_mul(L->F, &L->c, lam, &pr->S.x);
    pf2_sub(L->F, &L->c, &L->c, &pr->S.y);
    mul_line(L, pr, &L->b, &L->c);
}

/* S = the third point of the line of slope lam through S and q, negated: x' = lam^2 - x_S - x_q, y'
 * = lam (x_q - x') - y_q (q may be S). */
static void chord_end(struct loop *L, struct pairing_g2 *S, const struct pairing_g2 *q)
{
    struct pf *F = L->F;
    pf2_mul(F, &L->t, &L->lam, &L->lam);
    pf2_sub(F, &L->t, &L->t, &S->x);
    pf2_sub(F, &L->t, &L->t, &q->x);
    pf2_sub(F, &L->u, &q->x, &L->t);
    pf2_mul(F, &L->u, &L->lam, &L->u);
    pf2_sub(F, &S->y, &L->u, &q->y);
    pf2_set(&S->x, &L->t);
}

/* miller_double_step: S = 2S, f *= the tangent at S (lam = 3 x^2 / 2 y). */
static bool double_step(struct loop *L, struct pair *pr)
{
    struct pf *F = L->F;
    struct pairing_g2 *S = &pr->S;
    pf2_mul(F, &L->t, &S->x, &S->x);
    pf2_add(F, &L->u, &L->t, &L->t);
    pf2_add(F, &L->t, &L->u, &L->t);
    pf2_add(F, &L->u, &S->y, &S->y);
    if (!slope(L, &L->lam, &L->t, &L->u))
        return false;
    line_of(L, pr, &L->lam);
    chord_end(L, S, S);
    return true;
}

/* miller_add_step: S = S + q, f *= the line through S and q. */
static bool add_step(struct loop *L, struct pair *pr, const struct pairing_g2 *q)
{
    struct pairing_g2 *S = &pr->S;
    pf2_sub(L->F, &L->t, &S->y, &q->y);
    pf2_sub(L->F, &L->u, &S->x, &q->x);
    if (!slope(L, &L->lam, &L->t, &L->u))
        return false;
    line_of(L, pr, &L->lam);
    chord_end(L, S, q);
    return true;
}

/* miller_double_and_add_step: S = (S + q) + S, f *= both lines (each through S). */
static bool double_and_add_step(struct loop *L, struct pair *pr, const struct pairing_g2 *q)
{
    struct pf *F = L->F;
    struct pairing_g2 *S = &pr->S;
    pf2_sub(F, &L->t, &S->y, &q->y);
    pf2_sub(F, &L->u, &S->x, &q->x);
    if (!slope(L, &L->lam, &L->t, &L->u))
        return false;
    pf2_mul(F, &L->t, &L->lam, &L->lam);
    pf2_sub(F, &L->t, &L->t, &S->x);
    pf2_sub(F, &L->t, &L->t, &q->x); /* x1 = lam1^2 - x_S - x_q */
    pf2_sub(F, &L->u, &L->t, &S->x);
    pf2_add(F, &L->b, &S->y, &S->y);
    if (!slope(L, &L->lam2, &L->b, &L->u))
        return false;
    pf2_add(F, &L->lam2, &L->lam2, &L->lam);
    pf2_neg(F, &L->lam2, &L->lam2); /* lam2 = -lam1 - 2 y_S / (x1 - x_S) */
    line_of(L, pr, &L->lam);
    line_of(L, pr, &L->lam2);
    pf2_mul(F, &L->u, &L->lam2, &L->lam2);
    pf2_sub(F, &L->u, &L->u, &S->x);
    pf2_sub(F, &L->u, &L->u, &L->t); /* x2 = lam2^2 - x_S - x1 */
    pf2_sub(F, &L->t, &S->x, &L->u);
    pf2_mul(F, &L->t, &L->lam2, &L->t);
    pf2_sub(F, &S->y, &L->t, &S->y); /* y2 = lam2 (x_S - x2) - y_S */
    pf2_set(&S->x, &L->u);
    return true;
}

/* Step i of the loop for every pair: the double, or double-and-add with Q or -Q. */
static bool loop_step(struct loop *L, struct pair *pairs, size_t n, int digit)
{
    struct pairing_g2 q;
    g2_init(&q);
    bool ok = true;
    for (size_t k = 0; k < n && ok; k++) {
        if (digit == 0) {
            ok = double_step(L, &pairs[k]);
            continue;
        }
        pf2_set(&q.x, &pairs[k].Q.x);
        if (digit > 0)
            pf2_set(&q.y, &pairs[k].Q.y);
        else
            pf2_neg(L->F, &q.y, &pairs[k].Q.y);
        ok = double_and_add_step(L, &pairs[k], &q);
    }
    g2_clear(&q);
    return ok;
}

/*
 * BN254's post_loop: S + pi(Q), then + (x_Q xi^((p^2-1)/3), y_Q), pi(Q) =
 * (conj(x_Q) xi^((p-1)/3), conj(y_Q) xi^((p-1)/2)) (halo2curves'
 * FROBENIUS_COEFF_FQ6_C1[1], [2] and XI_TO_Q_MINUS_1_OVER_2).
 */
static bool bn254_post_loop(struct loop *L, struct pair *pairs, size_t n)
{
    struct pf *F = L->F;
    struct fp2 xi, g[3];
    struct pairing_g2 q;
    mpz_t e;
    mpz_init(e);
    pf2_init(&xi);
    g2_init(&q);
    mpz_set_ui(xi.a, F->xi0);
    mpz_set_ui(xi.b, 1);
    for (int k = 0; k < 3; k++) {
        pf2_init(&g[k]);
        mpz_pow_ui(e, F->p, k == 1 ? 2 : 1);
        mpz_sub_ui(e, e, 1);
        mpz_divexact_ui(e, e, k == 2 ? 2 : 3);
        pf2_pow(F, &g[k], &xi, e);
    }
    bool ok = true;
    for (size_t k = 0; k < n && ok; k++) {
        pf2_conj(F, &q.x, &pairs[k].Q.x);
        pf2_mul(F, &q.x, &q.x, &g[0]);
        pf2_conj(F, &q.y, &pairs[k].Q.y);
        pf2_mul(F, &q.y, &q.y, &g[2]);
        ok = add_step(L, &pairs[k], &q);
    }
    for (size_t k = 0; k < n && ok; k++) {
        pf2_mul(F, &q.x, &pairs[k].Q.x, &g[1]);
        pf2_set(&q.y, &pairs[k].Q.y);
        ok = add_step(L, &pairs[k], &q);
    }
    for (int k = 0; k < 3; k++)
        pf2_clear(&g[k]);
    pf2_clear(&xi);
    g2_clear(&q);
    mpz_clear(e);
    return ok;
}

/* pre_loop, the loop from the third-highest digit down, post_loop. */
static bool run_loop(struct loop *L, struct pair *pairs, size_t n)
{
    const signed char *digits = L->bn ? bn254_digits : bls12_381_digits;
    int top = L->bn ? 66 : 64;
    pf12_set_one(&L->f);
    for (size_t k = 0; k < n; k++)
        if (!double_step(L, &pairs[k]))
            return false;
    for (size_t k = 0; !L->bn && k < n; k++)
        if (!add_step(L, &pairs[k], &pairs[k].Q))
            return false;
    for (int i = top - 3; i >= 0; i--) {
        pf12_mul(L->F, &L->f, &L->f, &L->f);
        if (!loop_step(L, pairs, n, digits[i]))
            return false;
    }
    if (L->bn)
        return bn254_post_loop(L, pairs, n);
    pf12_conj(L->F, &L->f, &L->f);
    return true;
}

/* The pair's state from P and Q; false when y_P is 0 (OpenVM divides by it). */
static bool pair_init(struct pair *pr, struct pf *F, const struct pairing_g1 *P,
                      const struct pairing_g2 *Q)
{
    g2_init(&pr->S);
    g2_init(&pr->Q);
    mpz_inits(pr->x_over_y, pr->y_inv, NULL);
    pf2_set(&pr->S.x, &Q->x);
    pf2_set(&pr->S.y, &Q->y);
    pf2_set(&pr->Q.x, &Q->x);
    pf2_set(&pr->Q.y, &Q->y);
    if (!mpz_invert(pr->y_inv, P->y, F->p))
        return false;
    mpz_mul(pr->x_over_y, P->x, pr->y_inv);
    mpz_mod(pr->x_over_y, pr->x_over_y, F->p);
    return true;
}

static void pair_clear(struct pair *pr)
{
    g2_clear(&pr->S);
    g2_clear(&pr->Q);
    mpz_clears(pr->x_over_y, pr->y_inv, NULL);
}

static void loop_init(struct loop *L, struct pf *F, bool bn)
{
    L->F = F;
    L->bn = bn;
    L->why = NULL;
    pf12_init(&L->f);
    pf12_init(&L->line);
    struct fp2 *t[] = {&L->lam, &L->lam2, &L->t, &L->u, &L->b, &L->c};
    for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++)
        pf2_init(t[k]);
}

static void loop_clear(struct loop *L)
{
    pf12_clear(&L->f);
    pf12_clear(&L->line);
    struct fp2 *t[] = {&L->lam, &L->lam2, &L->t, &L->u, &L->b, &L->c};
    for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++)
        pf2_clear(t[k]);
}

static bool at_infinity(const struct pairing_g1 *P, const struct pairing_g2 *Q)
{
    return (mpz_sgn(P->x) == 0 && mpz_sgn(P->y) == 0) || (pf2_is_zero(&Q->x) && pf2_is_zero(&Q->y));
}

int pairing_miller_loop(struct pf *F, bool bn, const struct pairing_g1 *P,
                        const struct pairing_g2 *Q, size_t n, struct fp12 *f, const char **why)
{
    struct pair *pairs = calloc(n ? n : 1, sizeof(*pairs));
    struct loop L;
    size_t m = 0;
    bool ok = pairs != NULL;
    *why = ok ? NULL : "out of memory";
    for (size_t k = 0; k < n && ok; k++) {
        if (at_infinity(&P[k], &Q[k]))
            continue;
        ok = pair_init(&pairs[m++], F, &P[k], &Q[k]);
        if (!ok)
            *why = "a P has y = 0 (not on the curve; OpenVM's host panics dividing by it)";
    }
    if (ok) {
        loop_init(&L, F, bn);
        ok = run_loop(&L, pairs, m);
        if (ok)
            pf12_set(f, &L.f);
        *why = ok ? NULL : L.why;
        loop_clear(&L);
    }
    for (size_t k = 0; k < m; k++)
        pair_clear(&pairs[k]);
    free(pairs);
    return ok ? 0 : -1;
}
