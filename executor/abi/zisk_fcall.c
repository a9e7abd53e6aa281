/*
 * zisk_fcall: ZisK's free-input calls, read from 0xPolygonHermez/zisk:
 * ziskos/entrypoint/src/fcall.rs (0fa1514e: ziskos_fcall_param!, its
 * ports and word counts, ziskos_fcall!, ziskos_fcall_get), the ids of
 * zisklib/fcalls/mod.rs (ae58ddc7, 0ff2ec4b and later: 1-3, 6, 7, 10-12
 * kept their numbers throughout), the guest wrappers in zisklib/fcalls/
 * (2fa5cae7: what each pushes and reads back) and the host side in
 * zisklib/fcalls_impl/ (secp256k1/fp_sqrt.rs, bls12_381/fp_sqrt.rs: the
 * answer for a non-square).
 * Docs: docs/ZKVMS.md.
 *
 * A guest pushes parameters with `csrs 0x8F0 + port, rs1`: port 0 pushes
 * rs1 itself, port k the 2, 4, 8, 12, ... 256 words at rs1 (the table
 * below); `csrwi 0x8C0 + (id >> 5), id & 31` computes function id from
 * them (the parameters are then used up), and each `csrr rd, 0xFFE` reads
 * the next word of its result. Here: the inverses in Fp and Fp2 and the
 * square roots, with GMP, and v0.16's msb_pos_256 (id 4); another id is
 * exit 70 naming it.
 */
#include "executor/abi/zisk_fcall.h"

#include <gmp.h>
#include <string.h>

#include "executor/abi/abi_util.h"
#include "executor/precompile/bigint.h"

/* Words a parameter port pushes (port 0: rs1's own value). */
static const unsigned port_words[16] = {1,  2,  4,  8,  12, 16, 20,  24,
                                        28, 32, 48, 64, 80, 96, 128, 256};

/* The fields computed here: the primes and group orders their crates name. */
static const char SECP256K1_P[] =
    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f";
static const char SECP256K1_N[] =
    "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
static const char BN254_P[] = "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";
static const char BLS12_381_P[] = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f62"
                                  "41eabfffeb153ffffb9feffffffffaaab";

enum fcall_kind {
    FCALL_INVERSE,     /* x^-1 mod p */
    FCALL_INVERSE_FP2, /* (c0, c1)^-1 in Fp2 = Fp[u] / (u^2 + 1) */
    FCALL_SQRT,        /* [1, a root] or [0, a root of nqr x] */
};

static const struct fcall {
    unsigned id;
    const char *name;
    enum fcall_kind kind;
    const char *modulus;
    unsigned words; /* of an element of Fp */
    unsigned nqr;   /* FCALL_SQRT: the non-square ZisK's host multiplies a non-square by */
    bool parity;    /* FCALL_SQRT: a parity word follows x, the root of that parity is given */
} fcalls[] = {
    {1, "fcall_secp256k1_fp_inv", FCALL_INVERSE, SECP256K1_P, 4, 0, false},
    {2, "fcall_secp256k1_fn_inv", FCALL_INVERSE, SECP256K1_N, 4, 0, false},
    {3, "fcall_secp256k1_fp_sqrt", FCALL_SQRT, SECP256K1_P, 4, 3, true},
    {6, "fcall_bn254_fp_inv", FCALL_INVERSE, BN254_P, 4, 0, false},
    {7, "fcall_bn254_fp2_inv", FCALL_INVERSE_FP2, BN254_P, 4, 0, false},
    {10, "fcall_bls12_381_fp_inv", FCALL_INVERSE, BLS12_381_P, 6, 0, false},
    {11, "fcall_bls12_381_fp_sqrt", FCALL_SQRT, BLS12_381_P, 6, 2, false},
    {12, "fcall_bls12_381_fp2_inv", FCALL_INVERSE_FP2, BLS12_381_P, 6, 0, false},
};

/* The parameter words a call takes. */
static unsigned param_words(const struct fcall *f)
{
    switch (f->kind) {
    case FCALL_INVERSE_FP2: return 2 * f->words;
    case FCALL_SQRT: return f->words + f->parity;
    default: return f->words;
    }
}

bool zisk_fcall_csr(unsigned csr)
{
    return (csr >= ZISK_FCALL_CSR && csr < ZISK_FCALL_CSR + 32) ||
           (csr >= ZISK_FCALL_PARAM_CSR && csr < ZISK_FCALL_PARAM_CSR + 16) ||
           csr == ZISK_FCALL_GET_CSR;
}

static void mpz_from_words(mpz_t z, const uint64_t *w, unsigned n)
{
    mpz_import(z, n, -1, 8, 0, 0, w);
}

static void words_from_mpz(uint64_t *w, unsigned n, const mpz_t z)
{
    memset(w, 0, 8ull * n);
    mpz_export(w, NULL, -1, 8, 0, 0, z);
}

/* The working numbers of one call. */
struct work {
    mpz_t p, x, y, r, e;
};

