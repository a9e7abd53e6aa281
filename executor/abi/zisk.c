/*
 * zisk: the ABI of ZisK guests (RV64IMA, the ziskos crate), as ZisK's
 * emulator runs them (core/src/mem.rs, ziskos/entrypoint). Docs:
 * docs/ZKVMS.md.
 *
 * Memory: the program ROM from 0x8000_0000, read-write RAM [0xA000_0000,
 * 0xC000_0000), the input read-only at 0x4000_0000 (8 bytes of 0, then each
 * --input item as a u64 length and its bytes, padded to 8). ZisK before
 * v0.16.0 put one input at 0x9000_0000: after a free-input word of 0 from
 * v0.7.0, its length alone before (the guest's loads show which). In RAM, the
 * system area (SYS_ADDR) holds the UART: a one-byte store to SYS_ADDR +
 * 0x200 goes to stdout; the output area (SYS_ADDR + 0x1_0000) holds a u32
 * count and that many u32 public outputs. SYS_ADDR is 0xA040_0000 (ZisK
 * with its stack at the bottom of RAM) or 0xA000_0000 (earlier ZisK, whose
 * data segments start below 0xA040_0000). `csrr marchid` reads 0xFFFEEEE.
 * An ecall with a7 = 93 exits with a0. Precompiles are `csrs 0x800 + n,
 * rs1`, rs1 the address of their operands (pointers, 8 bytes each, for
 * the calls with several): keccakf, arith256, arith256_mod,
 * arith384_mod, add256 (the carry to rd), secp256k1_add, secp256k1_dbl,
 * secp256r1_add, secp256r1_dbl, sha256f, bn254 and bls12_381 curve add,
 * double and complex (Fp2) add, sub, mul. From 0x815 every release
 * (v0.16.0 to v0.18.0: definitions/src/syscall.rs and the transpiler's
 * CSR_PRECOMPILED table in core/src/riscv2zisk_context.rs) numbers them
 * 0x815 dma_inputcpy, 0x816 dma_memset, 0x817 secp256r1_add, 0x818
 * secp256r1_dbl, 0x819 blake2, 0x81A profile: so does any guest but one
 * of the unreleased layout (unreleased_layout) without ziskos's
 * `inputcpy`, which gets the numbering of the unreleased branches
 * (syscall.rs at 163a41d7: secp256r1 at 0x815, 0x816).
 * poseidon2 (Goldilocks, 16 cells in place), blake2 (one BLAKE2b round) and
 * profile (a marker with no effect) as ZisK v0.16.0-v0.18.0 run them; not the
 * later ones (poseidon1, jump_dest, dma_mtcpy, ...). The DMA calls (memcpy,
 * memcmp; inputcpy, memset in the later numbering) are zisk_dma.c's,
 * the free-input calls (fcalls: CSRs 0x8C0 to 0x8FF and 0xFFE)
 * zisk_fcall.c's.
 */
#include <gmp.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/abi/detect_code.h"
#include "executor/abi/zisk_dma.h"
#include "executor/abi/zisk_fcall.h"
#include "executor/machine.h"
#include "executor/precompile/bigint.h"
#include "executor/precompile/blake2b_round.h"
#include "executor/precompile/curve.h"
#include "executor/precompile/poseidon2_goldilocks.h"
#include "executor/precompile/sha256.h"

#define ZISK_INPUT_ADDR    0x40000000ull
#define ZISK_INPUT_MAX     0x40000000ull
#define ZISK_INPUT_OLD     0x90000000ull /* INPUT_ADDR up to v0.15.0 */
#define ZISK_INPUT_OLD_MAX 0x08000000ull /* MAX_INPUT_SIZE up to v0.15.0 */
#define ZISK_ROM_ADDR      0x80000000ull
#define ZISK_RAM_ADDR      0xA0000000ull
#define ZISK_RAM_END       0xC0000000ull
#define ZISK_SYS_NEW       0xA0400000ull /* RAM_ADDR + STACK_SIZE */
#define ZISK_UART_OFFSET   0x200
#define ZISK_OUTPUT_OFF    0x10000
#define ZISK_OUTPUT_MAX    0x10000 /* bytes of outputs read back (MAX_OUTPUT) */
#define ZISK_MARCHID       0xFFFEEEEull
#define ZISK_CSR_FIRST     0x800
#define ZISK_CSR_END       0x1000 /* past 0xFFE, where fcall results are read */
#define ZISK_EXIT          93

