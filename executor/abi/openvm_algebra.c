/*
 * openvm_algebra: OpenVM 1.x's custom-1 (0x2b) instructions, read from
 * openvm-org/openvm: extensions/algebra/transpiler/src/lib.rs (b11125b7:
 * ModArithBaseFunct7, ComplexExtFieldBaseFunct7), moduli-macros
 * (moduli_init!, complex_init!: what the setups pass), extensions/ecc
 * transpiler (bb693225: SwBaseFunct7, SETUP_EC_ADD_NE / SETUP_EC_DOUBLE by
 * rs2), sw-macros (01316c1f: sw_init!, the setup's p1 = (p, a)) and
 * extensions/pairing/guest (PairingBaseFunct7: HintFinalExp). Docs:
 * docs/ZKVMS.md.
 *
 * funct3 0: modular arithmetic, funct7 = index * 8 + ADDMOD, SUBMOD,
 *   MULMOD, DIVMOD, ISEQMOD, SETUP_MOD (rs1: the modulus; openvm 1.0 to
 *   1.3 put a [1][index][bytes as u32] header before it); + 6 HintNonQr,
 *   + 7 HintSqrt (v1.3.0+: openvm_sqrt.c)
 * funct3 1: short Weierstrass curves, funct7 = index * 8 + EC_ADD_NE,
 *   EC_DOUBLE, SETUP (rs1: p then a; rs2 = x0 sets up the double, another
 *   register the add); + 3 HintDecompress, + 4 HintNonQr (v1.0-v1.2:
 *   openvm_sqrt.c)
 * funct3 2: complex extension fields Fp2 = Fp[u] / (u^2 + 1), funct7 =
 *   index * 8 + ADD, SUB, MUL, DIV, SETUP (rs1: the prime twice)
 * funct3 3: pairings, funct7 = index * 16 + HintFinalExp (a phantom: the
 *   pairing hint, pairing_hint.c, becomes the hint stream)
 * [rd] = [rs1] op [rs2]: elements of 32 or 48 little-endian bytes, points
 * and Fp2 elements two of them. OpenVM takes its moduli and curves from the
 * app's configuration; here the setups define them, and an operation on
 * an index never set up is exit 70.
 */
#include "executor/abi/openvm_algebra.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "executor/abi/abi_util.h"
#include "executor/precompile/bigint.h"
#include "executor/precompile/curve.h"
#include "executor/precompile/pairing_hint.h"

/* A register: on RV64 all 8 bytes, so a pointer past 2^32 is not in memory, as OpenVM refuses it.
 */
static uint64_t reg(const struct machine *m, unsigned r)
{
    return machine_get_reg(m, r);
}

static enum ecall_result bad(struct machine *m, const char *call, uint64_t addr, const char *why)
{
    return abi_fault(m, FAULT_ECALL_ARGUMENT, call, addr, why);
}

/* The operands [rs1] and [rs2], `bytes` each, into x and y. */
static bool load_operands(struct machine *m, struct abi_insn f, uint32_t *x, uint32_t *y,
                          uint32_t bytes)
{
    return abi_load(m, reg(m, f.rs1), x, bytes) && abi_load(m, reg(m, f.rs2), y, bytes);
}

/* True when head is an old (v1.0-v1.3) header [1][idx][32 or 48 as a u32 LE]. */
static bool old_header(const uint8_t head[6], unsigned idx, uint32_t *bytes)
{
    memcpy(bytes, head + 2, 4);
    return head[0] == 1 && head[1] == idx && (*bytes == 32 || *bytes == 48);
}

/* True when the `bytes` little-endian bytes at v are a probable prime. */
static bool probable_prime(const uint8_t *v, size_t bytes)
{
    mpz_t z;
    mpz_init(z);
    mpz_import(z, bytes, -1, 1, 0, 0, v);
    bool prime = mpz_probab_prime_p(z, 25) != 0;
    mpz_clear(z);
    return prime;
}

