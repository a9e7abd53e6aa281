/*
 * verifier.c: a toy STARK/FRI verifier, for call graphs like a real one:
 * many small noinline functions calling each other. BabyBear field
 * arithmetic (p = 15 * 2^27 + 1, Montgomery form: add, sub, mul, inverse
 * by exponentiation), a toy Poseidon2-like permutation (x^7 S-box, full
 * and partial rounds), a Fiat-Shamir sponge, Merkle trees and paths, and
 * FRI folding. A "prover" commits to a low-degree polynomial, then the
 * verifier checks q queries (q from the private input, default 4) and
 * prints a digest of the transcript.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "guest.h"

#define NOINLINE __attribute__((noinline))

/* ---- BabyBear field, Montgomery form with R = 2^32 ---- */
#define P         0x78000001u
#define P_NEG_INV 0x77ffffffu /* -P^-1 mod 2^32 */
#define R2        0x45dddde3u /* 2^64 mod P */
#define F_ONE     0x0ffffffeu /* 2^32 mod P: 1 in Montgomery form */

typedef uint32_t fe;

NOINLINE static fe f_add(fe a, fe b)
{
    fe s = a + b;
    return s >= P ? s - P : s;
}

NOINLINE static fe f_sub(fe a, fe b)
{
    return a >= b ? a - b : a + P - b;
}

NOINLINE static fe f_mul(fe a, fe b)
{
    uint64_t t = (uint64_t)a * b;
    uint32_t m = (uint32_t)t * P_NEG_INV;
    uint32_t u = (uint32_t)((t + (uint64_t)m * P) >> 32);
    return u >= P ? u - P : u;
}

NOINLINE static fe f_from_u32(uint32_t x)
{
    return f_mul(x % P, R2);
}
NOINLINE static uint32_t f_to_u32(fe a)
{
    return f_mul(a, 1);
}

NOINLINE static fe f_pow(fe a, uint32_t e)
{
    fe r = F_ONE;
    while (e) {
        if (e & 1)
            r = f_mul(r, a);
        a = f_mul(a, a);
        e >>= 1;
    }
    return r;
}

NOINLINE static fe f_inv(fe a)
{
    return f_pow(a, P - 2);
}

/* ---- toy Poseidon2-like permutation, width 8 ---- */
#define WIDTH          8
#define RATE           4
#define FULL_ROUNDS    4 /* half before, half after the partial rounds */
#define PARTIAL_ROUNDS 6
#define NROUNDS        (FULL_ROUNDS + PARTIAL_ROUNDS)

static fe round_constants[NROUNDS][WIDTH];

static void init_round_constants(void)
{
    uint32_t x = 0x9e3779b9u;
    for (int r = 0; r < NROUNDS; r++)
        for (int i = 0; i < WIDTH; i++) {
            x = x * 1664525u + 1013904223u;
            round_constants[r][i] = f_from_u32(x);
        }
}

NOINLINE static fe sbox(fe x)
{
    fe x2 = f_mul(x, x);
    fe x3 = f_mul(x2, x);
    fe x6 = f_mul(x3, x3);
    return f_mul(x6, x);
}

NOINLINE static void add_round_constants(fe s[WIDTH], int round)
{
    for (int i = 0; i < WIDTH; i++)
        s[i] = f_add(s[i], round_constants[round][i]);
}

/* linear layer: s_i += sum(s), i.e. the matrix J + I */
NOINLINE static void mix(fe s[WIDTH])
{
    fe sum = 0;
    for (int i = 0; i < WIDTH; i++)
        sum = f_add(sum, s[i]);
    for (int i = 0; i < WIDTH; i++)
        s[i] = f_add(s[i], sum);
}

NOINLINE static void full_round(fe s[WIDTH], int round)
{
    add_round_constants(s, round);
    for (int i = 0; i < WIDTH; i++)
        s[i] = sbox(s[i]);
    mix(s);
}

NOINLINE static void partial_round(fe s[WIDTH], int round)
{
    s[0] = f_add(s[0], round_constants[round][0]);
    s[0] = sbox(s[0]);
    mix(s);
}