/* Where and how the input lies, by ZisK release (core/src/mem.rs, emulator/src/emu_context.rs). */
enum zisk_input_layout {
    INPUT_ITEMS,    /* v0.16.0 on: 0x4000_0000, a word of 0, then each item's length and bytes */
    INPUT_FREE_LEN, /* v0.7.0-v0.15.0: 0x9000_0000, the free-input word 0, the length, the bytes */
    INPUT_LEN,      /* up to v0.6.x: 0x9000_0000, the length, the bytes */
};

struct zisk_state {
    uint64_t sys; /* SYS_ADDR of the layout the ELF was linked for */
    enum zisk_input_layout input;
    struct zisk_fcalls fcalls;
    bool dma_numbering;     /* 0x815 and up as ZisK with DMA inputcpy numbers them (40e35b35) */
    uint64_t profile_marks; /* profile calls run (--stats) */
};

static const char *const precompile_names[] = {
    "keccakf",
    "arith256",
    "arith256_mod",
    "secp256k1_add",
    "secp256k1_dbl",
    "sha256f",
    "bn254_curve_add",
    "bn254_curve_dbl",
    "bn254_complex_add",
    "bn254_complex_sub",
    "bn254_complex_mul",
    "arith384_mod",
    "bls12_381_curve_add",
    "bls12_381_curve_dbl",
    "bls12_381_complex_add",
    "bls12_381_complex_sub",
    "bls12_381_complex_mul",
    "add256",
    "poseidon2",
    "dma_memcpy",
    "dma_memcmp",
};

/*
 * 0x815 and up: ZisK renumbered them when it added DMA inputcpy and memset
 * (syscall.rs at 163a41d7, definitions/src/syscall.rs at 40e35b35 and
 * later). A guest of the later ziskos has its `inputcpy` function.
 */
