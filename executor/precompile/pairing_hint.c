/*
 * pairing_hint: OpenVM's final exponentiation hint (openvm-org/openvm
 * v1.7.0, extensions/pairing/guest/src/halo2curves_shims/{bn254,bls12_381}/
 * final_exp.rs final_exp_hint, constants in curve.rs; read and written as
 * extensions/pairing/circuit/src/pairing_extension.rs hint_pairing does).
 * The exponents are computed here from their definitions there (each
 * equals the literal OpenVM writes); exp_naf is x^e whatever the digits.
 */
#include "executor/precompile/pairing_hint.h"

#include <stdlib.h>
#include <string.h>

#include "executor/precompile/bigint.h"
#include "executor/precompile/curve.h"
#include "executor/precompile/pairing_miller.h"

/* BN254's seed x (6x + 2 drives its loop) and BLS12-381's |x| (x < 0). */
static const char bn254_seed[] = "44e992b44a6909f1";
static const char bls12_381_seed[] = "d201000000010000";
/* BN254's 27th root of unity's w^2 coefficient (curve.rs U27_COEFF_0, U27_COEFF_1). */
static const char u27_c0[] = "14f790bbd583653f862867ef12a24eb7992478d2aeef5cdebf9094793132b563";
static const char u27_c1[] = "a063e5502b196f64f84e31d49aece1f44c8873b8927d16d4c0093fe44aacc65";

size_t pairing_fp_bytes(enum pairing_curve c)
{
    return c == PAIRING_BN254 ? 32 : 48;
}

/* The hint's state: the field, p^12 - 1, the group order r, scratch. */
struct hint {
    struct pf F;
    mpz_t n12, r, e, m;
    struct fp12 t;
};

static void hint_init(struct hint *h, enum pairing_curve c)
{
    enum curve_id id = c == PAIRING_BN254 ? CURVE_BN254 : CURVE_BLS12_381;
    mpz_t a;
    mpz_inits(a, h->n12, h->r, h->e, h->m, NULL);
    curve_prime_and_a(id, h->n12, a);
    pf_init(&h->F, h->n12, c == PAIRING_BN254 ? 9 : 1);
    curve_order(id, h->r);
    mpz_pow_ui(h->n12, h->F.p, 12);
    mpz_sub_ui(h->n12, h->n12, 1);
    pf12_init(&h->t);
    mpz_clear(a);
}

static void hint_clear(struct hint *h)
{
    pf_clear(&h->F);
    mpz_clears(h->n12, h->r, h->e, h->m, NULL);
    pf12_clear(&h->t);
}

/* True when x^e is 1 (h->t holds x^e). */
static bool pow_is_one(struct hint *h, const struct fp12 *x, const mpz_t e)
{
    pf12_pow(&h->F, &h->t, x, e);
    return pf12_is_one(&h->t);
}

/* x3 = x^3 / c, then cubed until 1: how many times (tonelli_shanks_loop's t); -1 past 3^3. */
static int cube_order(struct hint *h, struct fp12 *x3, const struct fp12 *x,
                      const struct fp12 *c_inv)
{
    pf12_mul(&h->F, x3, x, x);
    pf12_mul(&h->F, x3, x3, x);
    pf12_mul(&h->F, x3, x3, c_inv);
    int t = 0;
    for (; !pf12_is_one(x3) && t <= 3; t++) {
        pf12_mul(&h->F, &h->t, x3, x3);
        pf12_mul(&h->F, x3, x3, &h->t);
    }
    return t <= 3 ? t : -1;
}

/* c or u: f, f zeta or f zeta^2, whichever is a cube ((p^12 - 1) / 3 gives 1). */
static void bn254_shift(struct hint *h, const struct fp12 *f, const struct fp12 *zeta,
                        struct fp12 *c, struct fp12 *u)
{
    mpz_divexact_ui(h->e, h->n12, 3);
    pf12_set(c, f);
    pf12_set_one(u);
    if (pow_is_one(h, c, h->e))
        return;
    pf12_mul(&h->F, c, c, zeta);
    pf12_set(u, zeta);
    if (pow_is_one(h, c, h->e))
        return;
    pf12_mul(&h->F, c, c, zeta);
    pf12_mul(&h->F, u, u, zeta);
}

/*
 * c = c^rInv, then ^mInv: rInv = 1/r and mInv = 1/m mod (p^12 - 1)/r, m =
 * lambda / 3r; one power here, rInv mInv mod p^12 - 1 (c's order divides it).
 */
