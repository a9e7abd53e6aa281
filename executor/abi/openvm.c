/*
 * openvm: the ABI of OpenVM guests (the openvm crate), as its transpiler
 * and extensions define it: RV32IM up to 2.0, RV64IM from 2.1 (the
 * v2.1.0-preview tag and the perf/ecc-projective-coord branch). Docs:
 * docs/ZKVMS.md.
 *
 * No ecall: a guest talks to the VM through custom-0 (0x0b) instructions,
 * told apart by funct3:
 *   0 TERMINATE (exit code = imm)
 *   1 HINT_STOREW (imm 0: the next hint word to [rd]), HINT_BUFFER (imm 1:
 *     [rs1] words to [rd])
 *   2 REVEAL ([rs1] to the public values at [rd] + imm)
 *   3 PHANTOM, imm: 0 HintInput (the next input item, its u32 length before
 *     it, becomes the hint stream), 1 PrintStr ([rd], [rs1] bytes),
 *     2 HintRandom ([rd] random words), 3 HintLoadByKey (not here)
 *   4 KECCAK256 (funct7 0) and SHA256 (funct7 1) of [rs1], [rs2] bytes, to
 *     [rd]; a guest of the later keccak crate (native_keccakf in its
 *     symbols) means Keccak-f on [rd] (0) and XORIN [rs2] bytes of [rs1]
 *     into [rd] (1)
 *   5 256-bit integers [rd] = [rs1] op [rs2], op = funct7: add, sub, xor,
 *     or, and, sll, srl, sra, slt, sltu, mul
 *   6 BEQ256 (B-type: branch when the 32 bytes at [rs1] and [rs2] are equal)
 * custom-1 (0x2b): modular arithmetic, short Weierstrass curves, complex
 * extension fields, pairings (openvm_algebra.c).
 * Memory is flat read-write [0x400, 2^29); _start sets sp to 0x0020_0400.
 *
 * RV64 guests keep that memory map and these encodings; what a register
 * holds becomes 8 bytes, and so does the unit of the hint and public
 * values: HINT_STORED and HINT_BUFFER move dwords (at most 1023), an
 * input item's length before it is a u64 and it is padded to 8 bytes,
 * HintRandom gives dwords, REVEAL stores 8 bytes at [rd] + a signed imm
 * (openvm-org/openvm at 7bfa7d3e: extensions/riscv/guest/src/lib.rs,
 * transpiler/src/lib.rs Rv64IoTranspilerExtension, circuit/src/hintstore/
 * execution.rs, extension/mod.rs phantom; crates/vm/src/arch/
 * hint_stream.rs). Pointers are the low 32 bits with the high 32 zero
 * (riscv/circuit/src/adapters/mod.rs bytes_to_u32); here a larger one is
 * simply not in memory. Their keccak crate is the later one (KECCAKF,
 * XORIN); their curves are projective on the perf/ecc-projective-coord
 * branch (openvm_algebra.c).
 */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/abi/openvm_algebra.h"
#include "executor/machine.h"
#include "executor/precompile/keccak.h"
#include "executor/precompile/sha256.h"
#include "executor/precompile/sha512.h"

enum {
    OPENVM_MEM_LO = 0x400,
    OPENVM_MEM_HI = 1 << 29, /* openvm_platform's MEM_SIZE */
    OPENVM_PUBLIC_MAX = 1 << 20,
    OPENVM_HINT_BUFFER_MAX = (1 << 18) - 1,      /* MAX_HINT_BUFFER_WORDS */
    OPENVM_HINT_BUFFER_MAX_RV64 = (1 << 10) - 1, /* MAX_HINT_BUFFER_DWORDS (7bfa7d3e) */
    OPENVM_HASH_MAX = 1 << 28,
};

struct openvm_state {
    struct openvm_algebra algebra; /* custom-1: moduli, complex fields, curves */
    size_t next_input;             /* the --input item HintInput takes next */
    uint8_t *hint;                 /* the hint stream */
    size_t hint_size, hint_at;
    struct abi_buffer public_values;
    uint64_t random; /* HintRandom's generator: a fixed seed, so runs repeat */
    bool keccakf;    /* funct3 4 is Keccak-f / XORIN (the later keccak crate) */
    unsigned word;   /* a register's bytes: the unit of hints and public values */
};

