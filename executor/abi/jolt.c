/*
 * jolt: the ABI of Jolt guests (RV64IMAC, the jolt-sdk crate), as Jolt's
 * tracer runs them, read from a16z/jolt @ 01f781858cd3ff3e04e3b4b801042494e1f9446a
 * (common/src/jolt_device.rs, common/src/constants.rs, jolt-sdk/src/print.rs,
 * jolt-sdk/src/cycle_tracking.rs, jolt-inlines/{sha2,keccak256,bigint,blake2,blake3}). Docs:
 * docs/ZKVMS.md.
 *
 * Memory: RAM from 0x8000_0000 (128 MiB, EMULATOR_MEMORY_CAPACITY); below it
 * the I/O region of MemoryLayout::new (jolt_layout.c) for the sizes the
 * guest was built with: --jolt-memory, else the ELF's __jolt_max_*_size
 * symbols, else Jolt's defaults (4 KiB each of trusted and untrusted
 * advice, input and output: advice [0x7FFF_8000, 0x7FFF_A000), input
 * [0x7FFF_A000, 0x7FFF_B000), output [0x7FFF_B000, 0x7FFF_C000), the panic
 * word 0x7FFF_C000 and the termination word 0x7FFF_C008). The region's pages
 * up to its end are read-only: advice (empty) and input (the --input items,
 * concatenated: the guest's postcard bytes) read; output stores land
 * (jolt_mmio_store). The guest halts by storing to the termination word
 * (then spins: the run ends at the store); a store to the panic word is a
 * panic. The output is the bytes up to the highest one written, as
 * JoltDevice keeps them. Any other access below RAM faults, and the fault
 * says the guest's sizes may differ and names --jolt-memory (a guest built
 * with other sizes reads and writes elsewhere: it must not run on).
 *
 * Calls: ecall (or a custom-2 0x5B word) with a0 = 0x505249 (0x5052494E
 * in jolt-sdk before jolt_platform) prints a1, a2 bytes (a3 = 2: a line),
 * with a0 = 0xC7C1E starts (a3 = 1) or ends (2) the cycle span labelled
 * a1, a2 bytes (earlier: a2 the kind, the label NUL-ended); an ended span prints
 * `"label": N RV64IMAC cycles` on stderr; with a0 = 0xADBABE appends a1, a2
 * bytes to the advice tape (jolt_advice.c). Inlines are custom-0 0x0B
 * R-type words: funct7 0 SHA-256 compression of [rs1] (8 u32 state words)
 * by [rs2] (16 u32 message words), from the IV for funct3 1; funct7 1
 * funct3 0 Keccak-f[1600] of [rs1] (25 u64 lanes); funct7 2 funct3 0
 * BLAKE2b compression of [rs1] (8 u64) by [rs2] (16 u64, counter, final
 * flag); funct7 3 BLAKE3 compression (funct3 0: [rs1] by [rs2] and its
 * counter, length and flags; funct3 1: keyed hash of [rs1] ‖ [rs2] under the
 * key [rd], to rd); funct7 4 funct3 0
 * BIGINT256_MUL: [rd] (8 u64 limbs) = [rs1] * [rs2] (4 u64 limbs each);
 * funct7 5, 6, 7 the secp256k1, Grumpkin and P-256 field inlines
 * (jolt_fields.c). Their operands must be aligned as their lw / ld (mmu.rs
 * asserts). Other inlines stop. Custom-2 0x5B words are Jolt's virtual
 * instructions (tracer/src/instruction/mod.rs): funct3 0 VirtualRev8W (rd =
 * rs1 with the bytes of each 32-bit half reversed; the sha2 sdk's byte
 * swap), funct3 1 VirtualAssertEQ (rs1 = rs2 or the tracer panics), funct3
 * 2 VirtualHostIO (the print, cycle and advice write calls; another a0 does
 * nothing), funct3 3-7 (HEAD: funct3 0 funct7 0-4, rs1 x0) the advice
 * loads (jolt_advice.c).
 */
#include <stdio.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/abi/jolt_advice.h"
#include "executor/abi/jolt_fields.h"
#include "executor/abi/jolt_layout.h"
#include "executor/machine.h"
#include "executor/precompile/bigint.h"
#include "executor/precompile/blake2b.h"
#include "executor/precompile/blake3.h"
#include "executor/precompile/sha256.h"