/*
 * r = x^-1 mod p; false when there is none (x = 0 mod p): ZisK's host
 * panics "Inverse does not exist" (num-bigint modinv in
 * fcalls_impl/secp256k1/fp_inv.rs, fn_inv.rs, bn254/fp.rs,
 * bls12_381/fp_inv.rs at v0.18.0, 790f9e28).
 */
static bool inverse(struct work *w)
{
    return mpz_invert(w->r, w->x, w->p) != 0;
}

/* (x + y u)^-1 = (x - y u) / (x^2 + y^2) into (r, e); false for 0, as inverse. */
static bool inverse_fp2(struct work *w)
{
    mpz_mul(w->e, w->x, w->x);
    mpz_addmul(w->e, w->y, w->y);
    if (!mpz_invert(w->e, w->e, w->p))
        return false;
    mpz_mul(w->r, w->x, w->e);
    mpz_mod(w->r, w->r, w->p);
    mpz_mul(w->e, w->y, w->e);
    mpz_neg(w->e, w->e);
    mpz_mod(w->e, w->e, w->p);
    return true;
}

/*
 * r = x^((p + 1) / 4) (both primes are 3 mod 4): a root when x is a
 * square (true); else the root of nqr x. x not below p is no square, as
 * in ZisK's host.
 */
static bool square_root(struct work *w, unsigned nqr)
{
    mpz_add_ui(w->e, w->p, 1);
    mpz_fdiv_q_2exp(w->e, w->e, 2);
    mpz_powm(w->r, w->x, w->e, w->p);
    mpz_mul(w->y, w->r, w->r);
    mpz_mod(w->y, w->y, w->p);
    if (mpz_cmp(w->y, w->x) == 0)
        return true;
    mpz_mul_ui(w->x, w->x, nqr);
    mpz_mod(w->x, w->x, w->p);
    mpz_powm(w->r, w->x, w->e, w->p);
    return false;
}

/* Computes f on the parameters into fc's results; false when ZisK's host panics. */
static bool compute(const struct fcall *f, const uint64_t *params, struct zisk_fcalls *fc)
{
    struct work w;
    unsigned n = f->words;
    bool ok = true;
    mpz_inits(w.p, w.x, w.y, w.r, w.e, NULL);
    mpz_set_str(w.p, f->modulus, 16);
    mpz_from_words(w.x, params, n);
    switch (f->kind) {
    case FCALL_INVERSE:
        if (!(ok = inverse(&w)))
            break;
        words_from_mpz(fc->results, n, w.r);
        fc->nresults = n;
        break;
    case FCALL_INVERSE_FP2:
        mpz_from_words(w.y, params + n, n);
        if (!(ok = inverse_fp2(&w)))
            break;
        words_from_mpz(fc->results, n, w.r);
        words_from_mpz(fc->results + n, n, w.e);
        fc->nresults = 2 * n;
        break;
    case FCALL_SQRT: {
        bool square = square_root(&w, f->nqr);
        /* the whole parity word against the root's bit: 2 and up negate it (fp_sqrt.rs) */
        if (square && f->parity && (uint64_t)mpz_odd_p(w.r) != params[n]) {
            mpz_sub(w.r, w.p, w.r);
            mpz_mod(w.r, w.r, w.p);
        }
        fc->results[0] = square;
        words_from_mpz(fc->results + 1, n, w.r);
        fc->nresults = n + 1;
        break;
    }
    }
    fc->next_result = 0;
    mpz_clears(w.p, w.x, w.y, w.r, w.e, NULL);
    return ok;
}

/*
 * input_ready: one parameter, the address of the last input byte the
 * guest reads next; no result. ZisK's emulator panics unless INPUT_ADDR +
 * 7 <= it <= INPUT_ADDR + 7 + the input's length (core/src/zisk_ops.rs
 * opc_fcall at v0.18.0, 790f9e28; the same at v0.16.0). The input here is
 * all in memory already, so it is that check alone.
 */
static enum ecall_result input_ready(struct machine *m, struct zisk_fcalls *fc, const char **call)
{
    uint64_t at = fc->params[0];
    *call = "fcall_input_ready";
    fc->nparams = fc->nresults = fc->next_result = 0;
    if (at < ZISK_FCALL_INPUT_ADDR + 7)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, at,
                         "the address is below the input's first byte");
    if (at - ZISK_FCALL_INPUT_ADDR - 7 > fc->input_len) {
        snprintf(fc->why, sizeof(fc->why),
                 "the guest needs %llu bytes of input, past the %llu given: give its input with "
                 "--input FILE",
                 (unsigned long long)(at - ZISK_FCALL_INPUT_ADDR - 7),
                 (unsigned long long)fc->input_len);
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, at, fc->why);
    }
    return ECALL_CONTINUE;
}

/*
 * input_ready's id: 0x17 from v0.17.0; 22 in v0.16.x, where v0.17.0 put
 * bigint_div (two length words at least), so 22 with one parameter word
 * (zisklib/fcalls/mod.rs at v0.16.0 aacf0a73 and v0.17.0 b6327450).
 */
