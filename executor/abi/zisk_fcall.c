/*
 * zisk_fcall: ZisK's free-input calls, read from 0xPolygonHermez/zisk:
 * ziskos/entrypoint/src/fcall.rs (0fa1514e: ziskos_fcall_param!, its
 * ports and word counts, ziskos_fcall!, ziskos_fcall_get), the ids of
 * zisklib/fcalls/mod.rs at v0.16.0 (aacf0a73) and v0.17.0 (b6327450; the
 * same at v0.18.0, 790f9e28), the guest wrappers in zisklib/fcalls/
 * (what each pushes and reads back) and the host side in
 * zisklib/fcalls_impl/ (zisk_fcall_field.c, zisk_fcall_int.c,
 * zisk_fcall_ecdsa.c compute them). Docs: docs/ZKVMS.md.
 *
 * A guest pushes parameters with `csrs 0x8F0 + port, rs1`: port 0 pushes
 * rs1 itself, port k the 2, 4, 8, 12, ... 256 words at rs1 (the table
 * below); `csrwi 0x8C0 + (id >> 5), id & 31` computes function id from
 * them (the parameters are then used up), and each `csrr rd, 0xFFE` reads
 * the next word of its result. v0.17.0 renumbered ids 4, 5 and 13 to 22;
 * the parameters tell the two numberings apart (the table's shapes).
 */
#include "executor/abi/zisk_fcall.h"

#include <string.h>

#include "executor/abi/abi_util.h"
#include "executor/abi/zisk_fcall_calls.h"

/* Words a parameter port pushes (port 0: rs1's own value). */
static const unsigned port_words[16] = {1,  2,  4,  8,  12, 16, 20,  24,
                                        28, 32, 48, 64, 80, 96, 128, 256};

/*
 * How a call's parameters look as ziskos's wrapper pushes them: what
 * tells an id's call in one numbering from its call in the other.
 */
enum shape {
    AT_LEAST, /* at least `words` words (ids that kept their call) */
    EXACT,    /* exactly `words` words */
    LEN,      /* len, then len words, all pushed one by one (port 0) */
    TWO_LENS, /* len_a, a, len_b, b, all pushed one by one */
    COUNTED,  /* n (port 0), then n numbers of 4 words (blocks) */
    ANY,
};

static const bool QUOTIENT_0_EMPTY = true; /* v0.16's big_int_div */

static const struct fcall {
    unsigned id;
    const char *name;
    enum shape shape;
    unsigned words;
    fcall_fn fn; /* NULL: ZisK's host has no arm for the id (panics) */
    const void *arg;
} fcalls[] = {
    {1, "fcall_secp256k1_fp_inv", AT_LEAST, 4, zisk_fcall_inverse, &zisk_secp256k1_fp},
    {2, "fcall_secp256k1_fn_inv", AT_LEAST, 4, zisk_fcall_inverse, &zisk_secp256k1_fn},
    {3, "fcall_secp256k1_fp_sqrt", AT_LEAST, 5, zisk_fcall_sqrt, &zisk_secp256k1_fp},
    {4, "fcall_secp256k1_ecdsa_verify", EXACT, 20, zisk_fcall_ecdsa_verify, &zisk_secp256k1_ecdsa},
    {4, "fcall_msb_pos_256", COUNTED, 0, zisk_fcall_msb_pos_256, NULL}, /* v0.16.x */
    {5, "fcall_secp256r1_ecdsa_verify", EXACT, 20, zisk_fcall_ecdsa_verify, &zisk_secp256r1_ecdsa},
    {5, "fcall_secp256k1_msm_edges", ANY, 0, NULL, NULL}, /* v0.16.x */
    {6, "fcall_bn254_fp_inv", AT_LEAST, 4, zisk_fcall_inverse, &zisk_bn254_fp},
    {7, "fcall_bn254_fp2_inv", AT_LEAST, 8, zisk_fcall_inverse_fp2, &zisk_bn254_fp},
    {8, "fcall_bn254_twist_add_line_coeffs", AT_LEAST, 32, zisk_fcall_twist_add_line,
     &zisk_bn254_fp},
    {9, "fcall_bn254_twist_dbl_line_coeffs", AT_LEAST, 16, zisk_fcall_twist_dbl_line,
     &zisk_bn254_fp},
    {10, "fcall_bls12_381_fp_inv", AT_LEAST, 6, zisk_fcall_inverse, &zisk_bls12_381_fp},
    {11, "fcall_bls12_381_fp_sqrt", AT_LEAST, 6, zisk_fcall_sqrt, &zisk_bls12_381_fp},
    {12, "fcall_bls12_381_fp2_inv", AT_LEAST, 12, zisk_fcall_inverse_fp2, &zisk_bls12_381_fp},
    /* v0.17.0+ first, then v0.16.x's call of the same id */
    {13, "fcall_bls12_381_fp2_sqrt", EXACT, 16, zisk_fcall_fp2_sqrt, &zisk_bls12_381_fp},
    {13, "fcall_bls12_381_twist_add_line_coeffs", EXACT, 48, zisk_fcall_twist_add_line,
     &zisk_bls12_381_fp},
    {14, "fcall_bls12_381_twist_add_line_coeffs", EXACT, 48, zisk_fcall_twist_add_line,
     &zisk_bls12_381_fp},
    {14, "fcall_bls12_381_twist_dbl_line_coeffs", EXACT, 24, zisk_fcall_twist_dbl_line,
     &zisk_bls12_381_fp},
    {15, "fcall_bls12_381_twist_dbl_line_coeffs", EXACT, 24, zisk_fcall_twist_dbl_line,
     &zisk_bls12_381_fp},
    {15, "fcall_msb_pos_384", EXACT, 16, zisk_fcall_msb_pos_384, NULL},
    {16, "fcall_bin_decomp", LEN, 0, zisk_fcall_bin_decomp, NULL},
    {16, "fcall_big_int256_div", EXACT, 8, zisk_fcall_uint256_div, NULL},
    {17, "fcall_msb_pos_256", COUNTED, 0, zisk_fcall_msb_pos_256, NULL},
    {17, "fcall_big_int_div", TWO_LENS, 0, zisk_fcall_bigint_div, &QUOTIENT_0_EMPTY},
    {18, "fcall_msb_pos_384", EXACT, 16, zisk_fcall_msb_pos_384, NULL},
    {18, "fcall_bin_decomp", LEN, 0, zisk_fcall_bin_decomp, NULL},
    {19, "fcall_uint256_div", EXACT, 8, zisk_fcall_uint256_div, NULL},
    {19, "fcall_bls12_381_fp2_sqrt", EXACT, 16, zisk_fcall_fp2_sqrt, &zisk_bls12_381_fp},
    {20, "fcall_uint256_inv", EXACT, 4, zisk_fcall_uint256_inv, NULL},
    {20, "fcall_secp256k1_ecdsa_verify", EXACT, 20, zisk_fcall_ecdsa_verify, &zisk_secp256k1_ecdsa},
    {21, "fcall_uint256_inv_mod", EXACT, 8, zisk_fcall_uint256_inv_mod, NULL},
    {21, "fcall_secp256r1_ecdsa_verify", EXACT, 20, zisk_fcall_ecdsa_verify, &zisk_secp256r1_ecdsa},
    {22, "fcall_bigint_div", TWO_LENS, 0, zisk_fcall_bigint_div, NULL},
};