/*
 * Faults this far below RAM (or in the layout's region, when it is larger) are
 * taken as the I/O region's: where any layout whose sizes add up to under
 * 256 MiB puts it.
 */
#define JOLT_IO_FLOOR     (JOLT_RAM_START - (256ull << 20))
#define JOLT_RAM_SIZE     (128ull << 20)
#define JOLT_PRINT        0x505249ull   /* "PRI": jolt_platform */
#define JOLT_PRINT_OLD    0x5052494Eull /* "PRIN": jolt-sdk before jolt_platform */
#define JOLT_CYCLE_TRACK  0xC7C1Eull    /* "CYCLE" */
#define JOLT_ADVICE_WRITE 0xADBABEull   /* jolt_platform advice.rs */
#define JOLT_LABEL_MAX    64
#define JOLT_SPANS        32

/* A cycle span the guest started and has not ended. */
struct jolt_span {
    char label[JOLT_LABEL_MAX];
    uint64_t start; /* instructions retired at its start */
};

struct jolt_state {
    struct jolt_memory sizes;
    const char *sizes_from; /* "--jolt-memory", "the ELF's __jolt_max_*_size symbols", ... */
    struct jolt_layout io;
    uint64_t output_end; /* one past the highest output byte written */
    char fault_why[400]; /* what a fault below RAM means, for m->fault.why */
    struct jolt_span spans[JOLT_SPANS];
    size_t nspans;
    struct jolt_tape tape; /* the advice tape (jolt_advice.c) */
};

static enum ecall_result bad(struct machine *m, const char *call, uint64_t addr, const char *why)
{
    return abi_fault(m, FAULT_ECALL_ARGUMENT, call, addr, why);
}

/* print: a1, a2 bytes to stdout, a newline after them when a3 = 2. */
static enum ecall_result jolt_print(struct machine *m)
{
    uint64_t p = machine_get_reg(m, REG_A1), len = machine_get_reg(m, REG_A2);
    if (!mem_range_has(&m->mem, p, len, PAGE_R))
        return bad(m, "print", p, "the text is not in memory");
    abi_write_fd(m->io.stdout_fd, mem_host(&m->mem, p), len);
    if (machine_get_reg(m, REG_A3) == 2)
        abi_write_fd(m->io.stdout_fd, "\n", 1);
    return ECALL_CONTINUE;
}

/*
 * The label of a cycle marker, cut to JOLT_LABEL_MAX - 1 bytes: a1, `len`
 * bytes, or (len 0: the earlier form without a length) up to its NUL.
 */
static bool marker_label(const struct machine *m, uint64_t len, char label[JOLT_LABEL_MAX])
{
    uint64_t p = machine_get_reg(m, REG_A1);
    memset(label, 0, JOLT_LABEL_MAX);
    if (len > JOLT_LABEL_MAX - 1)
        len = JOLT_LABEL_MAX - 1;
    if (len)
        return abi_load(m, p, label, len);
    for (size_t i = 0; i < JOLT_LABEL_MAX - 1 && abi_load(m, p + i, &label[i], 1); i++)
        if (!label[i])
            return true;
    return label[0] != 0;
}

static void report_span(struct machine *m, const struct jolt_span *s)
{
    char line[JOLT_LABEL_MAX + 64];
    int n = snprintf(line, sizeof(line), "\"%s\": %llu RV64IMAC cycles\n", s->label,
                     (unsigned long long)(m->ecall_clock - s->start));
    abi_write_fd(m->io.stderr_fd, line, (size_t)n);
}

/* Cycle markers: a3 = 1 starts the span, 2 ends the latest open one of that label. */
static enum ecall_result jolt_cycle_marker(struct machine *m, const char **call)
{
    struct jolt_state *st = m->abi_state;
    char label[JOLT_LABEL_MAX];
    uint64_t len = machine_get_reg(m, REG_A2), kind = machine_get_reg(m, REG_A3);
    if (kind != 1 && kind != 2 && (len == 1 || len == 2)) { /* the earlier form: a2 the kind */
        kind = len;
        len = 0;
    }
    *call = kind == 1 ? "start_cycle_tracking" : "end_cycle_tracking";
    if (!marker_label(m, len, label))
        return bad(m, *call, machine_get_reg(m, REG_A1), "the label is not in memory");
    if (kind == 1) {
        if (st->nspans == JOLT_SPANS)
            return bad(m, *call, JOLT_SPANS, "too many cycle spans open at once");
        struct jolt_span *s = &st->spans[st->nspans++];
        memcpy(s->label, label, sizeof(label));
        s->start = m->ecall_clock;
        return ECALL_CONTINUE;
    }
    if (kind != 2)
        return bad(m, *call, kind, "a cycle marker is 1 (start) or 2 (end) in a3");
    for (size_t i = st->nspans; i-- > 0;) {
        if (strcmp(st->spans[i].label, label) != 0)
            continue;
        report_span(m, &st->spans[i]);
        st->spans[i] = st->spans[--st->nspans];
        return ECALL_CONTINUE;
    }
    return ECALL_CONTINUE; /* an end without a start: Jolt ignores it too */
}

