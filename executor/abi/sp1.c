/*
 * sp1: the ABI of SP1 guests (Succinct's zkVM), as its executor
 * (crates/core/executor) defines it. Docs: docs/ZKVMS.md.
 *
 * Memory is one flat read-write space (RV32: [0x1000, 0x7800_0000); the
 * executor's own bound is 32 bytes and 0x7800_0000 inclusive), the
 * program decoded once from the ELF, registers zero at entry (the guest's
 * _start sets sp to 0x0020_0400, or 0x7800_0000 on v6). An ecall takes
 * the call code in t0 and arguments in a0, a1 (a2), and leaves in t0 the
 * result, or the code itself for calls without one. Standard input is a
 * queue of items (one per --input file) read with HINT_LEN / HINT_READ;
 * the public values are what the guest writes to fd 13 (fd 3 before v4).
 * Lines "cycle-tracker-start: NAME" and "cycle-tracker-end: NAME" (and
 * the -report- forms) written to stdout are regions, not output. Writes
 * to the hook fds 15-21 push the host's answers (sp1_hooks.c) to stdin.
 * An unconstrained block (ENTER_UNCONSTRAINED to EXIT_UNCONSTRAINED)
 * runs on a memory snapshot and is then undone: registers and memory
 * return to the enter, which then returns 0; only stdin items and output
 * written meanwhile stay.
 */
#include <stdlib.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/abi/regions.h"
#include "executor/abi/sp1_curves.h"
#include "executor/abi/sp1_hooks.h"
#include "executor/abi/sp1_release.h"
#include "executor/abi/sp1_user.h"
#include "executor/abi/unconstrained.h"
#include "executor/machine.h"
#include "executor/precompile/bigint.h"
#include "executor/precompile/blake3.h"
#include "executor/precompile/curve.h"
#include "executor/precompile/keccak.h"
#include "executor/precompile/poseidon2_kb.h"
#include "executor/precompile/sha256.h"

/* The call codes (SyscallCode): byte 0 is the call's id. */
enum sp1_code {
    SP1_HALT = 0x00000000,
    SP1_WRITE = 0x00000002,
    SP1_ENTER_UNCONSTRAINED = 0x00000003,
    SP1_EXIT_UNCONSTRAINED = 0x00000004,
    SP1_SHA_EXTEND = 0x00300105,
    SP1_SHA_COMPRESS = 0x00010106,
    SP1_KECCAK_PERMUTE = 0x00010109,
    SP1_COMMIT = 0x00000010,
    SP1_COMMIT_DEFERRED_PROOFS = 0x0000001A,
    SP1_VERIFY_SP1_PROOF = 0x0000001B,
    SP1_UINT256_MUL = 0x0001011D,
    SP1_UINT256_MUL_TESTNET = 0x0000011D,   /* before v1.0 */
    SP1_BLAKE3_COMPRESS_INNER = 0x0038010D, /* before v1.0 */
    SP1_ED_ADD = 0x00010107,
    SP1_ED_DECOMPRESS = 0x00000108,
    SP1_U256XU2048_MUL = 0x0001012F,
    SP1_UINT256_ADD_CARRY = 0x00010130,
    SP1_UINT256_MUL_CARRY = 0x00010131,
    SP1_HINT_LEN = 0x000000F0,
    SP1_HINT_READ = 0x000000F1,
    SP1_MPROTECT = 0x00000132, /* this and the ones below: v6 only */
    SP1_POSEIDON2 = 0x00000133,
    SP1_SIG_RETURN = 0x00000134, /* v6.2 on, as the two below */
    SP1_HINT_MPROTECT_FLUSH = 0x00000035,
};

