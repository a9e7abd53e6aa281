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
 *
 * v1.0-v1.2 had the ecc extension's own pair (custom-1 funct3 1, funct7 =
 * index * 8 + 3 HintDecompress, + 4 HintNonQr; extensions/ecc/circuit/src/
 * weierstrass_extension.rs, phantom, at v1.2.0; the same at v1.0.0) on the
 * curve's coordinate prime, with the same find_non_qr (but p = 1 mod 8
 * drew from StdRng::from_entropy: exit 70 here) and mod_sqrt:
 *
 * HintDecompress: x = the num_limbs bytes at [rs1], taken as they are, and
 *   the byte at [rs2], whose low bit asks for an odd y. alpha = x^3 + a x +
 *   b mod p; when mod_sqrt(alpha) = beta exists: 4 bytes 1, then beta or
 *   p - beta, the one of the asked parity (alpha = 0 and odd gives p);
 *   else 4 bytes 0 and mod_sqrt(alpha * non_qr). OpenVM takes b from the
 *   app's configuration; the setup passes p and a only, so here b is that
 *   of the curve with that p and a (secp256k1, P-256, BN254, BLS12-381),
 *   another curve is exit 70.
 */
#include <gmp.h>
#include <string.h>

#include "executor/abi/abi_util.h"
#include "executor/abi/openvm_algebra.h"
#include "executor/precompile/bigint.h"
#include "executor/precompile/curve.h"

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

/*
 * The registers the transpiler asserts are x0: rd, and rs1 and rs2 when
 * asked. ECALL_CONTINUE when they are, else the fault naming `call`.
 */
static enum ecall_result x0_operands(struct machine *m, const char *call, struct abi_insn f,
                                     bool rs1, bool rs2)
{
    unsigned r = f.rd ? f.rd : rs1 && f.rs1 ? f.rs1 : rs2 && f.rs2 ? f.rs2 : 0;
    if (!r)
        return ECALL_CONTINUE;
    return abi_fault(m, FAULT_UNSUPPORTED_ECALL, call, r,
                     rs1   ? "the transpiler asserts rd = rs1 = rs2 = x0"
                     : rs2 ? "the transpiler asserts rd = rs2 = x0"
                           : "the transpiler asserts rd = x0");
}

/* HintNonQr's hint: z in `bytes` little-endian bytes. */
static void non_qr_hint(struct openvm_algebra *alg, const mpz_t z, uint32_t bytes)
{
    memset(alg->hint, 0, sizeof(alg->hint));
    bigint_export_bytes(alg->hint, bytes, z, false);
    alg->hint_len = bytes;
}

/* The hint stream of a flag word, then r in `bytes` little-endian bytes. */
static void flag_and_root(struct openvm_algebra *alg, bool flag, const mpz_t r, uint32_t bytes)
{
    memset(alg->hint, 0, sizeof(alg->hint));
    alg->hint[0] = flag;
    bigint_export_bytes(alg->hint + alg->word, bytes, r, false);
    alg->hint_len = alg->word + bytes;
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
    flag_and_root(alg, square, r, bytes);
    mpz_clears(x, r, NULL);
    if (!ok)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HintSqrt", at,
                         "neither x nor x times the non-residue is a square: the modulus is not "
                         "prime (mod_sqrt's expect panics)");
    return ECALL_CONTINUE;
}

