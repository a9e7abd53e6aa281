/*
 * jolt_fields: Jolt's curve-field inlines (custom-0 0x0B, R-type; funct7 5
 * secp256k1, 6 Grumpkin, 7 P-256) as the tracer runs them: the host
 * computes the advice (a quotient, an inverse, a scalar split, a point)
 * from the operands in memory, the inline's sequence checks it and stores
 * the result at rd. Read from a16z/jolt @ 01f78185
 * jolt-inlines/{secp256k1,grumpkin}/src/sequence_builder.rs, and @ HEAD
 * ff9f8c13 jolt-inlines/p256/src/{sequence_builder,fake_glv}.rs,
 * jolt-inlines/grumpkin/src/{sequence_builder,glv}.rs for the inlines
 * 01f78185 lacks. Docs: docs/ZKVMS.md.
 *
 * Operands are 4 little-endian u64 limbs, 8-aligned (the sequences' ld /
 * sd, the advice's load_doubleword). q is the field's modulus.
 * MUL, SQUARE: w = a b / q (must fit in 256 bits), rd = a b - w q.
 * DIV: c = (a mod q) / (b mod q), w = b c / q; the sequence checks
 * b c + w (2^256 - q) = 2^256 w + [rs1] (so a must be below q), rd = c.
 * Grumpkin's DIV_ADV: arkworks Montgomery limbs, no check: rd = a 2^256 / b.
 * GLVR_ADV: k = [rs1] mod n split as k1 + k2 lambda, rd = 6 u64.
 * P256_FAKE_GLV_ADV: rd = 14 u64: s P, then the half-GCD of s.
 */
#include "executor/abi/jolt_fields.h"

#include <gmp.h>
#include <string.h>

#include "executor/abi/abi_util.h"
#include "executor/precompile/bigint.h"
#include "executor/precompile/curve.h"

enum field_inline_op { FOP_MUL, FOP_SQUARE, FOP_DIV, FOP_MONT_DIV, FOP_GLV, FOP_FAKE_GLV };

/* A GLV lattice basis [[a1, b1], [a2, b2]] (a + b lambda = 0 mod n), in hex. */
struct glv_basis {
    const char *a1, *b1, *a2, *b2;
};

/* secp256k1's (SEC 2; the constants of jolt-inlines/secp256k1/src/glv.rs). */
static const struct glv_basis secp256k1_basis = {
    "3086d221a7d46bcde86c90e49284eb15", "-e4437ed6010e88286f547fa90abfe4c3",
    "114ca50f7a8e2f3f657c1108d9d44cfd8", "3086d221a7d46bcde86c90e49284eb15"};

/* Grumpkin's (n11, n12, n21, n22 of jolt-inlines/grumpkin/src/glv.rs). */
static const struct glv_basis grumpkin_basis = {"6f4d8248eeb859fc8211bbeb7d4f1129",
                                                "-89d3256894d213e2", "89d3256894d213e2",
                                                "6f4d8248eeb859fd0be4e1541221250b"};

struct field_inline {
    const char *name; /* NULL: no inline of that funct3 */
    enum field_inline_op op;
    enum curve_id curve;
    bool order;       /* q is the curve's group order (its scalar field), else its prime */
    bool store_first; /* DIV: c stored as b is loaded, before the check (secp256k1 at 01f78185) */
    bool montgomery;  /* GLV: [rs1] is arkworks Montgomery limbs (Grumpkin) */
    const struct glv_basis *basis;
};

#define K1 CURVE_SECP256K1
#define R1 CURVE_SECP256R1
#define BN                                                                                         \
    CURVE_BN254 /* Grumpkin's base field is BN254's order, its scalar field BN254's prime          \
                 */