/* Every code SP1 defines, with its name: known calls we do not run fault by name. */
static const struct sp1_call {
    uint32_t code;
    const char *name;
} sp1_calls[] = {
    {0x00000000, "HALT"},
    {0x00000002, "WRITE"},
    {0x00000003, "ENTER_UNCONSTRAINED"},
    {0x00000004, "EXIT_UNCONSTRAINED"},
    {0x00300105, "SHA_EXTEND"},
    {0x00010106, "SHA_COMPRESS"},
    {0x00010107, "ED_ADD"},
    {0x00000108, "ED_DECOMPRESS"},
    {0x00010109, "KECCAK_PERMUTE"},
    {0x0001010A, "SECP256K1_ADD"},
    {0x0000010B, "SECP256K1_DOUBLE"},
    {0x0000010C, "SECP256K1_DECOMPRESS"},
    {0x0001010E, "BN254_ADD"},
    {0x0000010F, "BN254_DOUBLE"},
    {0x00000010, "COMMIT"},
    {0x0000001A, "COMMIT_DEFERRED_PROOFS"},
    {0x0000001B, "VERIFY_SP1_PROOF"},
    {0x0000011C, "BLS12381_DECOMPRESS"},
    {0x0001011D, "UINT256_MUL"},
    {0x0001011E, "BLS12381_ADD"},
    {0x0000011F, "BLS12381_DOUBLE"},
    {0x00010120, "BLS12381_FP_ADD"},
    {0x00010121, "BLS12381_FP_SUB"},
    {0x00010122, "BLS12381_FP_MUL"},
    {0x00010123, "BLS12381_FP2_ADD"},
    {0x00010124, "BLS12381_FP2_SUB"},
    {0x00010125, "BLS12381_FP2_MUL"},
    {0x00010126, "BN254_FP_ADD"},
    {0x00010127, "BN254_FP_SUB"},
    {0x00010128, "BN254_FP_MUL"},
    {0x00010129, "BN254_FP2_ADD"},
    {0x0001012A, "BN254_FP2_SUB"},
    {0x0001012B, "BN254_FP2_MUL"},
    {0x0001012C, "SECP256R1_ADD"},
    {0x0000012D, "SECP256R1_DOUBLE"},
    {0x0000012E, "SECP256R1_DECOMPRESS"},
    {0x0001012F, "U256XU2048_MUL"},
    {0x00010130, "UINT256_ADD_CARRY"},
    {0x00010131, "UINT256_MUL_CARRY"},
    {0x00000132, "MPROTECT"},
    {0x00000133, "POSEIDON2"},
    {0x00000134, "SIG_RETURN"},
    {0x00000035, "HINT_MPROTECT_FLUSH"},
    {0x00000040, "DUMP_ELF"},
    {0x00000041, "INSERT_PROFILER_SYMBOLS"},
    {0x00000042, "DELETE_PROFILER_SYMBOLS"},
    {0x000000F0, "HINT_LEN"},
    {0x000000F1, "HINT_READ"},
    /* SP1's testnet before v1.0 (core/src/runtime/syscall.rs, v1.0.5-testnet and 3d4e42b7) */
    {0x0038010D, "BLAKE3_COMPRESS_INNER"},
    {0x0000011D, "UINT256_MUL"},
    {0x00010111, "SECP256R1_ADD"},
    {0x00000114, "SECP256R1_DOUBLE"},
    {0x00000115, "SECP256R1_DECOMPRESS"},
};

enum {
    SP1_FD_PUBLIC_VALUES = 13,
    SP1_FD_HINT = 14,
    SP1_FD_PUBLIC_VALUES_V3 = 3, /* before v4 */
    SP1_FD_HINT_V3 = 4,
    SP1_STACK_TOP_RV32 = 0x00200400,
    SP1_MEMORY_END_RV32 = 0x78000000, /* BabyBear's prime: the executor's last word */
};
#define SP1_MEMORY_END_RV64 (1ull << 40) /* v6: MAX_JIT_LOG_ADDR */

/* One stdin item; the queue's front is its last element. */
struct sp1_item {
    uint8_t *data; /* owned copy */
    size_t size;
};

struct sp1_state {
    struct sp1_item *items;
    size_t nitems, cap;
    uint32_t committed_digest[8]; /* COMMIT */
    bool committed;
    struct regions regions; /* cycle trackers */
    /* an unconstrained block: the registers and clock at its enter */
    struct unconstrained block;
    uint64_t proofs_verified; /* VERIFY_SP1_PROOF calls accepted unverified */
    struct sp1_user user;     /* v6: the address space, user mode (sp1_user.h) */
    bool warned_fd;
    struct sp1_release release; /* what each call means follows it */
};

static const char *call_name(uint32_t code)
{
    for (size_t i = 0; i < sizeof(sp1_calls) / sizeof(sp1_calls[0]); i++)
        if (sp1_calls[i].code == code)
            return sp1_calls[i].name;
    return NULL;
}

/* Puts a copy of data at the front of the stdin queue. */
static bool push_front(struct sp1_state *st, const uint8_t *data, size_t size)
{
    if (st->nitems == st->cap) {
        size_t cap = st->cap ? 2 * st->cap : 8;
        struct sp1_item *items = realloc(st->items, cap * sizeof(*items));
        if (!items)
            return false;
        st->items = items;
        st->cap = cap;
    }
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return false;
    if (size)
        memcpy(copy, data, size);
    st->items[st->nitems++] = (struct sp1_item){.data = copy, .size = size};
    return true;
}

/* ---- the calls ---- */

/*
 * The rights a call's memory needs here: `rights`, but none in user mode,
 * where SP1 reads and writes without them once its own checks passed
 * (sp1_user_precompile_allowed; WRITE and HINT_READ check none).
 */
static unsigned unchecked(const struct sp1_state *st, unsigned rights)
{
    return st->user.on ? 0 : rights;
}

static uint64_t all_ones(const struct machine *m)
{
    return m->xlen == 32 ? UINT32_MAX : UINT64_MAX;
}

/*
 * A write to stdout that is a cycle-tracker command (the whole write is
 * "COMMAND: NAME", as SP1 splits it at the first ':') becomes a region
 * mark; true when it was one.
 */