/* HintDecompress's hint of the x at [rs1] and the parity byte at [rs2]; alpha holds b. */
static enum ecall_result decompress_hint(struct machine *m, struct openvm_algebra *alg,
                                         const struct openvm_curve *c, struct abi_insn f,
                                         const mpz_t p, const mpz_t z, mpz_t alpha)
{
    uint64_t at = machine_get_reg(m, f.rs1), parity_at = machine_get_reg(m, f.rs2);
    uint32_t bytes = c->field.bytes;
    uint8_t xb[48], odd;
    if (!abi_load(m, at, xb, bytes) || !abi_load(m, parity_at, &odd, 1))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HintDecompress", at,
                         "x (at rs1) or the parity byte (at rs2) is not in memory");
    mpz_t x, t, r;
    mpz_inits(x, t, r, NULL);
    bigint_import_bytes(x, xb, bytes, false);
    bigint_import(t, c->a, bytes / 4);
    mpz_mul(r, x, x);
    mpz_add(r, r, t); /* x^2 + a */
    mpz_addmul(alpha, r, x);
    mpz_mod(alpha, alpha, p);
    bool possible = mod_sqrt(r, alpha, p, z), ok = possible;
    if (possible && mpz_odd_p(r) != (odd & 1))
        mpz_sub(r, p, r);
    if (!possible) {
        mpz_mul(alpha, alpha, z);
        ok = mod_sqrt(r, alpha, p, z);
    }
    flag_and_root(alg, possible, r, bytes);
    mpz_clears(x, t, r, NULL);
    if (!ok)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HintDecompress", at,
                         "no root of alpha nor of alpha times the non-residue: p is not prime "
                         "(mod_sqrt's unwrap panics)");
    return ECALL_CONTINUE;
}

enum ecall_result openvm_ecc_hint(struct machine *m, struct openvm_algebra *alg, struct abi_insn f,
                                  unsigned idx, bool decompress)
{
    const char *call = decompress ? "HintDecompress" : "HintNonQr";
    const struct openvm_curve *c = &alg->curves[idx];
    enum ecall_result res = x0_operands(m, call, f, !decompress, !decompress);
    if (res != ECALL_CONTINUE)
        return res;
    if (!c->field.bytes)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, idx, "the curve was not set up");
    mpz_t p, z, b;
    mpz_inits(p, z, b, NULL);
    bigint_import(p, c->field.p, c->field.bytes / 4);
    if (!find_non_qr(z, p)) {
        res = abi_fault(m, FAULT_UNSUPPORTED_ECALL, call, idx,
                        "a prime = 1 mod 8: OpenVM 1.0-1.2 draw its non-residue at random "
                        "(StdRng::from_entropy), no hint to reproduce");
    } else if (!decompress) {
        non_qr_hint(alg, z, c->field.bytes);
    } else if (!curve_b_of(c->field.p, c->a, c->field.bytes / 4, b)) {
        res = abi_fault(m, FAULT_UNSUPPORTED_ECALL, call, idx,
                        "the curve's b is in OpenVM's app configuration, not in the setup (p, "
                        "a): known here for secp256k1, P-256, BN254 and BLS12-381 only");
    } else {
        res = decompress_hint(m, alg, c, f, p, z, b);
    }
    mpz_clears(p, z, b, NULL);
    return res;
}

enum ecall_result openvm_sqrt_hint(struct machine *m, struct openvm_algebra *alg, struct abi_insn f,
                                   unsigned idx, bool sqrt)
{
    const char *call = sqrt ? "HintSqrt" : "HintNonQr";
    const struct openvm_modulus *mod = &alg->moduli[idx];
    enum ecall_result res = x0_operands(m, call, f, !sqrt, true);
    if (res != ECALL_CONTINUE)
        return res;
    if (!mod->bytes)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, idx, "the modulus was not set up");
    mpz_t p, z;
    mpz_inits(p, z, NULL);
    bigint_import(p, mod->p, mod->bytes / 4);
    if (!find_non_qr(z, p)) {
        res = abi_fault(m, FAULT_UNSUPPORTED_ECALL, call, idx,
                        "a modulus = 1 mod 8: OpenVM samples its non-residue with ChaCha "
                        "(StdRng from seed 0), not reproduced here");
    } else if (sqrt) {
        res = sqrt_hint(m, alg, machine_get_reg(m, f.rs1), p, z, mod->bytes);
    } else {
        non_qr_hint(alg, z, mod->bytes);
    }
    mpz_clears(p, z, NULL);
    return res;
}