static const char *const earlier_names[] = {"secp256r1_add", "secp256r1_dbl", "blake2b_round"};
static const char *const dma_names[] = {
    "dma_inputcpy", "dma_memset", "secp256r1_add", "secp256r1_dbl", "blake2b_round", "profile",
    "poseidon1",    "jump_dest",  "dma_mtcpy",     "dma_mtcmp",     "temporal_ref"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The name of precompile 0x800 + n, or NULL. */
static const char *precompile_name(const struct zisk_state *st, size_t n)
{
    if (n < COUNT(precompile_names))
        return precompile_names[n];
    n -= COUNT(precompile_names);
    if (st->dma_numbering)
        return n < COUNT(dma_names) ? dma_names[n] : NULL;
    return n < COUNT(earlier_names) ? earlier_names[n] : NULL;
}

/* The n pointers (u64) of a call's operand block at addr. */
static bool load_pointers(const struct machine *m, uint64_t addr, uint64_t *p, size_t n)
{
    return abi_load(m, addr, p, 8 * n);
}

static enum ecall_result bad(struct machine *m, const char *call, uint64_t addr, const char *why)
{
    return abi_fault(m, FAULT_ECALL_ARGUMENT, call, addr, why);
}

/* ZisK's precompiles panic on an operand address not a multiple of 8 (zisk_ops.rs). */
static bool aligned(uint64_t addr)
{
    return (addr & 7) == 0;
}

/*
 * poseidon2 (0x812, v0.16.0+): the 16 u64 Goldilocks cells at rs1 (8-aligned)
 * permuted in place, each read mod p, written below p (opc_poseidon2).
 */
static enum ecall_result zisk_poseidon2(struct machine *m, uint64_t at)
{
    uint64_t state[16];
    if (!aligned(at))
        return bad(m, "poseidon2", at, "the state is not 8-aligned (ZisK panics)");
    if (!abi_load(m, at, state, sizeof(state)))
        return bad(m, "poseidon2", at, "the state is not in memory");
    poseidon2_goldilocks16(state);
    if (!abi_store(m, at, state, sizeof(state)))
        return bad(m, "poseidon2", at, "the state is not writable");
    return ECALL_CONTINUE;
}

/*
 * blake2 (0x819, v0.16.0+): {index (a value), state, input}: one BLAKE2b
 * round, SIGMA[(u32)index mod 10], on the 16 u64 at state with the 16 u64
 * message words at input (opc_blake2, helpers.rs blake2br). The block and
 * both pointers are 8-aligned (precompiled_load_data panics otherwise).
 */
static enum ecall_result zisk_blake2(struct machine *m, uint64_t at, const char *call)
{
    uint64_t p[3], v[16], msg[16];
    if (!aligned(at) || !load_pointers(m, at, p, 3))
        return bad(m, call, at, "the operands are not 8-aligned in memory");
    if (!aligned(p[1]) || !aligned(p[2]))
        return bad(m, call, at, "the state or input is not 8-aligned (ZisK panics)");
    if (!abi_load(m, p[1], v, sizeof(v)) || !abi_load(m, p[2], msg, sizeof(msg)))
        return bad(m, call, p[1], "the state or input is not in memory");
    blake2b_round(v, msg, (uint32_t)p[0]);
    if (!abi_store(m, p[1], v, sizeof(v)))
        return bad(m, call, p[1], "the state is not writable");
    return ECALL_CONTINUE;
}

/*
 * profile (0x81A, v0.17.0+): `csrs 0x81A, TAG ; addi x0, x0, cmd`, one
 * instruction that jumps past its marker and does nothing else
 * (riscv2zisk_context.rs transpile_profile_pattern, which panics on another
 * marker; operations/profile.rs opc_profile).
 */
static enum ecall_result zisk_profile(struct machine *m)
{
    struct zisk_state *st = m->abi_state;
    uint32_t w;
    if (!abi_load(m, m->pc + 4, &w, sizeof(w)))
        return bad(m, "profile", m->pc + 4, "the marker is not in memory");
    struct abi_insn f = abi_insn_fields(w);
    if (f.opcode != 0x13 || f.funct3 != 0 || f.rd != 0 || f.rs1 != 0)
        return bad(m, "profile", m->pc + 4, "the marker is not addi x0, x0, cmd");
    st->profile_marks++;
    m->pc += 8;
    return ECALL_JUMP;
}

/* The calls named rather than numbered (their numbers differ between the numberings). */
static enum ecall_result zisk_named(struct machine *m, unsigned csr, uint64_t at, const char *call)
{
    if (call && strcmp(call, "poseidon2") == 0)
        return zisk_poseidon2(m, at);
    if (call && strcmp(call, "blake2b_round") == 0)
        return zisk_blake2(m, at, call);
    if (call && strcmp(call, "profile") == 0)
        return zisk_profile(m);
    if (call)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, call, csr, NULL);
    if (csr >= 0x860)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, csr,
                         "early ziskos's free calls (fcall.rs at 0fa1514e: CSRs from 0x860, "
                         "the ids of zisklib's first fcalls) are not computed here");
    return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, csr,
                     "no precompile ZisK defines has this CSR number");
}

/* sha256f: {state: 8 u32 words, input: a 64-byte block}, as sha2's compress256 takes them. */
static enum ecall_result zisk_sha256f(struct machine *m, uint64_t at)
{
    uint64_t p[2];
    uint32_t h[8];
    uint8_t block[64];
    if (!load_pointers(m, at, p, 2))
        return bad(m, "sha256f", at, "the operands are not in memory");
    if (!abi_load(m, p[0], h, sizeof(h)))
        return bad(m, "sha256f", p[0], "the state is not in memory");
    if (!abi_load(m, p[1], block, sizeof(block)))
        return bad(m, "sha256f", p[1], "the block is not in memory");
    sha256_block(h, block);
    if (!abi_store(m, p[0], h, sizeof(h)))
        return bad(m, "sha256f", p[0], "the state is not writable");
    return ECALL_CONTINUE;
}

