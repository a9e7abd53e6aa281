/*
 * pico: the ABI of Pico guests (Brevis's zkVM, derived from SP1), as its
 * emulator (brevis-network/pico vm/src/emulator/riscv/) defines it, v1.0.0
 * to v1.3.0. Docs: docs/ZKVMS.md.
 *
 * Memory is one flat read-write array of 0x7800_0000 bytes (memory.rs
 * VALUES_SIZE), the program decoded once from the ELF (linked at
 * 0x0020_0800), registers zero at entry: the guest's _start loads sp from
 * a static word (0x0020_0400), so the stack grows down below the text.
 * Loads and stores must be aligned (instruction.rs). An ecall takes the
 * code in t0 (SyscallCode, syscalls/code.rs) and arguments in a0, a1 (a2),
 * and leaves in t0 the result, or the code itself. Pico's codes are SP1
 * v3's up to 0x12B; from 0x12C they differ: SECP256K1_FP_ADD/SUB/MUL,
 * POSEIDON2_PERMUTE (KoalaBear), SECP256R1_ADD/DOUBLE/DECOMPRESS. Standard
 * input is a queue of items (one per --input file); fd 3 is the public
 * values, fd 4 appends an item, fds 5 and 8 are hooks whose answers go to
 * the queue's front. Lines "cycle-tracker-start: NAME" / "-end: NAME"
 * written to fd 1 or 2 are regions (from v1.1.8). An unconstrained block
 * runs on a memory snapshot and is then undone, as in SP1.
 */
#include <stdlib.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/abi/regions.h"
#include "executor/abi/sp1_curves.h"
#include "executor/abi/unconstrained.h"
#include "executor/machine.h"
#include "executor/precompile/bigint.h"
#include "executor/precompile/curve.h"
#include "executor/precompile/edwards.h"
#include "executor/precompile/keccak.h"
#include "executor/precompile/poseidon2_kb.h"
#include "executor/precompile/sha256.h"

/* A release as a number: 1.2.2 is 10202. */
#define PICO_RELEASE(major, minor, patch) ((major)*10000 + (minor)*100 + (patch))
#define PICO_LATEST                       PICO_RELEASE(1, 3, 0)

enum pico_code {
    PICO_HALT = 0x00000000,
    PICO_WRITE = 0x00000002,
    PICO_ENTER_UNCONSTRAINED = 0x00000003,
    PICO_EXIT_UNCONSTRAINED = 0x00000004,
    PICO_SHA_EXTEND = 0x00300105,
    PICO_SHA_COMPRESS = 0x00010106,
    PICO_ED_ADD = 0x00010107,
    PICO_ED_DECOMPRESS = 0x00000108,
    PICO_KECCAK_PERMUTE = 0x00010109,
    PICO_COMMIT = 0x00000010,
    PICO_COMMIT_DEFERRED_PROOFS = 0x0000001A,
    PICO_VERIFY_PICO_PROOF = 0x0000001B,
    PICO_UINT256_MUL = 0x0001011D,
    PICO_POSEIDON2_PERMUTE = 0x0001012F,
    PICO_HINT_LEN = 0x000000F0,
    PICO_HINT_READ = 0x000000F1,
};

/*
 * Every code of SyscallCode::from_u32 at v1.3.0, with the first release
 * whose syscall map (syscalls/mod.rs default_syscall_map) runs it.
 */
static const struct pico_call {
    uint32_t code;
    const char *name;
    int since;
} pico_calls[] = {
    {0x00000000, "HALT", 0},
    {0x00000002, "WRITE", 0},
    {0x00000003, "ENTER_UNCONSTRAINED", 0},
    {0x00000004, "EXIT_UNCONSTRAINED", 0},
    {0x00300105, "SHA_EXTEND", 0},
    {0x00010106, "SHA_COMPRESS", 0},
    {0x00010107, "ED_ADD", 0},
    {0x00000108, "ED_DECOMPRESS", 0},
    {0x00010109, "KECCAK_PERMUTE", 0},
    {0x0001010A, "SECP256K1_ADD", 0},
    {0x0000010B, "SECP256K1_DOUBLE", 0},
    {0x0000010C, "SECP256K1_DECOMPRESS", 0},
    {0x0001010E, "BN254_ADD", 0},
    {0x0000010F, "BN254_DOUBLE", 0},
    {0x00000010, "COMMIT", 0},
    {0x0000001A, "COMMIT_DEFERRED_PROOFS", PICO_RELEASE(1, 1, 6)},
    {0x0000001B, "VERIFY_PICO_PROOF", PICO_RELEASE(1, 1, 6)},
    {0x0000011C, "BLS12381_DECOMPRESS", 0},
    {0x000000F0, "HINT_LEN", 0},
    {0x000000F1, "HINT_READ", 0},
    {0x0001011D, "UINT256_MUL", 0},
    {0x0001011E, "BLS12381_ADD", 0},
    {0x0000011F, "BLS12381_DOUBLE", 0},
    {0x00010120, "BLS12381_FP_ADD", 0},
    {0x00010121, "BLS12381_FP_SUB", 0},
    {0x00010122, "BLS12381_FP_MUL", 0},
    {0x00010123, "BLS12381_FP2_ADD", 0},
    {0x00010124, "BLS12381_FP2_SUB", 0},
    {0x00010125, "BLS12381_FP2_MUL", 0},
    {0x00010126, "BN254_FP_ADD", 0},
    {0x00010127, "BN254_FP_SUB", 0},
    {0x00010128, "BN254_FP_MUL", 0},
    {0x00010129, "BN254_FP2_ADD", 0},
    {0x0001012A, "BN254_FP2_SUB", 0},
    {0x0001012B, "BN254_FP2_MUL", 0},
    {0x0001012C, "SECP256K1_FP_ADD", 0},
    {0x0001012D, "SECP256K1_FP_SUB", 0},
    {0x0001012E, "SECP256K1_FP_MUL", 0},
    {0x0001012F, "POSEIDON2_PERMUTE", 0},
    {0x00010130, "SECP256R1_ADD", PICO_RELEASE(1, 2, 2)},
    {0x00000131, "SECP256R1_DOUBLE", PICO_RELEASE(1, 2, 2)},
    {0x00000132, "SECP256R1_DECOMPRESS", PICO_RELEASE(1, 2, 2)},
};