static void bn254_roots(struct hint *h, struct fp12 *c)
{
    mpz_t hh, x;
    mpz_inits(hh, x, NULL);
    mpz_divexact(hh, h->n12, h->r);
    /* lambda = 6x + 2 + p^3 - p^2 + p */
    bigint_set_constant(x, bn254_seed);
    mpz_mul_ui(h->m, x, 6);
    mpz_add_ui(h->m, h->m, 2);
    mpz_pow_ui(x, h->F.p, 3);
    mpz_add(h->m, h->m, x);
    mpz_pow_ui(x, h->F.p, 2);
    mpz_sub(h->m, h->m, x);
    mpz_add(h->m, h->m, h->F.p);
    mpz_mul_ui(x, h->r, 3);
    mpz_divexact(h->m, h->m, x);
    mpz_invert(x, h->m, hh);
    mpz_invert(h->e, h->r, hh);
    mpz_mul(h->e, h->e, x);
    mpz_mod(h->e, h->e, h->n12);
    pf12_pow(&h->F, c, c, h->e);
    mpz_clears(hh, x, NULL);
}

/* exp2 = (s + 1) / 3, p^12 - 1 = 3^k s, s not a multiple of 3. */
static void bn254_exp2(struct hint *h)
{
    mpz_set(h->e, h->n12);
    while (mpz_divisible_ui_p(h->e, 3))
        mpz_divexact_ui(h->e, h->e, 3);
    mpz_add_ui(h->e, h->e, 1);
    mpz_divexact_ui(h->e, h->e, 3);
}

/* c = the cube root of c by the modified Tonelli-Shanks (final_exp.rs step 3). */
static bool bn254_cube_root(struct hint *h, struct fp12 *c, const struct fp12 *zeta)
{
    struct fp12 x, x3, c_inv, w;
    pf12_init(&x);
    pf12_init(&x3);
    pf12_init(&c_inv);
    pf12_init(&w);
    bn254_exp2(h);
    pf12_pow(&h->F, &x, c, h->e);
    mpz_fdiv_r_ui(h->e, h->e, 27); /* zeta^27 = 1 */
    pf12_pow(&h->F, &w, zeta, h->e);
    int t = pf12_inv(&h->F, &c_inv, c) ? cube_order(h, &x3, &x, &c_inv) : -1;
    for (int tries = 0; t > 0 && tries < 27; tries++) {
        pf12_mul(&h->F, &x, &x, &w);
        t = cube_order(h, &x3, &x, &c_inv);
    }
    if (t == 0)
        pf12_set(c, &x);
    pf12_clear(&x);
    pf12_clear(&x3);
    pf12_clear(&c_inv);
    pf12_clear(&w);
    return t == 0;
}

/* BN254's final_exp_hint (Novakovic-Eagon, as gnark's hints.go): (c, u). */
static bool bn254_hint(struct hint *h, const struct fp12 *f, struct fp12 *c, struct fp12 *u)
{
    struct fp12 zeta;
    pf12_init(&zeta);
    pf12_set_one(&zeta);
    mpz_set_ui(zeta.c[0].a, 0);
    bigint_set_constant(zeta.c[2].a, u27_c0);
    bigint_set_constant(zeta.c[2].b, u27_c1);
    bn254_shift(h, f, &zeta, c, u);
    bn254_roots(h, c);
    bool ok = bn254_cube_root(h, c, &zeta);
    pf12_clear(&zeta);
    return ok;
}

/* r = x^-e (exp_naf with is_positive false: x^-1 or, for x = 0, 1, to the e). */
static void pow_inv(struct hint *h, struct fp12 *r, const struct fp12 *x, const mpz_t e)
{
    if (!pf12_inv(&h->F, r, x))
        pf12_set_one(r);
    pf12_pow(&h->F, r, r, e);
}

/*
 * BLS12-381's final_exp_hint (gnark's hints.go): (c, s). h->m = the
 * finalExpFactor ((p^12 - 1) / r / (27 polyFactor)), polyFactor = (1 - x) / 3.
 */
static void bls12_381_hint(struct hint *h, const struct fp12 *f, struct fp12 *c, struct fp12 *s)
{
    mpz_t poly, t;
    mpz_inits(poly, t, NULL);
    struct fp12 fe, root, r27;
    pf12_init(&fe);
    pf12_init(&root);
    pf12_init(&r27);
    bigint_set_constant(poly, bls12_381_seed);
    mpz_add_ui(poly, poly, 1);
    mpz_divexact_ui(poly, poly, 3);
    mpz_divexact(h->m, h->n12, h->r);
    mpz_mul_ui(t, poly, 27);
    mpz_divexact(h->m, h->m, t);
    pf12_pow(&h->F, &fe, f, h->m);
    /* 1. the p-th root inverse: root^-((27 finalExpFactor)^-1 mod polyFactor) */
    pf12_set_one(s);
    mpz_set_ui(t, 27);
    if (!pow_is_one(h, &fe, t)) {
        pf12_set(&root, &h->t);
        mpz_mul_ui(t, h->m, 27);
        mpz_invert(h->e, t, poly);
        pow_inv(h, s, &root, h->e);
    }
    /* 2. the 27th root inverse: root^-10 when root^27 = 1 */
    pf12_pow(&h->F, &root, &fe, poly);
    mpz_set_ui(t, 27);
    if (pow_is_one(h, &root, t)) {
        mpz_set_ui(t, 10);
        pow_inv(h, &r27, &root, t);
        pf12_mul(&h->F, s, s, &r27);
    }
    /* 3. c = (f s)^(lambda^-1 mod finalExpFactor), lambda = p - x */
    pf12_mul(&h->F, c, f, s);
    bigint_set_constant(t, bls12_381_seed);
    mpz_add(t, t, h->F.p);
    mpz_invert(h->e, t, h->m);
    pf12_pow(&h->F, c, c, h->e);
    pf12_clear(&fe);
    pf12_clear(&root);
    pf12_clear(&r27);
    mpz_clears(poly, t, NULL);
}