NOINLINE static void permute(fe s[WIDTH])
{
    int r = 0;
    mix(s);
    for (int i = 0; i < FULL_ROUNDS / 2; i++)
        full_round(s, r++);
    for (int i = 0; i < PARTIAL_ROUNDS; i++)
        partial_round(s, r++);
    for (int i = 0; i < FULL_ROUNDS / 2; i++)
        full_round(s, r++);
}

typedef struct {
    fe w[RATE];
} digest;

/* 2-to-1 compression with feed-forward */
NOINLINE static digest compress(const digest *l, const digest *r)
{
    fe s[WIDTH];
    memcpy(s, l->w, sizeof l->w);
    memcpy(s + RATE, r->w, sizeof r->w);
    permute(s);
    digest d;
    for (int i = 0; i < RATE; i++)
        d.w[i] = f_add(s[i], l->w[i]);
    return d;
}

NOINLINE static digest hash_pair(fe a, fe b)
{
    fe s[WIDTH] = {a, b, 0, 0, 0, 0, 0, F_ONE};
    permute(s);
    digest d;
    memcpy(d.w, s, sizeof d.w);
    return d;
}

NOINLINE static int digest_eq(const digest *a, const digest *b)
{
    return memcmp(a->w, b->w, sizeof a->w) == 0;
}

/* ---- Fiat-Shamir transcript (duplex sponge) ---- */
static fe sponge[WIDTH];

NOINLINE static void transcript_absorb(const fe *v, int n)
{
    for (int i = 0; i < n; i++) {
        sponge[i % RATE] = f_add(sponge[i % RATE], v[i]);
        if (i % RATE == RATE - 1 || i == n - 1)
            permute(sponge);
    }
}

NOINLINE static fe transcript_challenge(void)
{
    permute(sponge);
    return sponge[0];
}

/* ---- Merkle trees over pairs (f[i], f[i + n/2]) ---- */
#define LOG_N       5
#define N           (1 << LOG_N)
#define FINAL_SIZE  4
#define NLAYERS     3 /* committed layers of size 32, 16, 8; the last fold gives 4 */
#define MAX_QUERIES 4096

struct layer {
    int n;           /* evaluations in this layer */
    fe evals[N];     /* f on the domain w_n^i */
    digest nodes[N]; /* heap-ordered tree over n/2 leaves: nodes[1] is the root */
    fe beta;         /* folding challenge */
};

static struct layer layers[NLAYERS];
static fe final_evals[FINAL_SIZE];

NOINLINE static void merkle_build(struct layer *L)
{
    int leaves = L->n / 2;
    for (int i = 0; i < leaves; i++)
        L->nodes[leaves + i] = hash_pair(L->evals[i], L->evals[i + leaves]);
    for (int i = leaves - 1; i >= 1; i--)
        L->nodes[i] = compress(&L->nodes[2 * i], &L->nodes[2 * i + 1]);
}

/* verifier side: the path of `leaf` read from the prover's tree */
NOINLINE static int merkle_verify(const struct layer *L, int leaf, fe a, fe b)
{
    int leaves = L->n / 2;
    digest cur = hash_pair(a, b);
    for (int idx = leaves + leaf; idx > 1; idx >>= 1) {
        const digest *sib = &L->nodes[idx ^ 1];
        cur = (idx & 1) ? compress(sib, &cur) : compress(&cur, sib);
    }
    return digest_eq(&cur, &L->nodes[1]);
}

/* root of unity of order n (a power of two up to 2^27); 31 generates F_p^* */
NOINLINE static fe root_of_unity(int n)
{
    return f_pow(f_from_u32(31), (P - 1) / (uint32_t)n);
}

/* f'(x^2) = (f(x) + f(-x)) / 2 + beta (f(x) - f(-x)) / (2x) */
NOINLINE static fe fold(fe fx, fe fmx, fe x, fe beta, fe inv2)
{
    fe even = f_mul(f_add(fx, fmx), inv2);
    fe odd = f_mul(f_mul(f_sub(fx, fmx), inv2), f_inv(x));
    return f_add(even, f_mul(beta, odd));
}

