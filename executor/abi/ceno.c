/*
 * ceno: the ABI of Ceno guests (RV32IM, the ceno_rt crate), as Ceno's
 * emulator runs them (scroll-tech/ceno ceno_emul/src/platform.rs,
 * vm_state.rs, syscalls.rs; the call numbers in ceno_syscall, SP1's).
 * Docs: docs/ZKVMS.md.
 *
 * Memory has had two homes. Guests linked for ROM at 0x2000_0000
 * (d03f0115 .. 2025-08) have RAM [0x8000_0000, 2^32) for data, heap and
 * stack (ceno_rt's _stack_start at 0xC000_0000), public IO at
 * 0x3000_0000 and hints at 0x4000_0000 (0cd4234d..3cb51d0d). Guests
 * linked for ROM at 0x0800_0000 (ca7b038c and later) have RAM
 * [0x1000_0000, 0x2000_4000) and [0x3000_0000, 0x4000_4000) (heap, data,
 * stack, public IO, and ceno_rt's debug messages at 0x4000_0000) and
 * hints at 0x2800_0000. The host fills the hints as ceno_host lays out
 * its items, each --input one item, in the format the guest reads: rkyv's
 * until 2025-12, ceno_serde's after (ceno_hints.c). Loads and stores must
 * be aligned (rv32im.rs traps them).
 *
 * An ecall's number is in t0, its arguments in a0, a1: 0 HALT (exit code
 * a0), and the precompiles: KECCAK_PERMUTE, KECCAK_XORIN, SHA_EXTEND (the whole
 * schedule at a0; one word at a0 from c3473257, 2026-01, guests of the
 * later layout that do not read rkyv hints), UINT256_MUL, SECP256K1 ADD, DOUBLE, DECOMPRESS,
 * SCALAR_INVERT, SECP256R1 ADD, DOUBLE, SCALAR_INVERT, BN254 ADD, DOUBLE, FP ADD, MUL,
 * FP2 ADD, MUL, PHANTOM_LOG_PC_CYCLE (a label, for regions) and
 * PUB_IO_COMMIT (the 8-word digest at a0, ceno_rt's `commit`: to
 * --public-output, the last one in --stats, as vm_state.rs keeps it in
 * committed_public_io).
 *
 * Without --input, the hints region is left unmapped, so that a guest
 * reading input stops at its first read with a message naming --input
 * (Ceno's zeros would make ceno_rt's reader divide by an alignment of 0,
 * or rkyv fail on an empty slice).
 */
#include <gmp.h>
#include <stdio.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/abi/ceno_hints.h"
#include "executor/abi/regions.h"
#include "executor/machine.h"
#include "executor/precompile/bigint.h"
#include "executor/precompile/curve.h"
#include "executor/precompile/sha256.h"

/* ceno_syscall's numbers (ceno-patch syscall/src/lib.rs, 0cb2c93; ceno_syscall/src/lib.rs before
 * 05fe883e). */
enum {
    CENO_HALT = 0,
    CENO_KECCAK_PERMUTE = 0x00010109,
    CENO_SECP256K1_ADD = 0x0001010A,
    CENO_SECP256K1_DOUBLE = 0x0000010B,
    CENO_SECP256K1_DECOMPRESS = 0x0000010C,
    CENO_SECP256K1_SCALAR_INVERT = 0x0000010E,
    CENO_SHA_EXTEND = 0x00300105,
    CENO_BN254_ADD = 0x0001010E,
    CENO_BN254_DOUBLE = 0x0000010F,
    CENO_BN254_FP_ADD = 0x00010126,
    CENO_BN254_FP_MUL = 0x00010128,
    CENO_BN254_FP2_ADD = 0x00010129,
    CENO_BN254_FP2_MUL = 0x0001012B,
    CENO_SECP256R1_ADD = 0x0001012C,
    CENO_SECP256R1_DOUBLE = 0x0000012D,
    CENO_UINT256_MUL = 0x0001011D,
    CENO_LOG_PC_CYCLE = 0x00000003,
    /* ceno-patch syscall/src/lib.rs at 6a71aabe (after 0cb2c93); ceno_emul syscalls.rs at ac1642550
     */
    CENO_PUB_IO_COMMIT = 0x00000010,
    CENO_KECCAK_XORIN = 0x00010130,
    CENO_SECP256R1_SCALAR_INVERT = 0x0000012F,
};