/* The fields of an instruction word. */
struct fields {
    unsigned rd, rs1, rs2, funct3, funct7;
    uint32_t imm; /* I-type, zero-extended 12 bits */
};

static struct fields split(uint32_t w)
{
    return (struct fields){.rd = (w >> 7) & 31,
                           .rs1 = (w >> 15) & 31,
                           .rs2 = (w >> 20) & 31,
                           .funct3 = (w >> 12) & 7,
                           .funct7 = w >> 25,
                           .imm = w >> 20};
}

static uint64_t reg(const struct machine *m, unsigned r)
{
    return machine_get_reg(m, r);
}

/* The next n bytes of the hint stream to guest memory at addr. */
static enum ecall_result hint_to_memory(struct machine *m, const char *call, uint64_t addr,
                                        uint64_t n)
{
    struct openvm_state *st = m->abi_state;
    if (n > st->hint_size - st->hint_at)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, n,
                         "the hint stream has fewer bytes left (HintOutOfBounds)");
    if (!abi_store(m, addr, st->hint + st->hint_at, n))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, addr, "the destination is not in memory");
    st->hint_at += n;
    return ECALL_CONTINUE;
}

static enum ecall_result openvm_hint(struct machine *m, struct fields f, const char **call)
{
    struct openvm_state *st = m->abi_state;
    bool rv64 = st->word == 8;
    if (f.imm == 0) {
        *call = rv64 ? "HINT_STORED" : "HINT_STOREW";
        return hint_to_memory(m, *call, reg(m, f.rd), st->word);
    }
    if (f.imm == 1) {
        *call = "HINT_BUFFER";
        uint64_t words = reg(m, f.rs1);
        if (words == 0 || words > (rv64 ? OPENVM_HINT_BUFFER_MAX_RV64 : OPENVM_HINT_BUFFER_MAX))
            return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, words,
                             rv64 ? "the dword count (rs1) is 0 or 1024 or more"
                                  : "the word count (rs1) is 0 or 2^18 or more");
        return hint_to_memory(m, *call, reg(m, f.rd), st->word * words);
    }
    return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, f.imm,
                     "custom-0 funct3 1 takes imm 0 (HINT_STOREW) or 1 (HINT_BUFFER)");
}

/* Replaces the hint stream by `n` bytes (the caller fills them). */
static uint8_t *new_hint(struct openvm_state *st, size_t n)
{
    uint8_t *h = calloc(1, n ? n : 1);
    if (!h)
        return NULL;
    free(st->hint);
    st->hint = h;
    st->hint_size = n;
    st->hint_at = 0;
    return h;
}

/* HintInput: the next item, its length first as a register-sized word, zero-padded to a word. */
static enum ecall_result openvm_hint_input(struct machine *m)
{
    struct openvm_state *st = m->abi_state;
    if (st->next_input >= m->io.ninputs)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HintInput", st->next_input,
                         "no input item is left (EndOfInputStream): give one --input FILE "
                         "per item the guest reads");
    const struct machine_input *in = &m->io.inputs[st->next_input++];
    size_t w = st->word;
    uint8_t *h = new_hint(st, w + (in->size + w - 1) / w * w);
    if (!h)
        return abi_fault(m, FAULT_HOST_MEMORY, "HintInput", 0, "out of memory");
    uint64_t len = in->size; /* the host is little-endian: its first w bytes */
    memcpy(h, &len, w);
    if (in->size)
        memcpy(h + w, in->data, in->size);
    return ECALL_CONTINUE;
}

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* HintRandom: `words` random words (dwords on RV64) become the hint stream. */
static enum ecall_result openvm_hint_random(struct machine *m, uint64_t words)
{
    struct openvm_state *st = m->abi_state;
    if (words > OPENVM_HINT_BUFFER_MAX)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HintRandom", words, "more than 2^18 words");
    uint8_t *h = new_hint(st, st->word * words);
    if (!h)
        return abi_fault(m, FAULT_HOST_MEMORY, "HintRandom", 0, "out of memory");
    for (uint64_t i = 0; i < words; i++) {
        uint64_t v = splitmix64(&st->random);
        memcpy(h + st->word * i, &v, st->word);
    }
    return ECALL_CONTINUE;
}