static bool is_input_ready(const struct zisk_fcalls *fc, unsigned id)
{
    return id == 0x17 || (id == 22 && fc->nparams == 1);
}

/*
 * msb_pos_256 (id 4 up to v0.16.x): parameters n, then n numbers of 4
 * words; the result [limb, bit] of the highest set bit among them (the
 * largest word at the highest limb any has non-zero). ZisK's host panics
 * when all are 0 (fcalls_impl/msb_pos_256.rs at v0.16.0 aacf0a73). Taken
 * when exactly 1 + 4n words were pushed, as ziskos's wrapper pushes them
 * (n = 2); from v0.17.0 id 4 is secp256k1_ecdsa_verify, 20 words.
 */
static bool is_msb_pos_256(const struct zisk_fcalls *fc, unsigned id)
{
    return id == 4 && fc->nparams >= 5 && fc->params[0] == (fc->nparams - 1) / 4 &&
           fc->nparams % 4 == 1;
}

static enum ecall_result msb_pos_256(struct machine *m, struct zisk_fcalls *fc, const char **call)
{
    uint64_t n = fc->params[0];
    *call = "fcall_msb_pos_256";
    fc->nparams = fc->nresults = fc->next_result = 0;
    for (int limb = 3; limb >= 0; limb--) {
        uint64_t max = 0;
        for (uint64_t i = 0; i < n; i++)
            if (fc->params[1 + 4 * i + (unsigned)limb] > max)
                max = fc->params[1 + 4 * i + (unsigned)limb];
        if (max) {
            fc->results[0] = (uint64_t)limb;
            fc->results[1] = 63 - (uint64_t)__builtin_clzll(max);
            fc->nresults = 2;
            return ECALL_CONTINUE;
        }
    }
    return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, n,
                     "all the numbers are 0: ZisK's host panics");
}

static enum ecall_result run_fcall(struct machine *m, struct zisk_fcalls *fc, unsigned id,
                                   const char **call)
{
    const struct fcall *f = NULL;
    if (is_input_ready(fc, id))
        return input_ready(m, fc, call);
    if (is_msb_pos_256(fc, id))
        return msb_pos_256(m, fc, call);
    if ((id == 4 || id == 5) && fc->nparams == 20) /* v0.17.0+: pk, z, r, s */
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL,
                         id == 4 ? "fcall_secp256k1_ecdsa_verify" : "fcall_secp256r1_ecdsa_verify",
                         id, NULL);
    for (size_t i = 0; i < sizeof(fcalls) / sizeof(fcalls[0]); i++)
        if (fcalls[i].id == id)
            f = &fcalls[i];
    if (!f)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, id,
                         "no free call (fcall) with this id is computed here (ids above 3 but 6, "
                         "7, 10, 11 and 12 moved between ZisK versions)");
    *call = f->name;
    if (fc->nparams < param_words(f))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, fc->nparams,
                         "fewer parameter words were pushed than the call takes");
    bool ok = compute(f, fc->params, fc);
    fc->nparams = 0;
    if (!ok) {
        fc->nresults = 0;
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, 0,
                         "no inverse exists (x is 0 mod p): ZisK's host panics");
    }
    return ECALL_CONTINUE;
}

/* csrs 0x8F0 + port, rs1: the parameters. */
static enum ecall_result push_param(struct machine *m, struct zisk_fcalls *fc, unsigned port,
                                    uint64_t value, const char **call)
{
    unsigned n = port_words[port];
    *call = "fcall_param";
    if (fc->nparams + n > ZISK_FCALL_PARAMS_MAX)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, fc->nparams,
                         "more than 512 parameter words pushed before a call");
    if (port == 0)
        fc->params[fc->nparams] = value;
    else if (!abi_load(m, value, fc->params + fc->nparams, 8ull * n))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, value, "the parameters are not in memory");
    fc->nparams += n;
    return ECALL_CONTINUE;
}

enum ecall_result zisk_fcall_insn(struct machine *m, struct zisk_fcalls *fc, uint32_t w,
                                  const char **call)
{
    unsigned csr = w >> 20, funct3 = (w >> 12) & 7, rs1 = (w >> 15) & 31, rd = (w >> 7) & 31;
    if (csr == ZISK_FCALL_GET_CSR) {
        *call = "fcall_get";
        if (fc->next_result >= fc->nresults)
            return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, fc->nresults,
                             "the last free call's result words are used up");
        machine_set_reg(m, rd, fc->results[fc->next_result++]);
        return ECALL_CONTINUE;
    }
    if (csr >= ZISK_FCALL_PARAM_CSR) {
        if (funct3 & 4)
            return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, csr,
                             "a free call's parameter comes in rs1 (csrs), not an immediate");
        return push_param(m, fc, csr - ZISK_FCALL_PARAM_CSR, machine_get_reg(m, rs1), call);
    }
    if (!(funct3 & 4))
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, csr,
                         "a free call is csrwi 0x8C0 + (id >> 5), id & 31 (an immediate)");
    return run_fcall(m, fc, (csr - ZISK_FCALL_CSR) << 5 | rs1, call);
}