/* The calls an ecall (or a 0x5B word) makes, by a0. */
static enum ecall_result jolt_host_call(struct machine *m, const char **call)
{
    uint64_t nr = machine_get_reg(m, REG_A0) & 0xffffffffu;
    if (nr == JOLT_PRINT || nr == JOLT_PRINT_OLD) {
        *call = "print";
        return jolt_print(m);
    }
    if (nr == JOLT_CYCLE_TRACK)
        return jolt_cycle_marker(m, call);
    return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, nr,
                     "Jolt's calls are print (a0 = 0x505249) and cycle markers (a0 = 0xC7C1E)");
}

/* The advice write (a0 = 0xADBABE): a1, a2 bytes onto the advice tape. */
static enum ecall_result jolt_advice_write(struct machine *m, const char **call)
{
    struct jolt_state *st = m->abi_state;
    *call = "advice_write";
    return jolt_tape_write(m, &st->tape);
}

/* An ecall: the advice write (01f78185's ECALL trace), else print and cycle markers. */
static enum ecall_result jolt_ecall(struct machine *m, const char **call)
{
    if ((machine_get_reg(m, REG_A0) & 0xffffffffu) == JOLT_ADVICE_WRITE)
        return jolt_advice_write(m, call);
    return jolt_host_call(m, call);
}

/*
 * VirtualHostIO: print and cycle markers as an ecall makes them, the
 * advice write (HEAD's; 01f78185 ignores it, no jolt-sdk of then emits
 * it); any other a0 does nothing, as VirtualHostIO::exec
 * (tracer/src/instruction/virtual_host_io.rs) ignores it.
 */
static enum ecall_result jolt_host_io(struct machine *m, const char **call)
{
    uint64_t nr = machine_get_reg(m, REG_A0) & 0xffffffffu;
    if (nr == JOLT_PRINT || nr == JOLT_CYCLE_TRACK) /* 0x5052494E was an ecall's only */
        return jolt_host_call(m, call);
    if (nr == JOLT_ADVICE_WRITE)
        return jolt_advice_write(m, call);
    *call = "VirtualHostIO";
    return ECALL_CONTINUE;
}

/* rev8w: the bytes of each 32-bit half of v reversed (virtual_rev8w.rs). */
static uint64_t rev8w(uint64_t v)
{
    return (uint64_t)__builtin_bswap32((uint32_t)v) |
           (uint64_t)__builtin_bswap32((uint32_t)(v >> 32)) << 32;
}

/*
 * A custom-2 word, decoded as the tracer at 01f78185 decodes it by funct3,
 * but the advice loads of both encodings (jolt_advice.c: Jolt after
 * 971ce3e9, 2026-06-23, moved them to funct3 0 with funct7 0-4 and
 * VirtualRev8W to funct7 5; funct7 5 is a byte swap in both).
 */
static enum ecall_result jolt_virtual(struct machine *m, uint32_t w, const char **call)
{
    struct jolt_state *st = m->abi_state;
    unsigned funct3 = (w >> 12) & 7, rd = (w >> 7) & 31;
    uint64_t rs1 = machine_get_reg(m, (w >> 15) & 31), rs2 = machine_get_reg(m, (w >> 20) & 31);
    if (jolt_tape_is_load(w))
        return jolt_tape_load(m, &st->tape, w, call);
    switch (funct3) {
    case 0:
        *call = "VirtualRev8W";
        machine_set_reg(m, rd, rev8w(rs1));
        return ECALL_CONTINUE;
    case 1:
        *call = "VirtualAssertEQ";
        if (rs1 != rs2)
            return bad(m, *call, rs1, "rs1 and rs2 differ (the tracer's assert_eq panics)");
        return ECALL_CONTINUE;
    default: return jolt_host_io(m, call); /* funct3 2; 3-7 are the advice loads */
    }
}