/* True when the parameters pushed look as f's wrapper pushes them. */
static bool fits(const struct fcall *f, const struct zisk_fcalls *fc)
{
    const uint64_t *p = fc->params;
    size_t n = fc->nparams;
    bool by_value = fc->nvalues == n;
    switch (f->shape) {
    case AT_LEAST: return n >= f->words;
    case EXACT: return n == f->words;
    case LEN: return by_value && n >= 1 && p[0] == n - 1;
    case TWO_LENS: return by_value && n >= 2 && p[0] <= n - 2 && p[1 + p[0]] == n - 2 - p[0];
    case COUNTED: return fc->nvalues == 1 && n >= 5 && n % 4 == 1 && p[0] == n / 4;
    case ANY: return true;
    }
    return false;
}

bool zisk_fcall_csr(unsigned csr)
{
    return (csr >= ZISK_FCALL_CSR && csr < ZISK_FCALL_CSR + 32) ||
           (csr >= ZISK_FCALL_PARAM_CSR && csr < ZISK_FCALL_PARAM_CSR + 16) ||
           csr == ZISK_FCALL_GET_CSR;
}

/* Uses up the parameters and the last call's results. */
static void start_call(struct zisk_fcalls *fc)
{
    fc->nparams = fc->nvalues = fc->nresults = fc->next_result = 0;
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
    start_call(fc);
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

/* The fault when the words pushed fit no call of the id: first (and second) are its calls. */
static enum ecall_result no_fit(struct machine *m, struct zisk_fcalls *fc, size_t nparams,
                                const struct fcall *first, const struct fcall *second)
{
    if (!second)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, first->name, nparams,
                         "fewer parameter words were pushed than the call takes");
    snprintf(fc->why, sizeof(fc->why),
             "the %zu parameter words pushed are neither v0.17.0+'s %s nor v0.16.x's %s as "
             "ziskos pushes them",
             nparams, first->name, second->name);
    return abi_fault(m, FAULT_ECALL_ARGUMENT, first->name, nparams, fc->why);
}

static enum ecall_result run_fcall(struct machine *m, struct zisk_fcalls *fc, unsigned id,
                                   const char **call)
{
    const struct fcall *f = NULL, *first = NULL, *second = NULL;
    if (is_input_ready(fc, id))
        return input_ready(m, fc, call);
    for (size_t i = 0; i < sizeof(fcalls) / sizeof(fcalls[0]); i++) {
        if (fcalls[i].id != id)
            continue;
        *(first ? &second : &first) = &fcalls[i];
        if (!f && fits(&fcalls[i], fc))
            f = &fcalls[i];
    }
    size_t nparams = fc->nparams;
    start_call(fc);
    if (!first)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, id,
                         "no free call (fcall) has this id in ZisK's releases (v0.16.x: 1 to 22, "
                         "v0.17.0+: 1 to 23)");
    if (!f)
        return no_fit(m, fc, nparams, first, second);
    *call = f->name;
    if (!f->fn)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, id,
                         "v0.16.x's id 5, which ZisK's host has no arm for (fcalls_impl/proxy.rs "
                         "at v0.16.0): it panics (v0.17.0+'s fcall_secp256r1_ecdsa_verify takes 20 "
                         "words)");
    struct fcall_io io = {.params = fc->params,
                          .nparams = nparams,
                          .results = fc->results,
                          .room = ZISK_FCALL_RESULTS_MAX};
    if (f->fn(&io, f->arg) != 0)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, 0, io.why);
    fc->nresults = io.nresults;
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
    if (port == 0) {
        fc->params[fc->nparams] = value;
        fc->nvalues++;
    } else if (!abi_load(m, value, fc->params + fc->nparams, 8ull * n)) {
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, value, "the parameters are not in memory");
    }
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