/* arith256: {a, b, c, dl, dh}: dh:dl = a * b + c. */
static enum ecall_result zisk_arith256(struct machine *m, uint64_t at)
{
    uint64_t p[5];
    uint32_t a[8], b[8], c[8], r[16];
    if (!load_pointers(m, at, p, 5))
        return bad(m, "arith256", at, "the operands are not in memory");
    if (!abi_load_words(m, p[0], a, 8) || !abi_load_words(m, p[1], b, 8) ||
        !abi_load_words(m, p[2], c, 8))
        return bad(m, "arith256", at, "an operand is not in memory");
    bigint_op_add_256(r, a, b, c, true);
    if (!abi_store_words(m, p[3], r, 8) || !abi_store_words(m, p[4], r + 8, 8))
        return bad(m, "arith256", p[3], "a result is not writable");
    return ECALL_CONTINUE;
}

/*
 * arith256_mod, arith384_mod: {a, b, c, module, d}: d = (a * b + c) mod
 * module, numbers of `limbs` 32-bit limbs (8 or 12).
 */
static enum ecall_result zisk_arith_mod(struct machine *m, uint64_t at, size_t limbs,
                                        const char *call)
{
    uint64_t p[5];
    uint32_t w[4][12], d[12];
    if (!load_pointers(m, at, p, 5))
        return bad(m, call, at, "the operands are not in memory");
    for (int i = 0; i < 4; i++)
        if (!abi_load_words(m, p[i], w[i], limbs))
            return bad(m, call, p[i], "an operand is not in memory");
    mpz_t a, b, c, mod;
    mpz_inits(a, b, c, mod, NULL);
    bigint_import(a, w[0], limbs);
    bigint_import(b, w[1], limbs);
    bigint_import(c, w[2], limbs);
    bigint_import(mod, w[3], limbs);
    bool zero = mpz_sgn(mod) == 0;
    if (!zero) {
        mpz_mul(a, a, b);
        mpz_add(a, a, c);
        mpz_mod(a, a, mod);
        bigint_export(d, limbs, a);
    }
    mpz_clears(a, b, c, mod, NULL);
    if (zero)
        return bad(m, call, p[3], "the modulus is 0");
    if (!abi_store_words(m, p[4], d, limbs))
        return bad(m, call, p[4], "the result is not writable");
    return ECALL_CONTINUE;
}

/* add256: {a, b, cin (a value), c}: c = the low 256 bits of a + b + cin; rd = the carry out. */
static enum ecall_result zisk_add256(struct machine *m, uint64_t at, unsigned rd)
{
    uint64_t p[4], a[4], b[4], c[4];
    if (!load_pointers(m, at, p, 4))
        return bad(m, "add256", at, "the operands are not in memory");
    if (!abi_load(m, p[0], a, sizeof(a)) || !abi_load(m, p[1], b, sizeof(b)))
        return bad(m, "add256", p[0], "an operand is not in memory");
    if (p[2] > 1)
        return bad(m, "add256", p[2], "the carry in is not 0 or 1");
    unsigned __int128 carry = p[2];
    for (int i = 0; i < 4; i++) {
        carry += (unsigned __int128)a[i] + b[i];
        c[i] = (uint64_t)carry;
        carry >>= 64;
    }
    if (!abi_store(m, p[3], c, sizeof(c)))
        return bad(m, "add256", p[3], "the result is not writable");
    machine_set_reg(m, rd, (uint64_t)carry);
    return ECALL_CONTINUE;
}

/*
 * A point (x, then y: 4 u64 limbs each, 6 for BLS12-381, little-endian) at
 * p1 = p1 + the one at p2 ({p1, p2} at `at`), or 2 p1 (p1 at `at`).
 */
