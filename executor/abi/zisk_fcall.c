/*
 * zisk_fcall: ZisK's free-input calls, read from 0xPolygonHermez/zisk:
 * ziskos/entrypoint/src/fcall.rs (0fa1514e: ziskos_fcall_param!, its
 * ports and word counts, ziskos_fcall!, ziskos_fcall_get), the ids of
 * zisklib/fcalls/mod.rs (ae58ddc7, 0ff2ec4b and later: 1-3, 6, 7, 10-12
 * kept their numbers throughout), the guest wrappers in zisklib/fcalls/
 * (2fa5cae7: what each pushes and reads back) and the host side in
 * zisklib/fcalls_impl/ (secp256k1/fp_sqrt.rs: the answer for a non-square).
 * Docs: docs/ZKVMS.md.
 *
 * A guest pushes parameters with `csrs 0x8F0 + port, rs1`: port 0 pushes
 * rs1 itself, port k the 2, 4, 8, 12, ... 256 words at rs1 (the table
 * below); `csrwi 0x8C0 + (id >> 5), id & 31` computes function id from
 * them (the parameters are then used up), and each `csrr rd, 0xFFE` reads
 * the next word of its result. Here: the inverses and the secp256k1
 * square root, with GMP; another id is exit 70 naming it.
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

enum fcall_kind { FCALL_INVERSE, FCALL_SQRT_PARITY };

static const struct fcall {
    unsigned id;
    const char *name;
    enum fcall_kind kind;
    const char *modulus;
    unsigned words; /* of the value and of the result (the square root's flag apart) */
} fcalls[] = {
    {1, "fcall_secp256k1_fp_inv", FCALL_INVERSE, SECP256K1_P, 4},
    {2, "fcall_secp256k1_fn_inv", FCALL_INVERSE, SECP256K1_N, 4},
    {3, "fcall_secp256k1_fp_sqrt", FCALL_SQRT_PARITY, SECP256K1_P, 4},
    {6, "fcall_bn254_fp_inv", FCALL_INVERSE, BN254_P, 4},
    {10, "fcall_bls12_381_fp_inv", FCALL_INVERSE, BLS12_381_P, 6},
};

/* Those ZisK numbered the same in every version read, not computed here. */
static const struct {
    unsigned id;
    const char *name;
} not_here[] = {
    {7, "fcall_bn254_fp2_inv"}, {11, "fcall_bls12_381_fp_sqrt"}, {12, "fcall_bls12_381_fp2_inv"}};

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

/*
 * results = x^-1 mod p (0 for 0, as x^(p-2) gives it), or for the square
 * root [1, the root of that parity] / [0, the root of 3 x] (3 is not a
 * square mod secp256k1's p; its p = 3 mod 4: roots are a^((p+1)/4)).
 */
static void compute(const struct fcall *f, const uint64_t *params, struct zisk_fcalls *fc)
{
    mpz_t x, p, r, e;
    mpz_inits(x, p, r, e, NULL);
    mpz_set_str(p, f->modulus, 16);
    mpz_from_words(x, params, f->words);
    if (f->kind == FCALL_INVERSE) {
        if (!mpz_invert(r, x, p))
            mpz_set_ui(r, 0);
        words_from_mpz(fc->results, f->words, r);
        fc->nresults = f->words;
    } else {
        mpz_add_ui(e, p, 1);
        mpz_fdiv_q_2exp(e, e, 2);
        mpz_powm(r, x, e, p);
        mpz_mul(e, r, r);
        mpz_mod(e, e, p);
        bool square = mpz_cmp(e, x) == 0; /* x not below p is no square, as in ZisK */
        if (!square) {
            mpz_mul_ui(x, x, 3);
            mpz_mod(x, x, p);
            mpz_add_ui(e, p, 1);
            mpz_fdiv_q_2exp(e, e, 2);
            mpz_powm(r, x, e, p);
        } else if ((uint64_t)mpz_odd_p(r) != (params[f->words] & 1)) {
            mpz_sub(r, p, r);
            mpz_mod(r, r, p);
        }
        fc->results[0] = square;
        words_from_mpz(fc->results + 1, f->words, r);
        fc->nresults = f->words + 1;
    }
    fc->next_result = 0;
    mpz_clears(x, p, r, e, NULL);
}

static enum ecall_result run_fcall(struct machine *m, struct zisk_fcalls *fc, unsigned id,
                                   const char **call)
{
    const struct fcall *f = NULL;
    for (size_t i = 0; i < sizeof(fcalls) / sizeof(fcalls[0]); i++)
        if (fcalls[i].id == id)
            f = &fcalls[i];
    if (!f) {
        for (size_t i = 0; i < sizeof(not_here) / sizeof(not_here[0]); i++)
            if (not_here[i].id == id)
                return abi_fault(m, FAULT_UNSUPPORTED_ECALL, not_here[i].name, id, NULL);
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, id,
                         "no free call (fcall) with this id is computed here");
    }
    *call = f->name;
    unsigned need = f->words + (f->kind == FCALL_SQRT_PARITY);
    if (fc->nparams < need)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, fc->nparams,
                         "fewer parameter words were pushed than the call takes");
    compute(f, fc->params, fc);
    fc->nparams = 0;
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
