/*
 * openvm_sqrt: OpenVM's square-root hints (v1.3.0+, custom-1 funct3 0,
 * funct7 = index * 8 + 6 HintNonQr, + 7 HintSqrt), phantoms that replace the
 * hint stream, as extensions/algebra/circuit/src/extension/modular.rs
 * (openvm-org/openvm f6595e3a; v2.1.0-preview for RV64) computes it:
 *
 * HintNonQr: find_non_qr's non-residue of the modulus p, its num_limbs (32
 *   or 48) little-endian bytes: p - 1 when p = 3 mod 4, 2 when p = 5 mod 8;
 *   otherwise OpenVM samples one with StdRng::from_seed([0; 32]) (ChaCha),
 *   not reproduced here: exit 70.
 * HintSqrt: x = the num_limbs bytes at [rs1]; a register-sized word (4
 *   bytes, 8 on RV64) 1 and mod_sqrt(x), or 0 and mod_sqrt(x * non_qr),
 *   then num_limbs bytes of the root. mod_sqrt is x^((p+1)/4) when p = 3
 *   mod 4, else Tonelli-Shanks with z = non_qr, as written there (the root
 *   it returns depends on its steps).
 *
 * OpenVM takes p from the app's configuration; here from SETUP_MOD of that
 * index (an index never set up is exit 70).
 */
#include <gmp.h>
#include <string.h>

#include "executor/abi/abi_util.h"
#include "executor/abi/openvm_algebra.h"
#include "executor/precompile/bigint.h"

/* find_non_qr for p = 3 mod 4 and 5 mod 8; false for the sampled ones. */
static bool find_non_qr(mpz_t z, const mpz_t p)
{
    if (mpz_fdiv_ui(p, 4) == 3) {
        mpz_sub_ui(z, p, 1);
        return true;
    }
    if (mpz_fdiv_ui(p, 8) == 5) {
        mpz_set_ui(z, 2);
        return true;
    }
    return false;
}

static void mulmod(mpz_t r, const mpz_t a, const mpz_t b, const mpz_t p)
{
    mpz_mul(r, a, b);
    mpz_mod(r, r, p);
}

/* Tonelli-Shanks as mod_sqrt writes it; false when x is not a square. */
static bool tonelli_shanks(mpz_t r, const mpz_t x, const mpz_t p, const mpz_t z)
{
    mpz_t q, c, t, b, tmp;
    mpz_inits(q, c, t, b, tmp, NULL);
    mpz_sub_ui(q, p, 1);
    unsigned long m = mpz_scan1(q, 0);
    mpz_fdiv_q_2exp(q, q, m);
    mpz_powm(c, z, q, p);
    mpz_powm(t, x, q, p);
    mpz_add_ui(tmp, q, 1);
    mpz_fdiv_q_2exp(tmp, tmp, 1);
    mpz_powm(r, x, tmp, p);
    bool ok = false;
    for (;;) {
        if (mpz_sgn(t) == 0 || mpz_cmp_ui(t, 1) == 0) {
            if (mpz_sgn(t) == 0)
                mpz_set_ui(r, 0);
            ok = true;
            break;
        }
        unsigned long i = 0;
        for (mpz_set(tmp, t); mpz_cmp_ui(tmp, 1) != 0 && i < m; i++)
            mpz_powm_ui(tmp, tmp, 2, p);
        if (i == m)
            break;
        mpz_set(b, c);
        for (unsigned long k = 0; k + i + 1 < m; k++)
            mpz_powm_ui(b, b, 2, p);
        m = i;
        mpz_powm_ui(c, b, 2, p);
        mulmod(t, t, c, p); /* t b b */
        mulmod(r, r, b, p);
    }
    mpz_clears(q, c, t, b, tmp, NULL);
    return ok;
}

/* mod_sqrt(x, p, z): a root of x, false when x is not a square. */
static bool mod_sqrt(mpz_t r, const mpz_t x, const mpz_t p, const mpz_t z)
{
    if (mpz_fdiv_ui(p, 4) != 3)
        return tonelli_shanks(r, x, p, z);
    mpz_t e, sq, xr;
    mpz_inits(e, sq, xr, NULL);
    mpz_add_ui(e, p, 1);
    mpz_fdiv_q_2exp(e, e, 2);
    mpz_powm(r, x, e, p);
    mulmod(sq, r, r, p);
    mpz_mod(xr, x, p);
    bool ok = mpz_cmp(sq, xr) == 0;
    mpz_clears(e, sq, xr, NULL);
    return ok;
}

/* HintSqrt's hint: the flag word, then the root (or that of x * z). */
static enum ecall_result sqrt_hint(struct machine *m, struct openvm_algebra *alg, uint64_t at,
                                   const mpz_t p, const mpz_t z, uint32_t bytes)
{
    uint8_t xb[48];
    if (!abi_load(m, at, xb, bytes))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HintSqrt", at, "x is not in memory");
    mpz_t x, r;
    mpz_inits(x, r, NULL);
    bigint_import_bytes(x, xb, bytes, false);
    bool square = mod_sqrt(r, x, p, z), ok = square;
    if (!square) {
        mpz_mul(x, x, z);
        ok = mod_sqrt(r, x, p, z);
    }
    memset(alg->hint, 0, sizeof(alg->hint));
    alg->hint[0] = square;
    bigint_export_bytes(alg->hint + alg->word, bytes, r, false);
    alg->hint_len = alg->word + bytes;
    mpz_clears(x, r, NULL);
    if (!ok)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HintSqrt", at,
                         "neither x nor x times the non-residue is a square: the modulus is not "
                         "prime (mod_sqrt's expect panics)");
    return ECALL_CONTINUE;
}

enum ecall_result openvm_sqrt_hint(struct machine *m, struct openvm_algebra *alg, struct abi_insn f,
                                   unsigned idx, bool sqrt)
{
    const char *call = sqrt ? "HintSqrt" : "HintNonQr";
    const struct openvm_modulus *mod = &alg->moduli[idx];
    if (f.rd || f.rs2 || (!sqrt && f.rs1))
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, call,
                         f.rd    ? f.rd
                         : f.rs2 ? f.rs2
                                 : f.rs1,
                         sqrt ? "the transpiler asserts rd = rs2 = x0"
                              : "the transpiler asserts rd = rs1 = rs2 = x0");
    if (!mod->bytes)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, idx, "the modulus was not set up");
    mpz_t p, z;
    mpz_inits(p, z, NULL);
    bigint_import(p, mod->p, mod->bytes / 4);
    enum ecall_result res = ECALL_CONTINUE;
    if (!find_non_qr(z, p)) {
        res = abi_fault(m, FAULT_UNSUPPORTED_ECALL, call, idx,
                        "a modulus = 1 mod 8: OpenVM samples its non-residue with ChaCha "
                        "(StdRng from seed 0), not reproduced here");
    } else if (sqrt) {
        res = sqrt_hint(m, alg, machine_get_reg(m, f.rs1), p, z, mod->bytes);
    } else {
        memset(alg->hint, 0, sizeof(alg->hint));
        bigint_export_bytes(alg->hint, mod->bytes, z, false);
        alg->hint_len = mod->bytes;
    }
    mpz_clears(p, z, NULL);
    return res;
}