/*
 * The size of a bare modulus (v1.4.0+) at `at`, whose 48 bytes are v.
 * OpenVM takes it from the app's configuration; here from what
 * moduli_init! writes: 32 bytes (32-aligned) for moduli of 256 bits and
 * fewer, else 48 bytes (16-aligned), so bytes 32 to 47 of a 48-byte one
 * are not all 0 (moduli-macros/src/lib.rs at v2.0.1, b820b25b: limbs and
 * block_size). Left to tell apart, a 32-aligned modulus followed by other
 * bytes: 48 when all 48 are a (probable) prime, as moduli are.
 */
static uint32_t bare_modulus_size(uint64_t at, const uint8_t v[48])
{
    static const uint8_t zero[16];
    uint32_t limbs[12];
    memcpy(limbs, v, 48);
    if (curve_is_known_prime(limbs, 12))
        return 48;
    if (curve_is_known_prime(limbs, 8) || memcmp(v + 32, zero, 16) == 0)
        return 32;
    if (at % 32)
        return 48;
    return probable_prime(v, 48) ? 48 : 32;
}

/*
 * SETUP_MOD: rs1 points at the modulus, which becomes modulus `index`:
 * after a header [1][index][bytes as a u32 LE] in guests of openvm 1.0 to
 * 1.3 (moduli-macros/src/lib.rs at v1.3.0, 5368d475: OPENVM_SERIALIZED_
 * MODULUS), bare from 1.4.0 (3fd48e28; at v2.0.1 MODULUS_BYTES, an
 * AlignedPlaceholder), its size then inferred (bare_modulus_size).
 */
static enum ecall_result setup_mod(struct machine *m, struct openvm_modulus *mod, struct abi_insn f,
                                   unsigned idx)
{
    uint64_t at = reg(m, f.rs1);
    uint32_t bytes;
    uint8_t head[6], v[48];
    if (!abi_load(m, at, v, 32))
        return bad(m, "SETUP_MOD", at, "the modulus is not in memory");
    if (!abi_load(m, at - 6, head, sizeof(head)) || !old_header(head, idx, &bytes))
        bytes = abi_load(m, at, v, 48) ? bare_modulus_size(at, v) : 32;
    if (!abi_load(m, at, mod->p, bytes))
        return bad(m, "SETUP_MOD", at, "the modulus is not in memory");
    mod->bytes = bytes;
    return ECALL_CONTINUE;
}

/* r = a op b mod p (op: add, sub, mul, div); false when b has no inverse. */
static bool mod_op(unsigned op, mpz_t r, const mpz_t a, const mpz_t b, const mpz_t p)
{
    switch (op) {
    case 0: mpz_add(r, a, b); break;
    case 1: mpz_sub(r, a, b); break;
    case 2: mpz_mul(r, a, b); break;
    default:
        if (!mpz_invert(r, b, p))
            return false;
        mpz_mul(r, a, r);
        break;
    }
    mpz_mod(r, r, p);
    return true;
}

/* [rd] = [rs1] op [rs2] mod p, or (ISEQMOD, op 4) rd = 1 when their bytes are equal. */
static enum ecall_result modular_op(struct machine *m, const struct openvm_modulus *mod,
                                    struct abi_insn f, unsigned op, const char *call)
{
    uint32_t x[12], y[12], n = mod->bytes / 4;
    if (!load_operands(m, f, x, y, mod->bytes))
        return bad(m, call, reg(m, f.rs1), "an operand is not in memory");
    mpz_t a, b, p, r;
    mpz_inits(a, b, p, r, NULL);
    bigint_import(a, x, n);
    bigint_import(b, y, n);
    bigint_import(p, mod->p, n);
    bool ok = true;
    if (op == 4) {
        /* the bytes, not their residues: is_eq.rs execute_e12_impl, (b == c) as u8 (v2.0.1) */
        machine_set_reg(m, f.rd, memcmp(x, y, mod->bytes) == 0);
    } else if ((ok = mod_op(op, r, a, b, p))) {
        bigint_export(x, n, r);
    }
    mpz_clears(a, b, p, r, NULL);
    if (!ok)
        return bad(m, call, reg(m, f.rs2), "no inverse of the divisor");
    if (op != 4 && !abi_store(m, reg(m, f.rd), x, mod->bytes))
        return bad(m, call, reg(m, f.rd), "the result's place is not in memory");
    return ECALL_CONTINUE;
}