static enum ecall_result openvm_phantom(struct machine *m, struct fields f, const char **call)
{
    switch (f.imm) {
    case 0: *call = "HintInput"; return openvm_hint_input(m);
    case 1: {
        *call = "PrintStr";
        uint64_t p = reg(m, f.rd), len = reg(m, f.rs1);
        if (len > OPENVM_MEM_HI || !mem_range_has(&m->mem, p, len, PAGE_R))
            return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, p, "the text is not in memory");
        abi_write_fd(m->io.stdout_fd, mem_host(&m->mem, p), len);
        return ECALL_CONTINUE;
    }
    case 2: *call = "HintRandom"; return openvm_hint_random(m, reg(m, f.rd));
    case 3:
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, "HintLoadByKey", 0,
                         "the host's key-value store is not available here");
    default:
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, f.imm,
                         "no phantom instruction has this discriminant (imm)");
    }
}

/*
 * REVEAL: the word in rs1 to the public values at [rd] + imm; on RV64 the
 * dword, and imm is signed (Rv64IoTranspilerExtension: STORED with imm's
 * sign as its own operand).
 */
static enum ecall_result openvm_reveal(struct machine *m, struct fields f)
{
    struct openvm_state *st = m->abi_state;
    uint64_t imm = st->word == 8 ? (uint64_t)(int64_t)((int32_t)(f.imm << 20) >> 20) : f.imm;
    uint64_t at = reg(m, f.rd) + imm, v = reg(m, f.rs1);
    if (st->word == 4)
        at = (uint32_t)at;
    if (!abi_buffer_put(&st->public_values, at, &v, st->word, OPENVM_PUBLIC_MAX))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "REVEAL", at,
                         "past the first 1 MiB of public values (or out of memory)");
    return ECALL_CONTINUE;
}

static enum ecall_result openvm_terminate(struct machine *m, struct fields f)
{
    struct openvm_state *st = m->abi_state;
    m->exit_status = (int)(f.imm & 0xff);
    if (!abi_write_fd(m->io.public_output_fd, st->public_values.data, st->public_values.size))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "TERMINATE", 0,
                         "the host could not write the public values");
    return ECALL_EXIT;
}

/* KECCAK256 or SHA256 of [rs1], [rs2] bytes, written to [rd]. */
static enum ecall_result openvm_hash(struct machine *m, struct fields f, const char *call)
{
    uint64_t out = reg(m, f.rd), in = reg(m, f.rs1), len = reg(m, f.rs2);
    uint8_t digest[32];
    if (len > OPENVM_HASH_MAX || !mem_range_has(&m->mem, in, len, PAGE_R))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, in, "the message is not in memory");
    const uint8_t *msg = len ? mem_host(&m->mem, in) : (const uint8_t *)"";
    if (f.funct7 == 0)
        keccak256_digest(msg, len, digest);
    else
        sha256_digest(msg, len, digest);
    if (!abi_store(m, out, digest, sizeof(digest)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, out, "the digest's place is not in memory");
    return ECALL_CONTINUE;
}

/* The later keccak crate: Keccak-f on the 200 bytes at [rd], or XORIN [rs2] bytes of [rs1] there.
 */