#define CENO_KECCAK_STATE_BYTES 200 /* ceno_syscall KECCAK_STATE_WORDS: 25 u64 */
#define CENO_KECCAK_RATE_WORDS  34  /* keccak_xorin.rs KECCAK_RATE_WORDS: 136 bytes */

#define CENO_OLD_ROM       0x20000000ull
#define CENO_OLD_ROM_END   0x30000000ull
#define CENO_OLD_PUBIO     0x30000000ull
#define CENO_OLD_PUBIO_END 0x30040000ull
#define CENO_OLD_HINTS     0x40000000ull
#define CENO_OLD_HINTS_END 0x50000000ull
#define CENO_OLD_RAM       0x80000000ull
#define CENO_OLD_RAM_END   0x100000000ull
#define CENO_ROM           0x08000000ull
#define CENO_ROM_END       0x10000000ull
#define CENO_RAM_LOW       0x10000000ull
#define CENO_RAM_LOW_END   0x20004000ull
#define CENO_HINTS         0x28000000ull
#define CENO_HINTS_END     0x30000000ull
#define CENO_RAM_HIGH      0x30000000ull
#define CENO_RAM_HIGH_END  0x40004000ull
#define CENO_INFO_OUT      0x40000000ull /* ceno_rt params.rs INFO_OUT_ADDR */

struct ceno_state {
    bool later_layout; /* ROM at 0x0800_0000 */
    enum ceno_hint_format hints;
    uint32_t exit_code;
    struct regions regions;
    char label[256];
    uint32_t pubio[8]; /* the last PUB_IO_COMMIT digest */
    uint64_t pubio_commits;
};

static uint32_t reg(const struct machine *m, int r)
{
    return (uint32_t)machine_get_reg(m, r);
}

static enum ecall_result ceno_halt(struct machine *m)
{
    m->exit_status = (int)(reg(m, REG_A0) & 0xff);
    return ECALL_EXIT;
}

/* n words at addr in, f applied, out again; the fault names the call. */
static bool load_words(struct machine *m, const char *call, uint32_t at, uint32_t *w, size_t n,
                       enum ecall_result *r)
{
    if (at % 4 || !abi_load_words(m, at, w, n)) {
        *r = abi_fault(m, FAULT_ECALL_ARGUMENT, call, at,
                       "the operand is not in memory (or not word-aligned)");
        return false;
    }
    return true;
}

static enum ecall_result store_words(struct machine *m, const char *call, uint32_t at,
                                     const uint32_t *w, size_t n)
{
    if (!abi_store_words(m, at, w, n))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at, "the operand is not writable");
    return ECALL_CONTINUE;
}

/*
 * SHA_EXTEND. Until c3473257 it extends w[0..16] at a0 to w[16..64], as
 * SP1's; from it, it computes the one word at a0 from the words 2, 7, 15
 * and 16 before it (syscalls/sha256.rs extend).
 */
static enum ecall_result ceno_sha_extend(struct machine *m, bool one_word)
{
    const char *call = "SHA_EXTEND";
    uint32_t at = reg(m, REG_A0), w[64];
    enum ecall_result r;
    if (!one_word) {
        if (!load_words(m, call, at, w, 64, &r))
            return r;
        sha256_extend(w);
        return store_words(m, call, at, w, 64);
    }
    if (at < 64 || !load_words(m, call, at - 64, w, 17, &r))
        return at < 64 ? abi_fault(m, FAULT_ECALL_ARGUMENT, call, at, "w[i-16] lies below 0") : r;
    /* w[0..16] are w[i-16..i]; w[16] is w[i] */
    uint32_t a = w[1], b = w[14];
    uint32_t s0 = (a >> 7 | a << 25) ^ (a >> 18 | a << 14) ^ (a >> 3);
    uint32_t s1 = (b >> 17 | b << 15) ^ (b >> 19 | b << 13) ^ (b >> 10);
    uint32_t out = w[0] + s0 + w[9] + s1;
    return store_words(m, call, at, &out, 1);
}