/* The curve and field calls, as the syscall map wires them. */
enum curve_call_kind { CC_ADD, CC_DOUBLE, CC_DECOMPRESS, CC_FP, CC_FP2 };

static const struct curve_call {
    uint32_t code;
    enum curve_id curve;
    enum curve_call_kind kind;
    enum field_op op;
} curve_calls[] = {
    {0x0001010A, CURVE_SECP256K1, CC_ADD, FIELD_ADD},
    {0x0000010B, CURVE_SECP256K1, CC_DOUBLE, FIELD_ADD},
    {0x0000010C, CURVE_SECP256K1, CC_DECOMPRESS, FIELD_ADD},
    {0x0001010E, CURVE_BN254, CC_ADD, FIELD_ADD},
    {0x0000010F, CURVE_BN254, CC_DOUBLE, FIELD_ADD},
    {0x0000011C, CURVE_BLS12_381, CC_DECOMPRESS, FIELD_ADD},
    {0x0001011E, CURVE_BLS12_381, CC_ADD, FIELD_ADD},
    {0x0000011F, CURVE_BLS12_381, CC_DOUBLE, FIELD_ADD},
    {0x00010120, CURVE_BLS12_381, CC_FP, FIELD_ADD},
    {0x00010121, CURVE_BLS12_381, CC_FP, FIELD_SUB},
    {0x00010122, CURVE_BLS12_381, CC_FP, FIELD_MUL},
    {0x00010123, CURVE_BLS12_381, CC_FP2, FIELD_ADD},
    {0x00010124, CURVE_BLS12_381, CC_FP2, FIELD_SUB},
    {0x00010125, CURVE_BLS12_381, CC_FP2, FIELD_MUL},
    {0x00010126, CURVE_BN254, CC_FP, FIELD_ADD},
    {0x00010127, CURVE_BN254, CC_FP, FIELD_SUB},
    {0x00010128, CURVE_BN254, CC_FP, FIELD_MUL},
    {0x00010129, CURVE_BN254, CC_FP2, FIELD_ADD},
    {0x0001012A, CURVE_BN254, CC_FP2, FIELD_SUB},
    {0x0001012B, CURVE_BN254, CC_FP2, FIELD_MUL},
    {0x0001012C, CURVE_SECP256K1, CC_FP, FIELD_ADD},
    {0x0001012D, CURVE_SECP256K1, CC_FP, FIELD_SUB},
    {0x0001012E, CURVE_SECP256K1, CC_FP, FIELD_MUL},
    {0x00010130, CURVE_SECP256R1, CC_ADD, FIELD_ADD},
    {0x00000131, CURVE_SECP256R1, CC_DOUBLE, FIELD_ADD},
    {0x00000132, CURVE_SECP256R1, CC_DECOMPRESS, FIELD_ADD},
};

enum {
    PICO_FD_PUBLIC_VALUES = 3,
    PICO_FD_INPUT = 4,
    PICO_FD_ECRECOVER = 5, /* hook/mod.rs SECP256K1_ECRECOVER */
    PICO_FD_EDDECOMPRESS = 8,
    PICO_MEMORY_END = 0x78000000, /* memory.rs VALUES_SIZE */
    PICO_LINE_MAX = 256,          /* the longest line checked for a cycle-tracker command */
};

/* One stdin item. */
struct pico_item {
    uint8_t *data; /* owned copy */
    size_t size;
};

/* fd 1's or fd 2's unfinished line, as process_output buffers it. */
struct pico_line {
    char text[PICO_LINE_MAX];
    size_t len;
    bool too_long;
};

struct pico_state {
    /* the input stream: items[next..count) are unread */
    struct pico_item *items;
    size_t next, count, cap;
    uint32_t committed_digest[8], deferred_digest[8];
    bool committed, deferred;
    struct regions regions;
    struct pico_line lines[2];
    struct unconstrained block;
    uint64_t proofs;
    bool warned_fd;
    int release;   /* PICO_RELEASE(...) */
    char why[128]; /* what decided it */
};

