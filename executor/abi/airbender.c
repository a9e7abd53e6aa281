/*
 * airbender: the ABI of ZKsync Airbender guests (RV32IM, the riscv_common
 * crate), as Airbender's RISC-V simulator runs them (matter-labs/
 * zksync-airbender risc_v_simulator/src: runner/mod.rs, sim.rs,
 * cycle/state.rs, delegations/). Docs: docs/ZKVMS.md.
 *
 * Memory is 1 GiB of flat read-write RAM from 0 (VectorMemoryImpl
 * new_for_byte_size(1 << 30)), the program's bytes (app.bin) at 0, the
 * entry, every register 0. The linker script puts the 64 MiB stack in the
 * executable segment's NOBITS tail, so that segment spans more than the
 * 64 MiB the code cache takes by default: this ABI takes up to 1 GiB
 * (abi->code_span_max). The run ends when an instruction leaves pc where
 * it was (sim.rs: `state.pc == previous_pc`): riscv_common's
 * zksync_os_finish_success loads the 8 (or 16) output words into x10..
 * (x25) and spins in `j .`, so a `jal` to itself halts with exit 0, x10
 * to x17 the public output. zksync_os_finish_error (rust_abort, the panic
 * handler) writes the `cycle` CSR, which Airbender's machine refuses: a
 * guest panic here.
 *
 * Only csrrw exists (SUPPORT_ONLY_CSRRW), and only these CSRs:
 *   0x7C0 the oracle: csrrw rd, 0x7c0, x0 reads its next word (the
 *         --input files' bytes as little-endian words; 0 when they run
 *         out, as QuasiUARTSource; a read in a run without --input stops,
 *         naming it); csrrw x0, 0x7c0, rs1 writes a word
 *         to QuasiUART (0xFFFF_FFFF, a word count, a byte length, the
 *         bytes), printed to stdout;
 *   0x7C7 blake2s round with extended control (x10 state, x11 block, x12
 *         the round bit, x13 control), 0x7CA u256 ops with control (x10
 *         a, x11 b, x12 the op bits; x12 = carry or equality out);
 *   0x7FF a marker, nothing.
 */
#include <gelf.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/machine.h"
#include "executor/precompile/bigint.h"
#include "executor/precompile/blake2b_round.h"

#define AB_RAM_END       0x40000000ull /* 1 GiB */
#define AB_CSR_ORACLE    0x7c0
#define AB_CSR_BLAKE2    0x7c7 /* NON_DETERMINISM_CSR + 7 */
#define AB_CSR_U256      0x7ca /* NON_DETERMINISM_CSR + 10 */
#define AB_CSR_MARKER    0x7ff
#define AB_CSR_CYCLE     0xc00
#define AB_UART_HELLO    0xffffffffu
#define AB_DELEGATION_LO (1u << 21) /* delegation operands lie above the 2 MiB ROM */

struct airbender_state {
    const struct machine_input *inputs;
    size_t ninputs, item, at; /* the oracle's place: input item, byte in it */
    /* QuasiUART: words still to come (-1: waiting for the count), bytes still to print */
    bool uart_open;
    int64_t uart_words, uart_bytes;
    uint32_t output[8];
    uint64_t oracle_reads, uart_writes, blake2_calls, u256_calls;
    char why[160];
};

