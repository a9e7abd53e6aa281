/*
 * pairing_field: the extension fields of BN254's and BLS12-381's pairings,
 * on GMP: Fp2 = Fp[u] / (u^2 + 1) and Fp12 = Fp2[w] / (w^6 - xi), xi =
 * xi0 + u (9 + u for BN254, 1 + u for BLS12-381). An Fp12 element is its
 * coefficients of w^0 .. w^5: halo2curves' tower Fq12 = Fq6[w] / (w^2 - v),
 * Fq6 = Fq2[v] / (v^3 - xi) with v = w^2, in the order OpenVM's to_coeffs
 * gives it (c0.c0, c1.c0, c0.c1, c1.c1, c0.c2, c1.c2). Every result is
 * reduced below p.
 */
#ifndef EXECUTOR_PRECOMPILE_PAIRING_FIELD_H
#define EXECUTOR_PRECOMPILE_PAIRING_FIELD_H

#include <gmp.h>
#include <stdbool.h>

/* The field: p, xi0, and the scratch its products use. */
struct pf {
    mpz_t p;
    unsigned long xi0;
    mpz_t acc[11][2]; /* pf12_mul's unreduced coefficients of w^0 .. w^10 */
    mpz_t dbl[6][2];  /* a square's doubled coefficients */
    mpz_t t[4];
};

struct fp2 {
    mpz_t a, b; /* a + b u */
};

struct fp12 {
    struct fp2 c[6]; /* the coefficients of w^0 .. w^5 */
};

void pf_init(struct pf *F, const mpz_t p, unsigned long xi0);
void pf_clear(struct pf *F);

void pf2_init(struct fp2 *x);
void pf2_clear(struct fp2 *x);
void pf2_set(struct fp2 *r, const struct fp2 *x);
bool pf2_is_zero(const struct fp2 *x);
void pf2_add(const struct pf *F, struct fp2 *r, const struct fp2 *x, const struct fp2 *y);
void pf2_sub(const struct pf *F, struct fp2 *r, const struct fp2 *x, const struct fp2 *y);
void pf2_neg(const struct pf *F, struct fp2 *r, const struct fp2 *x);
/* r = x y (r may alias x or y). */
void pf2_mul(struct pf *F, struct fp2 *r, const struct fp2 *x, const struct fp2 *y);
/* r = x k, k in Fp. */
void pf2_mul_fp(const struct pf *F, struct fp2 *r, const struct fp2 *x, const mpz_t k);
/* r = x / y; false (r untouched) when y is 0. */
bool pf2_div(struct pf *F, struct fp2 *r, const struct fp2 *x, const struct fp2 *y);
/* r = the conjugate of x (x^p). */
void pf2_conj(const struct pf *F, struct fp2 *r, const struct fp2 *x);
/* r = x^e, e >= 0. */
void pf2_pow(struct pf *F, struct fp2 *r, const struct fp2 *x, const mpz_t e);

void pf12_init(struct fp12 *x);
void pf12_clear(struct fp12 *x);
void pf12_set(struct fp12 *r, const struct fp12 *x);
void pf12_set_one(struct fp12 *r);
bool pf12_is_one(const struct fp12 *x);
bool pf12_is_zero(const struct fp12 *x);
/*
 * r = x y (r may alias x or y); zero coefficients of y are skipped (sparse
 * lines), and x == y squares.
 */
void pf12_mul(struct pf *F, struct fp12 *r, const struct fp12 *x, const struct fp12 *y);
/* r = x^e, e >= 0 (r may alias x), by windows of 4 bits. */
void pf12_pow(struct pf *F, struct fp12 *r, const struct fp12 *x, const mpz_t e);
/* r = x^-1 (r may alias x): conj(x) / (x conj(x)), the divisor in Fp6; false when x is 0. */
bool pf12_inv(struct pf *F, struct fp12 *r, const struct fp12 *x);
/* r = the conjugate of x over Fp6: the odd coefficients negated. */
void pf12_conj(const struct pf *F, struct fp12 *r, const struct fp12 *x);

#endif
