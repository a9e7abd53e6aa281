/*
 * jolt: the ABI of Jolt guests (RV64IMAC, the jolt-sdk crate), as Jolt's
 * tracer runs them, read from a16z/jolt @ 01f781858cd3ff3e04e3b4b801042494e1f9446a
 * (common/src/jolt_device.rs, common/src/constants.rs, jolt-sdk/src/print.rs,
 * jolt-sdk/src/cycle_tracking.rs, jolt-inlines/{sha2,keccak256}). Docs: docs/ZKVMS.md.
 *
 * Memory: RAM from 0x8000_0000 (128 MiB, EMULATOR_MEMORY_CAPACITY); below it
 * the I/O region of MemoryLayout::new with Jolt's default sizes (4 KiB each
 * of trusted and untrusted advice, input and output): advice
 * [0x7FFF_8000, 0x7FFF_A000) and input [0x7FFF_A000, 0x7FFF_B000) read-only
 * (the --input items, concatenated: the guest's postcard bytes), output
 * [0x7FFF_B000, 0x7FFF_C000), the panic word 0x7FFF_C000 and the
 * termination word 0x7FFF_C008. The guest halts by storing to the
 * termination word (then spins: the run ends at the store); a store to the
 * panic word is a panic. The output is the bytes up to the highest one
 * written, as JoltDevice keeps them.
 *
 * Calls: ecall (or a custom-2 0x5B word) with a0 = 0x505249 (0x5052494E
 * in jolt-sdk before jolt_platform) prints a1, a2 bytes (a3 = 2: a line),
 * with a0 = 0xC7C1E starts (a3 = 1) or ends (2) the cycle span labelled
 * a1, a2 bytes (earlier: a2 the kind, the label NUL-ended); an ended span prints
 * `"label": N RV64IMAC cycles` on stderr. Inlines are custom-0 0x0B
 * R-type words: funct7 0 SHA-256 compression of [rs1] (8 u32 state words)
 * by [rs2] (16 u32 message words), from the IV for funct3 1; funct7 1
 * funct3 0 Keccak-f[1600] of [rs1] (25 u64 lanes). Other inlines stop.
 */
#include <stdio.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/machine.h"
#include "executor/precompile/sha256.h"

#define JOLT_ADVICE_START 0x7FFF8000ull
#define JOLT_INPUT_START  0x7FFFA000ull
#define JOLT_OUTPUT_START 0x7FFFB000ull
#define JOLT_PANIC        0x7FFFC000ull
#define JOLT_TERMINATION  0x7FFFC008ull
#define JOLT_IO_END       0x7FFFC010ull
#define JOLT_RAM_START    0x80000000ull
#define JOLT_RAM_SIZE     (128ull << 20)
#define JOLT_PRINT        0x505249ull   /* "PRI": jolt_platform */
#define JOLT_PRINT_OLD    0x5052494Eull /* "PRIN": jolt-sdk before jolt_platform */
#define JOLT_CYCLE_TRACK  0xC7C1Eull    /* "CYCLE" */
#define JOLT_LABEL_MAX    64
#define JOLT_SPANS        32

/* A cycle span the guest started and has not ended. */
struct jolt_span {
    char label[JOLT_LABEL_MAX];
    uint64_t start; /* instructions retired at its start */
};

struct jolt_state {
    uint64_t output_end; /* one past the highest output byte written */
    struct jolt_span spans[JOLT_SPANS];
    size_t nspans;
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

static enum ecall_result jolt_ecall(struct machine *m, const char **call)
{
    return jolt_host_call(m, call);
}

/* SHA-256 compression of [rs1] by the 16 message words at [rs2]; from the IV when `init`. */
static enum ecall_result jolt_sha256(struct machine *m, uint64_t state, uint64_t input, bool init,
                                     const char *call)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    uint32_t h[8], w[16];
    uint8_t block[64];
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
    case 0x05: return "SECP256K1_INLINE";
    case 0x07: return "P256_INLINE";
    default: return "an inline";
    }
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
        return abi_keccakf_in_place(m, "KECCAK256_INLINE", rs1);
    }
    return abi_fault(m, FAULT_UNSUPPORTED_ECALL, inline_family(funct7), w,
                     "only SHA256_INLINE, SHA256_INIT_INLINE and Keccak-f (KECCAK256_INLINE, "
                     "funct3 0) run here");
}