/* The oracle's next word: 4 bytes of the inputs, in order; 0 when they are exhausted. */
static uint32_t oracle_next(struct airbender_state *st)
{
    uint8_t b[4] = {0};
    for (int i = 0; i < 4; i++) {
        while (st->item < st->ninputs && st->at >= st->inputs[st->item].size) {
            st->item++;
            st->at = 0;
        }
        if (st->item < st->ninputs)
            b[i] = st->inputs[st->item].data[st->at++];
    }
    st->oracle_reads++;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* A word written to the oracle: QuasiUARTSourceState::process_write. */
static void uart_write(struct machine *m, uint32_t v)
{
    struct airbender_state *st = m->abi_state;
    st->uart_writes++;
    if (!st->uart_open) {
        if (v == AB_UART_HELLO) {
            st->uart_open = true;
            st->uart_words = -1;
            st->uart_bytes = -1;
        }
        return;
    }
    if (st->uart_words < 0) {
        st->uart_words = v;
        return;
    }
    if (st->uart_bytes < 0) {
        st->uart_words--;
        st->uart_bytes = v;
        return;
    }
    if (st->uart_words > 0) {
        st->uart_words--;
        uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
        int64_t n = st->uart_bytes < 4 ? st->uart_bytes : 4;
        abi_write_fd(m->io.stdout_fd, b, (size_t)n);
        st->uart_bytes -= n;
    }
    if (st->uart_words == 0) {
        abi_write_fd(m->io.stdout_fd, "\n", 1);
        st->uart_open = false;
    }
}

static enum ecall_result ab_oracle(struct machine *m, unsigned rd, unsigned rs1)
{
    struct airbender_state *st = m->abi_state;
    /* a csrrw with rd = x0 only writes, one with rs1 = x0 only reads (state.rs) */
    if (rd != 0 && st->ninputs == 0) /* Airbender reads zeros; a clear stop serves better */
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "oracle_read", AB_CSR_ORACLE,
                         "the guest reads the oracle (CSR 0x7C0) and no input was given: give "
                         "its words with --input FILE");
    if (rd != 0)
        machine_set_reg(m, rd, oracle_next(st));
    if (rs1 != 0)
        uart_write(m, (uint32_t)machine_get_reg(m, rs1));
    return ECALL_CONTINUE;
}

static uint32_t rotr(uint32_t x, unsigned n)
{
    return x >> n | x << (32 - n);
}

static void g_mix(uint32_t v[16], int a, int b, int c, int d, uint32_t x, uint32_t y)
{
    v[a] += v[b] + x;
    v[d] = rotr(v[d] ^ v[a], 16);
    v[c] += v[d];
    v[b] = rotr(v[b] ^ v[c], 12);
    v[a] += v[b] + y;
    v[d] = rotr(v[d] ^ v[a], 8);
    v[c] += v[d];
    v[b] = rotr(v[b] ^ v[c], 7);
}

static const uint32_t blake2_iv[8] = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                                      0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};

/* blake2s_u32's mixing_function: one round, columns then diagonals. */
static void blake2_round(uint32_t v[16], const uint32_t msg[16], const uint8_t s[16])
{
    g_mix(v, 0, 4, 8, 12, msg[s[0]], msg[s[1]]);
    g_mix(v, 1, 5, 9, 13, msg[s[2]], msg[s[3]]);
    g_mix(v, 2, 6, 10, 14, msg[s[4]], msg[s[5]]);
    g_mix(v, 3, 7, 11, 15, msg[s[6]], msg[s[7]]);
    g_mix(v, 0, 5, 10, 15, msg[s[8]], msg[s[9]]);
    g_mix(v, 1, 6, 11, 12, msg[s[10]], msg[s[11]]);
    g_mix(v, 2, 7, 8, 13, msg[s[12]], msg[s[13]]);
    g_mix(v, 3, 4, 9, 14, msg[s[14]], msg[s[15]]);
}

static enum ecall_result ab_fault(struct machine *m, const char *call, uint64_t at, const char *why)
{
    return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at, why);
}

/*
 * The blake2s round delegation (blake2_round_function_with_compression_mode.rs):
 * x10 (128-aligned) holds the 8-word state then the 16-word extended
 * state, x11 the 16-word block; x12 is 1 << the round, x13 the control
 * bits: 1 last round, 2 the input is the right node, 4 compression mode.
 */
