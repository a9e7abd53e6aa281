/*
 * zisk_fcall_int: ZisK's free calls on plain integers, as its host
 * computes them with num-bigint (ziskos zisklib/fcalls_impl/ uint256/,
 * bigint_div.rs, bin_decomp.rs, msb_pos_256.rs, msb_pos_384.rs at
 * v0.18.0, 790f9e28; big_int256_div.rs, big_int_div.rs at v0.16.0,
 * aacf0a73): division, inverses mod 2^256 and mod m, the binary
 * decomposition and the position of the highest set bit. Docs:
 * docs/ZKVMS.md.
 */
#include "executor/abi/zisk_fcall_calls.h"

#include <string.h>

static int fail(struct fcall_io *io, const char *why)
{
    io->nresults = 0;
    io->why = why;
    return -1;
}

/* a and b = the parameters' first two 4-word numbers. */
static void two_operands(const struct fcall_io *io, mpz_t a, mpz_t b)
{
    mpz_inits(a, b, NULL);
    zf_import(a, io->params, 4);
    zf_import(b, io->params + 4, 4);
}

/* a, b (4 words each) -> q, r (4 each); b = 0 panics (div_rem). Also v0.16's big_int256_div. */
int zisk_fcall_uint256_div(struct fcall_io *io, const void *arg)
{
    mpz_t a, b;
    (void)arg;
    two_operands(io, a, b);
    int r = 0;
    if (mpz_sgn(b) == 0) {
        r = fail(io, "division by 0: ZisK's host panics");
    } else {
        mpz_tdiv_qr(a, b, a, b);
        zf_export(io->results, 4, a);
        zf_export(io->results + 4, 4, b);
        io->nresults = 8;
    }
    mpz_clears(a, b, NULL);
    return r;
}

/* [1, a^-1 mod m] or [0, 0 (4 words)] when there is none; m = 1 gives [1, 0] (modinv). */
static void inverse_mod(struct fcall_io *io, const mpz_t a, const mpz_t m)
{
    mpz_t r;
    mpz_init(r);
    bool has = mpz_cmp_ui(m, 1) == 0 || mpz_invert(r, a, m);
    if (!has)
        mpz_set_ui(r, 0);
    io->results[0] = has;
    zf_export(io->results + 1, 4, r);
    io->nresults = 5;
    mpz_clear(r);
}

/* a (4 words) -> [1, a^-1 mod 2^256] for odd a, else [0, 0 (4 words)] (uint256/inv.rs) */
int zisk_fcall_uint256_inv(struct fcall_io *io, const void *arg)
{
    mpz_t a, m;
    (void)arg;
    mpz_inits(a, m, NULL);
    zf_import(a, io->params, 4);
    mpz_setbit(m, 256);
    inverse_mod(io, a, m);
    mpz_clears(a, m, NULL);
    return 0;
}

/* a, m (4 words each) -> [1, a^-1 mod m] or [0, 0]; m = 0 panics (uint256/inv_mod.rs) */
int zisk_fcall_uint256_inv_mod(struct fcall_io *io, const void *arg)
{
    mpz_t a, m;
    (void)arg;
    two_operands(io, a, m);
    int r = 0;
    if (mpz_sgn(m) == 0)
        r = fail(io, "modulus 0: ZisK's host panics (num-bigint modinv)");
    else
        inverse_mod(io, a, m);
    mpz_clears(a, m, NULL);
    return r;
}

/* Appends [len, z's words rounded up to a multiple of 4] at *at; 0 is 4 words, or none with
 * `empty_zero`. */
static void put_padded(uint64_t *results, size_t *at, const mpz_t z, bool empty_zero)
{
    size_t words = (mpz_sizeinbase(z, 2) + 63) / 64;
    if (mpz_sgn(z) == 0)
        words = empty_zero ? 0 : 4;
    words = (words + 3) / 4 * 4;
    results[(*at)++] = words;
    zf_export(results + *at, words, z);
    *at += words;
}

/*
 * len_a, a (len_a words), len_b, b (len_b words) -> len_q, q, len_r, r,
 * each rounded up to a multiple of 4 words; b = 0 panics. A quotient of 0
 * is 4 zero words (bigint_div.rs, v0.17.0+), or none when arg points to
 * true (big_int_div.rs, v0.16.x). The call's shape (zisk_fcall.c) made
 * sure the lengths fit the words pushed, so the result (at most 2 + 4 +
 * the words pushed) fits ZisK's 8193 result words.
 */
int zisk_fcall_bigint_div(struct fcall_io *io, const void *arg)
{
    const uint64_t *p = io->params;
    size_t la = p[0], lb = p[1 + la];
    bool empty_zero = arg && *(const bool *)arg;
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    zf_import(a, p + 1, la);
    zf_import(b, p + 2 + la, lb);
    int r = 0;
    if (mpz_sgn(b) == 0) {
        r = fail(io, "division by 0: ZisK's host panics");
    } else {
        size_t at = 0;
        mpz_tdiv_qr(a, b, a, b);
        put_padded(io->results, &at, a, empty_zero);
        put_padded(io->results, &at, b, false);
        io->nresults = at;
    }
    mpz_clears(a, b, NULL);
    return r;
}

/*
 * len, x (len words) -> [n, the n bits of x from its highest set bit
 * down, one a word]; 0 gives [1, 0]. More than 8192 bits overrun ZisK's
 * result words: its host panics.
 */
int zisk_fcall_bin_decomp(struct fcall_io *io, const void *arg)
{
    size_t len = io->params[0], n = 0;
    const uint64_t *x = io->params + 1;
    (void)arg;
    for (size_t i = len; i-- > 0 && !n;)
        if (x[i])
            n = 64 * i + 64 - (size_t)__builtin_clzll(x[i]);
    if (1 + (n ? n : 1) > io->room)
        return fail(io, "more than 8192 bits overrun ZisK's result words: its host panics");
    io->results[0] = n ? n : 1;
    io->results[1] = 0;
    for (size_t k = 0; k < n; k++) {
        size_t bit = n - 1 - k;
        io->results[1 + k] = x[bit / 64] >> (bit % 64) & 1;
    }
    io->nresults = 1 + io->results[0];
    return 0;
}

/* [limb, bit] of the highest set bit of the largest of the words at w[k * stride + limb]. */
static int msb_among(struct fcall_io *io, const uint64_t *w, size_t count, size_t stride,
                     unsigned limbs)
{
    for (unsigned limb = limbs; limb-- > 0;) {
        uint64_t max = 0;
        for (size_t k = 0; k < count; k++)
            if (w[k * stride + limb] > max)
                max = w[k * stride + limb];
        if (max) {
            io->results[0] = limb;
            io->results[1] = 63 - (uint64_t)__builtin_clzll(max);
            io->nresults = 2;
            return 0;
        }
    }
    return fail(io, "all the numbers are 0: ZisK's host panics");
}

/* n, then n numbers of 4 words -> [limb, bit] (msb_pos_256.rs) */
int zisk_fcall_msb_pos_256(struct fcall_io *io, const void *arg)
{
    (void)arg;
    return msb_among(io, io->params + 1, io->params[0], 4, 4);
}

/* x (8 words, 6 used), y (8 words, 6 used) -> [limb, bit] (msb_pos_384.rs) */
int zisk_fcall_msb_pos_384(struct fcall_io *io, const void *arg)
{
    (void)arg;
    return msb_among(io, io->params, 2, 8, 6);
}