static const char *const modular_names[6] = {"ADDMOD", "SUBMOD",  "MULMOD",
                                             "DIVMOD", "ISEQMOD", "SETUP_MOD"};

static enum ecall_result modular(struct machine *m, struct openvm_algebra *alg, struct abi_insn f,
                                 const char **call)
{
    unsigned idx = f.funct7 / 8, op = f.funct7 % 8;
    if (op >= 6) {
        *call = op == 6 ? "HintNonQr" : "HintSqrt";
        return openvm_sqrt_hint(m, alg, f, idx, op == 7);
    }
    *call = modular_names[op];
    if (op == 5)
        return setup_mod(m, &alg->moduli[idx], f, idx);
    if (!alg->moduli[idx].bytes)
        return bad(m, *call, idx, "the modulus was not set up");
    return modular_op(m, &alg->moduli[idx], f, op, *call);
}

/* True when the n limbs at p are a prime set up by SETUP_MOD or a curve's prime known here. */
static bool known_prime(const struct openvm_algebra *alg, const uint32_t *p, uint32_t bytes)
{
    for (int i = 0; i < OPENVM_KINDS; i++)
        if (alg->moduli[i].bytes == bytes && memcmp(alg->moduli[i].p, p, bytes) == 0)
            return true;
    return curve_is_known_prime(p, bytes / 4);
}

/*
 * True when the add setup of an RV64 guest passes p2 = (1, 1, 1): its
 * curves are projective (sw-macros/src/lib.rs at 7bfa7d3e, set_up_once:
 * p1 = (modulus, a, b), p2 = (1, 1, 1)); affine guests (v2.1.0-preview
 * and every RV32 release) pass (1, 1).
 */
static bool projective_setup(struct machine *m, const struct openvm_algebra *alg, struct abi_insn f,
                             uint32_t bytes)
{
    uint32_t q[36], one[12] = {1};
    if (!alg->projective_curves || f.rs2 == 0 || !abi_load(m, reg(m, f.rs2), q, 3 * bytes))
        return false;
    for (int i = 0; i < 3; i++)
        if (memcmp(q + i * bytes / 4, one, bytes) != 0)
            return false;
    return true;
}

/*
 * The curve setup: rs1 points at p1 = (p, a), or (p, a, b) for projective
 * curves, each of the coordinate field's size, which is the size (32 or
 * 48 bytes) at which p is a prime set up by SETUP_MOD or one of the
 * curves' here. The double's setup (rs2 = x0) keeps what the add's said.
 */
static enum ecall_result setup_curve(struct machine *m, struct openvm_algebra *alg,
                                     struct openvm_curve *c, struct abi_insn f, const char *call)
{
    uint64_t at = reg(m, f.rs1);
    uint32_t p[36];
    for (uint32_t bytes = 32; bytes <= 48; bytes += 16) {
        if (!abi_load(m, at, p, 2 * bytes))
            break;
        if (!known_prime(alg, p, bytes))
            continue;
        if (f.rs2 != 0)
            c->projective = projective_setup(m, alg, f, bytes);
        if (c->projective && !abi_load(m, at, p, 3 * bytes))
            break;
        c->field.bytes = bytes;
        memcpy(c->field.p, p, bytes);
        memcpy(c->a, p + bytes / 4, bytes);
        if (c->projective)
            memcpy(c->b, p + bytes / 2, bytes);
        return ECALL_CONTINUE;
    }
    return bad(m, call, at,
               "p at rs1 is not a modulus SETUP_MOD set up, nor the prime of secp256k1, P-256, "
               "BN254 or BLS12-381");
}

/* Arithmetic mod p on GMP integers, each result reduced. */
struct fp {
    mpz_t p, a, b3;
};

static void fmul(mpz_t r, const mpz_t x, const mpz_t y, const struct fp *F)
{
    mpz_mul(r, x, y);
    mpz_mod(r, r, F->p);
}

static void fadd(mpz_t r, const mpz_t x, const mpz_t y, const struct fp *F)
{
    mpz_add(r, x, y);
    mpz_mod(r, r, F->p);
}

static void fsub(mpz_t r, const mpz_t x, const mpz_t y, const struct fp *F)
{
    mpz_sub(r, x, y);
    mpz_mod(r, r, F->p);
}