/* UINT256_MUL: x at a0 = x * y mod m, y then m at a1; m = 0 means 2^256 (uint256.rs). */
static enum ecall_result ceno_uint256_mul(struct machine *m)
{
    const char *call = "UINT256_MUL";
    uint32_t x[8], ym[16];
    enum ecall_result r;
    if (!load_words(m, call, reg(m, REG_A0), x, 8, &r) ||
        !load_words(m, call, reg(m, REG_A1), ym, 16, &r))
        return r;
    bigint_mulmod_256(x, x, ym, ym + 8);
    return store_words(m, call, reg(m, REG_A0), x, 8);
}

/*
 * What Ceno's emulator takes as a point (ac164255 ceno_emul/src/syscalls/):
 * secp256k1's must lie on the curve with coordinates below p
 * (secp256k1.rs words_to_halo2_point: from_repr().unwrap(), assert_eq!);
 * secp256r1's too, or be 16 zero words, the identity (secp256r1.rs
 * SecpPoint::from: from_encoded_point().expect); BN254's need only
 * coordinates below p (bn254/types.rs Bn254Fp::from: Fq::from_slice
 * .expect), no curve check.
 */
static bool is_zero_point(const uint32_t p[16])
{
    for (int i = 0; i < 16; i++)
        if (p[i])
            return false;
    return true;
}

static bool ceno_takes_point(enum curve_id c, const uint32_t p[16])
{
    if (c == CURVE_BN254)
        return curve_reduced(c, p) && curve_reduced(c, p + 8);
    return curve_on_curve(c, p) || (c == CURVE_SECP256R1 && is_zero_point(p));
}

static enum ecall_result not_a_point(struct machine *m, enum curve_id c, const char *call,
                                     uint32_t at)
{
    return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at,
                     c == CURVE_BN254 ? "a coordinate is not below p (Ceno panics: cannot parse Fq)"
                                      : "not a point of the curve (Ceno panics)");
}

/*
 * Weierstrass ADD (p at a0 = p + q, q at a1). secp256k1 (add_words):
 * equal points double, same x otherwise gives zeros. secp256r1 (p256's
 * complete addition): zeros are the identity, and a sum at infinity is
 * written as zeros. BN254 (substrate_bn's Jacobian sum): equal points
 * double; a sum at infinity panics (types.rs: "cannot unpack affine").
 */
static enum ecall_result ceno_curve_add(struct machine *m, enum curve_id c, const char *call)
{
    uint32_t p[16], q[16];
    enum ecall_result r;
    if (!load_words(m, call, reg(m, REG_A0), p, 16, &r) ||
        !load_words(m, call, reg(m, REG_A1), q, 16, &r))
        return r;
    if (!ceno_takes_point(c, p))
        return not_a_point(m, c, call, reg(m, REG_A0));
    if (!ceno_takes_point(c, q))
        return not_a_point(m, c, call, reg(m, REG_A1));
    if (c == CURVE_SECP256R1 && is_zero_point(q))
        return ECALL_CONTINUE; /* p + O = p */
    if (c == CURVE_SECP256R1 && is_zero_point(p))
        memcpy(p, q, sizeof(p));
    else if (!curve_add(c, p, q)) {
        if (memcmp(p, q, sizeof(p)) != 0 && c != CURVE_BN254)
            memset(p, 0, sizeof(p));
        else if (memcmp(p, q, sizeof(p)) != 0 || !curve_double(c, p))
            return abi_fault(m, FAULT_ECALL_ARGUMENT, call, reg(m, REG_A0),
                             "the sum is at infinity (Ceno panics: cannot unpack affine)");
    }
    return store_words(m, call, reg(m, REG_A0), p, 16);
}

/* Weierstrass DOUBLE (p at a0 = 2p); BN254's asserts a1 = 0 (bn254_curve.rs bn254_double). */
static enum ecall_result ceno_curve_double(struct machine *m, enum curve_id c, const char *call)
{
    uint32_t p[16];
    enum ecall_result r;
    if (!load_words(m, call, reg(m, REG_A0), p, 16, &r))
        return r;
    if (c == CURVE_BN254 && reg(m, REG_A1) != 0)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, reg(m, REG_A1),
                         "a1 is not 0 (Ceno asserts it, as SP1's contract has it)");
    if (!ceno_takes_point(c, p))
        return not_a_point(m, c, call, reg(m, REG_A0));
    if (c == CURVE_SECP256R1 && is_zero_point(p))
        return ECALL_CONTINUE; /* 2 O = O */
    if (!curve_double(c, p))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, reg(m, REG_A0),
                         "the double is at infinity (y = 0)");
    return store_words(m, call, reg(m, REG_A0), p, 16);
}

