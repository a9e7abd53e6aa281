/*
 * lambda: the ABI of lambda_vm guests (RV64IM), as its executor
 * (executor/src/vm, syscalls/) defines it. Docs: docs/ZKVMS.md.
 *
 * lambda_vm's memory is sparse and read-write at every address; this
 * executor holds the part of it that programs use: the low 4 GiB (the
 * program, its heap up to 0xC000_0000, the private input at 0xFF00_0000)
 * and the top 1020 MiB of the 64-bit space, where the stack grows down from
 * sp = 0xFFFF_FFFF_FFFF_FFF0. An access elsewhere faults. At entry every
 * other register is zero; the private input is its length as a u32, then
 * its bytes. An ecall's number is in a7, arguments in a0..a2, and no
 * register is written back:
 *   1 Print, 2 Panic (a0 = UTF-8 text, a1 = length)
 *   64 Commit (a0 = 1, a1 = bytes, a2 = length: the public output)
 *   93 Halt                       2^64-1 Sha256 compression (a0 state, a1 block)
 *   2^64-2 KeccakPermute on a0    2^64-3 DmaMemcpy (a0 dst, a1 src, a2 <= 256 bytes)
 *   2^64-11 Ecsm (a0 = xR, a1 = xG, a2 = k: xR = x of k (xG, its even y))
 *   2^64-12 EcsmAffine (a0 = xR yR, a1 = xG yG, a2 = k: k (xG, yG)), on secp256k1
 *           (not when the ELF names ecsm_lincomb2, which a branch numbers the same)
 *   2^64-31 Hint (a0 = kind, a1 = in, a2 = out: secp256k1 inverses, roots)
 * The run also ends, with exit code 0, when a jump lands on address 0.
 */
#define _GNU_SOURCE /* memmem */
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/machine.h"
#include "executor/precompile/curve.h"
#include "executor/precompile/keccak.h"
#include "executor/precompile/secp256k1_hint.h"
#include "executor/precompile/sha256.h"

enum {
    LAMBDA_PRINT = 1,
    LAMBDA_PANIC = 2,
    LAMBDA_COMMIT = 64,
    LAMBDA_HALT = 93,
    LAMBDA_INPUT_START = 0xFF000000,
    LAMBDA_COMMIT_MAX = 1 << 20, /* MAX_PUBLIC_OUTPUT_TOTAL_SIZE */
    LAMBDA_DMA_MAX = 256,        /* DMA_MEMCPY_MAX_BYTES */
};

#define LAMBDA_SHA256      UINT64_MAX
#define LAMBDA_KECCAK      (UINT64_MAX - 1)
#define LAMBDA_DMA_MEMCPY  (UINT64_MAX - 2)
#define LAMBDA_ECSM        (UINT64_MAX - 10)
#define LAMBDA_ECSM_AFFINE (UINT64_MAX - 11)
#define LAMBDA_HINT        (UINT64_MAX - 30)
#define LAMBDA_STACK_TOP   0xFFFFFFFFFFFFFFF0ull

struct lambda_state {
    uint64_t committed; /* bytes committed so far */
    bool lincomb2;      /* the ELF names ecsm_lincomb2: 2^64-12 is that call, not EcsmAffine */
    char panic[256];
};

/* True when s[0..len) is well-formed UTF-8 (lambda_vm's str::from_utf8). */
static bool is_utf8(const uint8_t *s, uint64_t len)
{
    for (uint64_t i = 0; i < len;) {
        uint8_t c = s[i];
        unsigned more = c < 0x80         ? 0
                        : (c >> 5) == 6  ? 1
                        : (c >> 4) == 14 ? 2
                        : (c >> 3) == 30 ? 3
                                         : 4;
        if (more == 4 || more > len - i - 1)
            return false;
        uint32_t cp = more ? c & (0x3F >> more) : c;
        for (unsigned k = 1; k <= more; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[more] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += more + 1;
    }
    return true;
}

static enum ecall_result lambda_text(struct machine *m, const char *call, bool panic)
{
    struct lambda_state *st = m->abi_state;
    uint64_t p = machine_get_reg(m, REG_A0), len = machine_get_reg(m, REG_A1);
    if (!mem_range_has(&m->mem, p, len, PAGE_R))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, p, "the text is not in memory");
    const uint8_t *text = mem_host(&m->mem, p);
    if (!is_utf8(text, len))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, p, "the text is not UTF-8");
    if (panic) {
        size_t n = len < sizeof(st->panic) - 1 ? len : sizeof(st->panic) - 1;
        memcpy(st->panic, text, n);
        st->panic[n] = '\0';
        if (m->io.ninputs == 0) /* a read of no private input ends in a panic */
            snprintf(st->panic + n, sizeof(st->panic) - n,
                     " (no input was given: if the guest reads some, give it with --input FILE)");
        return abi_fault(m, FAULT_GUEST_PANIC, call, 0, st->panic);
    }
    abi_write_fd(m->io.stdout_fd, text, len);
    abi_write_fd(m->io.stdout_fd, "\n", 1);
    return ECALL_CONTINUE;
}

