/*
 * curve: affine point addition and doubling by the textbook formulas
 * (lambda = (y2 - y1) / (x2 - x1), or (3 x^2 + a) / (2 y)), with GMP's
 * modular inverse, and scalar multiplication by double-and-add on them;
 * the fields' primes and the group orders as their standards give them.
 */
#include "executor/precompile/curve.h"

#include "executor/precompile/bigint.h"

#include <string.h>

static const struct curve {
    const char *p_hex; /* the field prime */
    const char *a_hex; /* the curve's a */
    const char *b_hex; /* and b */
    const char *r_hex; /* the order of the generator's group (SEC 2, FIPS 186, EIP-196, ZCash) */
    size_t limbs;
} curves[] = {
    [CURVE_SECP256K1] = {"fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", "0",
                         "7", "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
                         8},
    [CURVE_SECP256R1] = {"ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
                         "ffffffff00000001000000000000000000000000fffffffffffffffffffffffc",
                         "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
                         "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 8},
    [CURVE_BN254] = {"30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", "0", "3",
                     "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", 8},
    [CURVE_BLS12_381] =
        {"1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb1"
         "53ffffb9feffffffffaaab",
         "0", "4", "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 12},
};

size_t curve_limbs(enum curve_id c)
{
    return curves[c].limbs;
}

void curve_prime_and_a(enum curve_id c, mpz_t p, mpz_t a)
{
    bigint_set_constant(p, curves[c].p_hex);
    bigint_set_constant(a, curves[c].a_hex);
}

void curve_order(enum curve_id c, mpz_t r)
{
    bigint_set_constant(r, curves[c].r_hex);
}

/* Eight GMP registers, which keep their limbs between operations. */
struct regs {
    mpz_t r[8];
    bool ready; /* initialized */
};

/*
 * Register sets this module keeps for the whole process, taken and given
 * back in stack order (ctx_take, ctx_clear): an operation allocates
 * nothing once they have grown (allocating and freeing fresh registers
 * each call took a fifth of a precompile-heavy guest's run).
 */
enum { KEPT_REGS = 4 };
static struct regs kept_regs[KEPT_REGS];
static size_t kept_taken;

/* The working registers of one operation (0 when taken). */
struct ctx {
    mpz_ptr p, a, x1, y1, x2, y2, l, t;
    struct regs spare; /* when every kept set is taken: fresh ones, freed after */
    bool spared;
};

static void ctx_take(struct ctx *k)
{
    k->spared = kept_taken == KEPT_REGS;
    struct regs *g = k->spared ? &k->spare : &kept_regs[kept_taken++];
    if (k->spared)
        g->ready = false;
    for (size_t i = 0; i < 8; i++) {
        if (!g->ready)
            mpz_init(g->r[i]);
        mpz_set_ui(g->r[i], 0);
    }
    g->ready = true;
    mpz_ptr *fields[8] = {&k->p, &k->a, &k->x1, &k->y1, &k->x2, &k->y2, &k->l, &k->t};
    for (size_t i = 0; i < 8; i++)
        *fields[i] = g->r[i];
}

static void ctx_init(struct ctx *k, enum curve_id c)
{
    ctx_take(k);
    bigint_set_constant(k->p, curves[c].p_hex);
    bigint_set_constant(k->a, curves[c].a_hex);
}

static void ctx_clear(struct ctx *k)
{
    if (!k->spared) {
        kept_taken--;
        return;
    }
    for (size_t i = 0; i < 8; i++)
        mpz_clear(k->spare.r[i]);
}

/*
 * x = x mod p (p > 0), as mpz_mod, without its division when x lies in
 * [-p, 2p): a reduced input, or the sum or difference of reduced values
 * (mpz_mod's divisions were a fifth of a pairing-heavy guest's run). A
 * product is far from the range: it takes mpz_mod itself.
 */
static void reduce(mpz_ptr x, mpz_srcptr p)
{
    if (mpz_sgn(x) < 0) {
        mpz_add(x, x, p);
        if (mpz_sgn(x) >= 0)
            return;
    } else if (mpz_cmp(x, p) < 0) {
        return;
    } else {
        mpz_sub(x, x, p);
        if (mpz_cmp(x, p) < 0)
            return;
    }
    mpz_mod(x, x, p); /* the same residue */
}

/* With lambda in k->l: x3 = l^2 - x1 - x2, y3 = l (x1 - x3) - y1, into p. */
static void finish(struct ctx *k, uint32_t *p, size_t n)
{
    mpz_mul(k->t, k->l, k->l);
    mpz_sub(k->t, k->t, k->x1);
    mpz_sub(k->t, k->t, k->x2);
    mpz_mod(k->t, k->t, k->p); /* x3 */
    mpz_sub(k->x2, k->x1, k->t);
    mpz_mul(k->x2, k->x2, k->l);
    mpz_sub(k->x2, k->x2, k->y1);
    mpz_mod(k->x2, k->x2, k->p); /* y3 */
    bigint_export(p, n, k->t);
    bigint_export(p + n, n, k->x2);
}

static void load_point(struct ctx *k, mpz_t x, mpz_t y, const uint32_t *pt, size_t n)
{
    bigint_import(x, pt, n);
    bigint_import(y, pt + n, n);
    reduce(x, k->p);
    reduce(y, k->p);
}

/* A curve given by its prime and a, n limbs each. */
static void ctx_init_given(struct ctx *k, const uint32_t *p, const uint32_t *a, size_t n)
{
    ctx_take(k);
    bigint_import(k->p, p, n);
    if (a)
        bigint_import(k->a, a, n);
}

/* p += q on k's curve; false when they share x. */
static bool add_points(struct ctx *k, uint32_t *p, const uint32_t *q, size_t n)
{
    load_point(k, k->x1, k->y1, p, n);
    load_point(k, k->x2, k->y2, q, n);
    mpz_sub(k->t, k->x2, k->x1);
    bool ok = mpz_invert(k->t, k->t, k->p) != 0; /* x1 = x2 has no inverse */
    if (ok) {
        mpz_sub(k->l, k->y2, k->y1);
        mpz_mul(k->l, k->l, k->t);
        mpz_mod(k->l, k->l, k->p);
        finish(k, p, n);
    }
    return ok;
}

/* p = 2p on k's curve; false when y is 0. */
static bool double_point(struct ctx *k, uint32_t *p, size_t n)
{
    load_point(k, k->x1, k->y1, p, n);
    mpz_mul_ui(k->t, k->y1, 2);
    bool ok = mpz_invert(k->t, k->t, k->p) != 0; /* y = 0 has no inverse */
    if (ok) {
        mpz_mul(k->l, k->x1, k->x1);
        mpz_mul_ui(k->l, k->l, 3);
        mpz_add(k->l, k->l, k->a);
        mpz_mul(k->l, k->l, k->t);
        mpz_mod(k->l, k->l, k->p);
        mpz_set(k->x2, k->x1);
        finish(k, p, n);
    }
    return ok;
}

bool curve_add(enum curve_id c, uint32_t *p, const uint32_t *q)
{
    struct ctx k;
    ctx_init(&k, c);
    bool ok = add_points(&k, p, q, curves[c].limbs);
    ctx_clear(&k);
    return ok;
}

bool curve_double(enum curve_id c, uint32_t *p)
{
    struct ctx k;
    ctx_init(&k, c);
    bool ok = double_point(&k, p, curves[c].limbs);
    ctx_clear(&k);
    return ok;
}

bool curve_add_on(const uint32_t *prime, size_t n, uint32_t *p, const uint32_t *q)
{
    struct ctx k;
    ctx_init_given(&k, prime, NULL, n);
    bool ok = add_points(&k, p, q, n);
    ctx_clear(&k);
    return ok;
}

bool curve_double_on(const uint32_t *prime, const uint32_t *a, size_t n, uint32_t *p)
{
    struct ctx k;
    ctx_init_given(&k, prime, a, n);
    bool ok = double_point(&k, p, n);
    ctx_clear(&k);
    return ok;
}

static void apply(mpz_t r, enum field_op op, const mpz_t x, const mpz_t y)
{
    switch (op) {
    case FIELD_ADD: mpz_add(r, x, y); break;
    case FIELD_SUB: mpz_sub(r, x, y); break;
    case FIELD_MUL: mpz_mul(r, x, y); break;
    case FIELD_DIV: break; /* field2 turns it into a multiplication */
    }
}

void curve_field(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y)
{
    struct ctx k;
    size_t n = curves[c].limbs;
    ctx_init(&k, c);
    bigint_import(k.x1, x, n);
    bigint_import(k.y1, y, n);
    reduce(k.x1, k.p);
    reduce(k.y1, k.p);
    apply(k.t, op, k.x1, k.y1);
    reduce(k.t, k.p);
    bigint_export(x, n, k.t);
    ctx_clear(&k);
}

/* x = x op y in Fp2 = Fp[u] / (u^2 + 1) on k's field; false for a division by 0. */
static bool field2(struct ctx *k, enum field_op op, uint32_t *x, const uint32_t *y, size_t n)
{
    load_point(k, k->x1, k->y1, x, n); /* a0, a1 */
    load_point(k, k->x2, k->y2, y, n); /* b0, b1 */
    if (op == FIELD_DIV) {
        /* a / b = a conj(b) / (b0^2 + b1^2) */
        mpz_mul(k->t, k->x2, k->x2);
        mpz_mul(k->l, k->y2, k->y2);
        mpz_add(k->t, k->t, k->l);
        if (!mpz_invert(k->t, k->t, k->p))
            return false;
        mpz_mul(k->x2, k->x2, k->t);
        mpz_mul(k->y2, k->y2, k->t);
        mpz_neg(k->y2, k->y2);
        op = FIELD_MUL;
    }
    if (op == FIELD_MUL) {
        /* (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u */
        mpz_mul(k->l, k->x1, k->x2);
        mpz_mul(k->t, k->y1, k->y2);
        mpz_sub(k->l, k->l, k->t);
        mpz_mul(k->t, k->x1, k->y2);
        mpz_mul(k->y2, k->y1, k->x2);
        mpz_add(k->t, k->t, k->y2);
    } else {
        apply(k->l, op, k->x1, k->x2);
        apply(k->t, op, k->y1, k->y2);
    }
    reduce(k->l, k->p);
    reduce(k->t, k->p);
    bigint_export(x, n, k->l);
    bigint_export(x + n, n, k->t);
    return true;
}

void curve_field2(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y)
{
    struct ctx k;
    ctx_init(&k, c);
    field2(&k, op, x, y, curves[c].limbs);
    ctx_clear(&k);
}

bool curve_field2_on(const uint32_t *prime, size_t n, enum field_op op, uint32_t *x,
                     const uint32_t *y)
{
    struct ctx k;
    ctx_init_given(&k, prime, NULL, n);
    bool ok = field2(&k, op, x, y, n);
    ctx_clear(&k);
    return ok;
}

bool curve_decompress(enum curve_id c, uint32_t *pt, unsigned sign)
{
    struct ctx k;
    size_t n = curves[c].limbs;
    ctx_init(&k, c);
    bigint_import(k.x1, pt + n, n);
    bool ok = sign <= 1 && mpz_cmp(k.x1, k.p) < 0;
    if (ok) {
        /*
         * y^2 = x^3 + a x + b; every field here has p = 3 mod 4 (no non-residue
         * needed). No subgroup check: SP1's BLS12-381 decompression (amcl's
         * deserialize_g1) has none, and x = 0 is a point like any other.
         */
        mpz_mul(k.t, k.x1, k.x1);
        mpz_add(k.t, k.t, k.a);
        mpz_mul(k.t, k.t, k.x1);
        bigint_set_constant(k.l, curves[c].b_hex);
        mpz_add(k.t, k.t, k.l);
        mpz_mod(k.t, k.t, k.p);
        ok = mpz_sgn(k.t) != 0 && bigint_sqrt_mod(k.y1, k.t, k.p, k.l);
    }
    if (ok) {
        mpz_sub(k.y2, k.p, k.y1); /* the other root */
        bool flip = c == CURVE_BLS12_381 ? (mpz_cmp(k.y1, k.y2) > 0) != (sign == 1)
                                         : (unsigned)mpz_odd_p(k.y1) != sign;
        bigint_export(pt, n, flip ? k.y2 : k.y1);
    }
    ctx_clear(&k);
    return ok;
}

/* The curve whose prime (and a, unless a is NULL) are the n limbs given, or -1. */
static int find_curve(const uint32_t *p, const uint32_t *a, size_t n)
{
    mpz_t given, known;
    mpz_inits(given, known, NULL);
    int found = -1;
    for (size_t c = 0; c < sizeof(curves) / sizeof(curves[0]) && found < 0; c++) {
        if (curves[c].limbs != n)
            continue;
        bigint_import(given, p, n);
        bigint_set_constant(known, curves[c].p_hex);
        bool same = mpz_cmp(given, known) == 0;
        if (same && a) {
            bigint_import(given, a, n);
            bigint_set_constant(known, curves[c].a_hex);
            same = mpz_cmp(given, known) == 0;
        }
        if (same)
            found = (int)c;
    }
    mpz_clears(given, known, NULL);
    return found;
}

bool curve_is_known_prime(const uint32_t *p, size_t n)
{
    return find_curve(p, NULL, n) >= 0;
}

bool curve_b_of(const uint32_t *p, const uint32_t *a, size_t n, mpz_t b)
{
    int c = find_curve(p, a, n);
    if (c >= 0)
        bigint_set_constant(b, curves[c].b_hex);
    return c >= 0;
}

bool curve_reduced(enum curve_id c, const uint32_t *x)
{
    mpz_t p, v;
    mpz_inits(p, v, NULL);
    bigint_set_constant(p, curves[c].p_hex);
    bigint_import(v, x, curves[c].limbs);
    bool ok = mpz_cmp(v, p) < 0;
    mpz_clears(p, v, NULL);
    return ok;
}

bool curve_on_curve(enum curve_id c, const uint32_t *pt)
{
    struct ctx k;
    size_t n = curves[c].limbs;
    ctx_init(&k, c);
    bigint_import(k.x1, pt, n);
    bigint_import(k.y1, pt + n, n);
    bool ok = mpz_cmp(k.x1, k.p) < 0 && mpz_cmp(k.y1, k.p) < 0;
    if (ok) {
        mpz_mul(k.t, k.x1, k.x1); /* x^3 + a x + b */
        mpz_add(k.t, k.t, k.a);
        mpz_mul(k.t, k.t, k.x1);
        bigint_set_constant(k.l, curves[c].b_hex);
        mpz_add(k.t, k.t, k.l);
        mpz_mul(k.l, k.y1, k.y1);
        mpz_sub(k.t, k.t, k.l);
        ok = mpz_divisible_p(k.t, k.p) != 0;
    }
    ctx_clear(&k);
    return ok;
}

bool curve_scalar_in_range(enum curve_id c, const uint32_t k[8])
{
    mpz_t s, r;
    mpz_inits(s, r, NULL);
    bigint_import(s, k, 8);
    bigint_set_constant(r, curves[c].r_hex);
    bool ok = mpz_sgn(s) != 0 && mpz_cmp(s, r) < 0;
    mpz_clears(s, r, NULL);
    return ok;
}

bool curve_scalar_invert(enum curve_id c, uint32_t k[8])
{
    if (!curve_scalar_in_range(c, k))
        return false;
    mpz_t s, r;
    mpz_inits(s, r, NULL);
    bigint_import(s, k, 8);
    bigint_set_constant(r, curves[c].r_hex);
    bool ok = mpz_invert(s, s, r) != 0; /* r is prime: always */
    if (ok)
        bigint_export(k, 8, s);
    mpz_clears(s, r, NULL);
    return ok;
}

/*
 * (x1, y1) += (x2, y2), two points of the curve (not infinity; they may
 * be the same variables, to double). False when the sum is the point at
 * infinity: P + (-P), or 2P with y = 0.
 */
static bool add_in_place(struct ctx *k, mpz_t x1, mpz_t y1, const mpz_t x2, const mpz_t y2)
{
    if (mpz_cmp(x1, x2) == 0) { /* the same point (tangent) or opposite ones */
        mpz_add(k->t, y1, y2);
        reduce(k->t, k->p);
        if (mpz_sgn(k->t) == 0)
            return false;
        mpz_mul(k->l, x1, x1);
        mpz_mul_ui(k->l, k->l, 3);
        mpz_add(k->l, k->l, k->a);
    } else {
        mpz_sub(k->l, y2, y1);
        mpz_sub(k->t, x2, x1);
    }
    mpz_invert(k->t, k->t, k->p); /* 2y or x2 - x1: not 0 here */
    mpz_mul(k->l, k->l, k->t);
    mpz_mod(k->l, k->l, k->p);
    mpz_mul(k->t, k->l, k->l); /* x3 = l^2 - x1 - x2 */
    mpz_sub(k->t, k->t, x1);
    mpz_sub(k->t, k->t, x2);
    mpz_mod(k->t, k->t, k->p);
    mpz_sub(x1, x1, k->t); /* y3 = l (x1 - x3) - y1 */
    mpz_mul(x1, x1, k->l);
    mpz_sub(y1, x1, y1);
    mpz_mod(y1, y1, k->p);
    mpz_swap(x1, k->t);
    return true;
}

bool curve_mul(enum curve_id c, uint32_t *pt, const uint32_t k[8])
{
    struct ctx w;
    size_t n = curves[c].limbs;
    mpz_t s;
    ctx_init(&w, c);
    mpz_init(s);
    bigint_import(s, k, 8);
    load_point(&w, w.x2, w.y2, pt, n); /* the base; the sum in (x1, y1) */
    bool infinity = true;
    for (size_t bit = mpz_sizeinbase(s, 2); bit-- > 0;) {
        if (!infinity)
            infinity = !add_in_place(&w, w.x1, w.y1, w.x1, w.y1);
        if (!mpz_tstbit(s, bit))
            continue;
        if (infinity) {
            mpz_set(w.x1, w.x2);
            mpz_set(w.y1, w.y2);
            infinity = false;
        } else {
            infinity = !add_in_place(&w, w.x1, w.y1, w.x2, w.y2);
        }
    }
    if (!infinity) {
        bigint_export(pt, n, w.x1);
        bigint_export(pt + n, n, w.y1);
    }
    mpz_clear(s);
    ctx_clear(&w);
    return !infinity;
}