/* BN254 Fp (8 words) or Fp2 (16: c0 then c1) x at a0 = x op y at a1. */
static enum ecall_result ceno_bn254_field(struct machine *m, enum field_op op, bool fp2,
                                          const char *call)
{
    uint32_t x[16], y[16];
    size_t n = fp2 ? 16 : 8;
    enum ecall_result r;
    if (!load_words(m, call, reg(m, REG_A0), x, n, &r) ||
        !load_words(m, call, reg(m, REG_A1), y, n, &r))
        return r;
    /* bn254/types.rs Bn254Fp::from: Fq::from_slice(..).expect("cannot parse Fq") */
    for (size_t i = 0; i < n; i += 8)
        if (!curve_reduced(CURVE_BN254, x + i) || !curve_reduced(CURVE_BN254, y + i))
            return abi_fault(m, FAULT_ECALL_ARGUMENT, call, reg(m, REG_A0),
                             "an operand is not below p (Ceno panics: cannot parse Fq)");
    if (fp2)
        curve_field2(CURVE_BN254, op, x, y);
    else
        curve_field(CURVE_BN254, op, x, y);
    return store_words(m, call, reg(m, REG_A0), x, n);
}

/* 32 bytes at b (big-endian) as 8 little-endian limbs, and back. */
static void be_to_limbs(uint32_t w[8], const uint8_t b[32])
{
    mpz_t z;
    mpz_init(z);
    bigint_import_bytes(z, b, 32, true);
    bigint_export(w, 8, z);
    mpz_clear(z);
}

static void limbs_to_be(uint8_t b[32], const uint32_t w[8])
{
    mpz_t z;
    mpz_init(z);
    bigint_import(z, w, 8);
    bigint_export_bytes(b, 32, z, true);
    mpz_clear(z);
}

/*
 * SECP256K1_DECOMPRESS: x big-endian in the 32 bytes at a0, y (the root
 * whose parity a1 names, 0 or 1) big-endian into the 32 after
 * (secp256k1.rs decompress_words; a1 other than 0 or 1 panics).
 */
static enum ecall_result ceno_secp256k1_decompress(struct machine *m)
{
    const char *call = "SECP256K1_DECOMPRESS";
    uint32_t at = reg(m, REG_A0), odd = reg(m, REG_A1), pt[16];
    uint8_t bytes[64];
    if (at % 4 || !abi_load(m, at, bytes, 64))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at, "the point is not in memory");
    if (odd > 1)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, odd, "a1 is not 0 or 1 (Ceno panics)");
    be_to_limbs(pt + 8, bytes);
    if (!curve_decompress(CURVE_SECP256K1, pt, odd))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at, "no point has this x (Ceno panics)");
    limbs_to_be(bytes + 32, pt);
    if (!abi_store(m, at + 32, bytes + 32, 32))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at, "the point is not writable");
    return ECALL_CONTINUE;
}

/*
 * SECP256K1_SCALAR_INVERT and SECP256R1_SCALAR_INVERT: the 32 bytes at a0,
 * a big-endian scalar mod the curve's group order n (k256's and p256's
 * Scalar::from_repr), = its inverse; 0 or a scalar not below n panics
 * (secp256k1.rs and secp256r1.rs invert_words: from_repr().expect,
 * invert().unwrap()).
 */
static enum ecall_result ceno_scalar_invert(struct machine *m, enum curve_id c, const char *call)
{
    uint32_t at = reg(m, REG_A0), k[8];
    uint8_t b[32];
    if (at % 4 || !abi_load(m, at, b, 32))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at, "the scalar is not in memory");
    be_to_limbs(k, b);
    if (!curve_scalar_invert(c, k))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at,
                         "the scalar is 0 or not below the group order (Ceno panics)");
    limbs_to_be(b, k);
    if (!abi_store(m, at, b, 32))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at, "the scalar is not writable");
    return ECALL_CONTINUE;
}