/* SHA-256 compression of [rs1] by the 16 message words at [rs2]; from the IV when `init`. */
/* The tracer's mmu asserts each lw / ld aligned: a misaligned operand panics there. */
static bool misaligned(uint64_t a, uint64_t b, unsigned size)
{
    return (a | b) % size != 0;
}

static enum ecall_result jolt_sha256(struct machine *m, uint64_t state, uint64_t input, bool init,
                                     const char *call)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    uint32_t h[8], w[16];
    uint8_t block[64];
    if (misaligned(state, input, 4))
        return bad(m, call, state % 4 ? state : input, "an operand is not word-aligned");
    if (init)
        memcpy(h, iv, sizeof(h));
    else if (!abi_load_words(m, state, h, 8))
        return bad(m, call, state, "the state is not in memory");
    if (!abi_load_words(m, input, w, 16))
        return bad(m, call, input, "the message block is not in memory");
    for (int i = 0; i < 16; i++) /* the words are the message's big-endian words */
        for (int j = 0; j < 4; j++)
            block[4 * i + j] = (uint8_t)(w[i] >> (24 - 8 * j));
    sha256_block(h, block);
    if (!abi_store_words(m, state, h, 8))
        return bad(m, call, state, "the state is not writable");
    return ECALL_CONTINUE;
}

/* The inlines Jolt's crates define by funct7, for the message of those not run here. */
static const char *inline_family(unsigned funct7)
{
    switch (funct7) {
    case 0x00: return "SHA256_INLINE";
    case 0x01: return "KECCAK256_INLINE";
    case 0x02: return "BLAKE2_INLINE";
    case 0x03: return "BLAKE3_INLINE";
    default: return "an inline";
    }
}

/* BIGINT256_MUL_INLINE: [rd] = [rs1] * [rs2], 4 u64 limbs each in, 8 out (all loaded first). */
static enum ecall_result jolt_bigint_mul(struct machine *m, uint64_t out, uint64_t a, uint64_t b,
                                         const char *call)
{
    uint32_t x[8], y[8], r[16];
    if (misaligned(out | a, b, 8))
        return bad(m, call, out, "an operand is not doubleword-aligned");
    if (!abi_load_words(m, a, x, 8) || !abi_load_words(m, b, y, 8))
        return bad(m, call, a, "an operand is not in memory");
    bigint_mul_wide(r, x, 8, y, 8);
    if (!abi_store_words(m, out, r, 16))
        return bad(m, call, out, "the product is not writable");
    return ECALL_CONTINUE;
}

/* n little-endian u64 words at addr (the inline sequences' ld). */
static bool load_u64s(const struct machine *m, uint64_t addr, uint64_t *v, size_t n)
{
    uint32_t w[2 * 18];
    if (n > 18 || !abi_load_words(m, addr, w, 2 * n))
        return false;
    for (size_t i = 0; i < n; i++)
        v[i] = (uint64_t)w[2 * i + 1] << 32 | w[2 * i];
    return true;
}

static bool store_u64s(struct machine *m, uint64_t addr, const uint64_t *v, size_t n)
{
    uint32_t w[2 * 8];
    if (n > 8)
        return false;
    for (size_t i = 0; i < n; i++) {
        w[2 * i] = (uint32_t)v[i];
        w[2 * i + 1] = (uint32_t)(v[i] >> 32);
    }
    return abi_store_words(m, addr, w, 2 * n);
}

/*
 * BLAKE2_INLINE: BLAKE2b's compression of [rs1] (8 u64 state words) by
 * [rs2] (16 u64 message words, then the counter t and the final flag f),
 * the state stored back to rs1. v[14] is XORed with 0 - f (the sequence
 * builder's SUB and XOR): f = 1 inverts it, as RFC 7693's final block.
 */
static enum ecall_result jolt_blake2(struct machine *m, uint64_t state, uint64_t input,
                                     const char *call)
{
    uint64_t h[8], msg[18];
    if (misaligned(state, input, 8))
        return bad(m, call, state % 8 ? state : input, "an operand is not doubleword-aligned");
    if (!load_u64s(m, state, h, 8))
        return bad(m, call, state, "the state is not in memory");
    if (!load_u64s(m, input, msg, 18))
        return bad(m, call, input, "the message block is not in memory");
    blake2b_compress(h, msg, msg[16], 0 - msg[17]);
    if (!store_u64s(m, state, h, 8))
        return bad(m, call, state, "the state is not writable");
    return ECALL_CONTINUE;
}