static void blake2_delegation(uint32_t st[24], const uint32_t in[16], unsigned round,
                              uint32_t control)
{
    uint32_t *state = st, *ext = st + 8, buffer[16], configured_iv[8];
    memcpy(configured_iv, blake2_iv, sizeof(configured_iv));
    configured_iv[0] ^= 0x01010000 ^ 32;
    bool compression = control & 4, last = control & 1, right = control & 2;
    const uint32_t *msg = in;
    if (compression) {
        if (round == 0) {
            for (int i = 0; i < 8; i++) {
                ext[i] = configured_iv[i];
                ext[i + 8] = blake2_iv[i];
            }
            ext[12] ^= 64;
            ext[14] ^= 0xffffffffu;
        }
        memcpy(buffer + (right ? 8 : 0), state, 32);
        memcpy(buffer + (right ? 0 : 8), in, 32);
        msg = buffer;
    } else if (round == 0) {
        for (int i = 0; i < 8; i++)
            ext[i] = state[i];
        ext[8] = blake2_iv[0];
        ext[9] = blake2_iv[1];
        ext[10] = blake2_iv[2];
        ext[11] = blake2_iv[3];
        ext[13] = blake2_iv[5];
        ext[15] = blake2_iv[7];
    }
    blake2_round(ext, msg, blake2_sigma[round]);
    if (last) {
        if (compression)
            memcpy(state, configured_iv, 32);
        for (int i = 0; i < 8; i++)
            state[i] ^= ext[i] ^ ext[i + 8];
    }
}

static enum ecall_result ab_blake2(struct machine *m)
{
    const char *call = "blake2s_round";
    uint32_t x10 = (uint32_t)machine_get_reg(m, 10), x11 = (uint32_t)machine_get_reg(m, 11),
             x12 = (uint32_t)machine_get_reg(m, 12), x13 = (uint32_t)machine_get_reg(m, 13);
    uint32_t st[24], in[16];
    if (x10 % 128 || x11 % 4 || x10 < AB_DELEGATION_LO || x11 < AB_DELEGATION_LO || x10 == x11)
        return ab_fault(m, call, x10,
                        "x10 must be 128-aligned, x11 4-aligned, both above 2 MiB and apart "
                        "(Airbender asserts)");
    if (!x12 || (x12 & (x12 - 1)) || __builtin_ctz(x12) >= 10)
        return ab_fault(m, call, x12, "x12 must be one bit, a round 0 to 9 (Airbender asserts)");
    if (!abi_load_words(m, x10, st, 24) || !abi_load_words(m, x11, in, 16))
        return ab_fault(m, call, x10, "the state or the block is not in memory");
    blake2_delegation(st, in, (unsigned)__builtin_ctz(x12), x13);
    ((struct airbender_state *)m->abi_state)->blake2_calls++;
    return abi_store_words(m, x10, st, 24) ? ECALL_CONTINUE
                                           : ab_fault(m, call, x10, "the state is not writable");
}

/*
 * The u256 delegation (u256_ops_with_control.rs): a at x10 = a op b, b at
 * x11 (both 32-aligned, above 2 MiB, apart); x12 one op bit (add 0, sub 1,
 * b - a 2, mul low 3, mul high 4, eq 5, memcopy 7) and the carry bit 6;
 * x12 = the carry, borrow, low product's overflow or equality out.
 */
static bool u256_op(uint32_t a[8], const uint32_t b[8], uint32_t ctl, bool *of)
{
    uint32_t r[16], c[8] = {(ctl >> 6) & 1};
    mpz_t x, y, z, t;
    mpz_inits(x, y, z, t, NULL);
    bigint_import(x, a, 8);
    bigint_import(y, b, 8);
    mpz_set_ui(t, (ctl >> 6) & 1);
    mpz_set_ui(z, 1);
    mpz_mul_2exp(z, z, 256); /* 2^256 */
    unsigned op = ctl & ~0x40u;
    bool ok = true;
    if (op == 1 << 0 || op == 1 << 7) { /* add; memcopy: b + carry */
        if (op == 1 << 7)
            mpz_set_ui(x, 0);
        mpz_add(x, x, y);
        mpz_add(x, x, t);
        *of = mpz_cmp(x, z) >= 0;
    } else if (op == 1 << 1 || op == 1 << 2) { /* a - b - borrow; b - a - borrow */
        if (op == 1 << 2)
            mpz_swap(x, y);
        mpz_sub(x, x, y);
        mpz_sub(x, x, t);
        *of = mpz_sgn(x) < 0;
    } else if (op == 1 << 3 || op == 1 << 4) {
        mpz_mul(x, x, y);
        *of = op == 1 << 3 && mpz_cmp(x, z) >= 0;
        if (op == 1 << 4)
            mpz_fdiv_q_2exp(x, x, 256);
    } else if (op == 1 << 5) {
        *of = mpz_cmp(x, y) == 0;
    } else {
        ok = false;
    }
    if (ok) {
        mpz_mod(x, x, z);
        bigint_export(r, 8, x);
        memcpy(a, r, 32);
    }
    (void)c;
    mpz_clears(x, y, z, t, NULL);
    return ok;
}