/* ---- prover: commit to a polynomial of degree < N/4 and fold it ---- */
NOINLINE static void prove(void)
{
    fe coeffs[N / 4];
    uint32_t x = 12345;
    for (int i = 0; i < N / 4; i++) {
        x = x * 1103515245u + 12345u;
        coeffs[i] = f_from_u32(x >> 1);
    }
    fe w = root_of_unity(N), xi = F_ONE;
    for (int i = 0; i < N; i++) {
        fe acc = 0;
        for (int j = N / 4 - 1; j >= 0; j--)
            acc = f_add(f_mul(acc, xi), coeffs[j]);
        layers[0].evals[i] = acc;
        xi = f_mul(xi, w);
    }

    fe inv2 = f_inv(f_from_u32(2));
    for (int k = 0; k < NLAYERS; k++) {
        struct layer *L = &layers[k];
        L->n = N >> k;
        merkle_build(L);
        transcript_absorb(L->nodes[1].w, RATE);
        L->beta = transcript_challenge();
        int half = L->n / 2;
        fe *next = k + 1 < NLAYERS ? layers[k + 1].evals : final_evals;
        fe wk = root_of_unity(L->n), xk = F_ONE;
        for (int i = 0; i < half; i++) {
            next[i] = fold(L->evals[i], L->evals[i + half], xk, L->beta, inv2);
            xk = f_mul(xk, wk);
        }
    }
    transcript_absorb(final_evals, FINAL_SIZE);
}

/* ---- verifier ---- */
NOINLINE static int verify_query(uint32_t q, fe inv2, fe *acc)
{
    fe expected = 0;
    for (int k = 0; k < NLAYERS; k++) {
        const struct layer *L = &layers[k];
        int half = L->n / 2;
        int leaf = (int)(q % (uint32_t)half);
        fe a = L->evals[leaf], b = L->evals[leaf + half]; /* the opening */
        if (!merkle_verify(L, leaf, a, b))
            return 0;
        if (k > 0 && expected != ((int)q < half ? a : b))
            return 0;
        fe x = f_pow(root_of_unity(L->n), (uint32_t)leaf);
        expected = fold(a, b, x, L->beta, inv2);
        q = (uint32_t)leaf;
    }
    *acc = f_add(f_mul(*acc, f_from_u32(7)), expected);
    return final_evals[q] == expected;
}

NOINLINE static int verify(int nqueries, fe *acc)
{
    /* the final layer must be a constant: the polynomial had low degree */
    for (int i = 1; i < FINAL_SIZE; i++)
        if (final_evals[i] != final_evals[0])
            return 0;
    fe inv2 = f_inv(f_from_u32(2));
    for (int i = 0; i < nqueries; i++) {
        uint32_t q = f_to_u32(transcript_challenge()) % N;
        if (!verify_query(q, inv2, acc))
            return 0;
    }
    return 1;
}

int main(void)
{
    uint64_t nq = guest_input_u64(4);
    if (nq > MAX_QUERIES)
        nq = MAX_QUERIES;

    /* field self-checks */
    fe a = f_from_u32(123456789);
    if (f_to_u32(f_mul(a, f_inv(a))) != 1 || f_to_u32(f_pow(root_of_unity(N), N / 2)) != P - 1) {
        printf("field self-check failed\n");
        return 1;
    }

    init_round_constants();
    prove();
    fe acc = 0;
    if (!verify((int)nq, &acc)) {
        printf("verification failed\n");
        return 1;
    }
    fe out[WIDTH];
    memcpy(out, sponge, sizeof out);
    out[0] = f_add(out[0], acc);
    permute(out);
    printf("verified %d queries; digest %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 "\n",
           (int)nq, f_to_u32(out[0]), f_to_u32(out[1]), f_to_u32(out[2]), f_to_u32(out[3]));
    return 0;
}
