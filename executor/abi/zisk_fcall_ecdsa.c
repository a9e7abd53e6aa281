/*
 * zisk_fcall_ecdsa: ZisK's secp256k1_ecdsa_verify and
 * secp256r1_ecdsa_verify free calls, step for step as its host computes
 * them (ziskos zisklib/fcalls_impl/secp256k1/ecdsa.rs, secp256r1/ecdsa.rs
 * at v0.18.0, 790f9e28; the same at v0.16.0, aacf0a73): pk, z, r, s ->
 * the point u1 G + u2 PK, u1 = z / s, u2 = r / s mod n, by affine double
 * and add over the 256 bits of both scalars, (0, 0) the point at infinity.
 * The host's own rules are kept where they differ from the group law on
 * points off the curve or not below p: points are compared word for word,
 * equal x with unequal y adds to (0, 0), and an inverse of 0 or a
 * subtraction below 0 panics (here: a fault). Docs: docs/ZKVMS.md.
 */
#include "executor/abi/zisk_fcall_calls.h"

struct zisk_ecdsa_curve {
    const char *p, *n, *a, *gx, *gy; /* hex; a NULL: a = 0 */
};

const struct zisk_ecdsa_curve zisk_secp256k1_ecdsa = {
    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
    NULL,
    "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
    "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8",
};

const struct zisk_ecdsa_curve zisk_secp256r1_ecdsa = {
    "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
    "ffffffff00000001000000000000000000000000fffffffffffffffffffffffc",
    "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
    "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
};

struct point {
    mpz_t x, y;
};

/* The curve's field and the working numbers of one call. */
struct ecdsa {
    struct zfield f;
    mpz_t a, lambda, t;
    bool has_a;
};

static bool is_identity(const struct point *q)
{
    return mpz_sgn(q->x) == 0 && mpz_sgn(q->y) == 0;
}

/* x3 = lambda^2 - x1 - x2, y3 = lambda (x1 - x3) - y1 into q (x1, y1 = q's) */
static void chord_end(struct ecdsa *c, struct point *q, const mpz_t x2)
{
    mpz_t x3;
    mpz_init(x3);
    zf_mul(&c->f, x3, c->lambda, c->lambda);
    zf_add(&c->f, c->t, q->x, x2);
    zf_sub(&c->f, x3, x3, c->t);
    zf_sub(&c->f, c->t, q->x, x3);
    zf_mul(&c->f, c->t, c->lambda, c->t);
    zf_sub(&c->f, q->y, c->t, q->y);
    mpz_swap(q->x, x3);
    mpz_clear(x3);
}

/* q = 2 q: lambda = (3 x^2 + a) / 2 y; (0, 0) stays (secp256k1_curve_dbl) */
static void dbl(struct ecdsa *c, struct point *q)
{
    if (is_identity(q))
        return;
    zf_mul(&c->f, c->lambda, q->x, q->x);
    mpz_mul_ui(c->lambda, c->lambda, 3);
    mpz_mod(c->lambda, c->lambda, c->f.p);
    if (c->has_a)
        zf_add(&c->f, c->lambda, c->lambda, c->a);
    mpz_mul_2exp(c->t, q->y, 1);
    mpz_mod(c->t, c->t, c->f.p);
    zf_inv(&c->f, c->t, c->t);
    zf_mul(&c->f, c->lambda, c->lambda, c->t);
    chord_end(c, q, q->x);
}

/* q = q + o, as secp256k1_curve_add orders its cases */
static void add(struct ecdsa *c, struct point *q, const struct point *o)
{
    if (mpz_cmp(q->x, o->x) == 0) {
        if (mpz_cmp(q->y, o->y) == 0)
            dbl(c, q);
        else
            mpz_set_ui(q->x, 0), mpz_set_ui(q->y, 0);
        return;
    }
    if (is_identity(q)) {
        mpz_set(q->x, o->x);
        mpz_set(q->y, o->y);
        return;
    }
    if (is_identity(o))
        return;
    zf_sub(&c->f, c->lambda, o->y, q->y);
    zf_sub(&c->f, c->t, o->x, q->x);
    zf_inv(&c->f, c->t, c->t);
    zf_mul(&c->f, c->lambda, c->lambda, c->t);
    chord_end(c, q, o->x);
}

/* u1 = z / s, u2 = r / s mod n into u1, u2; false when s = 0 mod n (the host panics) */
static bool scalars(const struct zisk_ecdsa_curve *cv, const uint64_t *zrs, mpz_t u1, mpz_t u2)
{
    mpz_t n, s;
    mpz_init_set_str(n, cv->n, 16);
    mpz_init(s);
    zf_import(u1, zrs, 4);
    zf_import(u2, zrs + 4, 4);
    zf_import(s, zrs + 8, 4);
    bool ok = mpz_invert(s, s, n) != 0;
    mpz_mul(u1, u1, s);
    mpz_mod(u1, u1, n);
    mpz_mul(u2, u2, s);
    mpz_mod(u2, u2, n);
    mpz_clears(n, s, NULL);
    return ok;
}

/* pk (8 words: x, y), z, r, s (4 each) -> u1 G + u2 PK (8 words) */
int zisk_fcall_ecdsa_verify(struct fcall_io *io, const void *arg)
{
    const struct zisk_ecdsa_curve *cv = arg;
    struct ecdsa c;
    struct point g, pk, acc;
    mpz_t u1, u2;
    mpz_inits(c.a, c.lambda, c.t, g.x, g.y, pk.x, pk.y, acc.x, acc.y, u1, u2, NULL);
    zf_init(&c.f, cv->p, false);
    c.has_a = cv->a != NULL;
    if (c.has_a)
        mpz_set_str(c.a, cv->a, 16);
    mpz_set_str(g.x, cv->gx, 16);
    mpz_set_str(g.y, cv->gy, 16);
    zf_import(pk.x, io->params, 4);
    zf_import(pk.y, io->params + 4, 4);
    if (!scalars(cv, io->params + 8, u1, u2))
        c.f.why = "s has no inverse mod n (s = 0 mod n): ZisK's host panics";
    for (int i = 255; i >= 0 && !c.f.why; i--) {
        dbl(&c, &acc);
        if (mpz_tstbit(u1, (mp_bitcnt_t)i))
            add(&c, &acc, &g);
        if (mpz_tstbit(u2, (mp_bitcnt_t)i))
            add(&c, &acc, &pk);
    }
    io->why = c.f.why;
    io->nresults = c.f.why ? 0 : 8;
    zf_export(io->results, 4, acc.x);
    zf_export(io->results + 4, 4, acc.y);
    zf_clear(&c.f);
    mpz_clears(c.a, c.lambda, c.t, g.x, g.y, pk.x, pk.y, acc.x, acc.y, u1, u2, NULL);
    return c.f.why ? -1 : 0;
}