static bool cycle_tracker_command(struct sp1_state *st, const char *text, size_t len,
                                  uint64_t clock)
{
    const char *colon = memchr(text, ':', len);
    if (!colon)
        return false;
    size_t clen = (size_t)(colon - text);
    static const struct {
        const char *command;
        bool start;
    } commands[] = {
        {"cycle-tracker-start", true},
        {"cycle-tracker-end", false},
        {"cycle-tracker-report-start", true},
        {"cycle-tracker-report-end", false},
    };
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (strlen(commands[i].command) != clen || memcmp(text, commands[i].command, clen) != 0)
            continue;
        const char *name = colon + 1, *end = text + len;
        while (name < end && (*name == ' ' || *name == '\t' || *name == '\n' || *name == '\r'))
            name++;
        while (end > name &&
               (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
            end--;
        if (commands[i].start)
            regions_start(&st->regions, name, (size_t)(end - name), clock);
        else
            regions_end(&st->regions, name, (size_t)(end - name), clock);
        return true;
    }
    return false;
}

/* A write to a hook fd: the host's answers go to the front of stdin, the first read first. */
static enum ecall_result sp1_run_hook(struct machine *m, struct sp1_state *st, uint64_t fd,
                                      const uint8_t *bytes, uint64_t len)
{
    static struct sp1_hook_answer answer; /* 1.5 KiB: kept off the stack */
    const char *why = sp1_hook_run(fd, bytes, len, &answer);
    if (why)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "WRITE", fd, why);
    for (size_t i = answer.count; i-- > 0;)
        if (!push_front(st, answer.item[i], answer.size[i]))
            return abi_fault(m, FAULT_HOST_MEMORY, "WRITE", fd, "out of memory for a hint");
    return ECALL_CONTINUE;
}

static enum ecall_result sp1_write(struct machine *m, struct sp1_state *st)
{
    uint64_t fd = machine_get_reg(m, REG_A0), buf = machine_get_reg(m, REG_A1),
             len = machine_get_reg(m, REG_A2);
    if (!mem_range_has(&m->mem, buf, len, unchecked(st, PAGE_R)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "WRITE", buf, "the buffer is not in memory");
    const uint8_t *bytes = m->mem.base + buf;
    bool ok = true;
    int release = st->release.major; /* 0: v1 to v5, fds of both ranges taken */
    bool old_fds = release <= 3, new_fds = release == 0 || release >= 4;
    if (fd == 1) {
        if (!cycle_tracker_command(st, (const char *)bytes, len, m->ecall_clock))
            ok = abi_write_fd(m->io.stdout_fd, bytes, len);
    } else if (fd == 2) {
        ok = abi_write_fd(m->io.stderr_fd, bytes, len);
    } else if ((fd == SP1_FD_PUBLIC_VALUES && new_fds) ||
               (fd == SP1_FD_PUBLIC_VALUES_V3 && old_fds)) {
        ok = abi_write_fd(m->io.public_output_fd, bytes, len);
    } else if ((fd == SP1_FD_HINT && new_fds) || (fd == SP1_FD_HINT_V3 && old_fds)) {
        if (!push_front(st, bytes, len))
            return abi_fault(m, FAULT_ECALL_ARGUMENT, "WRITE", fd, "out of memory for a hint");
    } else if (new_fds && sp1_hook_name(fd)) {
        return sp1_run_hook(m, st, fd, bytes, len);
    } else if (old_fds && (fd == 5 || (release != 1 && release != 2 && (fd == 7 || fd == 8)))) {
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, "WRITE", fd,
                         "a hook of SP1 v1 to v3 (fd 5 ecrecover; v3 also 7 ecrecover v2, 8 "
                         "ed25519 decompress), not run here");
    } else if ((release == 4 || release == 5) && fd <= 10) {
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "WRITE", fd,
                         "SP1 v4 and v5 panic on a reserved file descriptor (3 to 10)");
    } else {
        if (!st->warned_fd)
            warning_say(&m->io.warnings, "sp1: writes to fd %llu are ignored, as SP1 ignores them",
                        (unsigned long long)fd);
        st->warned_fd = true;
    }
    if (!ok)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "WRITE", fd, "the host could not write it");
    return ECALL_CONTINUE;
}

/*
 * HINT_READ: the next item into the buffer, which must be word aligned,
 * in whole words zero-padded: v4 pads to 4 bytes; v6 (RV64) writes len / 8
 * whole words and then one more with the rest, even when that is empty.
 */