/* (X1 + Y1)(X2 + Y2) - (u + v): the cross sums of Renes-Costello-Batina. */
static void cross(mpz_t r, const mpz_t x1, const mpz_t y1, const mpz_t x2, const mpz_t y2,
                  const mpz_t u, const mpz_t v, const struct fp *F)
{
    mpz_t s;
    mpz_init(s);
    fadd(r, x1, y1, F);
    fadd(s, x2, y2, F);
    fmul(r, r, s, F);
    fadd(s, u, v, F);
    fsub(r, r, s, F);
    mpz_clear(s);
}

/*
 * Complete projective addition r = P + Q (Renes, Costello, Batina 2015),
 * step by step as OpenVM computes it: algorithm 7 for a = 0, algorithm 1
 * otherwise (extensions/ecc/circuit/src/weierstrass_chip/curves.rs at
 * 7bfa7d3e, ec_add_proj_impl_a0 / _general; add/mod.rs picks by a == 0).
 * The representative matters: the guest stores (X, Y, Z) as they are.
 */
static void proj_add(mpz_t r[3], mpz_t P[3], mpz_t Q[3], const struct fp *F)
{
    mpz_t t0, t1, t2, t3, t4, t5, x3, y3, z3;
    mpz_inits(t0, t1, t2, t3, t4, t5, x3, y3, z3, NULL);
    fmul(t0, P[0], Q[0], F);
    fmul(t1, P[1], Q[1], F);
    fmul(t2, P[2], Q[2], F);
    cross(t3, P[0], P[1], Q[0], Q[1], t0, t1, F);
    cross(t4, P[0], P[2], Q[0], Q[2], t0, t2, F); /* a = 0: y3 before the b3 product */
    cross(t5, P[1], P[2], Q[1], Q[2], t1, t2, F); /* a = 0: t4 */
    if (mpz_sgn(F->a) == 0) {
        mpz_mul_ui(x3, t0, 3);
        mpz_mod(x3, x3, F->p);
        fmul(t2, F->b3, t2, F);
        fadd(z3, t1, t2, F);
        fsub(t1, t1, t2, F);
        fmul(y3, F->b3, t4, F);
        fmul(r[0], t3, t1, F);
        fmul(t4, t5, y3, F);
        fsub(r[0], r[0], t4, F);
        fmul(r[1], t1, z3, F);
        fmul(t4, y3, x3, F);
        fadd(r[1], r[1], t4, F);
        fmul(r[2], z3, t5, F);
        fmul(t4, x3, t3, F);
        fadd(r[2], r[2], t4, F);
    } else {
        fmul(z3, F->a, t4, F);
        fmul(x3, F->b3, t2, F);
        fadd(z3, x3, z3, F);
        fsub(x3, t1, z3, F);
        fadd(z3, t1, z3, F);
        fmul(y3, x3, z3, F);
        mpz_mul_ui(t1, t0, 3);
        mpz_mod(t1, t1, F->p);
        fmul(t2, F->a, t2, F);
        fmul(t4, F->b3, t4, F);
        fadd(t1, t1, t2, F);
        fsub(t2, t0, t2, F);
        fmul(t2, F->a, t2, F);
        fadd(t4, t4, t2, F);
        fmul(t0, t1, t4, F);
        fadd(r[1], y3, t0, F);
        fmul(t0, t5, t4, F);
        fmul(x3, t3, x3, F);
        fsub(r[0], x3, t0, F);
        fmul(t0, t3, t1, F);
        fmul(z3, t5, z3, F);
        fadd(r[2], z3, t0, F);
    }
    mpz_clears(t0, t1, t2, t3, t4, t5, x3, y3, z3, NULL);
}

