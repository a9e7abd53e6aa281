/*
 * sp1_curves: SP1's curve and field calls, step for step as its executor
 * computes them (see sp1_curves.h), with GMP. SP1's big integers are
 * unsigned: where its code subtracts below zero it panics, and so do these.
 */
#include "executor/abi/sp1_curves.h"

#include "executor/precompile/bigint.h"
#include "executor/precompile/edwards.h"

static const char SAME_POINTS[] = "the points are the same (SP1 panics: \"Use sw_double instead\")";
static const char BELOW_ZERO[] = "a coordinate not below p takes a subtraction below zero "
                                 "(SP1's unsigned integers panic)";

/* The registers of one Weierstrass operation. */
struct sw {
    mpz_t p, a, x1, y1, x2, y2, s, t;
    size_t n;
};

static void sw_init(struct sw *k, enum curve_id c, const uint32_t *p, const uint32_t *q)
{
    mpz_inits(k->p, k->a, k->x1, k->y1, k->x2, k->y2, k->s, k->t, NULL);
    curve_prime_and_a(c, k->p, k->a);
    k->n = curve_limbs(c);
    bigint_import(k->x1, p, k->n);
    bigint_import(k->y1, p + k->n, k->n);
    if (q) {
        bigint_import(k->x2, q, k->n);
        bigint_import(k->y2, q + k->n, k->n);
    }
}

static void sw_clear(struct sw *k)
{
    mpz_clears(k->p, k->a, k->x1, k->y1, k->x2, k->y2, k->s, k->t, NULL);
}

/*
 * s = num * den^(p-2) mod p: SP1's inverse, 0 for a zero denominator (the
 * curves' p are prime: bigint_fermat_inverse; mpz_powm was 85% of a
 * BLS12-381 guest's run).
 */
static void slope(struct sw *k, const mpz_t num, const mpz_t den)
{
    bigint_fermat_inverse(k->t, den, k->p);
    mpz_mul(k->s, num, k->t);
    mpz_mod(k->s, k->s, k->p);
}

/*
 * With the slope in s, as sw_add and sw_double end: x3 = (s^2 + 2p - x1 - x2)
 * mod p, y3 = (s (p + x1 - x3) + p - y1) mod p, into p; false when a
 * subtraction goes below zero.
 */
static bool sw_finish(struct sw *k, uint32_t *p)
{
    mpz_mul(k->t, k->s, k->s);
    mpz_addmul_ui(k->t, k->p, 2);
    mpz_sub(k->t, k->t, k->x1);
    mpz_sub(k->t, k->t, k->x2);
    if (mpz_sgn(k->t) < 0)
        return false;
    mpz_mod(k->t, k->t, k->p); /* x3 */
    mpz_add(k->x2, k->p, k->x1);
    mpz_sub(k->x2, k->x2, k->t);
    mpz_mul(k->x2, k->x2, k->s);
    mpz_add(k->x2, k->x2, k->p);
    mpz_sub(k->x2, k->x2, k->y1);
    if (mpz_sgn(k->x2) < 0)
        return false;
    mpz_mod(k->x2, k->x2, k->p); /* y3 */
    bigint_export(p, k->n, k->t);
    bigint_export(p + k->n, k->n, k->x2);
    return true;
}

const char *sp1_sw_add(enum curve_id c, uint32_t *p, const uint32_t *q)
{
    struct sw k;
    sw_init(&k, c, p, q);
    const char *why = NULL;
    if (mpz_cmp(k.x1, k.x2) == 0 && mpz_cmp(k.y1, k.y2) == 0) {
        why = SAME_POINTS;
    } else {
        mpz_t num, den;
        mpz_inits(num, den, NULL);
        mpz_add(num, k.p, k.y2); /* (p + y2 - y1) % p */
        mpz_sub(num, num, k.y1);
        mpz_add(den, k.p, k.x2); /* (p + x2 - x1) % p */
        mpz_sub(den, den, k.x1);
        if (mpz_sgn(num) < 0 || mpz_sgn(den) < 0) {
            why = BELOW_ZERO;
        } else {
            mpz_mod(num, num, k.p);
            mpz_mod(den, den, k.p);
            slope(&k, num, den);
            if (!sw_finish(&k, p))
                why = BELOW_ZERO;
        }
        mpz_clears(num, den, NULL);
    }
    sw_clear(&k);
    return why;
}