static enum ecall_result openvm_keccakf(struct machine *m, struct fields f, const char *call)
{
    uint64_t buf = reg(m, f.rd), in = reg(m, f.rs1), len = reg(m, f.rs2);
    uint64_t lanes[25];
    uint8_t bytes[200];
    if (!abi_load(m, buf, lanes, sizeof(lanes)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, buf, "the state is not in memory");
    if (f.funct7 == 0) {
        keccak_f1600(lanes);
    } else {
        if (len > sizeof(bytes) || !abi_load(m, in, bytes, len))
            return abi_fault(m, FAULT_ECALL_ARGUMENT, call, in,
                             "the input is not in memory (or longer than 200 bytes)");
        uint8_t *state = (uint8_t *)lanes; /* the host is little-endian, like the lanes */
        for (uint64_t i = 0; i < len; i++)
            state[i] ^= bytes[i];
    }
    if (!abi_store(m, buf, lanes, sizeof(lanes)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, buf, "the state is not writable");
    return ECALL_CONTINUE;
}

/*
 * OpenVM 2's sha2 extension: one SHA-256 (funct7 2) or SHA-512 (3, also
 * SHA-384's) compression of the block at [rs2] into the state at [rs1],
 * written to [rd]. The state is 8 little-endian words (u32 or u64), the
 * block the message bytes (openvm-org/openvm extensions/sha2/guest/src/
 * lib.rs, Sha2BaseFunct7; circuit/src/sha2_chips/execution.rs and
 * config.rs, compress256/compress512 on the words; v2.0.1 b820b25b and
 * 7bfa7d3e).
 */
static enum ecall_result openvm_sha2(struct machine *m, struct fields f, const char **call)
{
    bool is512 = f.funct7 == 3;
    uint64_t out = reg(m, f.rd), prev = reg(m, f.rs1), in = reg(m, f.rs2);
    uint8_t block[128];
    union {
        uint32_t w32[8];
        uint64_t w64[8];
    } h;
    size_t state_bytes = is512 ? 64 : 32, block_bytes = is512 ? 128 : 64;
    *call = is512 ? "SHA512" : "SHA256";
    if (!abi_load(m, in, block, block_bytes))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, in, "the block is not in memory");
    if (!abi_load(m, prev, &h, state_bytes))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, prev, "the state is not in memory");
    if (is512) /* the host is little-endian, like the state's words */
        sha512_block(h.w64, block);
    else
        sha256_block(h.w32, block);
    if (!abi_store(m, out, &h, state_bytes))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, out,
                         "the new state's place is not in memory");
    return ECALL_CONTINUE;
}

static enum ecall_result openvm_funct3_4(struct machine *m, struct fields f, const char **call)
{
    struct openvm_state *st = m->abi_state;
    if (f.funct7 == 2 || f.funct7 == 3)
        return openvm_sha2(m, f, call);
    if (f.funct7 > 3)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, f.funct7,
                         "custom-0 funct3 4 has funct7 0 (KECCAK256 or KECCAKF), 1 (SHA256 or "
                         "XORIN), 2 (SHA-256 compress) and 3 (SHA-512 compress)");
    if (st->keccakf) {
        *call = f.funct7 ? "XORIN" : "KECCAKF";
        return openvm_keccakf(m, f, *call);
    }
    *call = f.funct7 ? "SHA256" : "KECCAK256";
    return openvm_hash(m, f, *call);
}

/* 256-bit numbers as 8 little-endian words. */
static void u256_shift(const uint32_t a[8], unsigned shift, bool left, bool arith, uint32_t r[8])
{
    uint32_t fill = arith && (a[7] >> 31) ? UINT32_MAX : 0;
    for (int i = 0; i < 8; i++) {
        int src = left ? i - (int)(shift / 32) : i + (int)(shift / 32);
        int next = left ? src - 1 : src + 1;
        uint32_t lo = src >= 0 && src < 8 ? a[src] : fill;
        uint32_t hi = next >= 0 && next < 8 ? a[next] : fill;
        unsigned s = shift % 32;
        r[i] = s == 0 ? lo : left ? lo << s | hi >> (32 - s) : lo >> s | hi << (32 - s);
    }
}

static bool u256_less(const uint32_t a[8], const uint32_t b[8], bool is_signed)
{
    for (int i = 7; i >= 0; i--) {
        uint32_t x = a[i], y = b[i];
        if (i == 7 && is_signed) {
            x ^= 0x80000000u;
            y ^= 0x80000000u;
        }
        if (x != y)
            return x < y;
    }
    return false;
}