/* Complete projective doubling r = 2P: algorithm 9 for a = 0, 3 otherwise (curves.rs, as above). */
static void proj_double(mpz_t r[3], mpz_t P[3], const struct fp *F)
{
    mpz_t t0, t1, t2, t3, x3, y3, z3;
    mpz_inits(t0, t1, t2, t3, x3, y3, z3, NULL);
    if (mpz_sgn(F->a) == 0) {
        fmul(t0, P[1], P[1], F);
        mpz_mul_ui(z3, t0, 8);
        mpz_mod(z3, z3, F->p);
        fmul(t1, P[1], P[2], F);
        fmul(t2, P[2], P[2], F);
        fmul(t2, F->b3, t2, F);
        fmul(x3, t2, z3, F);
        fadd(y3, t0, t2, F);
        fmul(r[2], t1, z3, F);
        mpz_mul_ui(t2, t2, 3);
        mpz_mod(t2, t2, F->p);
        fsub(t0, t0, t2, F);
        fmul(y3, t0, y3, F);
        fadd(r[1], x3, y3, F);
        fmul(t1, P[0], P[1], F);
        fmul(x3, t0, t1, F);
        fadd(r[0], x3, x3, F);
    } else {
        fmul(t0, P[0], P[0], F);
        fmul(t1, P[1], P[1], F);
        fmul(t2, P[2], P[2], F);
        fmul(t3, P[0], P[1], F);
        fadd(t3, t3, t3, F);
        fmul(z3, P[0], P[2], F);
        fadd(z3, z3, z3, F);
        fmul(x3, F->a, z3, F);
        fmul(y3, F->b3, t2, F);
        fadd(y3, x3, y3, F);
        fsub(x3, t1, y3, F);
        fadd(y3, t1, y3, F);
        fmul(y3, x3, y3, F);
        fmul(x3, t3, x3, F);
        fmul(z3, F->b3, z3, F);
        fmul(t2, F->a, t2, F);
        fsub(t3, t0, t2, F);
        fmul(t3, F->a, t3, F);
        fadd(t3, t3, z3, F);
        mpz_mul_ui(z3, t0, 3);
        mpz_mod(z3, z3, F->p);
        fadd(t0, z3, t2, F);
        fmul(t0, t0, t3, F);
        fadd(r[1], y3, t0, F);
        fmul(t2, P[1], P[2], F);
        fadd(t2, t2, t2, F);
        fmul(t0, t2, t3, F);
        fsub(r[0], x3, t0, F);
        fmul(z3, t2, t1, F);
        mpz_mul_ui(z3, z3, 4);
        mpz_mod(r[2], z3, F->p);
    }
    mpz_clears(t0, t1, t2, t3, x3, y3, z3, NULL);
}

/*
 * EC_ADD_PROJ ([rd] = [rs1] + [rs2]) and EC_DOUBLE_PROJ ([rd] = 2 [rs1])
 * on (X, Y, Z), three coordinates of the field's size: complete
 * formulas, so no input is refused (add/execution.rs at 7bfa7d3e).
 */
static enum ecall_result weierstrass_projective(struct machine *m, const struct openvm_curve *c,
                                                struct abi_insn f, unsigned op, const char *call)
{
    uint32_t bytes = c->field.bytes, n = bytes / 4, in[2][36];
    if (!abi_load(m, reg(m, f.rs1), in[0], 3 * bytes) ||
        (op == 0 && !abi_load(m, reg(m, f.rs2), in[1], 3 * bytes)))
        return bad(m, call, reg(m, f.rs1), "a point is not in memory");
    struct fp F;
    mpz_t P[3], Q[3], R[3];
    mpz_inits(F.p, F.a, F.b3, NULL);
    bigint_import(F.p, c->field.p, n);
    bigint_import(F.a, c->a, n);
    bigint_import(F.b3, c->b, n);
    mpz_mul_ui(F.b3, F.b3, 3);
    mpz_mod(F.b3, F.b3, F.p);
    mpz_mod(F.a, F.a, F.p);
    for (int i = 0; i < 3; i++) {
        mpz_inits(P[i], Q[i], R[i], NULL);
        bigint_import(P[i], in[0] + i * n, n);
        bigint_import(Q[i], in[1] + i * n, op == 0 ? n : 0);
        mpz_mod(P[i], P[i], F.p);
        mpz_mod(Q[i], Q[i], F.p);
    }
    if (op == 0)
        proj_add(R, P, Q, &F);
    else
        proj_double(R, P, &F);
    for (int i = 0; i < 3; i++) {
        bigint_export(in[0] + i * n, n, R[i]);
        mpz_clears(P[i], Q[i], R[i], NULL);
    }
    mpz_clears(F.p, F.a, F.b3, NULL);
    if (!abi_store(m, reg(m, f.rd), in[0], 3 * bytes))
        return bad(m, call, reg(m, f.rd), "the result's place is not in memory");
    return ECALL_CONTINUE;
}