/* BLAKE3's compression on the chaining value cv, its first 8 output words back in cv. */
static void blake3_compress(uint32_t cv[8], const uint32_t m[16], const uint32_t tail[4])
{
    static const uint32_t iv[4] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a};
    uint32_t s[16];
    memcpy(s, cv, 32);
    memcpy(s + 8, iv, 16);
    memcpy(s + 12, tail, 16); /* counter low, counter high, block length, flags */
    blake3_compress_inner(s, m);
    for (int i = 0; i < 8; i++)
        cv[i] = s[i] ^ s[i + 8];
}

/*
 * BLAKE3_INLINE (funct3 0): the chaining value [rs1] (8 u32) compressed by
 * [rs2] (16 u32 message words, then counter low and high, block length and
 * flags), stored back to rs1. BLAKE3_KEYED64_INLINE (funct3 1): the key
 * [rd] (8 u32) compresses [rs1] (32 bytes) then [rs2] (32 bytes) as one
 * block with counter 0, length 64 and CHUNK_START | CHUNK_END | ROOT |
 * KEYED_HASH, the digest stored to rd. The sequences ld the 8-aligned pairs.
 */
static enum ecall_result jolt_blake3(struct machine *m, uint32_t w, const char *call)
{
    uint64_t rs1 = machine_get_reg(m, (w >> 15) & 31), rs2 = machine_get_reg(m, (w >> 20) & 31);
    uint64_t out = ((w >> 12) & 7) ? machine_get_reg(m, (w >> 7) & 31) : rs1;
    uint32_t cv[8], msg[20], keyed_tail[4] = {0, 0, 64, 1 | 2 | 8 | 16};
    bool keyed = (w >> 12) & 7;
    if (misaligned(out | rs1, rs2, 8))
        return bad(m, call,
                   out % 8   ? out
                   : rs1 % 8 ? rs1
                             : rs2,
                   "an operand is not doubleword-aligned");
    if (!abi_load_words(m, out, cv, 8))
        return bad(m, call, out, keyed ? "the key is not in memory" : "the state is not in memory");
    if (keyed ? !abi_load_words(m, rs1, msg, 8) || !abi_load_words(m, rs2, msg + 8, 8)
              : !abi_load_words(m, rs2, msg, 20))
        return bad(m, call, keyed ? rs1 : rs2, "the message is not in memory");
    blake3_compress(cv, msg, keyed ? keyed_tail : msg + 16);
    if (!abi_store_words(m, out, cv, 8))
        return bad(m, call, out, "the output is not writable");
    return ECALL_CONTINUE;
}

static enum ecall_result jolt_inline(struct machine *m, uint32_t w, const char **call)
{
    unsigned funct3 = (w >> 12) & 7, funct7 = w >> 25;
    uint64_t rs1 = machine_get_reg(m, (w >> 15) & 31), rs2 = machine_get_reg(m, (w >> 20) & 31);
    if (funct7 == 0x00 && funct3 <= 1) {
        *call = funct3 ? "SHA256_INIT_INLINE" : "SHA256_INLINE";
        return jolt_sha256(m, rs1, rs2, funct3 == 1, *call);
    }
    if (funct7 == 0x01 && funct3 == 0) {
        *call = "KECCAK256_INLINE";
        if (rs1 % 8)
            return bad(m, *call, rs1, "the state is not doubleword-aligned");
        return abi_keccakf_in_place(m, "KECCAK256_INLINE", rs1);
    }
    if (funct7 == 0x02 && funct3 == 0) {
        *call = "BLAKE2_INLINE";
        return jolt_blake2(m, rs1, rs2, *call);
    }
    if (funct7 == 0x03 && funct3 <= 1) {
        *call = funct3 ? "BLAKE3_KEYED64_INLINE" : "BLAKE3_INLINE";
        return jolt_blake3(m, w, *call);
    }
    if (funct7 == 0x04 && funct3 == 0) {
        *call = "BIGINT256_MUL_INLINE";
        return jolt_bigint_mul(m, machine_get_reg(m, (w >> 7) & 31), rs1, rs2, *call);
    }
    if (jolt_field_family(funct7))
        return jolt_field_inline(m, w, call);
    return abi_fault(m, FAULT_UNSUPPORTED_ECALL, inline_family(funct7), w,
                     "only SHA256_INLINE, SHA256_INIT_INLINE, Keccak-f (KECCAK256_INLINE), "
                     "BLAKE2_INLINE, BLAKE3_INLINE, BLAKE3_KEYED64_INLINE, "
                     "BIGINT256_MUL_INLINE and the secp256k1, Grumpkin and P-256 inlines run here");
}