/*
 * KECCAK_XORIN: the 34 words (136 bytes, the rate) at a1 XORed into the
 * first 34 words of the Keccak state at a0 (keccak_xorin.rs, ac1642550).
 * Ceno asserts that the state's 200 bytes and the block's 136 neither
 * overlap nor wrap past 2^32.
 */
static enum ecall_result ceno_keccak_xorin(struct machine *m)
{
    const char *call = "KECCAK_XORIN";
    uint32_t st = reg(m, REG_A0), blk = reg(m, REG_A1);
    uint64_t st_end = (uint64_t)st + CENO_KECCAK_STATE_BYTES;
    uint64_t blk_end = (uint64_t)blk + 4 * CENO_KECCAK_RATE_WORDS;
    if (st_end > UINT32_MAX + 1ull || blk_end > UINT32_MAX + 1ull)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, st_end > UINT32_MAX + 1ull ? st : blk,
                         "the range wraps past 2^32 (Ceno panics: range overflow)");
    if (st_end > blk && blk_end > st)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, blk,
                         "the state and the block overlap (Ceno asserts they do not)");
    uint32_t state[CENO_KECCAK_RATE_WORDS], block[CENO_KECCAK_RATE_WORDS];
    enum ecall_result r;
    if (!load_words(m, call, blk, block, CENO_KECCAK_RATE_WORDS, &r) ||
        !load_words(m, call, st, state, CENO_KECCAK_RATE_WORDS, &r))
        return r;
    for (int i = 0; i < CENO_KECCAK_RATE_WORDS; i++)
        state[i] ^= block[i];
    return store_words(m, call, st, state, CENO_KECCAK_RATE_WORDS);
}

/*
 * PUB_IO_COMMIT: the 8 words at a0 (a Keccak-256 digest of the public
 * bytes, ceno_rt mmio.rs commit) are the public output.
 */
static enum ecall_result ceno_pubio_commit(struct machine *m)
{
    struct ceno_state *st = m->abi_state;
    enum ecall_result r;
    if (!load_words(m, "PUB_IO_COMMIT", reg(m, REG_A0), st->pubio, 8, &r))
        return r;
    st->pubio_commits++;
    if (!abi_write_fd(m->io.public_output_fd, st->pubio, sizeof(st->pubio)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "PUB_IO_COMMIT", 0,
                         "the host could not write the public output");
    return ECALL_CONTINUE;
}

/* PHANTOM_LOG_PC_CYCLE: the label (a0, a1 bytes) only logged by Ceno; here a region mark. */
static enum ecall_result ceno_log_pc_cycle(struct machine *m)
{
    struct ceno_state *st = m->abi_state;
    uint32_t p = reg(m, REG_A0), len = reg(m, REG_A1);
    if (len >= sizeof(st->label) || !abi_load(m, p, st->label, len))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "LOG_PC_CYCLE", p,
                         "the label is not in memory (or longer than 255 bytes)");
    regions_start(&st->regions, st->label, len, m->ecall_clock);
    regions_end(&st->regions, st->label, len, m->ecall_clock);
    return ECALL_CONTINUE;
}