static enum ecall_result jolt_custom(struct machine *m, uint32_t w, const char **call)
{
    switch (w & 0x7f) {
    case 0x0b: return jolt_inline(m, w, call);
    case 0x5b: return jolt_host_call(m, call);
    default:
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, w,
                         "Jolt's own instructions are custom-0 (0x0B) and custom-2 (0x5B)");
    }
}

/* Output bytes land in memory; the highest one written sets the output's length. */
static bool jolt_mmio_store(struct machine *m, uint64_t addr, unsigned size, uint64_t value)
{
    struct jolt_state *st = m->abi_state;
    if (addr < JOLT_OUTPUT_START || addr + size > JOLT_PANIC)
        return false; /* the panic and termination words stop the run: jolt_store_stops */
    memcpy(mem_host(&m->mem, addr), &value, size);
    if (addr + size - JOLT_OUTPUT_START > st->output_end)
        st->output_end = addr + size - JOLT_OUTPUT_START;
    return true;
}

/* A store to the termination word halts (exit 0) with the output written; to the panic word, a
 * panic. */
static bool jolt_store_stops(struct machine *m)
{
    const struct jolt_state *st = m->abi_state;
    uint64_t a = m->fault.addr;
    if (m->fault.kind != FAULT_STORE_READONLY || a < JOLT_PANIC || a >= JOLT_IO_END)
        return false;
    if (a < JOLT_TERMINATION) {
        m->fault.kind = FAULT_GUEST_PANIC;
        m->fault.call = "panic word";
        m->fault.why = "the guest stored to Jolt's panic word (0x7fffc000)";
        return false;
    }
    m->fault = (struct fault){0};
    m->exit_status = 0;
    if (!abi_write_fd(m->io.public_output_fd, mem_host(&m->mem, JOLT_OUTPUT_START), st->output_end))
        fprintf(m->io.warnings ? m->io.warnings : stderr,
                "warning: the host could not write the public output\n");
    return true;
}

/* The input region: the --input items one after another. */
static bool jolt_write_input(struct machine *m, struct error *e)
{
    uint64_t at = JOLT_INPUT_START;
    for (size_t i = 0; i < m->io.ninputs; i++) {
        uint64_t len = m->io.inputs[i].size;
        if (len > JOLT_OUTPUT_START - at) {
            error_fail(e, ERROR_UNSUPPORTED,
                       "the input is larger than Jolt's default max_input_size (4096 bytes)");
            return false;
        }
        mem_poke(&m->mem, at, m->io.inputs[i].data, len);
        at += len;
    }
    return true;
}

static bool jolt_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    if (!abi_alloc_state(m, sizeof(struct jolt_state), e))
        return false;
    if (m->xlen != 64) {
        error_fail(e, ERROR_UNSUPPORTED, "Jolt guests are RV64 (ELFCLASS64), this one is RV32");
        return false;
    }
    if (!abi_check_inside(img, JOLT_RAM_START, JOLT_RAM_START + JOLT_RAM_SIZE, "Jolt's RAM", e))
        return false;
    mem_fix_code(&m->mem);
    /* Advice, input, output and the two words read-only: stores to them reach jolt_mmio_store. */
    mem_grant(&m->mem, JOLT_ADVICE_START, JOLT_RAM_START - JOLT_ADVICE_START, PAGE_R);
    mem_grant(&m->mem, JOLT_RAM_START, JOLT_RAM_SIZE, PAGE_R | PAGE_W);
    if (!jolt_write_input(m, e))
        return false;
    machine_map_segments(m, img, 0);
    code_cache_predecode(&m->code, img, m->xlen);
    return true;
}

static void jolt_report(const struct machine *m, FILE *out)
{
    const struct jolt_state *st = m->abi_state;
    fprintf(out, "jolt-output-bytes: %llu\n", (unsigned long long)st->output_end);
}

const struct abi abi_jolt = {
    .name = "jolt",
    .setup = jolt_setup,
    .ecall = jolt_ecall,
    .custom_insn = jolt_custom,
    .mmio_store = jolt_mmio_store,
    .store_stops = jolt_store_stops,
    .report = jolt_report,
    .destroy = abi_free_state,
};
