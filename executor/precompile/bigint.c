/*
 * bigint: GMP's mpz on limb arrays: little-endian 32-bit words in and
 * out of an mpz's own limbs, two to a 64-bit limb (mpz_import and
 * mpz_export, which handle any word order and size, took a quarter of a
 * precompile-heavy guest's run).
 */
#include "executor/precompile/bigint.h"

#include <string.h>

#if GMP_NUMB_BITS != 64
#error "bigint packs two 32-bit words into each GMP limb: a 64-bit limb without nails"
#endif

void bigint_import(mpz_t z, const uint32_t *w, size_t n)
{
    size_t limbs = (n + 1) / 2;
    if (limbs == 0) {
        mpz_set_ui(z, 0);
        return;
    }
    mp_limb_t *d = mpz_limbs_write(z, (mp_size_t)limbs);
    for (size_t i = 0; i < limbs; i++) {
        uint64_t high = 2 * i + 1 < n ? w[2 * i + 1] : 0;
        d[i] = (mp_limb_t)(w[2 * i] | high << 32);
    }
    mpz_limbs_finish(z, (mp_size_t)limbs); /* the size without the high zero limbs */
}

void bigint_export(uint32_t *w, size_t n, const mpz_t z)
{
    const mp_limb_t *d = mpz_limbs_read(z);
    size_t limbs = mpz_size(z);
    for (size_t i = 0; i < n; i++)
        w[i] = i / 2 < limbs ? (uint32_t)(d[i / 2] >> (32 * (i % 2))) : 0;
}

/*
 * The constants bigint_set_constant has read, by the address of their
 * text: this module's own cache, filled as they are first asked for and
 * kept for the process (the precompiles ask for a handful).
 */
enum { CONSTANTS_KEPT = 64 };
static struct {
    const char *hex;
    mpz_t value;
} constants[CONSTANTS_KEPT];
static size_t constants_count;

void bigint_set_constant(mpz_t z, const char *hex)
{
    for (size_t i = 0; i < constants_count; i++)
        if (constants[i].hex == hex) {
            mpz_set(z, constants[i].value);
            return;
        }
    mpz_set_str(z, hex, 16);
    if (constants_count < CONSTANTS_KEPT) {
        mpz_init_set(constants[constants_count].value, z);
        constants[constants_count++].hex = hex;
    }
}

void bigint_mulmod_256(uint32_t z[8], const uint32_t x[8], const uint32_t y[8], const uint32_t m[8])
{
    mpz_t a, b, mod;
    mpz_inits(a, b, mod, NULL);
    bigint_import(a, x, 8);
    bigint_import(b, y, 8);
    bigint_import(mod, m, 8);
    mpz_mul(a, a, b);
    if (mpz_sgn(mod) == 0)
        mpz_tdiv_r_2exp(a, a, 256);
    else
        mpz_mod(a, a, mod);
    bigint_export(z, 8, a);
    mpz_clears(a, b, mod, NULL);
}

void bigint_import_bytes(mpz_t z, const uint8_t *b, size_t n, bool big_endian)
{
    mpz_import(z, n, big_endian ? 1 : -1, 1, 0, 0, b);
}

void bigint_export_bytes(uint8_t *b, size_t n, const mpz_t z, bool big_endian)
{
    memset(b, 0, n);
    for (size_t i = 0; i < n; i++) {
        /* byte i from the low end */
        uint8_t v = 0;
        for (unsigned bit = 0; bit < 8; bit++)
            v |= (uint8_t)(mpz_tstbit(z, 8 * i + bit) << bit);
        b[big_endian ? n - 1 - i : i] = v;
    }
}

/* Tonelli-Shanks (SP1's tonelli_shanks, step for step, so the same root comes out). */
static bool tonelli_shanks(mpz_t r, const mpz_t a, const mpz_t p, const mpz_t z)
{
    mpz_t q, c, t, e, b, tt;
    mpz_inits(q, c, t, e, b, tt, NULL);
    bool ok = false;
    mpz_sub_ui(e, p, 1);
    mpz_tdiv_q_2exp(e, e, 1);
    mpz_powm(tt, a, e, p);
    if (mpz_cmp_ui(tt, 1) != 0)
        goto done; /* the Legendre symbol is not 1 */
    mpz_sub_ui(q, p, 1);
    unsigned long s = mpz_scan1(q, 0), m;
    mpz_tdiv_q_2exp(q, q, s);
    mpz_powm(c, z, q, p);
    mpz_add_ui(e, q, 1);
    mpz_tdiv_q_2exp(e, e, 1);
    mpz_powm(r, a, e, p);
    mpz_powm(t, a, q, p);
    m = s;
    while (mpz_cmp_ui(t, 1) != 0) {
        unsigned long i = 0;
        mpz_set(tt, t);
        while (mpz_cmp_ui(tt, 1) != 0) {
            mpz_mul(tt, tt, tt);
            mpz_mod(tt, tt, p);
            if (++i == m)
                goto done;
        }
        mpz_set_ui(e, 0);
        mpz_setbit(e, m - i - 1);
        mpz_powm(b, c, e, p);
        mpz_mul(r, r, b);
        mpz_mod(r, r, p);
        mpz_mul(c, b, b);
        mpz_mod(c, c, p);
        mpz_mul(t, t, c);
        mpz_mod(t, t, p);
        m = i;
    }
    ok = true;
done:
    mpz_clears(q, c, t, e, b, tt, NULL);
    return ok;
}

bool bigint_sqrt_3mod4(mpz_t root, const mpz_t a, const mpz_t p)
{
    mpz_t e;
    mpz_init(e);
    mpz_add_ui(e, p, 1);
    mpz_tdiv_q_2exp(e, e, 2);
    mpz_powm(root, a, e, p);
    mpz_mul(e, root, root);
    mpz_sub(e, e, a);
    bool ok = mpz_divisible_p(e, p) != 0;
    mpz_clear(e);
    return ok;
}

bool bigint_sqrt_mod(mpz_t root, const mpz_t a, const mpz_t p, const mpz_t nqr)
{
    if (mpz_fdiv_ui(p, 4) != 3)
        return tonelli_shanks(root, a, p, nqr);
    return bigint_sqrt_3mod4(root, a, p);
}

void bigint_mul_wide(uint32_t *r, const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    bigint_import(x, a, na);
    bigint_import(y, b, nb);
    mpz_mul(x, x, y);
    bigint_export(r, na + nb, x);
    mpz_clears(x, y, NULL);
}

void bigint_op_add_256(uint32_t r[16], const uint32_t a[8], const uint32_t b[8],
                       const uint32_t c[8], bool mul)
{
    mpz_t x, y, z;
    mpz_inits(x, y, z, NULL);
    bigint_import(x, a, 8);
    bigint_import(y, b, 8);
    bigint_import(z, c, 8);
    if (mul)
        mpz_mul(x, x, y);
    else
        mpz_add(x, x, y);
    mpz_add(x, x, z);
    bigint_export(r, 16, x);
    mpz_clears(x, y, z, NULL);
}

void bigint_fermat_inverse(mpz_t r, const mpz_t x, const mpz_t p)
{
    if (!mpz_invert(r, x, p))
        mpz_set_ui(r, 0);
}