static const struct field_inline inlines[3][8] = {
    {
        {"SECP256K1_MULQ", FOP_MUL, K1, false, false, false, NULL},
        {"SECP256K1_SQUAREQ", FOP_SQUARE, K1, false, false, false, NULL},
        {"SECP256K1_DIVQ", FOP_DIV, K1, false, true, false, NULL},
        {NULL, FOP_MUL, K1, false, false, false, NULL},
        {"SECP256K1_MULR", FOP_MUL, K1, true, false, false, NULL},
        {"SECP256K1_SQUARER", FOP_SQUARE, K1, true, false, false, NULL},
        {"SECP256K1_DIVR", FOP_DIV, K1, true, true, false, NULL},
        {"SECP256K1_GLVR_ADV", FOP_GLV, K1, true, false, false, &secp256k1_basis},
    },
    {
        {"GRUMPKIN_DIVQ_ADV", FOP_MONT_DIV, BN, true, false, false, NULL},
        {"GRUMPKIN_DIVR_ADV", FOP_MONT_DIV, BN, false, false, false, NULL},
        {"GRUMPKIN_GLVR_ADV", FOP_GLV, BN, false, false, true, &grumpkin_basis},
    },
    {
        {"P256_MULQ", FOP_MUL, R1, false, false, false, NULL},
        {"P256_SQUAREQ", FOP_SQUARE, R1, false, false, false, NULL},
        {"P256_DIVQ", FOP_DIV, R1, false, false, false, NULL},
        {NULL, FOP_MUL, R1, false, false, false, NULL},
        {"P256_MULR", FOP_MUL, R1, true, false, false, NULL},
        {"P256_SQUARER", FOP_SQUARE, R1, true, false, false, NULL},
        {"P256_DIVR", FOP_DIV, R1, true, false, false, NULL},
        {"P256_FAKE_GLV_ADV", FOP_FAKE_GLV, R1, true, false, false, NULL},
    },
};

static const char *const families[3] = {"SECP256K1_INLINE", "GRUMPKIN_INLINE", "P256_INLINE"};

/* The registers of the word: rd holds the output's address (the FormatInline rs3). */
struct operands {
    uint64_t rd, rs1, rs2;
};

static enum ecall_result fail(struct machine *m, const struct field_inline *f, uint64_t addr,
                              const char *why)
{
    return abi_fault(m, FAULT_ECALL_ARGUMENT, f->name, addr, why);
}

/* The first of the addresses not 8-aligned, or 0 when they all are. */
static uint64_t first_misaligned(uint64_t a, uint64_t b, uint64_t c)
{
    return a % 8 ? a : b % 8 ? b : c % 8 ? c : 0;
}

/* z = the 4 u64 limbs at addr. */
static bool load_num(const struct machine *m, uint64_t addr, mpz_t z)
{
    uint32_t w[8];
    if (!abi_load_words(m, addr, w, 8))
        return false;
    bigint_import(z, w, 8);
    return true;
}

/* The 4 u64 limbs of z (below 2^256) at addr. */
static bool store_num(struct machine *m, uint64_t addr, const mpz_t z)
{
    uint32_t w[8];
    bigint_export(w, 8, z);
    return abi_store_words(m, addr, w, 8);
}

/* MUL / SQUARE: rd = a b - w q, w = a b / q the advice (4 limbs, else the host's assert panics). */
static enum ecall_result mul_mod(struct machine *m, const struct field_inline *f,
                                 const struct operands *o, const mpz_t q)
{
    uint64_t src2 = f->op == FOP_SQUARE ? o->rs1 : o->rs2;
    mpz_t x, y, w;
    enum ecall_result r = ECALL_CONTINUE;
    mpz_inits(x, y, w, NULL);
    if (first_misaligned(o->rs1, src2, o->rd))
        r = fail(m, f, first_misaligned(o->rs1, src2, o->rd), "an operand is not 8-aligned");
    else if (!load_num(m, o->rs1, x) || !load_num(m, src2, y))
        r = fail(m, f, o->rs1, "an operand is not in memory");
    else {
        mpz_mul(x, x, y);
        mpz_fdiv_qr(w, x, x, q);
        if (mpz_sizeinbase(w, 2) > 256)
            r = fail(m, f, o->rs1,
                     "a b / q does not fit in 4 limbs (the host's advice asserts it does)");
        else if (!store_num(m, o->rd, x))
            r = fail(m, f, o->rd, "the result is not writable");
    }
    mpz_clears(x, y, w, NULL);
    return r;
}

/*
 * b = [rs2], loaded limb by limb while c's limbs are stored at rd, as the
 * secp256k1 sequence at 01f78185 interleaves them (rd over rs2 changes b).
 */
static bool load_b_storing_c(struct machine *m, const struct operands *o, const mpz_t c, mpz_t b)
{
    uint32_t bw[8], cw[8];
    bigint_export(cw, 8, c);
    for (int i = 0; i < 4; i++)
        if (!abi_load_words(m, o->rs2 + 8 * i, bw + 2 * i, 2) ||
            !abi_store_words(m, o->rd + 8 * i, cw + 2 * i, 2))
            return false;
    bigint_import(b, bw, 8);
    return true;
}

/*
 * The sequence's check: b c + w (2^256 - q) = 2^256 w + [rs1], limb by limb
 * (its sum is below 2^512: c < q, w < 2^256).
 */