static enum ecall_result sp1_hint_read(struct machine *m, struct sp1_state *st)
{
    uint64_t ptr = machine_get_reg(m, REG_A0), len = machine_get_reg(m, REG_A1);
    unsigned word = (unsigned)m->xlen / 8;
    if (st->nitems == 0)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HINT_READ", 0,
                         "the input is exhausted: give one --input FILE per item the guest reads");
    struct sp1_item *it = &st->items[st->nitems - 1];
    if (it->size != len)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HINT_READ", len,
                         "the length asked for is not the next item's");
    if (ptr % word)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HINT_READ", ptr, "the buffer is misaligned");
    uint64_t written = word == 4 ? (len + 3) & ~(uint64_t)3 : (len / 8 + 1) * 8;
    if (!mem_range_has(&m->mem, ptr, written, unchecked(st, PAGE_W)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HINT_READ", ptr, "the buffer is not in memory");
    static const uint8_t zeros[8];
    if (st->user.on) { /* no rights checked, and no block to undo: HINT_READ is refused in one */
        mem_poke(&m->mem, ptr, it->data, len);
        mem_poke(&m->mem, ptr + len, zeros, written - len);
    } else {
        abi_store(m, ptr, it->data, len);
        abi_store(m, ptr + len, zeros, written - len);
    }
    free(it->data);
    st->nitems--;
    return ECALL_CONTINUE;
}

/*
 * A precompile's operand: n 32-bit values, each in a slot of the guest's
 * word (4 bytes; 8 on v6, whose SHA-256 words are the low halves of u64
 * slots), aligned to that word, in readable and writable memory.
 */
static enum ecall_result sp1_load(struct machine *m, const char *call, uint64_t addr, unsigned slot,
                                  uint32_t *w, size_t n)
{
    unsigned align = (unsigned)m->xlen / 8;
    const struct sp1_state *st = m->abi_state;
    if (addr % align ||
        !mem_range_has(&m->mem, addr, (uint64_t)slot * n, unchecked(st, PAGE_R | PAGE_W)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, addr,
                         "the argument is not aligned words in memory");
    for (size_t i = 0; i < n; i++)
        memcpy(&w[i], m->mem.base + addr + slot * i, 4);
    return ECALL_CONTINUE;
}

/* Stores n values into their slots (a u64 slot's high half becomes zero). */
static void sp1_store(struct machine *m, uint64_t addr, unsigned slot, const uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t v = w[i];
        abi_store(m, addr + slot * i, &v, slot);
    }
}

/* The slot of a SHA-256 word: 4 bytes, 8 on v6. */
static unsigned sha_slot(const struct machine *m)
{
    return (unsigned)m->xlen / 8;
}

static enum ecall_result sp1_sha_extend(struct machine *m)
{
    uint64_t wp = machine_get_reg(m, REG_A0);
    uint32_t w[64];
    if (sp1_load(m, "SHA_EXTEND", wp, sha_slot(m), w, 64) != ECALL_CONTINUE)
        return ECALL_FAULT;
    sha256_extend(w);
    sp1_store(m, wp + 16 * sha_slot(m), sha_slot(m), w + 16, 48);
    return ECALL_CONTINUE;
}

static enum ecall_result sp1_sha_compress(struct machine *m)
{
    uint64_t wp = machine_get_reg(m, REG_A0), hp = machine_get_reg(m, REG_A1);
    uint32_t w[64], h[8];
    if (sp1_load(m, "SHA_COMPRESS", wp, sha_slot(m), w, 64) != ECALL_CONTINUE ||
        sp1_load(m, "SHA_COMPRESS", hp, sha_slot(m), h, 8) != ECALL_CONTINUE)
        return ECALL_FAULT;
    sha256_compress(h, w);
    sp1_store(m, hp, sha_slot(m), h, 8);
    return ECALL_CONTINUE;
}

/* The state: 25 little-endian lanes, 50 words low word first, the same bytes on v6. */
static enum ecall_result sp1_keccak(struct machine *m)
{
    uint64_t p = machine_get_reg(m, REG_A0);
    uint32_t w[50];
    if (sp1_load(m, "KECCAK_PERMUTE", p, 4, w, 50) != ECALL_CONTINUE)
        return ECALL_FAULT;
    uint64_t lanes[25];
    memcpy(lanes, w, sizeof(lanes));
    keccak_f1600(lanes);
    memcpy(w, lanes, sizeof(lanes));
    sp1_store(m, p, 4, w, 50);
    return ECALL_CONTINUE;
}

/* x = x * y mod m, with y and the modulus m one after the other at a1 (m = 0: mod 2^256). */
static enum ecall_result sp1_uint256_mul(struct machine *m)
{
    uint64_t xp = machine_get_reg(m, REG_A0), yp = machine_get_reg(m, REG_A1);
    uint32_t x[8], ym[16];
    if (sp1_load(m, "UINT256_MUL", xp, 4, x, 8) != ECALL_CONTINUE ||
        sp1_load(m, "UINT256_MUL", yp, 4, ym, 16) != ECALL_CONTINUE)
        return ECALL_FAULT;
    bigint_mulmod_256(x, x, ym, ym + 8);
    sp1_store(m, xp, 4, x, 8);
    return ECALL_CONTINUE;
}

/*
 * BLAKE3_COMPRESS_INNER, SP1's testnet before v1.0: the 16-word state at a0
 * through BLAKE3's seven rounds with the 16-word message at a1
 * (core/src/syscall/precompiles/blake3/compress/execute.rs, v1.0.5-testnet).
 */
static enum ecall_result sp1_blake3(struct machine *m)
{
    static const char name[] = "BLAKE3_COMPRESS_INNER";
    uint64_t sp = machine_get_reg(m, REG_A0), mp = machine_get_reg(m, REG_A1);
    uint32_t state[16], msg[16];
    if (sp1_load(m, name, sp, 4, state, 16) != ECALL_CONTINUE ||
        sp1_load(m, name, mp, 4, msg, 16) != ECALL_CONTINUE)
        return ECALL_FAULT;
    blake3_compress_inner(state, msg);
    sp1_store(m, sp, 4, state, 16);
    return ECALL_CONTINUE;
}

/* The curve and field precompiles: which curve, and what they do. */
enum curve_call_kind { CURVE_ADD, CURVE_DOUBLE, CURVE_FP, CURVE_FP2 };

static const struct curve_call {
    uint32_t code;
    enum curve_id curve;
    enum curve_call_kind kind;
    enum field_op op;
} curve_calls[] = {
    {0x0001010A, CURVE_SECP256K1, CURVE_ADD, FIELD_ADD},
    {0x0000010B, CURVE_SECP256K1, CURVE_DOUBLE, FIELD_ADD},
    {0x0001010E, CURVE_BN254, CURVE_ADD, FIELD_ADD},
    {0x0000010F, CURVE_BN254, CURVE_DOUBLE, FIELD_ADD},
    {0x0001011E, CURVE_BLS12_381, CURVE_ADD, FIELD_ADD},
    {0x0000011F, CURVE_BLS12_381, CURVE_DOUBLE, FIELD_ADD},
    {0x0001012C, CURVE_SECP256R1, CURVE_ADD, FIELD_ADD},
    {0x0000012D, CURVE_SECP256R1, CURVE_DOUBLE, FIELD_ADD},
    {0x00010111, CURVE_SECP256R1, CURVE_ADD, FIELD_ADD}, /* testnet */
    {0x00000114, CURVE_SECP256R1, CURVE_DOUBLE, FIELD_ADD},
    {0x00010120, CURVE_BLS12_381, CURVE_FP, FIELD_ADD},
    {0x00010121, CURVE_BLS12_381, CURVE_FP, FIELD_SUB},
    {0x00010122, CURVE_BLS12_381, CURVE_FP, FIELD_MUL},
    {0x00010123, CURVE_BLS12_381, CURVE_FP2, FIELD_ADD},
    {0x00010124, CURVE_BLS12_381, CURVE_FP2, FIELD_SUB},
    {0x00010125, CURVE_BLS12_381, CURVE_FP2, FIELD_MUL},
    {0x00010126, CURVE_BN254, CURVE_FP, FIELD_ADD},
    {0x00010127, CURVE_BN254, CURVE_FP, FIELD_SUB},
    {0x00010128, CURVE_BN254, CURVE_FP, FIELD_MUL},
    {0x00010129, CURVE_BN254, CURVE_FP2, FIELD_ADD},
    {0x0001012A, CURVE_BN254, CURVE_FP2, FIELD_SUB},
    {0x0001012B, CURVE_BN254, CURVE_FP2, FIELD_MUL},
};

static const struct curve_call *find_curve_call(uint64_t code)
{
    for (size_t i = 0; i < sizeof(curve_calls) / sizeof(curve_calls[0]); i++)
        if (curve_calls[i].code == code)
            return &curve_calls[i];
    return NULL;
}

/*
 * A point (x then y) or field element(s) at a0, updated in place with the
 * one at a1: add, double (a0 only), or a field operation.
 */
static enum ecall_result sp1_curve(struct machine *m, const struct curve_call *cc, const char *name)
{
    uint64_t ap = machine_get_reg(m, REG_A0), bp = machine_get_reg(m, REG_A1);
    size_t n = curve_limbs(cc->curve) * (cc->kind == CURVE_FP ? 1 : 2);
    uint32_t a[24], b[24];
    if (sp1_load(m, name, ap, 4, a, n) != ECALL_CONTINUE)
        return ECALL_FAULT;
    if (cc->kind != CURVE_DOUBLE && sp1_load(m, name, bp, 4, b, n) != ECALL_CONTINUE)
        return ECALL_FAULT;
    const struct sp1_state *st = m->abi_state;
    bool k256 = st->release.major == 6 && cc->curve == CURVE_SECP256K1; /* v6 routes it to k256 */
    const char *why = NULL;
    switch (cc->kind) {
    case CURVE_ADD: why = k256 ? sp1_k256_add(a, b) : sp1_sw_add(cc->curve, a, b); break;
    case CURVE_DOUBLE: why = k256 ? sp1_k256_double(a) : sp1_sw_double(cc->curve, a); break;
    case CURVE_FP: curve_field(cc->curve, cc->op, a, b); break; /* fp.rs reduces both first */
    case CURVE_FP2:
        why = sp1_fp2(cc->curve, cc->op, a, b, st->release.major >= 1 && st->release.major <= 3);
        break;
    }
    if (why)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, ap, why);
    sp1_store(m, ap, 4, a, n);
    return ECALL_CONTINUE;
}