const char *sp1_sw_double(enum curve_id c, uint32_t *p)
{
    struct sw k;
    sw_init(&k, c, p, NULL);
    mpz_t num, den;
    mpz_inits(num, den, NULL);
    mpz_mul(num, k.x1, k.x1); /* (a + 3 x^2) % p */
    mpz_mul_ui(num, num, 3);
    mpz_add(num, num, k.a);
    mpz_mod(num, num, k.p);
    mpz_mul_ui(den, k.y1, 2); /* 2 y % p */
    mpz_mod(den, den, k.p);
    slope(&k, num, den);
    mpz_set(k.x2, k.x1);
    const char *why = sw_finish(&k, p) ? NULL : BELOW_ZERO;
    mpz_clears(num, den, NULL);
    sw_clear(&k);
    return why;
}

/* Whether the point's coordinates are below p and it lies on secp256k1, as k256 decodes it. */
static bool k256_decodes(const uint32_t pt[16])
{
    return curve_reduced(CURVE_SECP256K1, pt) && curve_reduced(CURVE_SECP256K1, pt + 8) &&
           curve_on_curve(CURVE_SECP256K1, pt);
}

const char *sp1_k256_add(uint32_t p[16], const uint32_t q[16])
{
    if (!k256_decodes(p) || !k256_decodes(q))
        return "a point is off secp256k1 or has a coordinate not below p (k256 does not "
               "decode it: SP1 v6 panics)";
    bool same_x = true, same_y = true;
    for (int i = 0; i < 8; i++) {
        same_x &= p[i] == q[i];
        same_y &= p[8 + i] == q[8 + i];
    }
    if (same_x && same_y)
        return curve_double(CURVE_SECP256K1, p) ? NULL : "y = 0"; /* k256 doubles P + P */
    if (same_x)
        return "the sum is the point at infinity, which has no coordinates (SP1 v6 panics)";
    return curve_add(CURVE_SECP256K1, p, q) ? NULL : "x1 = x2";
}

const char *sp1_k256_double(uint32_t p[16])
{
    if (!k256_decodes(p))
        return "the point is off secp256k1 or has a coordinate not below p (k256 does not "
               "decode it: SP1 v6 panics)";
    return curve_double(CURVE_SECP256K1, p) ? NULL : "y = 0";
}

/* Writes c0 and c1 as v1.2 to v3 did: their significant limbs one after the other, then zeros. */
static void pack_fp2(uint32_t *x, size_t n)
{
    uint32_t out[24] = {0};
    size_t at = 0;
    for (size_t half = 0; half < 2; half++) {
        size_t used = n;
        while (used > 0 && x[half * n + used - 1] == 0)
            used--;
        for (size_t i = 0; i < used; i++)
            out[at++] = x[half * n + i];
    }
    for (size_t i = 0; i < 2 * n; i++)
        x[i] = out[i];
}

const char *sp1_fp2(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y, int packed)
{
    size_t n = curve_limbs(c);
    if (op == FIELD_SUB) {
        /* (a + p - b) % p on unreduced parts: below zero when b > a + p */
        mpz_t p, a, b, t;
        mpz_inits(p, a, b, t, NULL);
        curve_prime_and_a(c, p, t);
        bool below = false;
        for (size_t half = 0; half < 2; half++) {
            bigint_import(a, x + half * n, n);
            bigint_import(b, y + half * n, n);
            mpz_add(a, a, p);
            below |= mpz_cmp(b, a) > 0;
        }
        mpz_clears(p, a, b, t, NULL);
        if (below)
            return "a part of the second operand exceeds the first's plus p (SP1's unsigned "
                   "subtraction panics)";
    }
    curve_field2(c, op, x, y); /* the same result as SP1's wherever SP1 has one */
    if (packed)
        pack_fp2(x, n);
    return NULL;
}