static const struct pico_call *find_call(uint64_t code)
{
    for (size_t i = 0; i < sizeof(pico_calls) / sizeof(pico_calls[0]); i++)
        if (pico_calls[i].code == code)
            return &pico_calls[i];
    return NULL;
}

static const struct curve_call *find_curve_call(uint64_t code)
{
    for (size_t i = 0; i < sizeof(curve_calls) / sizeof(curve_calls[0]); i++)
        if (curve_calls[i].code == code)
            return &curve_calls[i];
    return NULL;
}

/* ---- the input stream ---- */

static bool reserve(struct pico_state *st)
{
    if (st->count < st->cap)
        return true;
    size_t cap = st->cap ? 2 * st->cap : 8;
    struct pico_item *items = realloc(st->items, cap * sizeof(*items));
    if (!items)
        return false;
    st->items = items;
    st->cap = cap;
    return true;
}

/* Inserts a copy of data at position `at` of the stream (Vec::splice, Vec::push). */
static bool insert_item(struct pico_state *st, size_t at, const uint8_t *data, size_t size)
{
    if (!reserve(st))
        return false;
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return false;
    if (size)
        memcpy(copy, data, size);
    memmove(st->items + at + 1, st->items + at, (st->count - at) * sizeof(*st->items));
    st->items[at] = (struct pico_item){.data = copy, .size = size};
    st->count++;
    return true;
}

/* ---- WRITE ---- */

/*
 * A complete line of fd 1 or 2: "cycle-tracker-start: NAME" or
 * "cycle-tracker-end: NAME" marks a region (write.rs process_cycle_tracker;
 * the prefix exactly, one space, the rest of the line the name).
 */
static void cycle_tracker_line(struct pico_state *st, const char *line, size_t len, uint64_t clock)
{
    static const char start[] = "cycle-tracker-start: ", end[] = "cycle-tracker-end: ";
    if (len >= sizeof(start) - 1 && memcmp(line, start, sizeof(start) - 1) == 0)
        regions_start(&st->regions, line + sizeof(start) - 1, len - (sizeof(start) - 1), clock);
    else if (len >= sizeof(end) - 1 && memcmp(line, end, sizeof(end) - 1) == 0)
        regions_end(&st->regions, line + sizeof(end) - 1, len - (sizeof(end) - 1), clock);
}

/* Feeds fd 1's or 2's bytes through its line buffer, each whole line to the cycle tracker. */
static void feed_lines(struct pico_state *st, struct pico_line *l, const uint8_t *bytes, size_t len,
                       uint64_t clock)
{
    for (size_t i = 0; i < len; i++) {
        if (bytes[i] == '\n') {
            if (!l->too_long)
                cycle_tracker_line(st, l->text, l->len, clock);
            l->len = 0;
            l->too_long = false;
        } else if (l->len < sizeof(l->text)) {
            l->text[l->len++] = (char)bytes[i];
        } else {
            l->too_long = true;
        }
    }
}

/* Whether the bytes are UTF-8 (write.rs unwraps core::str::from_utf8). */
static bool is_utf8(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        size_t k = c < 0x80             ? 0
                   : (c & 0xe0) == 0xc0 ? 1
                   : (c & 0xf0) == 0xe0 ? 2
                   : (c & 0xf8) == 0xf0 ? 3
                                        : 4;
        if (k == 4 || (k == 1 && c < 0xc2) || n - i <= k)
            return k == 0;
        uint32_t cp = k == 0 ? c : c & (0x3f >> k);
        for (size_t j = 1; j <= k; j++) {
            if ((s[i + j] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + j] & 0x3f);
        }
        static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[k] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += k + 1;
    }
    return true;
}

/*
 * The ecrecover hook (fd 5, hook/ecrecover.rs): [y odd << 7][r: 32 BE]
 * [alpha: 32 BE] -> [1][y: 32 BE, y^2 = alpha, of that parity][r^-1 mod n:
 * 32 BE], or, alpha no square, [0][sqrt(3 alpha): 32 BE]; any other length,
 * r = 0 or alpha = 0 -> [0]. Up to three answers into items/sizes; NULL,
 * or why the hook panics.
 */