/* ---- deferred proofs ---- */

/*
 * VERIFY_SP1_PROOF (a0: the vkey digest, a1: the public values digest):
 * SP1 takes the next proof of its stdin and verifies it, or returns at
 * once when deferred proof verification is off. A STARK cannot be checked
 * here, so the call is accepted only with that option, as SP1 then does.
 */
static enum ecall_result sp1_verify_proof(struct machine *m, struct sp1_state *st)
{
    if (!m->io.skip_deferred_proof_verification)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, "VERIFY_SP1_PROOF", SP1_VERIFY_SP1_PROOF,
                         "zkprof cannot verify an SP1 proof; run with "
                         "--no-deferred-proof-verification to accept it unverified, as SP1 does "
                         "with deferred proof verification off");
    st->proofs_verified++;
    return ECALL_CONTINUE;
}

/*
 * At HALT: a guest that verified more proofs than --stdin carried, or
 * fewer, would fail with verification on (SP1: "Not enough proofs were
 * written to the runtime", or warns "Not all proofs were read").
 */
static void warn_proof_count(const struct machine *m, const struct sp1_state *st)
{
    uint64_t given = m->io.deferred_proofs;
    if (!m->io.skip_deferred_proof_verification || st->proofs_verified == given)
        return;
    warning_say(&m->io.warnings,
                "sp1: the guest called VERIFY_SP1_PROOF %llu times but --stdin carried %llu "
                "proofs: %s",
                (unsigned long long)st->proofs_verified, (unsigned long long)given,
                st->proofs_verified > given
                    ? "with verification on, SP1 stops (\"Not enough proofs were written to the "
                      "runtime\")"
                    : "not all proofs were read (SP1 warns: proving will fail during recursion)");
}