static bool div_check(const struct machine *m, const struct operands *o, const mpz_t b,
                      const mpz_t c, const mpz_t w, const mpz_t q, bool *in_memory)
{
    mpz_t t, u, a;
    mpz_inits(t, u, a, NULL);
    mpz_mul(t, b, c);
    mpz_setbit(u, 256);
    mpz_sub(u, u, q);
    mpz_addmul(t, w, u);
    mpz_fdiv_q_2exp(u, t, 256);
    mpz_fdiv_r_2exp(t, t, 256);
    *in_memory = load_num(m, o->rs1, a);
    bool ok = *in_memory && mpz_cmp(u, w) == 0 && mpz_cmp(t, a) == 0;
    mpz_clears(t, u, a, NULL);
    return ok;
}

/* DIV: rd = c = a / b in the field, checked by the sequence against [rs1]. */
static enum ecall_result div_mod(struct machine *m, const struct field_inline *f,
                                 const struct operands *o, const mpz_t q)
{
    mpz_t a, b, c, w;
    enum ecall_result r = ECALL_CONTINUE;
    bool in_memory = true;
    mpz_inits(a, b, c, w, NULL);
    if (first_misaligned(o->rs1, o->rs2, o->rd))
        r = fail(m, f, first_misaligned(o->rs1, o->rs2, o->rd), "an operand is not 8-aligned");
    else if (!load_num(m, o->rs1, a) || !load_num(m, o->rs2, b))
        r = fail(m, f, o->rs1, "an operand is not in memory");
    else if (!mpz_invert(c, b, q))
        r = fail(m, f, o->rs2, "division by zero (the host's inverse panics)");
    else {
        mpz_mul(c, c, a);
        mpz_mod(c, c, q);
        mpz_mul(w, b, c);
        mpz_fdiv_q(w, w, q);
        if (f->store_first && !load_b_storing_c(m, o, c, b))
            r = fail(m, f, o->rd, "the result is not writable");
        else if (!div_check(m, o, b, c, w, q, &in_memory))
            r = fail(m, f, o->rs1,
                     in_memory ? "the check b c = a + w q fails (VirtualAssertEQ panics): "
                                 "a is not below q, or the result overwrote an operand"
                               : "an operand is not in memory");
        else if (!f->store_first && !store_num(m, o->rd, c))
            r = fail(m, f, o->rd, "the result is not writable");
    }
    mpz_clears(a, b, c, w, NULL);
    return r;
}

/*
 * Grumpkin's DIV_ADV: a and b the Montgomery limbs of arkworks elements,
 * rd = those of a / b: a 2^256 / b mod q. b = 0 panics at 01f78185 (HEAD
 * gives 0); another multiple of q never returns from arkworks' inverse.
 */
static enum ecall_result mont_div(struct machine *m, const struct field_inline *f,
                                  const struct operands *o, const mpz_t q)
{
    mpz_t a, b;
    enum ecall_result r = ECALL_CONTINUE;
    mpz_inits(a, b, NULL);
    if (first_misaligned(o->rs1, o->rs2, o->rd))
        r = fail(m, f, first_misaligned(o->rs1, o->rs2, o->rd), "an operand is not 8-aligned");
    else if (!load_num(m, o->rs1, a) || !load_num(m, o->rs2, b))
        r = fail(m, f, o->rs1, "an operand is not in memory");
    else if (mpz_sgn(b) == 0)
        r = fail(m, f, o->rs2, "division by zero (the host's inverse panics)");
    else if (!mpz_invert(b, b, q))
        r = fail(m, f, o->rs2,
                 "the divisor is a nonzero multiple of q: the host's inverse never returns");
    else {
        mpz_mul_2exp(a, a, 256);
        mpz_mul(a, a, b);
        mpz_mod(a, a, q);
        if (!store_num(m, o->rd, a))
            r = fail(m, f, o->rd, "the result is not writable");
    }
    mpz_clears(a, b, NULL);
    return r;
}

/* q = num / n rounded to nearest (num >= 0; n odd: no ties), as glv.rs's rounded_div. */
static void rounded_div(mpz_t q, const mpz_t num, const mpz_t n)
{
    mpz_t rem;
    mpz_init(rem);
    mpz_fdiv_qr(q, rem, num, n);
    mpz_mul_2exp(rem, rem, 1);
    if (mpz_cmp(rem, n) > 0)
        mpz_add_ui(q, q, 1);
    mpz_clear(rem);
}