static enum ecall_result zisk_curve(struct machine *m, uint64_t at, enum curve_id curve, bool add,
                                    const char *call)
{
    uint64_t p[2] = {at, 0};
    uint32_t a[24], b[24];
    size_t words = 2 * curve_limbs(curve);
    if (add && !load_pointers(m, at, p, 2))
        return bad(m, call, at, "the operands are not in memory");
    if (!abi_load_words(m, p[0], a, words) || (add && !abi_load_words(m, p[1], b, words)))
        return bad(m, call, p[0], "a point is not in memory");
    bool ok = add ? curve_add(curve, a, b) : curve_double(curve, a);
    if (!ok)
        return bad(m, call, p[0],
                   add ? "the points share x (equal or opposite), which ZisK does not take"
                       : "y is 0: the double is at infinity");
    if (!abi_store_words(m, p[0], a, words))
        return bad(m, call, p[0], "the result is not writable");
    return ECALL_CONTINUE;
}

/*
 * Both coordinates of an Fp2 element below p: ZisK's complex operations
 * take each as ark's Fq::from(BigInt), which unwraps from_bigint and so
 * panics for p and above (precompiles/helpers/src/arith_eq/bn254complex.rs,
 * arith_eq_384/bls12_381complex.rs at v0.18.0, 790f9e28).
 */
static bool complex_reduced(enum curve_id curve, const uint32_t *x)
{
    return curve_reduced(curve, x) && curve_reduced(curve, x + curve_limbs(curve));
}

/* {f1, f2}: f1 = f1 op f2 in Fp2 = Fp[u] / (u^2 + 1), each x (c0), then y (c1). */
static enum ecall_result zisk_complex(struct machine *m, uint64_t at, enum curve_id curve,
                                      enum field_op op, const char *call)
{
    uint64_t p[2];
    uint32_t a[24], b[24];
    size_t words = 2 * curve_limbs(curve);
    if (!load_pointers(m, at, p, 2))
        return bad(m, call, at, "the operands are not in memory");
    if (!abi_load_words(m, p[0], a, words) || !abi_load_words(m, p[1], b, words))
        return bad(m, call, p[0], "an operand is not in memory");
    if (!complex_reduced(curve, a) || !complex_reduced(curve, b))
        return bad(m, call, p[0], "a coordinate is not below p (ZisK's ark Fq::from panics)");
    curve_field2(curve, op, a, b);
    if (!abi_store_words(m, p[0], a, words))
        return bad(m, call, p[0], "the result is not writable");
    return ECALL_CONTINUE;
}

static enum ecall_result zisk_precompile(struct machine *m, unsigned csr, uint64_t at, unsigned rd,
                                         const char **call)
{
    const struct zisk_state *st = m->abi_state;
    size_t n = csr - ZISK_CSR_FIRST, r1 = COUNT(precompile_names) + (st->dma_numbering ? 2 : 0);
    *call = precompile_name(st, n);
    if (n == r1 || n == r1 + 1) /* secp256r1_add, secp256r1_dbl */
        return zisk_curve(m, at, CURVE_SECP256R1, n == r1, *call);
    switch (n) {
    case 0: return abi_keccakf_in_place(m, "keccakf", at);
    case 1: return zisk_arith256(m, at);
    case 2: return zisk_arith_mod(m, at, 8, *call);
    case 3: return zisk_curve(m, at, CURVE_SECP256K1, true, *call);
    case 4: return zisk_curve(m, at, CURVE_SECP256K1, false, *call);
    case 5: return zisk_sha256f(m, at);
    case 6: return zisk_curve(m, at, CURVE_BN254, true, *call);
    case 7: return zisk_curve(m, at, CURVE_BN254, false, *call);
    case 8: return zisk_complex(m, at, CURVE_BN254, FIELD_ADD, *call);
    case 9: return zisk_complex(m, at, CURVE_BN254, FIELD_SUB, *call);
    case 10: return zisk_complex(m, at, CURVE_BN254, FIELD_MUL, *call);
    case 11: return zisk_arith_mod(m, at, 12, *call);
    case 12: return zisk_curve(m, at, CURVE_BLS12_381, true, *call);
    case 13: return zisk_curve(m, at, CURVE_BLS12_381, false, *call);
    case 14: return zisk_complex(m, at, CURVE_BLS12_381, FIELD_ADD, *call);
    case 15: return zisk_complex(m, at, CURVE_BLS12_381, FIELD_SUB, *call);
    case 16: return zisk_complex(m, at, CURVE_BLS12_381, FIELD_MUL, *call);
    case 17: return zisk_add256(m, at, rd);
    default: return zisk_named(m, csr, at, *call);
    }
}