/* ---- v6: page rights, Poseidon2 ---- */

/*
 * MPROTECT: v6.0 and v6.1 return at once (their executor has no page
 * rights); v6.2 on checks it and changes a page in user mode (sp1_user.c).
 */
static enum ecall_result sp1_mprotect(struct machine *m, struct sp1_state *st)
{
    const char *since;
    if (!sp1_release_has(&st->release, SP1_SIG_RETURN, &since))
        return ECALL_CONTINUE;
    return sp1_user_mprotect(m, &st->user);
}

/* POSEIDON2 (a0: 16 KoalaBear elements, two to a u64, 8-byte aligned; a1 = 0): permuted. */
static enum ecall_result sp1_poseidon2(struct machine *m)
{
    static const char name[] = "POSEIDON2";
    uint64_t p = machine_get_reg(m, REG_A0);
    uint32_t cells[POSEIDON2_KB_CELLS];
    if (machine_get_reg(m, REG_A1) != 0)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, machine_get_reg(m, REG_A1),
                         "a1 must be 0 (SP1 asserts it)");
    if (sp1_load(m, name, p, 4, cells, POSEIDON2_KB_CELLS) != ECALL_CONTINUE)
        return ECALL_FAULT;
    if (!poseidon2_kb_sp1_permute(cells))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, p,
                         "an element is not below KoalaBear's p = 0x7f000001 (SP1 takes "
                         "canonical elements)");
    sp1_store(m, p, 4, cells, POSEIDON2_KB_CELLS);
    return ECALL_CONTINUE;
}

/* ---- more precompiles ---- */

/* The v6 (RV64) executor panics on these: "This method should be deprecated." */
static bool removed_in_v6(uint64_t code)
{
    return code == SP1_U256XU2048_MUL || code == 0x0000010C || code == 0x0000011C ||
           code == 0x0000012E; /* the three Weierstrass decompressions */
}

static enum ecall_result sp1_ed(struct machine *m, uint64_t code, const char *name)
{
    uint64_t pp = machine_get_reg(m, REG_A0), a1 = machine_get_reg(m, REG_A1);
    uint32_t p[16], q[16];
    if (sp1_load(m, name, pp, 4, p, 16) != ECALL_CONTINUE)
        return ECALL_FAULT;
    const struct sp1_state *st = m->abi_state;
    if (code == SP1_ED_ADD) {
        if (sp1_load(m, name, a1, 4, q, 16) != ECALL_CONTINUE)
            return ECALL_FAULT;
        sp1_ed_add(p, q);
    } else {
        const char *why = sp1_ed_decompress(p, a1 > 1 ? 2 : (unsigned)a1,
                                            st->release.major == 0 || st->release.major >= 4);
        if (why)
            return abi_fault(m, FAULT_ECALL_ARGUMENT, name, pp, why);
    }
    sp1_store(m, pp, 4, p, code == SP1_ED_ADD ? 16 : 8);
    return ECALL_CONTINUE;
}

/* The point at a0: x in its second half, y written to its first; a1 the sign. */
static enum ecall_result sp1_decompress(struct machine *m, enum curve_id curve, const char *name)
{
    uint64_t pp = machine_get_reg(m, REG_A0), sign = machine_get_reg(m, REG_A1);
    size_t n = curve_limbs(curve);
    uint32_t pt[24];
    if (sp1_load(m, name, pp, 4, pt, 2 * n) != ECALL_CONTINUE)
        return ECALL_FAULT;
    if (sign > 1 || !curve_decompress(curve, pt, (unsigned)sign))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, pp,
                         "no point has this x (x not below p, or x^3 + ax + b is not a non-zero "
                         "square), or the sign is not 0 or 1");
    sp1_store(m, pp, 4, pt, n);
    return ECALL_CONTINUE;
}

/* lo (a2, 2048 bits) and hi (a3, 256 bits) = a (a0, 256 bits) * b (a1, 2048 bits). */
static enum ecall_result sp1_u256x2048_mul(struct machine *m)
{
    static const char name[] = "U256XU2048_MUL";
    uint64_t ap = machine_get_reg(m, REG_A0), bp = machine_get_reg(m, REG_A1),
             lp = machine_get_reg(m, REG_A2), hp = machine_get_reg(m, REG_A3);
    uint32_t a[8], b[64], r[72];
    if (sp1_load(m, name, ap, 4, a, 8) != ECALL_CONTINUE ||
        sp1_load(m, name, bp, 4, b, 64) != ECALL_CONTINUE ||
        sp1_load(m, name, lp, 4, r, 64) != ECALL_CONTINUE ||
        sp1_load(m, name, hp, 4, r, 8) != ECALL_CONTINUE)
        return ECALL_FAULT;
    bigint_mul_wide(r, a, 8, b, 64);
    sp1_store(m, lp, 4, r, 64);
    sp1_store(m, hp, 4, r + 64, 8);
    return ECALL_CONTINUE;
}