static const char *const curve_names[2] = {"EC_ADD_NE", "EC_DOUBLE"};
static const char *const projective_names[2] = {"EC_ADD_PROJ", "EC_DOUBLE_PROJ"};

/* Short Weierstrass curves (funct3 1): [rd] = [rs1] + [rs2] (x differ), or 2 [rs1]. */
static enum ecall_result weierstrass(struct machine *m, struct openvm_algebra *alg,
                                     struct abi_insn f, const char **call)
{
    unsigned idx = f.funct7 / 8, op = f.funct7 % 8;
    if (op == 3 || op == 4) {
        *call = op == 3 ? "HintDecompress" : "HintNonQr";
        return openvm_ecc_hint(m, alg, f, idx, op == 3);
    }
    if (op > 4)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, f.funct7,
                         "no short Weierstrass curve instruction has this funct7");
    *call = op == 2 ? (f.rs2 ? "SETUP_EC_ADD_NE" : "SETUP_EC_DOUBLE") : curve_names[op];
    struct openvm_curve *c = &alg->curves[idx];
    if (op == 2) {
        enum ecall_result r = setup_curve(m, alg, c, f, *call);
        if (c->projective)
            *call = f.rs2 ? "SETUP_EC_ADD_PROJ" : "SETUP_EC_DOUBLE_PROJ";
        return r;
    }
    uint32_t bytes = c->field.bytes, n = bytes / 4, p[24], q[24];
    if (!bytes)
        return bad(m, *call, idx, "the curve was not set up");
    if (c->projective) {
        *call = projective_names[op];
        return weierstrass_projective(m, c, f, op, *call);
    }
    if (!abi_load(m, reg(m, f.rs1), p, 2 * bytes) ||
        (op == 0 && !abi_load(m, reg(m, f.rs2), q, 2 * bytes)))
        return bad(m, *call, reg(m, f.rs1), "a point is not in memory");
    bool ok = op == 0 ? curve_add_on(c->field.p, n, p, q) : curve_double_on(c->field.p, c->a, n, p);
    if (!ok)
        return bad(m, *call, reg(m, f.rs1),
                   op == 0 ? "the points share x (EC_ADD_NE takes points with x1 != x2)"
                           : "y is 0: the double is at infinity");
    if (!abi_store(m, reg(m, f.rd), p, 2 * bytes))
        return bad(m, *call, reg(m, f.rd), "the result's place is not in memory");
    return ECALL_CONTINUE;
}

/* The complex setup: rs1 points at the prime twice (32 or 48 bytes each). */
static enum ecall_result setup_complex(struct machine *m, struct openvm_modulus *mod,
                                       struct abi_insn f)
{
    uint64_t at = reg(m, f.rs1);
    uint32_t p[24];
    for (uint32_t bytes = 32; bytes <= 48; bytes += 16) {
        if (!abi_load(m, at, p, 2 * bytes))
            break;
        if (memcmp(p, p + bytes / 4, bytes) != 0 || !(p[0] & 1))
            continue;
        mod->bytes = bytes;
        memcpy(mod->p, p, bytes);
        return ECALL_CONTINUE;
    }
    return bad(m, "SETUP_FP2", at, "rs1 does not point at an odd prime twice (32 or 48 bytes)");
}

static const char *const complex_names[5] = {"FP2_ADD", "FP2_SUB", "FP2_MUL", "FP2_DIV",
                                             "SETUP_FP2"};