static const char *hook_ecrecover(const uint8_t *buf, size_t len, uint8_t out[3][32],
                                  size_t sizes[3], size_t *count)
{
    static const char P[] = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
                      N[] = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
    *count = 1;
    sizes[0] = 1;
    out[0][0] = 0;
    if (len != 65)
        return NULL;
    mpz_t p, n, r, alpha, y;
    mpz_inits(p, n, r, alpha, y, NULL);
    bigint_set_constant(p, P);
    bigint_set_constant(n, N);
    bigint_import_bytes(r, buf + 1, 32, true);
    bigint_import_bytes(alpha, buf + 33, 32, true);
    const char *why = NULL;
    if (mpz_cmp(r, p) >= 0 || mpz_cmp(alpha, p) >= 0) {
        why = "the ecrecover hook (fd 5): r or alpha is not below p (Pico panics)";
    } else if (mpz_sgn(r) == 0 || mpz_sgn(alpha) == 0) {
        /* [0] */
    } else if (bigint_sqrt_3mod4(y, alpha, p)) {
        if ((unsigned)mpz_odd_p(y) != (unsigned)(buf[0] >> 7))
            mpz_sub(y, p, y);
        if (mpz_cmp(r, n) >= 0) {
            why = "the ecrecover hook (fd 5): r is not below the group order (Pico panics)";
        } else {
            mpz_invert(r, r, n);
            out[0][0] = 1;
            bigint_export_bytes(out[1], 32, y, true);
            bigint_export_bytes(out[2], 32, r, true);
            sizes[1] = sizes[2] = 32;
            *count = 3;
        }
    } else {
        mpz_mul_ui(alpha, alpha, 3);
        mpz_mod(alpha, alpha, p);
        bigint_sqrt_3mod4(y, alpha, p); /* 3 is no square mod p: 3 alpha is one */
        bigint_export_bytes(out[1], 32, y, true);
        sizes[1] = 32;
        *count = 2;
    }
    mpz_clears(p, n, r, alpha, y, NULL);
    return why;
}

/*
 * Pico's ed25519 decompress (chips/gadgets/curves/edwards/ed25519.rs) of
 * y (bit 255 cleared) with `sign`: x into pt[0..8] (pt[8..16] is y).
 * *none: no x (not a square; from v1.2.0 also x = 0 with sign 1), the
 * Option's None; NULL, or why Pico panics (y^2 = 0 mod p: a BigUint below zero).
 */
static const char *ed_decompress(const struct pico_state *st, uint32_t pt[16], unsigned sign,
                                 bool *none)
{
    uint32_t copy[16];
    memcpy(copy, pt, sizeof(copy));
    *none = false;
    const char *why = sp1_ed_decompress(copy, sign, 0); /* SP1 v1 to v3: the same formulas */
    if (why && strstr(why, "not a square")) {
        *none = true;
        return NULL;
    }
    if (why)
        return "y = 0 mod p: y^2 - 1 goes below zero (Pico panics)";
    static const uint32_t p[8] = {0xffffffed, 0xffffffff, 0xffffffff, 0xffffffff,
                                  0xffffffff, 0xffffffff, 0xffffffff, 0x7fffffff};
    if (st->release >= PICO_RELEASE(1, 2, 0) && sign && memcmp(copy, p, sizeof(p)) == 0) {
        *none = true; /* "requesting x = mod - 0 = mod" */
        return NULL;
    }
    memcpy(pt, copy, 8 * sizeof(uint32_t));
    return NULL;
}

/*
 * The ed25519 decompression hook (fd 8, hook/ed_decompress.rs): 32 bytes
 * of a compressed point -> [1] when it decompresses, else [0].
 */
static const char *hook_ed_decompress(const struct pico_state *st, const uint8_t *buf, size_t len,
                                      uint8_t *answer)
{
    *answer = 0;
    if (len != 32)
        return NULL;
    uint32_t pt[16] = {0};
    memcpy(pt + 8, buf, 32);
    pt[15] &= 0x7fffffff;
    bool none;
    const char *why = ed_decompress(st, pt, buf[31] >> 7, &none);
    if (why)
        return "the ed25519 decompression hook (fd 8): y = 0 mod p (Pico panics)";
    *answer = !none;
    return NULL;
}

/* A write to a hook fd: its answers go in front of the unread items, in order. */
static enum ecall_result run_hook(struct machine *m, struct pico_state *st, uint64_t fd,
                                  const uint8_t *bytes, uint64_t len)
{
    uint8_t out[3][32];
    size_t sizes[3], count = 1;
    const char *why = fd == PICO_FD_ECRECOVER ? hook_ecrecover(bytes, len, out, sizes, &count)
                                              : hook_ed_decompress(st, bytes, len, out[0]);
    sizes[0] = 1;
    if (why)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "WRITE", fd, why);
    for (size_t i = 0; i < count; i++)
        if (!insert_item(st, st->next + i, out[i], sizes[i]))
            return abi_fault(m, FAULT_HOST_MEMORY, "WRITE", fd, "out of memory for a hint");
    return ECALL_CONTINUE;
}