static enum ecall_result ab_u256(struct machine *m)
{
    const char *call = "u256_ops";
    uint32_t x10 = (uint32_t)machine_get_reg(m, 10), x11 = (uint32_t)machine_get_reg(m, 11),
             x12 = (uint32_t)machine_get_reg(m, 12), a[8], b[8];
    bool of = false;
    if (x10 % 32 || x11 % 32 || x10 < AB_DELEGATION_LO || x11 < AB_DELEGATION_LO || x10 == x11)
        return ab_fault(
            m, call, x10,
            "x10 and x11 must be 32-aligned, above 2 MiB and apart (Airbender asserts)");
    if (x12 >= 256 || __builtin_popcount(x12 & ~0x40u) != 1)
        return ab_fault(m, call, x12,
                        "x12 must hold one op bit and maybe the carry bit 6 (Airbender asserts)");
    if (!abi_load_words(m, x10, a, 8) || !abi_load_words(m, x11, b, 8))
        return ab_fault(m, call, x10, "an operand is not in memory");
    if (!u256_op(a, b, x12, &of))
        return ab_fault(m, call, x12, "unknown op (Airbender panics)");
    if (!abi_store_words(m, x10, a, 8))
        return ab_fault(m, call, x10, "a is not writable");
    machine_set_reg(m, 12, of);
    ((struct airbender_state *)m->abi_state)->u256_calls++;
    return ECALL_CONTINUE;
}

/* A csrrw (and the other CSR forms, which Airbender's machine refuses). */
static enum ecall_result ab_csr(struct machine *m, uint32_t w, const char **call)
{
    struct abi_insn f = abi_insn_fields(w);
    unsigned csr = w >> 20;
    if (csr == AB_CSR_CYCLE) {
        *call = "finish_error";
        m->fault = (struct fault){.kind = FAULT_GUEST_PANIC,
                                  .pc = m->pc,
                                  .call = *call,
                                  .why = "the guest wrote the cycle CSR: zksync_os_finish_error "
                                         "(rust_abort, a panic); Airbender's machine refuses it"};
        return ECALL_FAULT;
    }
    if (f.funct3 != 1)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, csr,
                         "Airbender's machine takes only csrrw (SUPPORT_ONLY_CSRRW)");
    if ((csr == AB_CSR_BLAKE2 || csr == AB_CSR_U256) && f.rs1 != 0)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, NULL, w,
                         "a delegation's rs1 must be x0 (Airbender asserts)");
    switch (csr) {
    case AB_CSR_ORACLE:
        *call = f.rd ? "oracle_read" : "uart_write";
        return ab_oracle(m, f.rd, f.rs1);
    case AB_CSR_BLAKE2: *call = "blake2s_round"; return ab_blake2(m);
    case AB_CSR_U256: *call = "u256_ops"; return ab_u256(m);
    case AB_CSR_MARKER: *call = "marker"; return ECALL_CONTINUE;
    default:
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, csr,
                         "Airbender's machine has no such CSR (only 0x7C0, 0x7C7, 0x7CA, 0x7FF)");
    }
}

static enum ecall_result ab_custom(struct machine *m, uint32_t w, const char **call)
{
    if ((w & 0x7f) == 0x73)
        return ab_csr(m, w, call);
    return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, w,
                     "Airbender has no custom instructions (IllegalInstruction)");
}