void sp1_ed_add(uint32_t pt[16], const uint32_t q[16])
{
    mpz_t p, d, x1, y1, x2, y2, t, e, a, b;
    mpz_inits(p, d, x1, y1, x2, y2, t, e, a, b, NULL);
    ed25519_prime(p);
    ed25519_d(d);
    bigint_import(x1, pt, 8);
    bigint_import(y1, pt + 8, 8);
    bigint_import(x2, q, 8);
    bigint_import(y2, q + 8, 8);
    /* dxy = d (x1 y1 x2 y2 mod p) mod p; x3 = (x1 y2 + y1 x2) / (1 + dxy), y3 = (y1 y2 + x1 x2) /
     * (1 - dxy) */
    mpz_mul(t, x1, y1);
    mpz_mul(t, t, x2);
    mpz_mul(t, t, y2);
    mpz_mod(t, t, p);
    mpz_mul(t, t, d);
    mpz_mod(t, t, p);
    mpz_add_ui(a, t, 1);
    mpz_mod(a, a, p);
    bigint_fermat_inverse(a, a, p); /* 0 for a zero denominator */
    mpz_add_ui(b, p, 1);
    mpz_sub(b, b, t);
    mpz_mod(b, b, p);
    bigint_fermat_inverse(b, b, p);
    mpz_mul(t, x1, y2);
    mpz_addmul(t, y1, x2);
    mpz_mod(t, t, p);
    mpz_mul(t, t, a);
    mpz_mod(t, t, p);
    mpz_mul(e, y1, y2);
    mpz_addmul(e, x1, x2);
    mpz_mod(e, e, p);
    mpz_mul(e, e, b);
    mpz_mod(e, e, p);
    bigint_export(pt, 8, t);
    bigint_export(pt + 8, 8, e);
    mpz_clears(p, d, x1, y1, x2, y2, t, e, a, b, NULL);
}

const char *sp1_ed_decompress(uint32_t pt[16], unsigned sign, int v4)
{
    if (sign > 1)
        return "the sign is not 0 or 1 (SP1 asserts it)";
    mpz_t p, d, y, u, v, x;
    mpz_inits(p, d, y, u, v, x, NULL);
    ed25519_prime(p);
    ed25519_d(d);
    bigint_import(y, pt + 8, 8);
    mpz_clrbit(y, 255);
    mpz_mul(u, y, y);
    mpz_mod(u, u, p); /* y^2 mod p: y itself is not reduced */
    const char *why = NULL;
    if (!v4 && mpz_sgn(u) == 0)
        why = "y = 0 mod p: v1 to v3 compute y^2 - 1 below zero (SP1 panics)";
    mpz_mul(v, u, d); /* v = d y^2 + 1, u = y^2 - 1, x^2 = u / v */
    mpz_add_ui(v, v, 1);
    mpz_add(u, u, p);
    mpz_sub_ui(u, u, 1);
    bigint_fermat_inverse(v, v, p);
    mpz_mul(u, u, v);
    mpz_mod(u, u, p);
    if (!why && !ed25519_sqrt(x, u))
        why = "(y^2 - 1) / (d y^2 + 1) is not a square: no x (SP1 panics)";
    if (!why) {
        if (sign)
            mpz_sub(x, p, x); /* v1 to v3 leave p for x = 0 */
        if (v4)
            mpz_mod(x, x, p);
        bigint_export(pt, 8, x);
    }
    mpz_clears(p, d, y, u, v, x, NULL);
    return why;
}