static enum ecall_result pico_write(struct machine *m, struct pico_state *st)
{
    uint64_t fd = machine_get_reg(m, REG_A0), buf = machine_get_reg(m, REG_A1),
             len = machine_get_reg(m, REG_A2);
    if (!mem_range_has(&m->mem, buf, len, PAGE_R))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "WRITE", buf, "the buffer is not in memory");
    const uint8_t *bytes = m->mem.base + buf;
    bool ok = true;
    if (fd == 1 || fd == 2) {
        if (!is_utf8(bytes, len))
            return abi_fault(m, FAULT_ECALL_ARGUMENT, "WRITE", fd,
                             "the text is not UTF-8 (Pico unwraps str::from_utf8 and panics)");
        if (st->release >= PICO_RELEASE(1, 1, 8)) /* before: logged whole, no tracker */
            feed_lines(st, &st->lines[fd - 1], bytes, len, m->ecall_clock);
        ok = abi_write_fd(fd == 1 ? m->io.stdout_fd : m->io.stderr_fd, bytes, len);
    } else if (fd == PICO_FD_PUBLIC_VALUES) {
        ok = abi_write_fd(m->io.public_output_fd, bytes, len);
    } else if (fd == PICO_FD_INPUT) {
        if (!insert_item(st, st->count, bytes, len)) /* input_stream.push: at the back */
            return abi_fault(m, FAULT_HOST_MEMORY, "WRITE", fd, "out of memory for an item");
    } else if (fd == PICO_FD_ECRECOVER || fd == PICO_FD_EDDECOMPRESS) {
        return run_hook(m, st, fd, bytes, len);
    } else {
        if (!st->warned_fd)
            warning_say(&m->io.warnings,
                        "pico: writes to fd %llu are ignored, as Pico ignores them (it "
                        "warns \"tried to write to unknown file descriptor\")",
                        (unsigned long long)fd);
        st->warned_fd = true;
    }
    if (!ok)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "WRITE", fd, "the host could not write it");
    return ECALL_CONTINUE;
}

/* ---- hints ---- */

static enum ecall_result input_exhausted(struct machine *m, const char *call)
{
    return abi_fault(m, FAULT_ECALL_ARGUMENT, call, 0,
                     "the input is exhausted (Pico panics \"failed reading stdin due to "
                     "insufficient input data\"): give one --input FILE per item the guest reads");
}

/*
 * HINT_READ (hint.rs): the next item, whose length a1 must be, to a0,
 * word aligned, in whole words zero-padded. Pico also panics when a word
 * there was written before (the hint goes to memory not yet used); that
 * is not checked here.
 */
static enum ecall_result pico_hint_read(struct machine *m, struct pico_state *st)
{
    uint64_t ptr = machine_get_reg(m, REG_A0), len = machine_get_reg(m, REG_A1);
    if (st->next == st->count)
        return input_exhausted(m, "HINT_READ");
    struct pico_item *it = &st->items[st->next];
    if (it->size != len)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HINT_READ", len,
                         "the length asked for is not the next item's (Pico panics \"hint input "
                         "stream read length mismatch\")");
    if (ptr % 4)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HINT_READ", ptr,
                         "the buffer is not aligned to 4 bytes (Pico panics)");
    uint64_t written = (len + 3) & ~(uint64_t)3;
    if (!mem_range_has(&m->mem, ptr, written, PAGE_W))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HINT_READ", ptr, "the buffer is not in memory");
    static const uint8_t zeros[4];
    abi_store(m, ptr, it->data, len);
    abi_store(m, ptr + len, zeros, written - len);
    st->next++;
    return ECALL_CONTINUE;
}

/* ---- precompiles ---- */

/* n aligned words at addr, readable and writable (Pico's memory is one read-write array). */
static enum ecall_result load(struct machine *m, const char *call, uint64_t addr, uint32_t *w,
                              size_t n)
{
    if (addr % 4 || !mem_range_has(&m->mem, addr, 4 * n, PAGE_R | PAGE_W))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, addr,
                         "the argument is not aligned words in memory (Pico panics)");
    memcpy(w, m->mem.base + addr, 4 * n);
    return ECALL_CONTINUE;
}

static void store(struct machine *m, uint64_t addr, const uint32_t *w, size_t n)
{
    abi_store(m, addr, w, 4 * n);
}

/* SHA_EXTEND (a0: w[64], a1 must be 0): w[16..64] from w[0..16]. */
static enum ecall_result pico_sha_extend(struct machine *m, const char *name)
{
    uint64_t wp = machine_get_reg(m, REG_A0);
    uint32_t w[64];
    if (machine_get_reg(m, REG_A1) != 0)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, machine_get_reg(m, REG_A1),
                         "a1 must be 0 (Pico asserts it)");
    if (load(m, name, wp, w, 64) != ECALL_CONTINUE)
        return ECALL_FAULT;
    sha256_extend(w);
    store(m, wp + 64, w + 16, 48);
    return ECALL_CONTINUE;
}

/* SHA_COMPRESS (a0: w[64], a1: h[8], not the same address). */
static enum ecall_result pico_sha_compress(struct machine *m, const char *name)
{
    uint64_t wp = machine_get_reg(m, REG_A0), hp = machine_get_reg(m, REG_A1);
    uint32_t w[64], h[8];
    if (wp == hp)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, wp,
                         "w and h are the same address (Pico asserts they differ)");
    if (load(m, name, wp, w, 64) != ECALL_CONTINUE || load(m, name, hp, h, 8) != ECALL_CONTINUE)
        return ECALL_FAULT;
    sha256_compress(h, w);
    store(m, hp, h, 8);
    return ECALL_CONTINUE;
}

