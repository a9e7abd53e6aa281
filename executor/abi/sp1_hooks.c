/*
 * sp1_hooks: SP1's host hooks (crates/core/executor/src/hook.rs), each
 * computed as that file does it, with GMP, so that the same bytes come
 * back. Where SP1's hook panics, the hook here returns why instead.
 */
#include "executor/abi/sp1_hooks.h"

#include <string.h>

#include "executor/precompile/bigint.h"
#include "executor/precompile/edwards.h"

static const struct {
    unsigned fd;
    const char *name;
} hook_names[] = {
    {SP1_FD_ECRECOVER_HOOK, "FD_ECRECOVER_HOOK"},
    {SP1_FD_EDDECOMPRESS, "FD_EDDECOMPRESS"},
    {SP1_FD_RSA_MUL_MOD, "FD_RSA_MUL_MOD"},
    {SP1_FD_BLS12_381_SQRT, "FD_BLS12_381_SQRT"},
    {SP1_FD_BLS12_381_INVERSE, "FD_BLS12_381_INVERSE"},
    {SP1_FD_FP_SQRT, "FD_FP_SQRT"},
    {SP1_FD_FP_INV, "FD_FP_INV"},
};

const char *sp1_hook_name(uint64_t fd)
{
    for (size_t i = 0; i < sizeof(hook_names) / sizeof(hook_names[0]); i++)
        if (hook_names[i].fd == fd)
            return hook_names[i].name;
    return NULL;
}

static const char *const SECP256K1_P =
    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f";
static const char *const SECP256K1_N =
    "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
static const char *const SECP256R1_P =
    "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
static const char *const SECP256R1_N =
    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
static const char *const BLS12_381_P =
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffff"
    "aaab";

/* Appends an item: the low `size` bytes of z, big- or little-endian. */
static void answer_number(struct sp1_hook_answer *out, const mpz_t z, size_t size, bool big_endian)
{
    bigint_export_bytes(out->item[out->count], size, z, big_endian);
    out->size[out->count++] = size;
}

static void answer_status(struct sp1_hook_answer *out, uint8_t status)
{
    out->item[out->count][0] = status;
    out->size[out->count++] = 1;
}

/*
 * [curve id (1 secp256k1, 2 secp256r1) | y odd << 7][r: 32 BE][alpha: 32 BE]
 * -> [1][y: 32 BE, of that parity, y^2 = alpha][r^-1 mod n: 32 BE], or,
 * alpha not a square, [0][sqrt(3 alpha): 32 BE].
 */
static const char *hook_ecrecover(const uint8_t *buf, size_t len, struct sp1_hook_answer *out)
{
    if (len != 65)
        return "FD_ECRECOVER_HOOK takes 65 bytes";
    unsigned curve = buf[0] & 0x7f, odd = buf[0] >> 7;
    if (curve != 1 && curve != 2)
        return "FD_ECRECOVER_HOOK: the curve id is not 1 or 2";
    mpz_t p, n, r, alpha, y;
    mpz_inits(p, n, r, alpha, y, NULL);
    bigint_set_constant(p, curve == 1 ? SECP256K1_P : SECP256R1_P);
    bigint_set_constant(n, curve == 1 ? SECP256K1_N : SECP256R1_N);
    bigint_import_bytes(r, buf + 1, 32, true);
    bigint_import_bytes(alpha, buf + 33, 32, true);
    const char *why = NULL;
    if (mpz_cmp(r, p) >= 0 || mpz_cmp(alpha, p) >= 0)
        why = "FD_ECRECOVER_HOOK: r or alpha is not below p";
    else if (curve == 1 && mpz_sgn(alpha) == 0)
        why = "FD_ECRECOVER_HOOK: alpha is zero";
    else if (bigint_sqrt_3mod4(y, alpha, p)) {
        if ((unsigned)mpz_odd_p(y) != odd && mpz_sgn(y) != 0)
            mpz_sub(y, p, y);
        if (mpz_sgn(r) == 0 || mpz_cmp(r, n) >= 0 || !mpz_invert(r, r, n)) {
            why = "FD_ECRECOVER_HOOK: r is not a non-zero scalar";
        } else {
            answer_status(out, 1);
            answer_number(out, y, 32, true);
            answer_number(out, r, 32, true);
        }
    } else {
        mpz_mul_ui(alpha, alpha, 3);
        mpz_mod(alpha, alpha, p);
        if (!bigint_sqrt_3mod4(y, alpha, p)) {
            why = "FD_ECRECOVER_HOOK: 3 is not a non-residue here";
        } else {
            answer_status(out, 0);
            answer_number(out, y, 32, true);
        }
    }
    mpz_clears(p, n, r, alpha, y, NULL);
    return why;
}

