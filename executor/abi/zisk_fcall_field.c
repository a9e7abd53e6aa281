/*
 * zisk_fcall_field: ZisK's free calls in Fp and Fp2 = Fp[u] / (u^2 + 1),
 * as its host computes them with num-bigint (ziskos zisklib/fcalls_impl/
 * at v0.18.0, 790f9e28; the same at v0.16.0, aacf0a73): the inverses,
 * the square roots and BN254's and BLS12-381's twist line coefficients,
 * with the host's panics (an inverse of 0, a subtraction below 0 on
 * operands not below p). Docs: docs/ZKVMS.md.
 */
#include "executor/abi/zisk_fcall_calls.h"

#include <string.h>

/* The fields computed here: the primes and group orders their crates name. */
const struct zisk_fcall_field zisk_secp256k1_fp = {
    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", 4, false, 3, true};
const struct zisk_fcall_field zisk_secp256k1_fn = {
    "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 4, false, 0, false};
const struct zisk_fcall_field zisk_bn254_fp = {
    "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", 4, true, 0, false};
const struct zisk_fcall_field zisk_bls12_381_fp = {
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffff"
    "ffffaaab",
    6, false, 2, false};

void zf_import(mpz_t z, const uint64_t *w, size_t n)
{
    mpz_import(z, n, -1, 8, 0, 0, w);
}

void zf_export(uint64_t *w, size_t n, const mpz_t z)
{
    memset(w, 0, 8 * n);
    mpz_export(w, NULL, -1, 8, 0, 0, z);
}

void zf_init(struct zfield *f, const char *hex_p, bool sub_reduces)
{
    mpz_init_set_str(f->p, hex_p, 16);
    f->sub_reduces = sub_reduces;
    f->why = NULL;
}

void zf_clear(struct zfield *f)
{
    mpz_clear(f->p);
}

void zf_add(struct zfield *f, mpz_t r, const mpz_t a, const mpz_t b)
{
    mpz_add(r, a, b);
    mpz_mod(r, r, f->p);
}

void zf_mul(struct zfield *f, mpz_t r, const mpz_t a, const mpz_t b)
{
    mpz_mul(r, a, b);
    mpz_mod(r, r, f->p);
}

void zf_sub(struct zfield *f, mpz_t r, const mpz_t a, const mpz_t b)
{
    bool below = mpz_cmp(a, b) < 0;
    mpz_sub(r, a, b);
    if (below)
        mpz_add(r, r, f->p);
    if (mpz_sgn(r) < 0) {
        f->why = f->why ? f->why
                        : "a subtraction goes below 0 (an operand not below p): ZisK's host "
                          "panics";
        mpz_set_ui(r, 0);
    }
    if (f->sub_reduces)
        mpz_mod(r, r, f->p);
}

void zf_inv(struct zfield *f, mpz_t r, const mpz_t a)
{
    if (!mpz_invert(r, a, f->p)) {
        f->why = f->why ? f->why : "no inverse exists (x is 0 mod p): ZisK's host panics";
        mpz_set_ui(r, 0);
    }
}

/* p - a (0 for 0): fp_neg, which panics for a above p */
static void zf_neg(struct zfield *f, mpz_t r, const mpz_t a)
{
    if (mpz_sgn(a) == 0) {
        mpz_set_ui(r, 0);
        return;
    }
    mpz_sub(r, f->p, a);
    if (mpz_sgn(r) < 0) {
        f->why = f->why ? f->why : "the negation of a number above p: ZisK's host panics";
        mpz_set_ui(r, 0);
    }
}

/* ---- Fp2 ---- */

struct fp2 {
    mpz_t re, im;
};

static void fp2_init(struct fp2 *a)
{
    mpz_inits(a->re, a->im, NULL);
}

static void fp2_clear(struct fp2 *a)
{
    mpz_clears(a->re, a->im, NULL);
}

static void fp2_import(struct fp2 *a, const uint64_t *w, unsigned n)
{
    zf_import(a->re, w, n);
    zf_import(a->im, w + n, n);
}

static void fp2_export(uint64_t *w, unsigned n, const struct fp2 *a)
{
    zf_export(w, n, a->re);
    zf_export(w + n, n, a->im);
}

static void fp2_sub(struct zfield *f, struct fp2 *r, const struct fp2 *a, const struct fp2 *b)
{
    zf_sub(f, r->re, a->re, b->re);
    zf_sub(f, r->im, a->im, b->im);
}

static void fp2_scale(struct zfield *f, struct fp2 *r, const struct fp2 *a, unsigned long k)
{
    mpz_mul_ui(r->re, a->re, k);
    mpz_mod(r->re, r->re, f->p);
    mpz_mul_ui(r->im, a->im, k);
    mpz_mod(r->im, r->im, f->p);
}

/* r = a b: (ar br - ai bi, ar bi + ai br); r may be a or b */
static void fp2_mul(struct zfield *f, struct fp2 *r, const struct fp2 *a, const struct fp2 *b)
{
    mpz_t t0, t1, t2;
    mpz_inits(t0, t1, t2, NULL);
    zf_mul(f, t0, a->re, b->re);
    zf_mul(f, t1, a->im, b->im);
    zf_mul(f, t2, a->re, b->im);
    zf_mul(f, r->im, a->im, b->re);
    zf_add(f, r->im, r->im, t2);
    zf_sub(f, r->re, t0, t1);
    mpz_clears(t0, t1, t2, NULL);
}

/* r = a^-1 = (ar, -ai) / (ar^2 + ai^2) (fp2_inv.rs, bn254/fp2.rs) */
static void fp2_inv(struct zfield *f, struct fp2 *r, const struct fp2 *a)
{
    mpz_t d, t;
    mpz_inits(d, t, NULL);
    zf_mul(f, d, a->re, a->re);
    zf_mul(f, t, a->im, a->im);
    zf_add(f, d, d, t);
    zf_inv(f, d, d);
    zf_neg(f, t, a->im);
    zf_mul(f, r->re, a->re, d);
    zf_mul(f, r->im, t, d);
    mpz_clears(d, t, NULL);
}

/* ---- the calls ---- */

/* What a call over `fd` works with. */
struct field_call {
    struct zfield f;
    unsigned n;
};

static void call_init(struct field_call *c, const struct zisk_fcall_field *fd)
{
    zf_init(&c->f, fd->p, fd->sub_reduces);
    c->n = fd->words;
}

/* Ends a call: its result words, or -1 with the first panic met. */
static int call_end(struct field_call *c, struct fcall_io *io, size_t nresults)
{
    int r = c->f.why ? -1 : 0;
    io->why = c->f.why;
    io->nresults = c->f.why ? 0 : nresults;
    zf_clear(&c->f);
    return r;
}

/* x (n words) -> x^-1 mod p (secp256k1/fp_inv.rs, fn_inv.rs, bn254/fp.rs, bls12_381/fp_inv.rs) */
int zisk_fcall_inverse(struct fcall_io *io, const void *arg)
{
    struct field_call c;
    mpz_t x;
    call_init(&c, arg);
    mpz_init(x);
    zf_import(x, io->params, c.n);
    zf_inv(&c.f, x, x);
    zf_export(io->results, c.n, x);
    mpz_clear(x);
    return call_end(&c, io, c.n);
}

/* x (2n words: c0, c1) -> x^-1 in Fp2 (bn254/fp2.rs, bls12_381/fp2_inv.rs) */
int zisk_fcall_inverse_fp2(struct fcall_io *io, const void *arg)
{
    struct field_call c;
    struct fp2 x;
    call_init(&c, arg);
    fp2_init(&x);
    fp2_import(&x, io->params, c.n);
    fp2_inv(&c.f, &x, &x);
    fp2_export(io->results, c.n, &x);
    fp2_clear(&x);
    return call_end(&c, io, 2 * c.n);
}

/*
 * x (n words)[, parity (1)] -> [1, a root of x] or [0, the root of nqr x]
 * when x is no square (x not below p is none, as in ZisK's host): r =
 * x^((p + 1) / 4), both primes being 3 mod 4. With a parity word, the
 * root whose low bit equals the whole word (2 and up: the other root;
 * secp256k1/fp_sqrt.rs).
 */
int zisk_fcall_sqrt(struct fcall_io *io, const void *arg)
{
    const struct zisk_fcall_field *fd = arg;
    struct field_call c;
    mpz_t x, e, r, sq;
    call_init(&c, fd);
    mpz_inits(x, e, r, sq, NULL);
    zf_import(x, io->params, c.n);
    mpz_add_ui(e, c.f.p, 1);
    mpz_fdiv_q_2exp(e, e, 2);
    mpz_powm(r, x, e, c.f.p);
    zf_mul(&c.f, sq, r, r);
    bool square = mpz_cmp(sq, x) == 0;
    if (!square) {
        mpz_mul_ui(x, x, fd->nqr);
        mpz_powm(r, x, e, c.f.p);
    } else if (fd->parity && (uint64_t)mpz_odd_p(r) != io->params[c.n]) {
        mpz_sub(r, c.f.p, r);
        mpz_mod(r, r, c.f.p);
    }
    io->results[0] = square;
    zf_export(io->results + 1, c.n, r);
    mpz_clears(x, e, r, sq, NULL);
    return call_end(&c, io, c.n + 1);
}

/* r = a^e, square and multiply from the low bit (bls12_381_fp2_exp) */
static void fp2_pow(struct zfield *f, struct fp2 *r, const struct fp2 *a, const mpz_t e)
{
    struct fp2 base;
    fp2_init(&base);
    mpz_set(base.re, a->re);
    mpz_set(base.im, a->im);
    mpz_set_ui(r->re, 1);
    mpz_set_ui(r->im, 0);
    for (mp_bitcnt_t i = 0, bits = mpz_sizeinbase(e, 2); i < bits; i++) {
        if (mpz_tstbit(e, i))
            fp2_mul(f, r, r, &base);
        fp2_mul(f, &base, &base, &base);
    }
    fp2_clear(&base);
}

/* True when a = (p - 1, 0), word for word (P_MINUS_ONE). */
static bool fp2_is_minus_one(const struct zfield *f, const struct fp2 *a)
{
    mpz_t t;
    mpz_init(t);
    mpz_sub_ui(t, f->p, 1);
    bool eq = mpz_sgn(a->im) == 0 && mpz_cmp(t, a->re) == 0;
    mpz_clear(t);
    return eq;
}

/*
 * A square root of a in Fp2, p = 3 mod 4: Algorithm 9 of
 * eprint.iacr.org/2012/685 as bls12_381/fp2_sqrt.rs runs it (which root
 * it gives follows from the steps); false when a is no square (x = 0).
 */
static bool fp2_sqrt9(struct zfield *f, struct fp2 *x, const struct fp2 *a)
{
    struct fp2 a1, a1a, alpha, t;
    mpz_t e;
    bool square = true;
    fp2_init(&a1), fp2_init(&a1a), fp2_init(&alpha), fp2_init(&t);
    mpz_init(e);
    mpz_sub_ui(e, f->p, 3);
    mpz_fdiv_q_2exp(e, e, 2);
    fp2_pow(f, &a1, a, e); /* a^((p-3)/4) */
    fp2_mul(f, &a1a, &a1, a);
    fp2_mul(f, &alpha, &a1, &a1a);
    mpz_set(t.re, alpha.re); /* conjugate(alpha) alpha */
    zf_neg(f, t.im, alpha.im);
    fp2_mul(f, &t, &t, &alpha);
    if (fp2_is_minus_one(f, &t)) {
        square = false;
        mpz_set_ui(x->re, 0);
        mpz_set_ui(x->im, 0);
    } else if (fp2_is_minus_one(f, &alpha)) {
        mpz_set_ui(t.re, 0); /* i x0 */
        mpz_set_ui(t.im, 1);
        fp2_mul(f, x, &t, &a1a);
    } else {
        mpz_set_ui(t.re, 1); /* (1 + alpha)^((p-1)/2) x0 */
        mpz_set_ui(t.im, 0);
        zf_add(f, t.re, t.re, alpha.re);
        zf_add(f, t.im, t.im, alpha.im);
        mpz_sub_ui(e, f->p, 1);
        mpz_fdiv_q_2exp(e, e, 1);
        fp2_pow(f, x, &t, e);
        fp2_mul(f, x, x, &a1a);
    }
    fp2_clear(&a1), fp2_clear(&a1a), fp2_clear(&alpha), fp2_clear(&t);
    mpz_clear(e);
    return square;
}

/*
 * x (2n words) -> [1, a root of x], or [0, a root of x (1 + u)] when x is
 * no square (1 + u is none; bls12_381/fp2_sqrt.rs, constants.rs NQR_FP2).
 */
int zisk_fcall_fp2_sqrt(struct fcall_io *io, const void *arg)
{
    struct field_call c;
    struct fp2 a, x;
    call_init(&c, arg);
    fp2_init(&a), fp2_init(&x);
    fp2_import(&a, io->params, c.n);
    bool square = fp2_sqrt9(&c.f, &x, &a);
    if (!square) {
        mpz_set_ui(x.re, 1);
        mpz_set_ui(x.im, 1);
        fp2_mul(&c.f, &a, &a, &x);
        fp2_sqrt9(&c.f, &x, &a);
    }
    io->results[0] = square;
    fp2_export(io->results + 1, c.n, &x);
    fp2_clear(&a), fp2_clear(&x);
    return call_end(&c, io, 2 * c.n + 1);
}

/* The line's (lambda, mu = y1 - lambda x1) into the results: 4n words. */
static int line_end(struct field_call *c, struct fcall_io *io, struct fp2 *lambda,
                    const struct fp2 *x1, const struct fp2 *y1)
{
    struct fp2 mu;
    fp2_init(&mu);
    fp2_mul(&c->f, &mu, lambda, x1);
    fp2_sub(&c->f, &mu, y1, &mu);
    fp2_export(io->results, c->n, lambda);
    fp2_export(io->results + 2 * c->n, c->n, &mu);
    fp2_clear(&mu);
    return call_end(c, io, 4 * c->n);
}

/* Initialises v[0..k) and reads the first `read` of them from the parameters, 2n words each. */
static void fp2_take(struct fp2 *v, size_t k, size_t read, const struct fcall_io *io, unsigned n)
{
    for (size_t i = 0; i < k; i++) {
        fp2_init(&v[i]);
        if (i < read)
            fp2_import(&v[i], io->params + 2 * n * i, n);
    }
}

static void fp2_free(struct fp2 *v, size_t k)
{
    for (size_t i = 0; i < k; i++)
        fp2_clear(&v[i]);
}

/*
 * x1, y1, x2, y2 (2n words each) -> lambda = (y2 - y1) / (x2 - x1), mu =
 * y1 - lambda x1 (bn254/twist.rs, bls12_381/twist.rs: x1 = x2 panics).
 */
int zisk_fcall_twist_add_line(struct fcall_io *io, const void *arg)
{
    struct field_call c;
    struct fp2 v[4]; /* x1, y1, x2, y2 */
    call_init(&c, arg);
    fp2_take(v, 4, 4, io, c.n);
    fp2_sub(&c.f, &v[2], &v[2], &v[0]);
    fp2_inv(&c.f, &v[2], &v[2]);
    fp2_sub(&c.f, &v[3], &v[3], &v[1]);
    fp2_mul(&c.f, &v[2], &v[2], &v[3]);
    int r = line_end(&c, io, &v[2], &v[0], &v[1]);
    fp2_free(v, 4);
    return r;
}

/* x, y (2n words each) -> lambda = 3 x^2 / 2 y, mu = y - lambda x (y = 0 panics). */
int zisk_fcall_twist_dbl_line(struct fcall_io *io, const void *arg)
{
    struct field_call c;
    struct fp2 v[4]; /* x, y, lambda, 3 x^2 */
    call_init(&c, arg);
    fp2_take(v, 4, 2, io, c.n);
    fp2_scale(&c.f, &v[2], &v[1], 2);
    fp2_inv(&c.f, &v[2], &v[2]);
    fp2_mul(&c.f, &v[3], &v[0], &v[0]);
    fp2_scale(&c.f, &v[3], &v[3], 3);
    fp2_mul(&c.f, &v[2], &v[2], &v[3]);
    int r = line_end(&c, io, &v[2], &v[0], &v[1]);
    fp2_free(v, 4);
    return r;
}