/* KECCAK_PERMUTE (a0: 25 little-endian lanes, a1 must be 0). */
static enum ecall_result pico_keccak(struct machine *m, const char *name)
{
    uint64_t p = machine_get_reg(m, REG_A0);
    uint32_t w[50];
    if (machine_get_reg(m, REG_A1) != 0)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, machine_get_reg(m, REG_A1),
                         "a1 must be 0 (Pico panics)");
    if (load(m, name, p, w, 50) != ECALL_CONTINUE)
        return ECALL_FAULT;
    uint64_t lanes[25];
    memcpy(lanes, w, sizeof(lanes));
    keccak_f1600(lanes);
    memcpy(w, lanes, sizeof(lanes));
    store(m, p, w, 50);
    return ECALL_CONTINUE;
}

/* UINT256_MUL: x (a0) = x * y mod m, y then m at a1 (m = 0: mod 2^256). */
static enum ecall_result pico_uint256_mul(struct machine *m, const char *name)
{
    uint64_t xp = machine_get_reg(m, REG_A0), yp = machine_get_reg(m, REG_A1);
    uint32_t x[8], ym[16];
    if (load(m, name, xp, x, 8) != ECALL_CONTINUE || load(m, name, yp, ym, 16) != ECALL_CONTINUE)
        return ECALL_FAULT;
    bigint_mulmod_256(x, x, ym, ym + 8);
    store(m, xp, x, 8);
    return ECALL_CONTINUE;
}

/*
 * POSEIDON2_PERMUTE (a0: 16 words in, a1: 16 words out): KoalaBear's
 * Poseidon2, each word taken mod p (from_canonical_u32 reduces in a release
 * build; from_wrapped_u32 in v1.0.x), the canonical results written.
 */
static enum ecall_result pico_poseidon2(struct machine *m, const struct pico_state *st,
                                        const char *name)
{
    uint64_t in = machine_get_reg(m, REG_A0), out = machine_get_reg(m, REG_A1);
    uint32_t cells[POSEIDON2_KB_CELLS], unused[POSEIDON2_KB_CELLS];
    if (load(m, name, in, cells, POSEIDON2_KB_CELLS) != ECALL_CONTINUE ||
        load(m, name, out, unused, POSEIDON2_KB_CELLS) != ECALL_CONTINUE)
        return ECALL_FAULT;
    for (int i = 0; i < POSEIDON2_KB_CELLS; i++)
        cells[i] %= KOALABEAR_P;
    poseidon2_kb_permute(
        st->release >= PICO_RELEASE(1, 1, 0) ? &poseidon2_kb_pico : &poseidon2_kb_pico_v1_0, cells);
    store(m, out, cells, POSEIDON2_KB_CELLS);
    return ECALL_CONTINUE;
}

/* ED_ADD (a0 += a1, x then y) and ED_DECOMPRESS (y at a0 + 32, x written to a0; a1 the sign). */
static enum ecall_result pico_ed(struct machine *m, const struct pico_state *st, uint64_t code,
                                 const char *name)
{
    uint64_t pp = machine_get_reg(m, REG_A0), a1 = machine_get_reg(m, REG_A1);
    uint32_t p[16], q[16];
    if (load(m, name, pp, p, 16) != ECALL_CONTINUE)
        return ECALL_FAULT;
    if (code == PICO_ED_ADD) {
        if (load(m, name, a1, q, 16) != ECALL_CONTINUE)
            return ECALL_FAULT;
        sp1_ed_add(p, q);
        store(m, pp, p, 16);
        return ECALL_CONTINUE;
    }
    if (a1 > 1)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, a1,
                         "the sign is not 0 or 1 (Pico asserts it)");
    bool none;
    const char *why = ed_decompress(st, p, (unsigned)a1, &none);
    if (!why && none)
        why = "no x for this y and sign (Pico panics \"Decompression failed\")";
    if (why)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, pp, why);
    store(m, pp, p, 8);
    return ECALL_CONTINUE;
}

/*
 * The Weierstrass and field calls: SP1 v4's formulas (Pico's curves are
 * SP1's: weierstrass/mod.rs sw_add, sw_double; fptower/fp.rs reduces both
 * inputs, fp2_addsub.rs and fp2_mul.rs do not, and write c0 then c1 at
 * their halves), decompression by k256, p256 and the BLS12-381 flags.
 */
static enum ecall_result pico_curve(struct machine *m, const struct curve_call *cc,
                                    const char *name)
{
    uint64_t ap = machine_get_reg(m, REG_A0), bp = machine_get_reg(m, REG_A1);
    size_t limbs = curve_limbs(cc->curve), n = limbs * (cc->kind == CC_FP ? 1 : 2);
    uint32_t a[24], b[24];
    if (load(m, name, ap, a, n) != ECALL_CONTINUE)
        return ECALL_FAULT;
    const char *why = NULL;
    switch (cc->kind) {
    case CC_ADD:
        if (load(m, name, bp, b, n) != ECALL_CONTINUE)
            return ECALL_FAULT;
        why = sp1_sw_add(cc->curve, a, b);
        break;
    case CC_DOUBLE: why = sp1_sw_double(cc->curve, a); break;
    case CC_DECOMPRESS:
        if (bp > 1)
            return abi_fault(m, FAULT_ECALL_ARGUMENT, name, bp,
                             "the sign is not 0 or 1 (Pico asserts it)");
        if (!curve_decompress(cc->curve, a, (unsigned)bp))
            why = "no point has this x (x not below p, or x^3 + ax + b is not a non-zero "
                  "square): Pico panics";
        n = limbs;
        break;
    case CC_FP:
        if (load(m, name, bp, b, n) != ECALL_CONTINUE)
            return ECALL_FAULT;
        curve_field(cc->curve, cc->op, a, b);
        break;
    case CC_FP2:
        if (load(m, name, bp, b, n) != ECALL_CONTINUE)
            return ECALL_FAULT;
        why = sp1_fp2(cc->curve, cc->op, a, b, 0);
        break;
    }
    if (why)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, name, ap, why);
    store(m, ap, a, n);
    return ECALL_CONTINUE;
}