/* Complex extension fields (funct3 2): [rd] = [rs1] op [rs2] in Fp2. */
static enum ecall_result complex_field(struct machine *m, struct openvm_algebra *alg,
                                       struct abi_insn f, const char **call)
{
    static const enum field_op ops[4] = {FIELD_ADD, FIELD_SUB, FIELD_MUL, FIELD_DIV};
    unsigned idx = f.funct7 / 8, op = f.funct7 % 8;
    if (op > 4)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, f.funct7,
                         "no complex extension field instruction has this funct7");
    *call = complex_names[op];
    struct openvm_modulus *mod = &alg->complex[idx];
    if (op == 4)
        return setup_complex(m, mod, f);
    uint32_t x[24], y[24];
    if (!mod->bytes)
        return bad(m, *call, idx, "the complex field was not set up");
    if (!load_operands(m, f, x, y, 2 * mod->bytes))
        return bad(m, *call, reg(m, f.rs1), "an operand is not in memory");
    if (!curve_field2_on(mod->p, mod->bytes / 4, ops[op], x, y))
        return bad(m, *call, reg(m, f.rs2), "the divisor is 0");
    if (!abi_store(m, reg(m, f.rd), x, 2 * mod->bytes))
        return bad(m, *call, reg(m, f.rd), "the result's place is not in memory");
    return ECALL_CONTINUE;
}

/* The slice (ptr, len) at `at`: two u32, len a register's width after ptr. */
static bool load_slice(struct machine *m, const struct openvm_algebra *alg, uint64_t at,
                       uint32_t *ptr, uint32_t *len)
{
    return abi_load(m, at, ptr, 4) && abi_load(m, at + alg->word, len, 4);
}

/*
 * HintFinalExp (funct7 = curve * 16): rs1 points at (P's pointer, its
 * length), rs2 at Q's; the hint (c, u) of the pairs' multi-Miller loop
 * becomes the hint stream (pairing_extension.rs hint_pairing; the
 * transpiler asserts rd = x0). More than PAIRS_MAX pairs are refused
 * here; OpenVM reads them all.
 */
static enum ecall_result final_exp_hint(struct machine *m, struct openvm_algebra *alg,
                                        struct abi_insn f)
{
    enum { PAIRS_MAX = 1 << 12 };
    const char *call = "HintFinalExp", *why = NULL;
    unsigned curve = f.funct7 / 16;
    uint32_t p_ptr, p_len, q_ptr, q_len;
    if (f.rd != 0)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, call, f.rd, "the transpiler asserts rd = x0");
    if (curve > PAIRING_BLS12_381)
        return bad(m, call, curve, "no pairing curve has this index (0 BN254, 1 BLS12-381)");
    if (!load_slice(m, alg, reg(m, f.rs1), &p_ptr, &p_len) ||
        !load_slice(m, alg, reg(m, f.rs2), &q_ptr, &q_len))
        return bad(m, call, reg(m, f.rs1), "a (pointer, length) pair is not in memory");
    if (p_len != q_len)
        return bad(m, call, q_len, "P and Q differ in length (hint_pairing: p_len != q_len)");
    if (p_len > PAIRS_MAX)
        return bad(m, call, p_len, "more than 4096 pairs: refused here");
    size_t bytes = pairing_fp_bytes(curve), n = p_len;
    uint8_t *p = malloc(6 * bytes * (n ? n : 1)), *q = p + 2 * bytes * n;
    if (!p)
        return bad(m, call, p_len, "out of memory");
    if (!abi_load(m, p_ptr, p, 2 * bytes * n) || !abi_load(m, q_ptr, q, 4 * bytes * n))
        why = "a point is not in memory";
    else if (pairing_final_exp_hint(curve, p, q, n, alg->hint, &why) == 0)
        alg->hint_len = 24 * bytes;
    free(p);
    return why ? bad(m, call, p_ptr, why) : ECALL_CONTINUE;
}

enum ecall_result openvm_algebra_insn(struct machine *m, struct openvm_algebra *alg, uint32_t w,
                                      const char **call)
{
    struct abi_insn f = abi_insn_fields(w);
    switch (f.funct3) {
    case 0: return modular(m, alg, f, call);
    case 1: return weierstrass(m, alg, f, call);
    case 2: return complex_field(m, alg, f, call);
    case 3:
        if (f.funct7 % 16 == 0) {
            *call = "HintFinalExp";
            return final_exp_hint(m, alg, f);
        }
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, f.funct7,
                         "no pairing instruction has this funct7");
    default:
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, w,
                         "custom-1 funct3 4-7 are no OpenVM instructions");
    }
}