static enum ecall_result jolt_custom(struct machine *m, uint32_t w, const char **call)
{
    switch (w & 0x7f) {
    case 0x0b: return jolt_inline(m, w, call);
    case 0x5b: return jolt_virtual(m, w, call);
    default:
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, w,
                         "Jolt's own instructions are custom-0 (0x0B) and custom-2 (0x5B)");
    }
}

/* Output bytes land in memory; the highest one written sets the output's length. */
static bool jolt_mmio_store(struct machine *m, uint64_t addr, unsigned size, uint64_t value)
{
    struct jolt_state *st = m->abi_state;
    if (addr < st->io.output_start || addr + size > st->io.panic)
        return false; /* the panic and termination words stop the run: jolt_store_stops */
    memcpy(mem_host(&m->mem, addr), &value, size);
    if (addr + size - st->io.output_start > st->output_end)
        st->output_end = addr + size - st->io.output_start;
    return true;
}

/* The region's first address: that of the larger advice area. */
static uint64_t io_start(const struct jolt_layout *io)
{
    return io->trusted_advice_start < io->untrusted_advice_start ? io->trusted_advice_start
                                                                 : io->untrusted_advice_start;
}

/* The area of the layout that holds addr, for messages. */
static const char *io_area(const struct jolt_layout *io, uint64_t a)
{
    if (a >= io->input_start && a < io->input_end)
        return "in Jolt's input, which is read-only";
    if ((a >= io->trusted_advice_start && a < io->trusted_advice_end) ||
        (a >= io->untrusted_advice_start && a < io->untrusted_advice_end))
        return "in Jolt's advice, which is read-only";
    return "outside Jolt's I/O areas";
}

/*
 * A fault below RAM: most likely a guest built with other I/O sizes than the
 * layout used, reading its input or writing its output elsewhere.
 */
static void explain_io_fault(struct machine *m, struct jolt_state *st)
{
    char sizes[200];
    jolt_memory_format(&st->sizes, sizes, sizeof(sizes));
    snprintf(st->fault_why, sizeof(st->fault_why),
             "%s [0x%llx, 0x%llx) for the sizes %s (%s); a guest built with other "
             "#[jolt::provable] sizes needs them as --jolt-memory",
             io_area(&st->io, m->fault.addr), (unsigned long long)io_start(&st->io),
             (unsigned long long)st->io.io_end, sizes, st->sizes_from);
    m->fault.why = st->fault_why;
}

/*
 * A store to the termination word halts (exit 0) with the output written; to
 * the panic word, a panic. Other faults below RAM (loads too: the machine asks
 * after any fault) get explain_io_fault's reason.
 */
static bool jolt_store_stops(struct machine *m)
{
    struct jolt_state *st = m->abi_state;
    uint64_t a = m->fault.addr;
    enum fault_kind k = m->fault.kind;
    bool memory =
        k == FAULT_LOAD_UNMAPPED || k == FAULT_STORE_UNMAPPED || k == FAULT_STORE_READONLY;
    if (!memory || (a < JOLT_IO_FLOOR && a < io_start(&st->io)) || a >= JOLT_RAM_START)
        return false;
    if (k != FAULT_STORE_READONLY || a < st->io.panic || a >= st->io.io_end) {
        explain_io_fault(m, st);
        return false;
    }
    if (a < st->io.termination) {
        snprintf(st->fault_why, sizeof(st->fault_why),
                 "the guest stored to Jolt's panic word (0x%llx)%s",
                 (unsigned long long)st->io.panic,
                 m->io.ninputs ? ""
                               : "; it was given no input: a guest that takes arguments reads "
                                 "their postcard bytes, give them with --input FILE");
        m->fault.kind = FAULT_GUEST_PANIC;
        m->fault.call = "panic word";
        m->fault.why = st->fault_why;
        return false;
    }
    m->fault = (struct fault){0};
    m->exit_status = 0;
    if (!abi_write_fd(m->io.public_output_fd, mem_host(&m->mem, st->io.output_start),
                      st->output_end))
        warning_say(&m->io.warnings, "the host could not write the public output");
    return true;
}