/* The DMA call a CSR is (memcpy, memcmp in both numberings; inputcpy, memset in the later), or -1.
 */
static int dma_call(const struct zisk_state *st, unsigned csr)
{
    static const enum zisk_dma_call calls[] = {ZISK_DMA_MEMCPY, ZISK_DMA_MEMCMP, ZISK_DMA_INPUTCPY,
                                               ZISK_DMA_MEMSET};
    size_t n = csr - ZISK_CSR_FIRST - 19; /* 0x813: dma_memcpy */
    return n < (st->dma_numbering ? 4u : 2u) ? (int)calls[n] : -1;
}

/* `csrs 0x800 + n, rs1` (any CSR write to the range; reads are not calls). */
/*
 * `unimp` (csrrw x0, cycle, x0) ends a guest's panic: ZisK's transpiler makes
 * it a store into its CSR area and runs on into whatever follows, so the run
 * stops here, the panic's message (if any) already on stdout.
 */
static enum ecall_result zisk_unimp(struct machine *m)
{
    return abi_fault(m, FAULT_GUEST_PANIC, "unimp", 0,
                     m->io.ninputs
                         ? "the guest ran unimp, where ziskos ends a panic"
                         : "the guest ran unimp, where ziskos ends a panic; it was given no "
                           "input: if it reads one, give it with --input FILE");
}

static enum ecall_result zisk_custom(struct machine *m, uint32_t w, const char **call)
{
    struct zisk_state *st = m->abi_state;
    unsigned csr = w >> 20, funct3 = (w >> 12) & 7, rs1 = (w >> 15) & 31, rd = (w >> 7) & 31;
    if ((w & 0x7f) != 0x73)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, w,
                         "ZisK has no custom-opcode instructions");
    if (w == 0xc0001073)
        return zisk_unimp(m);
    if (zisk_fcall_csr(csr))
        return zisk_fcall_insn(m, &st->fcalls, w, call);
    int dma = dma_call(st, csr);
    if (dma >= 0)
        return zisk_dma(m, (enum zisk_dma_call)dma, st->dma_numbering, w, &st->fcalls, call);
    if (funct3 & 4) /* the immediate forms */
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, csr,
                         "a precompile's operand address comes in rs1 (csrs), not an immediate");
    return zisk_precompile(m, csr, machine_get_reg(m, rs1), rd, call);
}

/* The output area: a u32 count, then that many u32 words, to --public-output. */
static bool write_outputs(struct machine *m)
{
    const struct zisk_state *st = m->abi_state;
    uint64_t at = st->sys + ZISK_OUTPUT_OFF;
    uint32_t n = 0;
    if (!abi_load(m, at, &n, 4))
        return true;
    if (n > ZISK_OUTPUT_MAX / 4 - 1)
        n = ZISK_OUTPUT_MAX / 4 - 1;
    if (!mem_range_has(&m->mem, at + 4, 4ull * n, PAGE_R))
        return true;
    return abi_write_fd(m->io.public_output_fd, mem_host(&m->mem, at + 4), 4ull * n);
}

static enum ecall_result zisk_ecall(struct machine *m, const char **call)
{
    uint64_t nr = machine_get_reg(m, REG_A7);
    if (nr != ZISK_EXIT)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, nr,
                         "ZisK's only ecall is exit (a7 = 93)");
    *call = "exit";
    m->exit_status = (int)(machine_get_reg(m, REG_A0) & 0xff);
    if (!write_outputs(m))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "exit", 0,
                         "the host could not write the public output");
    return ECALL_EXIT;
}