/* out = the sign word (1: negative) of v, then |v|'s two u64 limbs; false when |v| >= 2^128. */
static bool signed_u128(uint32_t out[6], const mpz_t v, bool sign_first)
{
    mpz_t a;
    mpz_init(a);
    mpz_abs(a, v);
    bool ok = mpz_sizeinbase(a, 2) <= 128;
    uint32_t *mag = sign_first ? out + 2 : out, *sign = sign_first ? out : out + 4;
    if (ok)
        bigint_export(mag, 4, a);
    sign[0] = mpz_sgn(v) < 0;
    sign[1] = 0;
    mpz_clear(a);
    return ok;
}

/* [k1, k2]: k = k1 + k2 lambda (mod n) from the basis, as glv.rs's decompose_scalar. */
static void glv_split(mpz_t k1, mpz_t k2, const mpz_t k, const struct glv_basis *g, const mpz_t n)
{
    mpz_t a1, b1, a2, b2, c1, c2;
    mpz_init_set_str(a1, g->a1, 16);
    mpz_init_set_str(b1, g->b1, 16);
    mpz_init_set_str(a2, g->a2, 16);
    mpz_init_set_str(b2, g->b2, 16);
    mpz_inits(c1, c2, NULL);
    mpz_mul(k1, k, b2);
    rounded_div(c1, k1, n); /* beta_1 = k b2 / n */
    mpz_mul(k1, k, b1);
    mpz_neg(k1, k1);
    rounded_div(c2, k1, n); /* beta_2 = -k b1 / n */
    mpz_set(k1, k);         /* k1 = k - beta_1 a1 - beta_2 a2 */
    mpz_submul(k1, c1, a1);
    mpz_submul(k1, c2, a2);
    mpz_mul(k2, c1, b1); /* k2 = -beta_1 b1 - beta_2 b2 */
    mpz_addmul(k2, c2, b2);
    mpz_neg(k2, k2);
    mpz_clears(a1, b1, a2, b2, c1, c2, NULL);
}

/*
 * k as the host reads it: [rs1] mod n (Fr::new), or for Montgomery limbs
 * arkworks' into_bigint, [rs1] / 2^256 mod n (n itself for a nonzero
 * multiple of n: its reduction does not subtract n at the end).
 */
static void glv_scalar(mpz_t k, const struct field_inline *f, const mpz_t n)
{
    if (!f->montgomery || mpz_sgn(k) == 0) {
        mpz_mod(k, k, n);
        return;
    }
    if (mpz_divisible_p(k, n)) {
        mpz_set(k, n);
        return;
    }
    mpz_t r;
    mpz_init(r);
    mpz_setbit(r, 256);
    mpz_invert(r, r, n);
    mpz_mul(k, k, r);
    mpz_mod(k, k, n);
    mpz_clear(r);
}

/* GLVR_ADV: rd = sign k1, |k1| (2 limbs), sign k2, |k2|, k = [rs1] split. */
static enum ecall_result glv(struct machine *m, const struct field_inline *f,
                             const struct operands *o, const mpz_t n)
{
    mpz_t k, k1, k2;
    uint32_t out[12];
    enum ecall_result r = ECALL_CONTINUE;
    mpz_inits(k, k1, k2, NULL);
    if (first_misaligned(o->rs1, o->rd, 0))
        r = fail(m, f, first_misaligned(o->rs1, o->rd, 0), "an operand is not 8-aligned");
    else if (!load_num(m, o->rs1, k))
        r = fail(m, f, o->rs1, "the scalar is not in memory");
    else {
        glv_scalar(k, f, n);
        glv_split(k1, k2, k, f->basis, n);
        if (!signed_u128(out, k1, true) || !signed_u128(out + 6, k2, true))
            r = fail(m, f, o->rs1, "a half of the split exceeds 128 bits (the host asserts)");
        else if (!abi_store_words(m, o->rd, out, 12))
            r = fail(m, f, o->rd, "the result is not writable");
    }
    mpz_clears(k, k1, k2, NULL);
    return r;
}

/* (a, b) with b s = a (mod n), |a|, |b| < sqrt n: fake_glv.rs's extended Euclid, stopped early. */
static void half_gcd(mpz_t a, mpz_t b, const mpz_t s, const mpz_t n)
{
    mpz_t old_u, old_v, root, t, quot;
    mpz_inits(old_u, old_v, root, t, quot, NULL);
    mpz_set(old_u, n);
    mpz_set(a, s);
    mpz_set_ui(old_v, 0);
    mpz_set_ui(b, 1);
    mpz_sqrt(root, n);
    while (mpz_cmpabs(a, root) >= 0) {
        mpz_tdiv_q(quot, old_u, a);
        mpz_set(t, old_u); /* (old_u, a) = (a, old_u - quot a) */
        mpz_submul(t, quot, a);
        mpz_swap(old_u, a);
        mpz_swap(a, t);
        mpz_set(t, old_v); /* (old_v, b) = (b, old_v - quot b) */
        mpz_submul(t, quot, b);
        mpz_swap(old_v, b);
        mpz_swap(b, t);
    }
    mpz_clears(old_u, old_v, root, t, quot, NULL);
}