static void u256_mul(const uint32_t a[8], const uint32_t b[8], uint32_t r[8])
{
    uint64_t acc[8] = {0};
    for (int i = 0; i < 8; i++) {
        uint64_t carry = 0;
        for (int j = 0; i + j < 8; j++) {
            uint64_t t = (uint64_t)a[i] * b[j] + acc[i + j] + carry;
            acc[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
    }
    for (int i = 0; i < 8; i++)
        r[i] = (uint32_t)acc[i];
}

static void u256_op(unsigned op, const uint32_t a[8], const uint32_t b[8], uint32_t r[8])
{
    uint64_t carry = op == 1; /* sub: a + ~b + 1 */
    memset(r, 0, 32);
    switch (op) {
    case 0:
    case 1:
        for (int i = 0; i < 8; i++) {
            uint64_t t = (uint64_t)a[i] + (op ? (uint32_t)~b[i] : b[i]) + carry;
            r[i] = (uint32_t)t;
            carry = t >> 32;
        }
        break;
    case 2:
        for (int i = 0; i < 8; i++)
            r[i] = a[i] ^ b[i];
        break;
    case 3:
        for (int i = 0; i < 8; i++)
            r[i] = a[i] | b[i];
        break;
    case 4:
        for (int i = 0; i < 8; i++)
            r[i] = a[i] & b[i];
        break;
    case 5:
    case 6:
    case 7: u256_shift(a, b[0] & 0xff, op == 5, op == 7, r); break;
    case 8:
    case 9: r[0] = u256_less(a, b, op == 8); break;
    default: u256_mul(a, b, r); break;
    }
}

static const char *const int256_names[11] = {"ADD256", "SUB256",  "XOR256", "OR256",
                                             "AND256", "SLL256",  "SRL256", "SRA256",
                                             "SLT256", "SLTU256", "MUL256"};

static enum ecall_result openvm_int256(struct machine *m, struct fields f, const char **call)
{
    uint32_t a[8], b[8], r[8];
    if (f.funct7 > 10)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, f.funct7,
                         "no 256-bit integer instruction has this funct7");
    *call = int256_names[f.funct7];
    if (!abi_load_words(m, reg(m, f.rs1), a, 8) || !abi_load_words(m, reg(m, f.rs2), b, 8))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, reg(m, f.rs1),
                         "an operand is not in memory");
    u256_op(f.funct7, a, b, r);
    if (!abi_store_words(m, reg(m, f.rd), r, 8))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, reg(m, f.rd),
                         "the result's place is not in memory");
    return ECALL_CONTINUE;
}

static int32_t imm_b(uint32_t w)
{
    uint32_t imm =
        (w >> 31) << 12 | ((w >> 7) & 1) << 11 | ((w >> 25) & 0x3f) << 5 | ((w >> 8) & 0xf) << 1;
    return (int32_t)(imm << 19) >> 19;
}

/* BEQ256: the run goes on at pc + imm when the 32 bytes at [rs1] and [rs2] are equal. */
static enum ecall_result openvm_beq256(struct machine *m, uint32_t w, struct fields f)
{
    uint32_t a[8], b[8];
    if (!abi_load_words(m, reg(m, f.rs1), a, 8) || !abi_load_words(m, reg(m, f.rs2), b, 8))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BEQ256", reg(m, f.rs1),
                         "an operand is not in memory");
    if (memcmp(a, b, sizeof(a)) != 0)
        return ECALL_CONTINUE;
    uint64_t target = m->pc + (uint64_t)(int64_t)imm_b(w);
    if (m->xlen == 32)
        target = (uint32_t)target;
    if (target % 4)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BEQ256", target, "the target is not aligned");
    m->pc = target;
    return ECALL_JUMP;
}

/* A custom-1 instruction; the hint stream a hint phantom made replaces the stream. */
static enum ecall_result openvm_algebra(struct machine *m, struct openvm_state *st, uint32_t w,
                                        const char **call)
{
    st->algebra.word = st->word;
    st->algebra.hint_len = 0;
    enum ecall_result r = openvm_algebra_insn(m, &st->algebra, w, call);
    if (r != ECALL_CONTINUE || !st->algebra.hint_len)
        return r;
    uint8_t *h = new_hint(st, st->algebra.hint_len);
    if (!h)
        return abi_fault(m, FAULT_HOST_MEMORY, *call, 0, "out of memory");
    memcpy(h, st->algebra.hint, st->algebra.hint_len);
    return ECALL_CONTINUE;
}