static enum ecall_result lambda_commit(struct machine *m)
{
    struct lambda_state *st = m->abi_state;
    uint64_t fd = machine_get_reg(m, REG_A0), p = machine_get_reg(m, REG_A1),
             len = machine_get_reg(m, REG_A2);
    if (fd != 1)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Commit", fd, "the fd (a0) must be 1");
    if (len > LAMBDA_COMMIT_MAX - st->committed)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Commit", len,
                         "more than 1 MiB of public output in all");
    if (!mem_range_has(&m->mem, p, len, PAGE_R))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Commit", p, "the bytes are not in memory");
    if (!abi_write_fd(m->io.public_output_fd, mem_host(&m->mem, p), len))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Commit", fd, "the host could not write it");
    st->committed += len;
    return ECALL_CONTINUE;
}

static enum ecall_result lambda_keccak(struct machine *m)
{
    uint64_t p = machine_get_reg(m, REG_A0);
    uint64_t lanes[25];
    if (p % 8 || !abi_load(m, p, lanes, sizeof(lanes)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "KeccakPermute", p,
                         "the state is not 8-byte aligned in memory");
    keccak_f1600(lanes);
    abi_store(m, p, lanes, sizeof(lanes));
    return ECALL_CONTINUE;
}

/* SHA-256 compression: the state (8 big-endian words) at a0 takes the 64-byte block at a1. */
static enum ecall_result lambda_sha256(struct machine *m)
{
    uint64_t hp = machine_get_reg(m, REG_A0), bp = machine_get_reg(m, REG_A1);
    uint8_t state[32], block[64];
    uint32_t h[8];
    if (!abi_load(m, hp, state, sizeof(state)) || !mem_range_has(&m->mem, hp, 32, PAGE_W))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Sha256", hp, "the state is not in memory");
    if (!abi_load(m, bp, block, sizeof(block)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Sha256", bp, "the block is not in memory");
    for (int i = 0; i < 8; i++)
        h[i] = (uint32_t)state[4 * i] << 24 | (uint32_t)state[4 * i + 1] << 16 |
               (uint32_t)state[4 * i + 2] << 8 | state[4 * i + 3];
    sha256_block(h, block);
    for (int i = 0; i < 32; i++)
        state[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
    abi_store(m, hp, state, sizeof(state));
    return ECALL_CONTINUE;
}

/* True when [a, a+n) ends past the top of the 64-bit space (lambda_vm's checked_add). */
static bool wraps(uint64_t a, uint64_t n)
{
    return n > UINT64_MAX - a;
}

/* memmove of a2 <= 256 bytes from a1 to a0: the source is read whole before the writes. */
static enum ecall_result lambda_dma_memcpy(struct machine *m)
{
    uint64_t dst = machine_get_reg(m, REG_A0), src = machine_get_reg(m, REG_A1),
             n = machine_get_reg(m, REG_A2);
    uint8_t bytes[LAMBDA_DMA_MAX];
    if (n > LAMBDA_DMA_MAX)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "DmaMemcpy", n,
                         "more than 256 bytes in one call");
    if (wraps(src, n) || !abi_load(m, src, bytes, n))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "DmaMemcpy", src, "the source is not in memory");
    if (wraps(dst, n) || !abi_store(m, dst, bytes, n))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "DmaMemcpy", dst,
                         "the destination is not in memory");
    return ECALL_CONTINUE;
}

/*
 * An operand of n bytes at a that does not cross a 2^32 boundary, as
 * lambda_vm's addr_limb_ok wants of Hint and Ecsm operands (its proof
 * adds the offsets to the low 32 bits of the address only).
 */
static bool limb_ok(uint64_t a, uint64_t n)
{
    return (a & 0xFFFFFFFFull) + n - 1 < (1ull << 32);
}

static enum ecall_result lambda_hint(struct machine *m)
{
    uint64_t kind = machine_get_reg(m, REG_A0), in = machine_get_reg(m, REG_A1),
             out = machine_get_reg(m, REG_A2);
    uint8_t x[32], y[32];
    if (kind >= HINT_KINDS)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Hint", kind, "no hint has this kind (a0)");
    if (!limb_ok(in, 32) || !abi_load(m, in, x, sizeof(x)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Hint", in, "the input is not in memory");
    secp256k1_hint((enum secp256k1_hint)kind, x, y);
    if (!limb_ok(out, 32) || !abi_store(m, out, y, sizeof(y)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Hint", out, "the output is not in memory");
    return ECALL_CONTINUE;
}

/* True when [a, a + na) and [b, b + nb) share a byte, as whole numbers (no wrap at 2^64). */
static bool overlap(uint64_t a, uint64_t na, uint64_t b, uint64_t nb)
{
    return (b >= a && b - a < na) || (a > b && a - b < nb);
}

static bool is_zero(const uint32_t *w, size_t n)
{
    uint32_t any = 0;
    for (size_t i = 0; i < n; i++)
        any |= w[i];
    return any == 0;
}

/* pt = (x, y) from x in pt[0..8]: the even y, as lambda_vm's x-only Ecsm lifts xG. */
static bool lift_even(uint32_t pt[16])
{
    uint32_t yx[16];
    memcpy(yx + 8, pt, 32);
    if (!curve_decompress(CURVE_SECP256K1, yx, 0))
        return false;
    memcpy(pt + 8, yx, 32);
    return true;
}

/*
 * k times a point of secp256k1 (lambda_vm's crypto/ecsm), operands as
 * 32-byte little-endian numbers: the point at a1 (xG; xG then yG when
 * affine), k at a2, the result written to a0 (xR; xR then yR). The
 * x-only call takes the point of xG whose y is even. Faults as lambda_vm
 * errors: an operand across a 2^32 boundary, k overlapping the point, k
 * not in [1, n), a coordinate not below p, not a point of the curve.
 */
static enum ecall_result lambda_ecsm(struct machine *m, bool affine)
{
    const char *call = affine ? "EcsmAffine" : "Ecsm";
    uint64_t out = machine_get_reg(m, REG_A0), in = machine_get_reg(m, REG_A1),
             at_k = machine_get_reg(m, REG_A2), size = affine ? 64 : 32;
    uint32_t pt[16], k[8];
    const uint64_t operands[3] = {out, in, at_k}, sizes[3] = {size, size, 32};
    for (int i = 0; i < 3; i++)
        if (!limb_ok(operands[i], sizes[i]))
            return abi_fault(m, FAULT_ECALL_ARGUMENT, call, operands[i],
                             "an operand crosses a 2^32 address boundary");
    if (overlap(in, size, at_k, 32))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at_k, "the scalar overlaps the point");
    if (!abi_load_words(m, in, pt, size / 4))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, in, "the point is not in memory");
    if (!abi_load_words(m, at_k, k, 8))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at_k, "the scalar is not in memory");
    if (is_zero(k, 8))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at_k, "the scalar k is 0");
    if (!curve_scalar_in_range(CURVE_SECP256K1, k))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at_k,
                         "the scalar k is not below secp256k1's order n");
    if (!curve_reduced(CURVE_SECP256K1, pt) || (affine && !curve_reduced(CURVE_SECP256K1, pt + 8)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, in, "a coordinate is not below p");
    if (affine ? !curve_on_curve(CURVE_SECP256K1, pt) : !lift_even(pt))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, in, "the point is not on secp256k1");
    if (!curve_mul(CURVE_SECP256K1, pt, k)) /* never for 0 < k < n: the group's order is prime */
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at_k, "k times the point is infinity");
    if (!abi_store_words(m, out, pt, size / 4))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, out, "the result is not in memory");
    return ECALL_CONTINUE;
}