/* d (a3) and e (a4) = the low and high 256 bits of (a op b) + c: a0, a1, a2. */
static enum ecall_result sp1_uint256_carry(struct machine *m, uint64_t code, const char *name)
{
    uint64_t ptr[5];
    for (unsigned i = 0; i < 5; i++)
        ptr[i] = machine_get_reg(m, REG_A0 + i);
    uint32_t v[3][8], r[16];
    for (unsigned i = 0; i < 3; i++)
        if (sp1_load(m, name, ptr[i], 4, v[i], 8) != ECALL_CONTINUE)
            return ECALL_FAULT;
    if (sp1_load(m, name, ptr[3], 4, r, 8) != ECALL_CONTINUE ||
        sp1_load(m, name, ptr[4], 4, r, 8) != ECALL_CONTINUE)
        return ECALL_FAULT;
    bigint_op_add_256(r, v[0], v[1], v[2], code == SP1_UINT256_MUL_CARRY);
    sp1_store(m, ptr[3], 4, r, 8);
    sp1_store(m, ptr[4], 4, r + 8, 8);
    return ECALL_CONTINUE;
}

static const struct {
    uint32_t code;
    enum curve_id curve;
} decompress_calls[] = {
    {0x0000010C, CURVE_SECP256K1},
    {0x0000011C, CURVE_BLS12_381},
    {0x0000012E, CURVE_SECP256R1},
    {0x00000115, CURVE_SECP256R1}, /* testnet */
};

/* The precompiles beyond the table-driven curve calls; ECALL_FAULT with no fault set: none. */
static enum ecall_result sp1_other_precompile(struct machine *m, uint64_t code, const char *name,
                                              bool *known)
{
    *known = true;
    if (m->xlen == 64 && removed_in_v6(code))
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, name, code,
                         "SP1 v6 (RV64) removed it (its executor panics: use the hooks)");
    switch (code) {
    case SP1_ED_ADD:
    case SP1_ED_DECOMPRESS: return sp1_ed(m, code, name);
    case SP1_U256XU2048_MUL: return sp1_u256x2048_mul(m);
    case SP1_UINT256_ADD_CARRY:
    case SP1_UINT256_MUL_CARRY: return sp1_uint256_carry(m, code, name);
    case SP1_MPROTECT: return sp1_mprotect(m, m->abi_state);
    case SP1_POSEIDON2: return sp1_poseidon2(m);
    case SP1_HINT_MPROTECT_FLUSH: return ECALL_CONTINUE; /* a hint: SP1 batches nothing here */
    }
    for (size_t i = 0; i < sizeof(decompress_calls) / sizeof(decompress_calls[0]); i++)
        if (decompress_calls[i].code == code)
            return sp1_decompress(m, decompress_calls[i].curve, name);
    *known = false;
    return ECALL_FAULT;
}

static enum ecall_result sp1_ecall(struct machine *m, const char **call)
{
    struct sp1_state *st = m->abi_state;
    uint64_t code = machine_get_reg(m, REG_T0);
    const char *name = code <= UINT32_MAX ? call_name((uint32_t)code) : NULL, *since;
    if (!name) {
        m->fault = (struct fault){.kind = FAULT_UNSUPPORTED_ECALL,
                                  .pc = m->pc,
                                  .addr = code,
                                  .why = "no call has this code in t0"};
        return ECALL_FAULT;
    }
    *call = name;
    if (!sp1_release_has(&st->release, (uint32_t)code, &since)) {
        m->fault = (struct fault){
            .kind = FAULT_UNSUPPORTED_ECALL, .pc = m->pc, .addr = code, .call = name, .why = since};
        return ECALL_FAULT;
    }
    if (st->block.running && code != SP1_WRITE && code != SP1_EXIT_UNCONSTRAINED)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, name, code,
                         "SP1 allows only WRITE and EXIT_UNCONSTRAINED in an unconstrained block");
    uint64_t result = code; /* calls without a result leave their code in t0 */
    enum ecall_result r = ECALL_CONTINUE;
    if (!sp1_user_precompile_allowed(m, &st->user, code, name, &r))
        return r; /* a trap: t0 keeps its value */
    switch (code) {
    case SP1_SIG_RETURN: r = sp1_user_sig_return(m, &st->user, &result); break;
    case SP1_HALT:
        m->exit_status = (int)(machine_get_reg(m, REG_A0) & 0xff);
        warn_proof_count(m, st);
        r = ECALL_EXIT;
        break;
    case SP1_VERIFY_SP1_PROOF: r = sp1_verify_proof(m, st); break;
    case SP1_WRITE: r = sp1_write(m, st); break;
    case SP1_COMMIT:
    case SP1_COMMIT_DEFERRED_PROOFS: {
        uint64_t i = machine_get_reg(m, REG_A0);
        if (i >= 8)
            return abi_fault(m, FAULT_ECALL_ARGUMENT, name, i, "the word index is not 0 to 7");
        if (code == SP1_COMMIT) {
            st->committed_digest[i] = (uint32_t)machine_get_reg(m, REG_A1);
            st->committed = true;
        }
        break;
    }
    case SP1_HINT_LEN:
        if (!st->nitems && st->release.major >= 1 && st->release.major <= 3)
            return abi_fault(m, FAULT_ECALL_ARGUMENT, name, 0,
                             "the input is exhausted (SP1 v1 to v3 stop here): give one --input "
                             "FILE per item the guest reads");
        result = st->nitems ? st->items[st->nitems - 1].size : all_ones(m);
        break;
    case SP1_HINT_READ: r = sp1_hint_read(m, st); break;
    case SP1_SHA_EXTEND: r = sp1_sha_extend(m); break;
    case SP1_SHA_COMPRESS: r = sp1_sha_compress(m); break;
    case SP1_KECCAK_PERMUTE: r = sp1_keccak(m); break;
    case SP1_UINT256_MUL:
    case SP1_UINT256_MUL_TESTNET: r = sp1_uint256_mul(m); break;
    case SP1_BLAKE3_COMPRESS_INNER: r = sp1_blake3(m); break;
    case SP1_ENTER_UNCONSTRAINED:
        r = unconstrained_enter(m, &st->block, FAULT_ECALL_ARGUMENT,
                                "an unconstrained block is already running (SP1 panics too)");
        result = 1;
        break;
    case SP1_EXIT_UNCONSTRAINED:
        r = unconstrained_exit(m, &st->block);
        result = 0;
        break;
    default: {
        const struct curve_call *cc = find_curve_call(code);
        bool known;
        if (cc)
            r = sp1_curve(m, cc, name);
        else if ((r = sp1_other_precompile(m, code, name, &known)) == ECALL_FAULT && !known)
            return abi_fault(m, FAULT_UNSUPPORTED_ECALL, name, code, NULL);
        break;
    }
    }
    if (r != ECALL_FAULT)
        machine_set_reg(m, REG_T0, result);
    return r;
}