static enum ecall_result openvm_custom(struct machine *m, uint32_t w, const char **call)
{
    struct fields f = split(w);
    struct openvm_state *st = m->abi_state;
    if ((w & 0x7f) == 0x2b)
        return openvm_algebra(m, st, w, call);
    if ((w & 0x7f) != 0x0b)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, w,
                         "OpenVM has no instruction with this opcode (custom-2, custom-3)");
    switch (f.funct3) {
    case 0: *call = "TERMINATE"; return openvm_terminate(m, f);
    case 1: return openvm_hint(m, f, call);
    case 2: *call = "REVEAL"; return openvm_reveal(m, f);
    case 3: return openvm_phantom(m, f, call);
    case 4: return openvm_funct3_4(m, f, call);
    case 5: return openvm_int256(m, f, call);
    case 6: *call = "BEQ256"; return openvm_beq256(m, w, f);
    default:
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, w,
                         "custom-0 funct3 7 (the native store of OpenVM's native kernel)");
    }
}

static enum ecall_result openvm_ecall(struct machine *m, const char **call)
{
    (void)call;
    return abi_fault(m, FAULT_UNSUPPORTED_ECALL, "ecall", 0,
                     "OpenVM has no ecall (its transpiler refuses one)");
}

/*
 * OpenVM takes the words of the executable segments as its program, apart
 * from memory, from address 0 up (crates/toolchain/transpiler/src/elf.rs:
 * below max_mem); the others must lie in memory.
 */
static int check_segments(const struct elf_image *img, struct error *e)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        uint64_t lo = (s->rights & SEG_X) ? 0 : OPENVM_MEM_LO;
        if (s->vaddr < lo || s->vaddr + s->memsz > OPENVM_MEM_HI) {
            error_fail(e, ERROR_UNSUPPORTED,
                       "segment [0x%llx, 0x%llx) lies outside OpenVM's %s [0x%llx, 0x%llx)",
                       (unsigned long long)s->vaddr, (unsigned long long)(s->vaddr + s->memsz),
                       lo ? "memory" : "program space", (unsigned long long)lo,
                       (unsigned long long)OPENVM_MEM_HI);
            return -1;
        }
    }
    return 0;
}

static int openvm_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    struct openvm_state *st = abi_alloc_state(m, sizeof(struct openvm_state), e);
    if (!st)
        return -1;
    if (check_segments(img, e) != 0)
        return -1;
    st->word = m->xlen / 8;
    /* RV64 came with 2.1, long after the keccak crate's KECCAKF and XORIN (2.0) */
    st->keccakf = m->xlen == 64 ||
                  memmem(img->file, img->file_size, "native_keccakf", strlen("native_keccakf"));
    st->algebra.projective_curves = m->xlen == 64;
    if (m->xlen == 64) {
        /*
         * RV64 loads and stores take any address, even one crossing an
         * 8-byte block (riscv/circuit/src/load/core.rs, store/core.rs at
         * 7bfa7d3e: the second block "used only when the access crosses");
         * the RV32 releases trap them (abi_openvm.aligned_access).
         */
        m->code.aligned_access = false;
        m->mem.aligned_accesses = false;
    }
    abi_map_flat(m, img, OPENVM_MEM_LO, OPENVM_MEM_HI);
    return 0;
}

static void openvm_report(const struct machine *m, FILE *out)
{
    const struct openvm_state *st = m->abi_state;
    fprintf(out, "public-values: %zu bytes\n", st->public_values.size);
}

static void openvm_destroy(struct machine *m)
{
    struct openvm_state *st = m->abi_state;
    if (st) {
        free(st->hint);
        free(st->public_values.data);
    }
    abi_free_state(m);
}

const struct abi abi_openvm = {
    .name = "openvm",
    .aligned_access = true, /* loadstore/core.rs: "unaligned memory access not supported" (RV32) */
    .without_c = true,      /* RV32IM, RV64IM: the transpiler reads 4-byte words */
    .setup = openvm_setup,
    .ecall = openvm_ecall,
    .custom_insn = openvm_custom,
    .report = openvm_report,
    .destroy = openvm_destroy,
};