/* A byte to the UART goes to stdout; other stores into the system page land in memory. */
static bool zisk_mmio_store(struct machine *m, uint64_t addr, unsigned size, uint64_t value)
{
    const struct zisk_state *st = m->abi_state;
    uint64_t page = guest_page_floor(st->sys + ZISK_UART_OFFSET);
    if (addr < page || addr + size > page + GUEST_PAGE_SIZE)
        return false;
    if (addr == st->sys + ZISK_UART_OFFSET && size == 1) {
        uint8_t c = (uint8_t)value;
        abi_write_fd(m->io.stdout_fd, &c, 1);
        return true;
    }
    memcpy(mem_host(&m->mem, addr), &value, size);
    return true;
}

/*
 * The input layout of the guest's release: ziskos reads its input's length
 * at INPUT_ADDR + 8 (v0.7.0-v0.15.0) or at INPUT_ADDR (before) with
 * INPUT_ADDR 0x9000_0000; a guest that loads neither is of v0.16.0 on.
 */
static enum zisk_input_layout zisk_input_layout(const struct elf_image *img)
{
    uint64_t at[16];
    size_t n = code_load_addresses(img, ZISK_INPUT_OLD, ZISK_INPUT_OLD + 16, at, 16);
    enum zisk_input_layout l = INPUT_ITEMS;
    for (size_t i = 0; i < n; i++)
        if (at[i] == ZISK_INPUT_OLD)
            return INPUT_LEN;
        else
            l = INPUT_FREE_LEN;
    return l;
}

/* Before v0.16.0: one input at 0x9000_0000, its length (after a word of 0 from v0.7.0) first. */
static int zisk_write_old_input(struct machine *m, struct error *e)
{
    const struct zisk_state *st = m->abi_state;
    if (m->io.ninputs > 1) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "this guest is of ZisK before v0.16.0, which reads one input at 0x90000000: "
                   "give one --input, not %zu",
                   m->io.ninputs);
        return -1;
    }
    uint64_t len = m->io.ninputs ? m->io.inputs[0].size : 0;
    uint64_t head = st->input == INPUT_FREE_LEN ? 16 : 8;
    if (len > ZISK_INPUT_OLD_MAX - head) {
        error_fail(e, ERROR_UNSUPPORTED, "the input (%llu bytes) is larger than ZisK's 128 MiB",
                   (unsigned long long)len);
        return -1;
    }
    mem_grant(&m->mem, ZISK_INPUT_OLD, guest_page_ceil(head + len), PAGE_R);
    mem_poke(&m->mem, ZISK_INPUT_OLD + head - 8, &len, 8);
    if (len)
        mem_poke(&m->mem, ZISK_INPUT_OLD + head, m->io.inputs[0].data, len);
    return 0;
}

/* The input region: 8 bytes of 0, then each item's u64 length and bytes, padded to 8. */
static int zisk_write_input(struct machine *m, struct error *e)
{
    if (((struct zisk_state *)m->abi_state)->input != INPUT_ITEMS)
        return zisk_write_old_input(m, e);
    uint64_t total = 8;
    for (size_t i = 0; i < m->io.ninputs; i++)
        total += 8 + (m->io.inputs[i].size + 7) / 8 * 8;
    if (total > ZISK_INPUT_MAX) {
        error_fail(e, ERROR_UNSUPPORTED, "the input (%llu bytes) is larger than ZisK's 1 GiB",
                   (unsigned long long)total);
        return -1;
    }
    mem_grant(&m->mem, ZISK_INPUT_ADDR, guest_page_ceil(total), PAGE_R);
    ((struct zisk_state *)m->abi_state)->fcalls.input_len = total - 8;
    uint64_t at = ZISK_INPUT_ADDR + 8;
    for (size_t i = 0; i < m->io.ninputs; i++) {
        uint64_t len = m->io.inputs[i].size;
        mem_poke(&m->mem, at, &len, 8);
        mem_poke(&m->mem, at + 8, m->io.inputs[i].data, len);
        at += 8 + (len + 7) / 8 * 8;
    }
    return 0;
}