/* ---- set-up and report ---- */

static int sp1_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    struct sp1_state *st = abi_alloc_state(m, sizeof(*st), e);
    if (!st)
        return -1;
    uint64_t lo = GUEST_PAGE_SIZE, hi = m->xlen == 32 ? SP1_MEMORY_END_RV32 : SP1_MEMORY_END_RV64;
    if (abi_check_inside(img, lo, hi, "SP1's memory", e) != 0)
        return -1;
    /* The stdin queue: the first --input is read first. */
    for (size_t i = m->io.ninputs; i-- > 0;)
        if (!push_front(st, m->io.inputs[i].data, m->io.inputs[i].size)) {
            error_fail(e, ERROR_NO_MEMORY, "out of memory");
            return -1;
        }
    if (sp1_release_pick(img, m->io.zkvm_release, &st->release, e) != 0)
        return -1;
    if (m->xlen == 32) {
        abi_map_flat(m, img, lo, hi);
        return 0;
    }
    const char *since;
    if (sp1_user_read(img, sp1_release_has(&st->release, SP1_SIG_RETURN, &since), &st->user, e) !=
        0)
        return -1;
    sp1_user_map(m, img, &st->user);
    return 0;
}

static void sp1_report(const struct machine *m, FILE *out)
{
    const struct sp1_state *st = m->abi_state;
    if (st->release.major)
        fprintf(out, "sp1-release: v%d.%d (%s)\n", st->release.major, st->release.minor,
                st->release.why);
    else
        fprintf(out, "sp1-release: %s\n", st->release.why);
    if (st->committed) {
        fputs("committed-digest: ", out);
        for (int i = 0; i < 8; i++)
            for (int b = 0; b < 4; b++)
                fprintf(out, "%02x", (st->committed_digest[i] >> (8 * b)) & 0xff);
        fputc('\n', out);
    }
    if (m->io.skip_deferred_proof_verification)
        fprintf(out,
                "deferred-proofs: %llu VERIFY_SP1_PROOF calls accepted without verification "
                "(--no-deferred-proof-verification); --stdin carried %llu proofs\n",
                (unsigned long long)st->proofs_verified, (unsigned long long)m->io.deferred_proofs);
    unconstrained_report(&st->block, "SP1", out);
    if (st->user.on)
        fprintf(out,
                "sp1-user-mode: on (the SUCCINCT note's region [0x%llx, 0x%llx)): %llu traps, "
                "%llu SIG_RETURNs\n",
                (unsigned long long)st->user.lo, (unsigned long long)st->user.hi,
                (unsigned long long)st->user.traps, (unsigned long long)st->user.sig_returns);
    regions_report(&st->regions, out);
}

static bool sp1_fault_traps(struct machine *m)
{
    struct sp1_state *st = m->abi_state;
    return st && sp1_user_fault_traps(m, &st->user);
}

static void sp1_destroy(struct machine *m)
{
    struct sp1_state *st = m->abi_state;
    if (!st)
        return;
    for (size_t i = 0; i < st->nitems; i++)
        free(st->items[i].data);
    free(st->items);
    regions_free(&st->regions);
    free(st);
    m->abi_state = NULL;
}

const struct abi abi_sp1 = {
    .name = "sp1",
    .aligned_access = true, /* executor.rs (v4/v5), vm.rs (v6): InvalidMemoryAccess */
    .without_c = true, /* disassembler/elf.rs: every 4-byte word of the text is an instruction */
    .takes_release = true,
    .setup = sp1_setup,
    .ecall = sp1_ecall,
    .fault_traps = sp1_fault_traps,
    .report = sp1_report,
    .destroy = sp1_destroy,
};