static enum ecall_result ceno_precompile(struct machine *m, uint32_t nr, const char **call)
{
    const struct ceno_state *st = m->abi_state;
    switch (nr) {
    case CENO_KECCAK_PERMUTE:
        *call = "KECCAK_PERMUTE";
        if (reg(m, REG_A0) % 4)
            return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, reg(m, REG_A0), "not word-aligned");
        return abi_keccakf_in_place(m, *call, reg(m, REG_A0));
    case CENO_KECCAK_XORIN: *call = "KECCAK_XORIN"; return ceno_keccak_xorin(m);
    case CENO_SHA_EXTEND:
        /* rkyv hints: built before 2025-12-31, so before c3473257's one-word form */
        *call = "SHA_EXTEND";
        return ceno_sha_extend(m, st->later_layout && st->hints != CENO_HINTS_RKYV);
    case CENO_UINT256_MUL: *call = "UINT256_MUL"; return ceno_uint256_mul(m);
    case CENO_SECP256K1_ADD:
        *call = "SECP256K1_ADD";
        return ceno_curve_add(m, CURVE_SECP256K1, *call);
    case CENO_SECP256K1_DOUBLE:
        *call = "SECP256K1_DOUBLE";
        return ceno_curve_double(m, CURVE_SECP256K1, *call);
    case CENO_SECP256K1_DECOMPRESS:
        *call = "SECP256K1_DECOMPRESS";
        return ceno_secp256k1_decompress(m);
    case CENO_SECP256K1_SCALAR_INVERT:
        *call = "SECP256K1_SCALAR_INVERT";
        return ceno_scalar_invert(m, CURVE_SECP256K1, *call);
    case CENO_SECP256R1_SCALAR_INVERT:
        *call = "SECP256R1_SCALAR_INVERT";
        return ceno_scalar_invert(m, CURVE_SECP256R1, *call);
    case CENO_SECP256R1_ADD:
        *call = "SECP256R1_ADD";
        return ceno_curve_add(m, CURVE_SECP256R1, *call);
    case CENO_SECP256R1_DOUBLE:
        *call = "SECP256R1_DOUBLE";
        return ceno_curve_double(m, CURVE_SECP256R1, *call);
    case CENO_BN254_ADD: *call = "BN254_ADD"; return ceno_curve_add(m, CURVE_BN254, *call);
    case CENO_BN254_DOUBLE: *call = "BN254_DOUBLE"; return ceno_curve_double(m, CURVE_BN254, *call);
    case CENO_BN254_FP_ADD:
        *call = "BN254_FP_ADD";
        return ceno_bn254_field(m, FIELD_ADD, false, *call);
    case CENO_BN254_FP_MUL:
        *call = "BN254_FP_MUL";
        return ceno_bn254_field(m, FIELD_MUL, false, *call);
    case CENO_BN254_FP2_ADD:
        *call = "BN254_FP2_ADD";
        return ceno_bn254_field(m, FIELD_ADD, true, *call);
    case CENO_BN254_FP2_MUL:
        *call = "BN254_FP2_MUL";
        return ceno_bn254_field(m, FIELD_MUL, true, *call);
    case CENO_LOG_PC_CYCLE: *call = "LOG_PC_CYCLE"; return ceno_log_pc_cycle(m);
    case CENO_PUB_IO_COMMIT: *call = "PUB_IO_COMMIT"; return ceno_pubio_commit(m);
    default:
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, nr,
                         "no Ceno call has this number in t0 (Ceno: Unknown syscall)");
    }
}

static enum ecall_result ceno_ecall(struct machine *m, const char **call)
{
    uint32_t nr = reg(m, REG_T0);
    if (nr == CENO_HALT) {
        *call = "HALT";
        return ceno_halt(m);
    }
    return ceno_precompile(m, nr, call);
}

/* Memory of guests linked for ROM at 0x0800_0000 (platform.rs from ca7b038c). */
static int ceno_map_later(struct machine *m, const struct elf_image *img, struct error *e)
{
    const struct ceno_state *st = m->abi_state;
    if (abi_check_inside(img, CENO_ROM, CENO_RAM_HIGH_END, "Ceno's memory", e) != 0)
        return -1;
    mem_grant(&m->mem, CENO_RAM_LOW, CENO_RAM_LOW_END - CENO_RAM_LOW, PAGE_R | PAGE_W);
    mem_grant(&m->mem, CENO_RAM_HIGH, CENO_RAM_HIGH_END - CENO_RAM_HIGH, PAGE_R | PAGE_W);
    if (!m->io.ninputs) /* unmapped: the first read names --input (ceno_explain_fault) */
        return 0;
    mem_grant(&m->mem, CENO_HINTS, CENO_HINTS_END - CENO_HINTS, PAGE_R | PAGE_W);
    return ceno_lay_out_hints(m, st->hints, CENO_HINTS, CENO_HINTS_END, e);
}

/* A load from the hints region of a run without --input: say where input comes from. */
static bool ceno_explain_fault(struct machine *m)
{
    const struct ceno_state *st = m->abi_state;
    uint64_t lo = st->later_layout ? CENO_HINTS : CENO_OLD_HINTS;
    uint64_t hi = st->later_layout ? CENO_HINTS_END : CENO_OLD_HINTS_END;
    if (!m->io.ninputs && m->fault.kind == FAULT_LOAD_UNMAPPED && m->fault.addr >= lo &&
        m->fault.addr < hi)
        m->fault.why = "the guest reads Ceno's hints and no input was given: give each item it "
                       "reads with --input FILE";
    return false;
}