/* ---- the ecall ---- */

static const char *release_text(int release, char *buf, size_t size)
{
    unsigned r = (unsigned)release; /* major * 10000 + minor * 100 + patch */
    snprintf(buf, size, "v%u.%u.%u", r / 10000 % 100, r / 100 % 100, r % 100);
    return buf;
}

/* The calls that take no memory, or the stream; ECALL_FAULT with known false: a precompile. */
static enum ecall_result pico_system_call(struct machine *m, struct pico_state *st, uint64_t code,
                                          const char *name, uint64_t *result, bool *known)
{
    *known = true;
    switch (code) {
    case PICO_HALT:
        /* a non-zero code is an error in Pico (EmulationError::HaltWithNonZeroExitCode) */
        m->exit_status = (int)(machine_get_reg(m, REG_A0) & 0xff);
        return ECALL_EXIT;
    case PICO_WRITE: return pico_write(m, st);
    case PICO_COMMIT:
    case PICO_COMMIT_DEFERRED_PROOFS: {
        uint64_t i = machine_get_reg(m, REG_A0);
        if (i >= 8)
            return abi_fault(m, FAULT_ECALL_ARGUMENT, name, i,
                             "the word index is not 0 to 7 (Pico panics)");
        uint32_t *digest = code == PICO_COMMIT ? st->committed_digest : st->deferred_digest;
        digest[i] = (uint32_t)machine_get_reg(m, REG_A1);
        *(code == PICO_COMMIT ? &st->committed : &st->deferred) = true;
        return ECALL_CONTINUE;
    }
    case PICO_VERIFY_PICO_PROOF:
        st->proofs++; /* verify.rs: nothing here, the proofs are checked when converting */
        return ECALL_CONTINUE;
    case PICO_HINT_LEN:
        if (st->next == st->count)
            return input_exhausted(m, name);
        *result = st->items[st->next].size;
        return ECALL_CONTINUE;
    case PICO_HINT_READ: return pico_hint_read(m, st);
    case PICO_ENTER_UNCONSTRAINED: /* syscalls/unconstrained.rs, as SP1's */
        *result = 1;
        return unconstrained_enter(m, &st->block, FAULT_UNSUPPORTED_ECALL,
                                   "an unconstrained block is already running (Pico allows only "
                                   "WRITE and EXIT_UNCONSTRAINED in one)");
    case PICO_EXIT_UNCONSTRAINED: *result = 0; return unconstrained_exit(m, &st->block);
    }
    *known = false;
    return ECALL_FAULT;
}

static enum ecall_result pico_precompile(struct machine *m, struct pico_state *st, uint64_t code,
                                         const char *name)
{
    const struct curve_call *cc = find_curve_call(code);
    if (cc)
        return pico_curve(m, cc, name);
    switch (code) {
    case PICO_SHA_EXTEND: return pico_sha_extend(m, name);
    case PICO_SHA_COMPRESS: return pico_sha_compress(m, name);
    case PICO_KECCAK_PERMUTE: return pico_keccak(m, name);
    case PICO_UINT256_MUL: return pico_uint256_mul(m, name);
    case PICO_POSEIDON2_PERMUTE: return pico_poseidon2(m, st, name);
    case PICO_ED_ADD:
    case PICO_ED_DECOMPRESS: return pico_ed(m, st, code, name);
    }
    return abi_fault(m, FAULT_UNSUPPORTED_ECALL, name, code, NULL);
}

static enum ecall_result pico_ecall(struct machine *m, const char **call)
{
    struct pico_state *st = m->abi_state;
    uint64_t code = machine_get_reg(m, REG_T0);
    const struct pico_call *pc = find_call(code);
    if (!pc)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, code,
                         "no call has this code in t0 (Pico panics \"invalid syscall number\")");
    *call = pc->name;
    if (st->release < pc->since) {
        static char why[128];
        char a[32], b[32];
        snprintf(why, sizeof(why), "Pico %s has no such call (UnsupportedSyscall): it came in %s",
                 release_text(st->release, a, sizeof(a)), release_text(pc->since, b, sizeof(b)));
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, pc->name, code, why);
    }
    if (st->block.running && code != PICO_WRITE && code != PICO_EXIT_UNCONSTRAINED)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, pc->name, code,
                         "Pico allows only WRITE and EXIT_UNCONSTRAINED in an unconstrained block "
                         "(InvalidSyscallUsage)");
    uint64_t result = code; /* calls without a result leave their code in t0 */
    bool known;
    enum ecall_result r = pico_system_call(m, st, code, pc->name, &result, &known);
    if (!known)
        r = pico_precompile(m, st, code, pc->name);
    if (r != ECALL_FAULT)
        machine_set_reg(m, REG_T0, result);
    return r;
}