/*
 * The point at rs2 (x, then y at +32), each reduced mod p (Fq::new), into
 * pt's 16 words; false when it is not on the curve (Affine::new asserts).
 */
static bool load_point(const struct machine *m, uint64_t at, enum curve_id c, uint32_t pt[16],
                       bool *in_memory)
{
    mpz_t p, a, v;
    mpz_inits(p, a, v, NULL);
    curve_prime_and_a(c, p, a);
    *in_memory = true;
    for (int i = 0; i < 2 && *in_memory; i++) {
        *in_memory = load_num(m, at + 32 * i, v);
        mpz_mod(v, v, p);
        bigint_export(pt + 8 * i, 8, v);
    }
    mpz_clears(p, a, v, NULL);
    return *in_memory && curve_on_curve(c, pt);
}

/*
 * P256_FAKE_GLV_ADV: s = [rs1] mod n, P = [rs2]; rd = s P (x, y; 0, 0 at
 * infinity), then a (2 limbs, sign), b (2 limbs, sign) of half_gcd(s).
 */
static enum ecall_result fake_glv(struct machine *m, const struct field_inline *f,
                                  const struct operands *o, const mpz_t n)
{
    mpz_t s, a, b;
    uint32_t out[28] = {0}, k[8];
    bool in_memory;
    enum ecall_result r = ECALL_CONTINUE;
    mpz_inits(s, a, b, NULL);
    if (first_misaligned(o->rs1, o->rs2, o->rd))
        r = fail(m, f, first_misaligned(o->rs1, o->rs2, o->rd), "an operand is not 8-aligned");
    else if (!load_num(m, o->rs1, s))
        r = fail(m, f, o->rs1, "the scalar is not in memory");
    else if (!load_point(m, o->rs2, f->curve, out, &in_memory))
        r = fail(m, f, o->rs2,
                 in_memory ? "the point is not on the curve (the host's Affine::new asserts)"
                           : "the point is not in memory");
    else {
        mpz_mod(s, s, n);
        bigint_export(k, 8, s);
        if (!curve_mul(f->curve, out, k))
            memset(out, 0, 64); /* the point at infinity: arkworks' identity, (0, 0) */
        half_gcd(a, b, s, n);
        signed_u128(out + 16, a, false);
        signed_u128(out + 22, b, false);
        if (!abi_store_words(m, o->rd, out, 28))
            r = fail(m, f, o->rd, "the result is not writable");
    }
    mpz_clears(s, a, b, NULL);
    return r;
}

static enum ecall_result run(struct machine *m, const struct field_inline *f,
                             const struct operands *o)
{
    mpz_t q, a;
    enum ecall_result r;
    mpz_inits(q, a, NULL);
    if (f->order)
        curve_order(f->curve, q);
    else
        curve_prime_and_a(f->curve, q, a);
    switch (f->op) {
    case FOP_MUL:
    case FOP_SQUARE: r = mul_mod(m, f, o, q); break;
    case FOP_DIV: r = div_mod(m, f, o, q); break;
    case FOP_MONT_DIV: r = mont_div(m, f, o, q); break;
    case FOP_GLV: r = glv(m, f, o, q); break;
    default: r = fake_glv(m, f, o, q); break;
    }
    mpz_clears(q, a, NULL);
    return r;
}

bool jolt_field_family(unsigned funct7)
{
    return funct7 >= 5 && funct7 <= 7;
}

enum ecall_result jolt_field_inline(struct machine *m, uint32_t w, const char **call)
{
    struct abi_insn in = abi_insn_fields(w);
    const struct field_inline *f = &inlines[in.funct7 - 5][in.funct3];
    struct operands o = {machine_get_reg(m, in.rd), machine_get_reg(m, in.rs1),
                         machine_get_reg(m, in.rs2)};
    if (!f->name)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, families[in.funct7 - 5], w,
                         "no inline of this funct3 (the tracer finds none registered)");
    *call = f->name;
    return run(m, f, &o);
}