/* The input region: the --input items one after another. */
static int jolt_write_input(struct machine *m, struct error *e)
{
    const struct jolt_state *st = m->abi_state;
    uint64_t at = st->io.input_start, end = at + st->sizes.max_input_size; /* as declared */
    for (size_t i = 0; i < m->io.ninputs; i++) {
        uint64_t len = m->io.inputs[i].size;
        if (len > end - at) {
            error_fail(e, ERROR_UNSUPPORTED,
                       "the input is larger than the guest's max_input_size (%llu bytes, %s)",
                       (unsigned long long)st->sizes.max_input_size, st->sizes_from);
            return -1;
        }
        mem_poke(&m->mem, at, m->io.inputs[i].data, len);
        at += len;
    }
    return 0;
}

/* The sizes the guest was built with, as far as we can know them, and their layout. */
static int choose_layout(struct jolt_state *st, const struct machine_io *io,
                         const struct elf_image *img, struct error *e)
{
    st->sizes = jolt_memory_default();
    st->sizes_from = "Jolt's defaults";
    if (io->jolt_memory) {
        st->sizes = *io->jolt_memory;
        st->sizes_from = "--jolt-memory";
    } else if (jolt_memory_from_symbols(img, &st->sizes)) {
        st->sizes_from = "the ELF's __jolt_max_*_size symbols";
    }
    struct error why = ERROR_INIT;
    if (jolt_layout_compute(&st->sizes, &st->io, &why) == 0)
        return 0;
    error_fail(e, why.status, "%s (the sizes from %s)", why.msg, st->sizes_from);
    return -1;
}

static int jolt_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    if (!abi_alloc_state(m, sizeof(struct jolt_state), e))
        return -1;
    struct jolt_state *st = m->abi_state;
    if (m->xlen != 64) {
        error_fail(e, ERROR_UNSUPPORTED, "Jolt guests are RV64 (ELFCLASS64), this one is RV32");
        return -1;
    }
    if (abi_check_inside(img, JOLT_RAM_START, JOLT_RAM_START + JOLT_RAM_SIZE, "Jolt's RAM", e) != 0)
        return -1;
    if (choose_layout(st, &m->io, img, e) != 0)
        return -1;
    mem_fix_code(&m->mem);
    /* The I/O region read-only, up to its end's page: stores to it reach jolt_mmio_store. */
    mem_grant(&m->mem, io_start(&st->io), st->io.io_end - io_start(&st->io), PAGE_R);
    mem_grant(&m->mem, JOLT_RAM_START, JOLT_RAM_SIZE, PAGE_R | PAGE_W);
    if (jolt_write_input(m, e) != 0)
        return -1;
    machine_map_segments(m, img, 0);
    code_cache_predecode(&m->code, img, m->xlen);
    return 0;
}

static void jolt_report(const struct machine *m, FILE *out)
{
    const struct jolt_state *st = m->abi_state;
    char sizes[200];
    jolt_memory_format(&st->sizes, sizes, sizeof(sizes));
    fprintf(out, "jolt-memory: %s (%s)\n", sizes, st->sizes_from);
    fprintf(out, "jolt-io: input 0x%llx output 0x%llx panic 0x%llx termination 0x%llx\n",
            (unsigned long long)st->io.input_start, (unsigned long long)st->io.output_start,
            (unsigned long long)st->io.panic, (unsigned long long)st->io.termination);
    fprintf(out, "jolt-output-bytes: %llu\n", (unsigned long long)st->output_end);
}

static void jolt_destroy(struct machine *m)
{
    struct jolt_state *st = m->abi_state;
    if (st)
        jolt_tape_free(&st->tape);
    abi_free_state(m);
}

const struct abi abi_jolt = {
    .name = "jolt",
    .aligned_access = true, /* tracer mmu.rs asserts: "Unaligned load_word" ... */
    .setup = jolt_setup,
    .ecall = jolt_ecall,
    .custom_insn = jolt_custom,
    .mmio_store = jolt_mmio_store,
    .store_stops = jolt_store_stops,
    .report = jolt_report,
    .destroy = jolt_destroy,
};