/*
 * Memory of guests linked for ROM at 0x2000_0000 (platform.rs d03f0115 ..
 * 3cb51d0d): RAM, the public IO ceno_host fills (not here: zeros), and the
 * hints in rkyv's layout when --input gives them (d6191f74 on; none before).
 */
static int ceno_map_earlier(struct machine *m, struct error *e)
{
    const struct ceno_state *st = m->abi_state;
    mem_grant(&m->mem, CENO_OLD_PUBIO, CENO_OLD_PUBIO_END - CENO_OLD_PUBIO, PAGE_R);
    mem_grant(&m->mem, CENO_OLD_RAM, CENO_OLD_RAM_END - CENO_OLD_RAM, PAGE_R | PAGE_W);
    if (!m->io.ninputs) /* unmapped: the first read names --input (ceno_explain_fault) */
        return 0;
    mem_grant(&m->mem, CENO_OLD_HINTS, CENO_OLD_HINTS_END - CENO_OLD_HINTS, PAGE_R);
    return ceno_lay_out_hints(m, st->hints, CENO_OLD_HINTS, CENO_OLD_HINTS_END, e);
}

static int ceno_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    struct ceno_state *st = abi_alloc_state(m, sizeof(struct ceno_state), e);
    if (!st)
        return -1;
    if (m->xlen != 32) {
        error_fail(e, ERROR_UNSUPPORTED, "Ceno guests are RV32IM (ELFCLASS32), this one is RV64");
        return -1;
    }
    st->later_layout = img->entry >= CENO_ROM && img->entry < CENO_ROM_END;
    bool earlier = img->entry >= CENO_OLD_ROM && img->entry < CENO_OLD_ROM_END;
    if (!st->later_layout && !earlier) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "the entry 0x%llx is in neither of Ceno's ROMs (0x0800_0000, 0x2000_0000)",
                   (unsigned long long)img->entry);
        return -1;
    }
    st->hints = ceno_hint_format_of(img, earlier);
    mem_fix_code(&m->mem);
    if ((st->later_layout ? ceno_map_later(m, img, e) : ceno_map_earlier(m, e)) != 0)
        return -1;
    machine_map_segments(m, img, 0);
    code_cache_predecode(&m->code, img, m->xlen);
    return 0;
}

/* ceno_rt's debug messages (a u32 length, the bytes, padded), as host_utils read_all_messages. */
static void report_messages(const struct machine *m, FILE *out)
{
    uint64_t at = CENO_INFO_OUT;
    uint32_t len;
    size_t count = 0;
    while (abi_load(m, at, &len, 4) && len && abi_view(m, at + 4, len)) {
        count++;
        at += 4 + (len + 3ull) / 4 * 4;
    }
    fprintf(out, "ceno-messages: %zu\n", count);
}

static void ceno_report(const struct machine *m, FILE *out)
{
    const struct ceno_state *st = m->abi_state;
    fprintf(out, "ceno-layout: %s\n",
            st->later_layout ? "ROM 0x0800_0000 (2025-08 and later)"
                             : "ROM 0x2000_0000 (2024-10 to 2025-08)");
    fprintf(out, "ceno-hints: %s\n", ceno_hint_format_name(st->hints));
    if (st->later_layout)
        report_messages(m, out);
    if (st->pubio_commits) {
        fprintf(out, "ceno-public-io:");
        for (int i = 0; i < 8; i++)
            fprintf(out, " %08x", st->pubio[i]);
        fprintf(out, " (%llu commits)\n", (unsigned long long)st->pubio_commits);
    }
    regions_report(&st->regions, out);
}

static void ceno_destroy(struct machine *m)
{
    struct ceno_state *st = m->abi_state;
    if (st)
        regions_free(&st->regions);
    abi_free_state(m);
}

const struct abi abi_ceno = {
    .name = "ceno",
    .setup = ceno_setup,
    .ecall = ceno_ecall,
    .report = ceno_report,
    .destroy = ceno_destroy,
    .store_stops = ceno_explain_fault,
    .aligned_access = true,
    .without_c = true,
};