/*
 * [compressed point: 32][v = d y^2 + 1: 32 LE] -> [1] when (y^2 - 1) / v is
 * a square, [0] when y is not below p, else [0][v^-1: 32 LE][sqrt(2 (y^2 - 1) / v): 32 LE].
 */
static const char *hook_ed_decompress(const uint8_t *buf, size_t len, struct sp1_hook_answer *out)
{
    if (len < 32)
        return "FD_EDDECOMPRESS takes at least 32 bytes";
    uint8_t bytes[32];
    memcpy(bytes, buf, 32);
    bytes[31] &= 0x7f;
    mpz_t p, y, v, u, root;
    mpz_inits(p, y, v, u, root, NULL);
    ed25519_prime(p);
    bigint_import_bytes(y, bytes, 32, false);
    bigint_import_bytes(v, buf + 32, len - 32, false);
    const char *why = NULL;
    if (mpz_cmp(y, p) >= 0) {
        answer_status(out, 0);
    } else if (mpz_cmp(v, p) >= 0) {
        why = "FD_EDDECOMPRESS: v is not below p";
    } else {
        bigint_fermat_inverse(v, v, p); /* v^-1 (0 stays 0) */
        mpz_mul(u, y, y);
        mpz_add(u, u, p);
        mpz_sub_ui(u, u, 1);
        mpz_mul(u, u, v);
        mpz_mod(u, u, p);
        if (ed25519_sqrt(root, u)) {
            answer_status(out, 1);
        } else {
            mpz_mul_ui(u, u, 2);
            mpz_mod(u, u, p);
            if (!ed25519_sqrt(root, u)) {
                why = "FD_EDDECOMPRESS: no root of the non-residue case";
            } else {
                answer_status(out, 0);
                answer_number(out, v, 32, false);
                answer_number(out, root, 32, false);
            }
        }
    }
    mpz_clears(p, y, v, u, root, NULL);
    return why;
}

/* [product: 512 LE][m: 256 LE] -> [product mod m: 256 LE][product / m, its low 256 bytes, LE]. */
static const char *hook_rsa_mul_mod(const uint8_t *buf, size_t len, struct sp1_hook_answer *out)
{
    if (len != 768)
        return "FD_RSA_MUL_MOD takes 768 bytes";
    mpz_t prod, m, q, r;
    mpz_inits(prod, m, q, r, NULL);
    bigint_import_bytes(prod, buf, 512, false);
    bigint_import_bytes(m, buf + 512, 256, false);
    const char *why = NULL;
    if (mpz_sgn(m) == 0) {
        why = "FD_RSA_MUL_MOD: the modulus is zero";
    } else {
        mpz_tdiv_qr(q, r, prod, m);
        answer_number(out, r, 256, false);
        answer_number(out, q, 256, false);
    }
    mpz_clears(prod, m, q, r, NULL);
    return why;
}

/* [x: 48 BE] -> [1][sqrt(x): 48 BE], or, x not a square mod p, [0][sqrt(2 x): 48 BE]. */
static const char *hook_bls_sqrt(const uint8_t *buf, size_t len, struct sp1_hook_answer *out)
{
    if (len < 48)
        return "FD_BLS12_381_SQRT takes 48 bytes";
    mpz_t p, x, root, sq;
    mpz_inits(p, x, root, sq, NULL);
    bigint_set_constant(p, BLS12_381_P);
    bigint_import_bytes(x, buf, 48, true);
    const char *why = NULL;
    if (mpz_sgn(x) == 0) {
        answer_status(out, 1);
        answer_number(out, x, 48, true);
    } else {
        bigint_sqrt_3mod4(root, x, p);
        mpz_mul(sq, root, root);
        mpz_mod(sq, sq, p);
        if (mpz_cmp(sq, x) == 0) { /* SP1 compares with x as given, reduced or not */
            answer_status(out, 1);
            answer_number(out, root, 48, true);
        } else {
            mpz_mul_ui(x, x, 2);
            mpz_mod(x, x, p);
            if (!bigint_sqrt_3mod4(root, x, p)) {
                why = "FD_BLS12_381_SQRT: x is not reduced mod p";
            } else {
                answer_status(out, 0);
                answer_number(out, root, 48, true);
            }
        }
    }
    mpz_clears(p, x, root, sq, NULL);
    return why;
}