/* ---- set-up and report ---- */

/*
 * The release --zkvm-release names ("1.2.2", "v1.1", "1"): a part left out
 * is the last of its series (1.1 is v1.1.10); NULL: v1.3.0, the latest.
 */
static int pick_release(struct pico_state *st, const char *given, struct error *e)
{
    static const int last[] = {PICO_RELEASE(1, 0, 1), PICO_RELEASE(1, 1, 10), PICO_RELEASE(1, 2, 2),
                               PICO_RELEASE(1, 3, 0)};
    if (!given) {
        st->release = PICO_LATEST;
        snprintf(st->why, sizeof(st->why),
                 "not known (the ELF does not say; no --zkvm-release): calls as v1.3.0 runs them");
        return 0;
    }
    int part[3] = {-1, -1, -1}, n = 0;
    const char *s = given + (given[0] == 'v');
    char *end;
    while (n < 3) {
        long v = strtol(s, &end, 10);
        if (end == s || v < 0 || v > 99)
            break;
        part[n++] = (int)v;
        if (*end != '.')
            break;
        s = end + 1;
    }
    bool ok = n > 0 && *end == '\0' && part[0] == 1 && (n < 2 || part[1] <= 3);
    int release = 0;
    if (ok) {
        int minor = n >= 2 ? part[1] : 3;
        release = n == 3 ? PICO_RELEASE(1, minor, part[2]) : last[minor];
        ok = release <= last[minor];
    }
    if (!ok) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "--zkvm-release %s is not a Pico release (v1.0.0 to v1.3.0: 1, 1.1, 1.2.2, ...)",
                   given);
        return -1;
    }
    st->release = release;
    char a[32];
    snprintf(st->why, sizeof(st->why), "--zkvm-release %s: %s", given,
             release_text(release, a, sizeof(a)));
    return 0;
}

static int pico_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    struct pico_state *st = abi_alloc_state(m, sizeof(*st), e);
    if (!st)
        return -1;
    if (m->xlen != 32) {
        error_fail(e, ERROR_UNSUPPORTED, "Pico runs RV32IM guests; this ELF is RV64");
        return -1;
    }
    uint64_t lo = GUEST_PAGE_SIZE, hi = PICO_MEMORY_END;
    if (abi_check_inside(img, lo, hi, "Pico's memory", e) != 0)
        return -1;
    for (size_t i = 0; i < m->io.ninputs; i++)
        if (!insert_item(st, st->count, m->io.inputs[i].data, m->io.inputs[i].size)) {
            error_fail(e, ERROR_NO_MEMORY, "out of memory");
            return -1;
        }
    if (pick_release(st, m->io.zkvm_release, e) != 0)
        return -1;
    abi_map_flat(m, img, lo, hi);
    return 0;
}

static void print_digest(FILE *out, const char *label, const uint32_t d[8])
{
    fprintf(out, "%s: ", label);
    for (int i = 0; i < 8; i++)
        for (int b = 0; b < 4; b++)
            fprintf(out, "%02x", (d[i] >> (8 * b)) & 0xff);
    fputc('\n', out);
}

static void pico_report(const struct machine *m, FILE *out)
{
    const struct pico_state *st = m->abi_state;
    char a[32];
    fprintf(out, "pico-release: %s (%s)\n", release_text(st->release, a, sizeof(a)), st->why);
    if (st->committed)
        print_digest(out, "committed-digest", st->committed_digest);
    if (st->deferred)
        print_digest(out, "deferred-proofs-digest", st->deferred_digest);
    if (st->proofs)
        fprintf(out,
                "deferred-proofs: %llu VERIFY_PICO_PROOF calls (Pico's emulator does nothing "
                "with them; the proofs are checked when the proof is converted)\n",
                (unsigned long long)st->proofs);
    unconstrained_report(&st->block, "Pico", out);
    regions_report(&st->regions, out);
}

static void pico_destroy(struct machine *m)
{
    struct pico_state *st = m->abi_state;
    if (!st)
        return;
    for (size_t i = 0; i < st->count; i++)
        free(st->items[i].data);
    free(st->items);
    regions_free(&st->regions);
    free(st);
    m->abi_state = NULL;
}

const struct abi abi_pico = {
    .name = "pico",
    .aligned_access = true, /* instruction.rs: InvalidMemoryAccess on a misaligned address */
    .without_c = true,      /* RV32IM: the ELF's text is read as 4-byte words */
    .takes_release = true,
    .setup = pico_setup,
    .ecall = pico_ecall,
    .report = pico_report,
    .destroy = pico_destroy,
};