static enum ecall_result lambda_ecall(struct machine *m, const char **call)
{
    uint64_t nr = machine_get_reg(m, REG_A7);
    switch (nr) {
    case LAMBDA_PRINT: *call = "Print"; return lambda_text(m, *call, false);
    case LAMBDA_PANIC: *call = "Panic"; return lambda_text(m, *call, true);
    case LAMBDA_COMMIT: *call = "Commit"; return lambda_commit(m);
    case LAMBDA_HALT:
        *call = "Halt";
        /* lambda_vm's guests pass 0 in a0 (its prover checks it): another code is reported. */
        m->exit_status = (int)(machine_get_reg(m, REG_A0) & 0xff);
        return ECALL_EXIT;
    case LAMBDA_SHA256: *call = "Sha256"; return lambda_sha256(m);
    case LAMBDA_KECCAK: *call = "KeccakPermute"; return lambda_keccak(m);
    case LAMBDA_DMA_MEMCPY: *call = "DmaMemcpy"; return lambda_dma_memcpy(m);
    case LAMBDA_HINT: *call = "Hint"; return lambda_hint(m);
    case LAMBDA_ECSM: *call = "Ecsm"; return lambda_ecsm(m, false);
    case LAMBDA_ECSM_AFFINE:
        if (((struct lambda_state *)m->abi_state)->lincomb2)
            return abi_fault(m, FAULT_UNSUPPORTED_ECALL, "ecsm_lincomb2", nr,
                             "its branch of lambda_vm numbers it 2^64-12, as EcsmAffine");
        *call = "EcsmAffine";
        return lambda_ecsm(m, true);
    default:
        m->fault = (struct fault){.kind = FAULT_UNSUPPORTED_ECALL,
                                  .pc = m->pc,
                                  .addr = nr,
                                  .why = "no call has this number in a7"};
        return ECALL_FAULT;
    }
}