/* [x: 48 BE] -> [x^(p-2) mod p: 48 BE]. */
static const char *hook_bls_inverse(const uint8_t *buf, size_t len, struct sp1_hook_answer *out)
{
    if (len < 48)
        return "FD_BLS12_381_INVERSE takes 48 bytes";
    mpz_t p, x;
    mpz_inits(p, x, NULL);
    bigint_set_constant(p, BLS12_381_P);
    bigint_import_bytes(x, buf, 48, true);
    const char *why = NULL;
    if (mpz_sgn(x) == 0) {
        why = "FD_BLS12_381_INVERSE: x is zero";
    } else {
        bigint_fermat_inverse(x, x, p);
        answer_number(out, x, 48, true);
    }
    mpz_clears(p, x, NULL);
    return why;
}

/* The u32 BE length that starts the FP hooks' input, checked against the whole: false when wrong.
 */
static bool fp_length(const uint8_t *buf, size_t len, size_t parts, size_t *n)
{
    if (len < 4)
        return false;
    *n = (size_t)buf[0] << 24 | (size_t)buf[1] << 16 | (size_t)buf[2] << 8 | buf[3];
    return *n <= SP1_HOOK_MAX_BYTES && len - 4 == parts * *n;
}

/*
 * [n: u32 BE][x: n BE][m: n BE][nqr: n BE] -> [1][sqrt(x) mod m: n BE], or,
 * x not a square, [0][sqrt(nqr x): n BE] (SP1's sqrt_fp).
 */
static const char *hook_fp_sqrt(const uint8_t *buf, size_t len, struct sp1_hook_answer *out)
{
    size_t n;
    if (!fp_length(buf, len, 3, &n))
        return "FD_FP_SQRT: the length does not match (or is over 512 bytes)";
    mpz_t x, m, nqr, root;
    mpz_inits(x, m, nqr, root, NULL);
    bigint_import_bytes(x, buf + 4, n, true);
    bigint_import_bytes(m, buf + 4 + n, n, true);
    bigint_import_bytes(nqr, buf + 4 + 2 * n, n, true);
    const char *why = NULL;
    if (mpz_cmp(x, m) >= 0 || mpz_cmp(nqr, m) >= 0) {
        why = "FD_FP_SQRT: x or nqr is not below the modulus";
    } else if (mpz_sgn(x) == 0) {
        answer_status(out, 1);
        answer_number(out, x, n, true);
    } else if (bigint_sqrt_mod(root, x, m, nqr)) {
        answer_status(out, 1);
        answer_number(out, root, n, true);
    } else {
        mpz_mul(x, x, nqr);
        mpz_mod(x, x, m);
        if (mpz_sgn(x) == 0 || !bigint_sqrt_mod(root, x, m, nqr)) {
            why = "FD_FP_SQRT: nqr times x has no root (nqr is not a non-residue)";
        } else {
            answer_status(out, 0);
            answer_number(out, root, n, true);
        }
    }
    mpz_clears(x, m, nqr, root, NULL);
    return why;
}

/* [n: u32 BE][x: n BE][m: n BE] -> [x^(m-2) mod m: n BE]. */
static const char *hook_fp_inverse(const uint8_t *buf, size_t len, struct sp1_hook_answer *out)
{
    size_t n;
    if (!fp_length(buf, len, 2, &n))
        return "FD_FP_INV: the length does not match (or is over 512 bytes)";
    mpz_t x, m, e;
    mpz_inits(x, m, e, NULL);
    bigint_import_bytes(x, buf + 4, n, true);
    bigint_import_bytes(m, buf + 4 + n, n, true);
    const char *why = NULL;
    if (mpz_sgn(x) == 0 || mpz_cmp_ui(m, 2) < 0) {
        why = "FD_FP_INV: x is zero or the modulus is below 2";
    } else {
        mpz_sub_ui(e, m, 2);
        mpz_powm(x, x, e, m);
        answer_number(out, x, n, true);
    }
    mpz_clears(x, m, e, NULL);
    return why;
}

const char *sp1_hook_run(uint64_t fd, const uint8_t *buf, size_t len, struct sp1_hook_answer *out)
{
    out->count = 0;
    switch (fd) {
    case SP1_FD_ECRECOVER_HOOK: return hook_ecrecover(buf, len, out);
    case SP1_FD_EDDECOMPRESS: return hook_ed_decompress(buf, len, out);
    case SP1_FD_RSA_MUL_MOD: return hook_rsa_mul_mod(buf, len, out);
    case SP1_FD_BLS12_381_SQRT: return hook_bls_sqrt(buf, len, out);
    case SP1_FD_BLS12_381_INVERSE: return hook_bls_inverse(buf, len, out);
    case SP1_FD_FP_SQRT: return hook_fp_sqrt(buf, len, out);
    case SP1_FD_FP_INV: return hook_fp_inverse(buf, len, out);
    }
    return "not a hook";
}