/* The n points at p (G1) and q (G2) into P and Q; false when a coordinate is not below p. */
static bool read_points(struct hint *h, size_t bytes, const uint8_t *p, const uint8_t *q, size_t n,
                        struct pairing_g1 *P, struct pairing_g2 *Q)
{
    bool ok = true;
    for (size_t k = 0; k < n; k++) {
        mpz_ptr g1[2] = {P[k].x, P[k].y};
        mpz_ptr g2[4] = {Q[k].x.a, Q[k].x.b, Q[k].y.a, Q[k].y.b};
        for (int i = 0; i < 2; i++) {
            bigint_import_bytes(g1[i], p + (2 * k + i) * bytes, bytes, false);
            ok = ok && mpz_cmp(g1[i], h->F.p) < 0;
        }
        for (int i = 0; i < 4; i++) {
            bigint_import_bytes(g2[i], q + (4 * k + i) * bytes, bytes, false);
            ok = ok && mpz_cmp(g2[i], h->F.p) < 0;
        }
    }
    return ok;
}

/* hint = c's coefficients, then u's, each Fp little-endian. */
static void write_hint(uint8_t *hint, size_t bytes, const struct fp12 *c, const struct fp12 *u)
{
    for (int k = 0; k < 12; k++) {
        const struct fp2 *x = &(k < 6 ? c : u)->c[k % 6];
        bigint_export_bytes(hint + 2 * k * bytes, bytes, x->a, false);
        bigint_export_bytes(hint + (2 * k + 1) * bytes, bytes, x->b, false);
    }
}

/* f's hint into c and u; false (why set) where OpenVM's host panics. */
static bool hint_of(struct hint *h, enum pairing_curve curve, struct pairing_g1 *P,
                    struct pairing_g2 *Q, size_t n, struct fp12 *c, struct fp12 *u,
                    const char **why)
{
    struct fp12 f;
    pf12_init(&f);
    bool ok = pairing_miller_loop(&h->F, curve == PAIRING_BN254, P, Q, n, &f, why) == 0;
    if (ok && curve == PAIRING_BN254) {
        ok = bn254_hint(h, &f, c, u);
        *why = ok ? NULL : "no cube root found (f is 0, or OpenVM's host loops)";
    } else if (ok) {
        bls12_381_hint(h, &f, c, u);
    }
    pf12_clear(&f);
    return ok;
}

int pairing_final_exp_hint(enum pairing_curve curve, const uint8_t *p, const uint8_t *q, size_t n,
                           uint8_t *hint, const char **why)
{
    if (n == 0) {
        *why = "no pairs (OpenVM's multi_miller_loop asserts P is not empty)";
        return -1;
    }
    struct hint h;
    struct pairing_g1 *P = calloc(n, sizeof(*P));
    struct pairing_g2 *Q = calloc(n, sizeof(*Q));
    if (!P || !Q) {
        free(P);
        free(Q);
        *why = "out of memory";
        return -1;
    }
    hint_init(&h, curve);
    for (size_t k = 0; k < n; k++) {
        mpz_inits(P[k].x, P[k].y, NULL);
        pf2_init(&Q[k].x);
        pf2_init(&Q[k].y);
    }
    struct fp12 c, u;
    pf12_init(&c);
    pf12_init(&u);
    size_t bytes = pairing_fp_bytes(curve);
    bool ok = read_points(&h, bytes, p, q, n, P, Q);
    *why = ok ? NULL : "a coordinate is not below p (OpenVM's read_fp: bad ff::PrimeField repr)";
    if (ok && (ok = hint_of(&h, curve, P, Q, n, &c, &u, why)))
        write_hint(hint, bytes, &c, &u);
    for (size_t k = 0; k < n; k++) {
        mpz_clears(P[k].x, P[k].y, NULL);
        pf2_clear(&Q[k].x);
        pf2_clear(&Q[k].y);
    }
    pf12_clear(&c);
    pf12_clear(&u);
    hint_clear(&h);
    free(P);
    free(Q);
    return ok ? 0 : -1;
}