static bool self_jump(uint32_t w)
{
    return (w & 0xfffff07fu) == 0x6f; /* jal rd, 0 */
}

/*
 * The `jal` to itself that ends the run (decoded as an ecall by setup),
 * else a real ecall, which Airbender's machine does not take.
 */
static enum ecall_result ab_ecall(struct machine *m, const char **call)
{
    struct airbender_state *st = m->abi_state;
    uint32_t w = 0;
    abi_load(m, m->pc, &w, 4);
    if (!self_jump(w))
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, m->pc,
                         "Airbender's machine has no ecall (its calls are CSRs)");
    *call = "finish";
    for (int i = 0; i < 8; i++)
        st->output[i] = (uint32_t)machine_get_reg(m, 10 + i);
    m->exit_status = 0;
    if (!abi_write_fd(m->io.public_output_fd, st->output, sizeof(st->output)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, 0,
                         "the host could not write the public output");
    return ECALL_EXIT;
}

/* Every `jal rd, 0` of the program decodes as an ecall: the halt ab_ecall sees. */
static void mark_self_jumps(struct machine *m, const struct elf_image *img)
{
    struct insn halt = code_cache_decode(&m->code, 0x73, 32);
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if (!(s->rights & SEG_X))
            continue;
        for (uint64_t off = (4 - s->vaddr % 4) % 4; off + 4 <= s->filesz; off += 4) {
            uint32_t w;
            memcpy(&w, s->data + off, 4);
            if (self_jump(w))
                code_cache_fill(&m->code, s->vaddr + off, halt);
        }
    }
}

static int airbender_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    struct airbender_state *st = abi_alloc_state(m, sizeof(struct airbender_state), e);
    if (!st)
        return -1;
    if (m->xlen != 32) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "Airbender guests are RV32IM (ELFCLASS32), this one is RV64");
        return -1;
    }
    if (abi_check_inside(img, 0, AB_RAM_END, "Airbender's 1 GiB of RAM", e) != 0)
        return -1;
    if (abi_elf_without_code(img)) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "this is Airbender's app.elf without its code (dump_bin.sh writes it with "
                   "`objcopy -R .text`: symbols only); the program is app.bin: run app.bin "
                   "--zkvm airbender --symbols app.elf");
        return -1;
    }
    st->inputs = m->io.inputs;
    st->ninputs = m->io.ninputs;
    mem_fix_code(&m->mem);
    mem_grant(&m->mem, 0, AB_RAM_END, PAGE_R | PAGE_W);
    /* all of it RAM, the executable segment's stack too */
    machine_map_segments(m, img, PAGE_R | PAGE_W | PAGE_X);
    code_cache_predecode(&m->code, img, m->xlen);
    mark_self_jumps(m, img);
    for (int r = 0; r < 32; r++)
        machine_set_reg(m, r, 0);
    return 0;
}

static void airbender_report(const struct machine *m, FILE *out)
{
    const struct airbender_state *st = m->abi_state;
    fprintf(out, "airbender-output:");
    for (int i = 0; i < 8; i++)
        fprintf(out, " %08x", st->output[i]);
    fprintf(out, "\nairbender-oracle-reads: %llu\nairbender-uart-writes: %llu\n",
            (unsigned long long)st->oracle_reads, (unsigned long long)st->uart_writes);
    fprintf(out, "airbender-delegations: blake2s %llu, u256 %llu\n",
            (unsigned long long)st->blake2_calls, (unsigned long long)st->u256_calls);
}

const struct abi abi_airbender = {
    .name = "airbender",
    .setup = airbender_setup,
    .ecall = ab_ecall,
    .custom_insn = ab_custom,
    .custom_csr_lo = AB_CSR_ORACLE,
    .custom_csr_hi = AB_CSR_CYCLE + 1,
    .report = airbender_report,
    .destroy = abi_free_state,
    .without_c = true,
    /* mem_read / mem_write (risc_v_simulator abstractions/mod.rs) trap a misaligned access */
    .aligned_access = true,
    .code_span_max = AB_RAM_END,
};