/* ziskos's `inputcpy` (DMA, 0x815) means the later numbering of 0x815 and up. */
static void note_inputcpy(void *ctx, Elf *elf, const GElf_Sym *sym, const char *name)
{
    struct zisk_state *st = ctx;
    (void)elf;
    if (GELF_ST_TYPE(sym->st_info) == STT_FUNC && strcmp(name, "inputcpy") == 0)
        st->dma_numbering = true;
}

/* Earlier ZisK put SYS_ADDR at the bottom of RAM, and data right after its output area. */
static uint64_t zisk_sys_addr(const struct elf_image *img)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if (s->vaddr >= ZISK_RAM_ADDR && s->vaddr < ZISK_SYS_NEW)
            return ZISK_RAM_ADDR;
    }
    return ZISK_SYS_NEW;
}

/*
 * True when the ELF's data all lies above 0xA040_0000: the layout of the
 * unreleased branch with its stack at the bottom of RAM, whose guests may
 * have the unreleased numbering from 0x815. Every release with calls from
 * 0x815 (v0.16.0 to v0.18.0) links data from 0xA002_0000 or 0xA003_0000.
 */
static bool unreleased_layout(const struct elf_image *img)
{
    bool data = false;
    for (size_t i = 0; i < img->nsegments; i++)
        data |= img->segments[i].vaddr >= ZISK_RAM_ADDR;
    return data && zisk_sys_addr(img) == ZISK_SYS_NEW;
}

static int zisk_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    struct zisk_state *st = abi_alloc_state(m, sizeof(struct zisk_state), e);
    if (!st)
        return -1;
    if (m->xlen != 64) {
        error_fail(e, ERROR_UNSUPPORTED, "ZisK guests are RV64 (ELFCLASS64), this one is RV32");
        return -1;
    }
    if (abi_check_inside(img, ZISK_ROM_ADDR, ZISK_RAM_END, "ZisK's ROM and RAM", e) != 0)
        return -1;
    st->sys = zisk_sys_addr(img);
    st->dma_numbering = !unreleased_layout(img);
    st->input = zisk_input_layout(img);
    abi_each_symbol(img, note_inputcpy, st);
    if (zisk_write_input(m, e) != 0)
        return -1;
    /* The UART's page without write rights, so that stores to it reach zisk_mmio_store. */
    abi_map_flat_with_device(m, img, ZISK_RAM_ADDR, ZISK_RAM_END, st->sys + ZISK_UART_OFFSET);
    return 0;
}

static void zisk_report(const struct machine *m, FILE *out)
{
    const struct zisk_state *st = m->abi_state;
    static const char *const inputs[] = {
        [INPUT_ITEMS] = "0x40000000, items (v0.16.0 on)",
        [INPUT_FREE_LEN] = "0x90000000, free-input word then length (v0.7.0-v0.15.0)",
        [INPUT_LEN] = "0x90000000, length first (before v0.7.0)",
    };
    fprintf(out, "zisk-layout: SYS_ADDR 0x%llx, input at %s\n", (unsigned long long)st->sys,
            inputs[st->input]);
    fprintf(out, "zisk-precompiles: %s\n",
            st->dma_numbering
                ? "0x815 and up numbered with DMA (as released ZisK v0.16.0-v0.18.0 number them)"
                : "0x815 secp256r1_add, 0x816 secp256r1_dbl (no inputcpy in the ELF)");
    if (st->profile_marks)
        fprintf(out, "zisk-profile-marks: %llu (csrs 0x81A, no effect in ZisK)\n",
                (unsigned long long)st->profile_marks);
}

const struct abi abi_zisk = {
    .name = "zisk",
    .setup = zisk_setup,
    .ecall = zisk_ecall,
    .custom_insn = zisk_custom,
    .custom_csr_lo = ZISK_CSR_FIRST,
    .custom_csr_hi = ZISK_CSR_END,
    .mmio_store = zisk_mmio_store,
    .report = zisk_report,
    .destroy = abi_free_state,
    .marchid = ZISK_MARCHID,
};