/* The --input files one after the other, as lambda_vm's private input: a u32 length, then them. */
static int lambda_write_input(struct machine *m, struct error *e)
{
    uint64_t total = 0, room = GUEST_SPACE_SIZE - LAMBDA_INPUT_START - 4;
    for (size_t i = 0; i < m->io.ninputs; i++)
        total += m->io.inputs[i].size;
    if (total > room) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "the input (%llu bytes) is larger than the %llu bytes from 0x%x to 4 GiB this "
                   "executor holds",
                   (unsigned long long)total, (unsigned long long)room, LAMBDA_INPUT_START + 4);
        return -1;
    }
    if (total == 0)
        return 0; /* lambda_vm writes nothing: the length reads 0 */
    uint32_t len = (uint32_t)total;
    uint64_t at = LAMBDA_INPUT_START;
    mem_poke(&m->mem, at, &len, sizeof(len));
    at += sizeof(len);
    for (size_t i = 0; i < m->io.ninputs; i++) {
        mem_poke(&m->mem, at, m->io.inputs[i].data, m->io.inputs[i].size);
        at += m->io.inputs[i].size;
    }
    return 0;
}

static int lambda_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    if (!abi_alloc_state(m, sizeof(struct lambda_state), e))
        return -1;
    if (m->xlen != 64) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "lambda_vm guests are RV64IM (ELFCLASS64), this one is RV32");
        return -1;
    }
    /* lambda_vm's feat/ec-lincomb2 branch gives EcsmAffine's number to its ecsm_lincomb2. */
    ((struct lambda_state *)m->abi_state)->lincomb2 =
        memmem(img->file, img->file_size, "ecsm_lincomb2", strlen("ecsm_lincomb2")) != NULL;
    if (lambda_write_input(m, e) != 0)
        return -1;
    /* The program after the input, as lambda_vm loads it. */
    abi_map_flat(m, img, 0, GUEST_SPACE_SIZE);
    mem_grant(&m->mem, 0 - GUEST_HIGH_SPAN, GUEST_HIGH_SPAN, PAGE_R | PAGE_W);
    machine_set_reg(m, REG_SP, LAMBDA_STACK_TOP);
    return 0;
}

const struct abi abi_lambda = {
    .name = "lambda",
    .setup = lambda_setup,
    .ecall = lambda_ecall,
    .destroy = abi_free_state,
    .halts_at_pc_zero = true,
};
