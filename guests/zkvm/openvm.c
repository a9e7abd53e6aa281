/*
 * openvm: a guest written to OpenVM 1.x's conventions, as its openvm and
 * openvm-platform crates do it: _start sets gp and sp = 0x0020_0400; the
 * guest talks to the VM only through custom-0 (0x0b) instructions, no
 * ecall. Its input items come through the hint stream (HintInput, then
 * HINT_STOREW / HINT_BUFFER); the first item's first byte is a mode:
 *   0  reveal, word by word from public value 0: KECCAK256 and SHA256 of
 *      the second item, KECCAK256(""), SHA256("abc"), then for a and b
 *      (the third item: 32 bytes each, little-endian) ADD256, SUB256,
 *      MUL256, SLL256 (by b's low byte), SRA256, SLTU256(a, b),
 *      SLT256(a, b), BEQ256(a, a) and BEQ256(a, b) (1 when taken); print
 *      "ok\n" (PrintStr), take two random words (HintRandom); terminate 0
 *   1  terminate with code 42
 *   2  EC_ADD_NE (custom-1 funct3 1) on a curve never set up
 *   3  HINT_STOREW with the hint stream used up
 *   4  an ecall
 *   5  HintInput with no item left
 *   6  load from 0x2000_0000, past OpenVM's memory
 *   7  modular arithmetic on the second item's p, a, b (32 bytes each,
 *      little-endian): set up p as modulus 0 as openvm-algebra does (its
 *      serialized [1][0][32 as u32] header before it), reveal a + b, a - b,
 *      a * b, a / b mod p, then ISEQMOD(a, a + p - p) and ISEQMOD(a, b)
 *   8  ADDMOD before any SETUP_MOD
 *   9  reveal KECCAK256 of the rest of the first item; terminate 0 (the
 *      one-item run of guests/inputs/zkvm-openvm.in)
 *  10  short Weierstrass curves 0-3: for each the next item holds p, a
 *      (as sw_init!'s setup passes them), points P and Q (x, y), each
 *      number n bytes, n = its length / 6; set up the curve as sw_init!
 *      does (SETUP with p1 = (p, a) and p2 = (1, 1), then with rs2 = x0),
 *      reveal P + Q (EC_ADD_NE) and 2P (EC_DOUBLE)
 *  11  complex extension fields 0-1: for each the next item holds p, x, y
 *      (x, y: c0, c1), n bytes each, n = its length / 5; set up the field
 *      as complex_init! does (rs1: p twice; rs2 = x0, then x1), reveal
 *      x + y, x - y, x * y, x / y
 *  12  HintFinalExp (custom-1 funct3 3) on BN254: the second item is n
 *      G1 points then n G2 points (192 n bytes, n <= 2); the hint (c, u,
 *      768 bytes) read back by HINT_BUFFER and revealed
 *  13  EC_DOUBLE on curve 0 (set up from the second item: p, a, then the
 *      point, laid out as for mode 10) of a point with y = 0
 *  14  one access (zkvm_guest.h: access_once), op and offset in the
 *      first item's bytes 1 and 2: reveal its result
 * The functions are named openvm_*, as the crates' symbols are.
 */
#include "openvm_guest.h"

__attribute__((noinline)) void openvm_native_keccak256(const uint8_t *in, uint32_t len,
                                                       uint8_t *out)
{
    __asm__ volatile(".insn r 0x0b, 4, 0, %0, %1, %2" : : "r"(out), "r"(in), "r"(len) : "memory");
}

__attribute__((noinline)) void openvm_sha256(const uint8_t *in, uint32_t len, uint8_t *out)
{
    __asm__ volatile(".insn r 0x0b, 4, 1, %0, %1, %2" : : "r"(out), "r"(in), "r"(len) : "memory");
}

/* One 256-bit operation, funct7 `op` (a constant), then its result revealed. */
#define INT256(op, r, a, b)                                                                        \
    __asm__ volatile(".insn r 0x0b, 5, " #op ", %0, %1, %2" : : "r"(r), "r"(a), "r"(b) : "memory")

__attribute__((noinline)) uint32_t openvm_beq256(const uint8_t *a, const uint8_t *b)
{
    uint32_t taken;
    __asm__ volatile("li %0, 1\n"
                     ".insn b 0x0b, 6, %1, %2, 1f\n"
                     "li %0, 0\n"
                     "1:\n"
                     : "=&r"(taken)
                     : "r"(a), "r"(b)
                     : "memory");
    return taken;
}

__attribute__((noinline)) void openvm_int256_all(const uint8_t *a, const uint8_t *b)
{
    static uint8_t r[32] __attribute__((aligned(4)));
    INT256(0, r, a, b);
    reveal_bytes(r, 32);
    INT256(1, r, a, b);
    reveal_bytes(r, 32);
    INT256(10, r, a, b);
    reveal_bytes(r, 32);
    INT256(5, r, a, b);
    reveal_bytes(r, 32);
    INT256(7, r, a, b);
    reveal_bytes(r, 32);
    INT256(9, r, a, b);
    reveal_bytes(r, 32);
    INT256(8, r, a, b);
    reveal_bytes(r, 32);
    openvm_reveal_u32(openvm_beq256(a, a));
    openvm_reveal_u32(openvm_beq256(a, b));
}

__attribute__((noinline)) void openvm_print_str(const char *s, uint32_t len)
{
    __asm__ volatile(".insn i 0x0b, 3, %0, %1, 1" : : "r"(s), "r"(len) : "memory");
}

__attribute__((noinline)) void openvm_hint_random(uint32_t words)
{
    __asm__ volatile(".insn i 0x0b, 3, %0, x0, 2" : : "r"(words) : "memory");
}

/* One modular operation, funct7 `op` (modulus 0), [r] = [a] op [b]. */
#define MODULAR(op, r, a, b)                                                                       \
    __asm__ volatile(".insn r 0x2b, 0, " #op ", %0, %1, %2" : : "r"(r), "r"(a), "r"(b) : "memory")

__attribute__((noinline)) uint32_t openvm_is_eq_mod(const uint8_t *a, const uint8_t *b)
{
    uint32_t eq;
    __asm__ volatile(".insn r 0x2b, 0, 4, %0, %1, %2" : "=r"(eq) : "r"(a), "r"(b) : "memory");
    return eq;
}

/* The modulus as openvm-algebra's moduli_init! serializes it: [1][index][limbs, u32 LE][p]. */
static uint8_t serialized[6 + 32] = {1, 0, 32, 0, 0, 0};

__attribute__((noinline)) void openvm_setup_all_moduli(void)
{
    uint8_t placeholder[32];
    const uint8_t *p = serialized + 6;
    /* rs2 is the register x0, x1 or x2 itself: the chip it sets up (add/sub, mul/div, is_eq) */
    __asm__ volatile(".insn r 0x2b, 0, 5, %0, %1, x0" : : "r"(placeholder), "r"(p) : "memory");
    __asm__ volatile(".insn r 0x2b, 0, 5, %0, %1, x1" : : "r"(placeholder), "r"(p) : "memory");
    __asm__ volatile(".insn r 0x2b, 0, 5, %0, %1, x2" : : "r"(placeholder), "r"(p) : "memory");
}

static uint8_t message[256] __attribute__((aligned(4)));
static uint8_t numbers[96] __attribute__((aligned(4)));

__attribute__((noinline)) static void openvm_full_run(void)
{
    static uint8_t digest[32] __attribute__((aligned(4)));
    uint32_t len = openvm_read_vec(message, sizeof(message));
    openvm_native_keccak256(message, len, digest);
    reveal_bytes(digest, 32);
    openvm_sha256(message, len, digest);
    reveal_bytes(digest, 32);
    openvm_native_keccak256(message, 0, digest);
    reveal_bytes(digest, 32);
    openvm_sha256((const uint8_t *)"abc", 3, digest);
    reveal_bytes(digest, 32);
    if (openvm_read_vec(numbers, sizeof(numbers)) != 64)
        openvm_terminate_42();
    openvm_int256_all(numbers, numbers + 32);
    openvm_print_str("ok\n", 3);
    openvm_hint_random(2);
    openvm_hint_word();
    openvm_hint_word();
}

/* Mode 7 (see the top). */
__attribute__((noinline)) static void openvm_modular_run(void)
{
    static uint8_t r[32];
    if (openvm_read_vec(numbers, sizeof(numbers)) != 96)
        openvm_terminate_42();
    memcpy(serialized + 6, numbers, 32);
    openvm_setup_all_moduli();
    const uint8_t *a = numbers + 32, *b = numbers + 64;
    MODULAR(0, r, a, b);
    reveal_bytes(r, 32);
    MODULAR(1, r, a, b);
    reveal_bytes(r, 32);
    MODULAR(2, r, a, b);
    reveal_bytes(r, 32);
    MODULAR(3, r, a, b);
    reveal_bytes(r, 32);
    MODULAR(0, r, a, serialized + 6); /* a + p */
    openvm_reveal_u32(openvm_is_eq_mod(a, r));
    openvm_reveal_u32(openvm_is_eq_mod(a, b));
}

/* The curve instructions of curve `i`: funct7 = i * 8 + EC_ADD_NE (0), EC_DOUBLE (1), SETUP (2). */
#define SW_CURVE(i)                                                                                \
    __attribute__((noinline)) void openvm_sw_setup_##i(const uint8_t *p1, const uint8_t *p2)       \
    {                                                                                              \
        static uint8_t scratch[192];                                                               \
        __asm__ volatile(".insn r 0x2b, 1, " #i " * 8 + 2, %0, %1, %2"                             \
                         :                                                                         \
                         : "r"(scratch), "r"(p1), "r"(p2)                                          \
                         : "memory");                                                              \
        __asm__ volatile(".insn r 0x2b, 1, " #i " * 8 + 2, %0, %1, x0"                             \
                         :                                                                         \
                         : "r"(scratch), "r"(p1)                                                   \
                         : "memory");                                                              \
    }                                                                                              \
    __attribute__((noinline)) void openvm_sw_add_ne_##i(uint8_t *r, const uint8_t *p,              \
                                                        const uint8_t *q)                          \
    {                                                                                              \
        __asm__ volatile(".insn r 0x2b, 1, " #i " * 8, %0, %1, %2"                                 \
                         :                                                                         \
                         : "r"(r), "r"(p), "r"(q)                                                  \
                         : "memory");                                                              \
    }                                                                                              \
    __attribute__((noinline)) void openvm_sw_double_##i(uint8_t *r, const uint8_t *p)              \
    {                                                                                              \
        __asm__ volatile(".insn r 0x2b, 1, " #i " * 8 + 1, %0, %1, x0"                             \
                         :                                                                         \
                         : "r"(r), "r"(p)                                                          \
                         : "memory");                                                              \
    }
SW_CURVE(0)
SW_CURVE(1)
SW_CURVE(2)
SW_CURVE(3)

static uint8_t record[6 * 48] __attribute__((aligned(4)));
static uint8_t result[2 * 48] __attribute__((aligned(4)));
static uint8_t ones[2 * 48] __attribute__((aligned(4)));

/* The next curve record (p, a, P, Q): n, each number's size; sets up p2 = (1, 1) in `ones`. */
static uint32_t read_curve_record(void)
{
    uint32_t n = openvm_read_vec(record, sizeof(record)) / 6;
    memset(ones, 0, sizeof(ones));
    ones[0] = ones[n] = 1;
    return n;
}

/* Mode 10 (see the top). */
__attribute__((noinline)) static void openvm_curves_run(void)
{
    for (int i = 0; i < 4; i++) {
        uint32_t n = read_curve_record();
        const uint8_t *p1 = record, *pt = record + 2 * n, *q = record + 4 * n;
        switch (i) {
        case 0:
            openvm_sw_setup_0(p1, ones);
            openvm_sw_add_ne_0(result, pt, q);
            break;
        case 1:
            openvm_sw_setup_1(p1, ones);
            openvm_sw_add_ne_1(result, pt, q);
            break;
        case 2:
            openvm_sw_setup_2(p1, ones);
            openvm_sw_add_ne_2(result, pt, q);
            break;
        default:
            openvm_sw_setup_3(p1, ones);
            openvm_sw_add_ne_3(result, pt, q);
            break;
        }
        reveal_bytes(result, 2 * n);
        switch (i) {
        case 0: openvm_sw_double_0(result, pt); break;
        case 1: openvm_sw_double_1(result, pt); break;
        case 2: openvm_sw_double_2(result, pt); break;
        default: openvm_sw_double_3(result, pt); break;
        }
        reveal_bytes(result, 2 * n);
    }
}

/* The complex field `i`'s instructions: funct7 = i * 8 + ADD, SUB, MUL, DIV (0-3), SETUP (4). */
#define FP2_OP(i, op, r, x, y)                                                                     \
    __asm__ volatile(".insn r 0x2b, 2, " #i " * 8 + " #op ", %0, %1, %2"                           \
                     :                                                                             \
                     : "r"(r), "r"(x), "r"(y)                                                      \
                     : "memory")
#define FP2_FIELD(i)                                                                               \
    __attribute__((noinline)) void openvm_complex_setup_##i(const uint8_t *two_moduli)             \
    {                                                                                              \
        static uint8_t scratch[96];                                                                \
        __asm__ volatile(".insn r 0x2b, 2, " #i " * 8 + 4, %0, %1, x0"                             \
                         :                                                                         \
                         : "r"(scratch), "r"(two_moduli)                                           \
                         : "memory");                                                              \
        __asm__ volatile(".insn r 0x2b, 2, " #i " * 8 + 4, %0, %1, x1"                             \
                         :                                                                         \
                         : "r"(scratch), "r"(two_moduli)                                           \
                         : "memory");                                                              \
    }                                                                                              \
    __attribute__((noinline)) void openvm_complex_ops_##i(const uint8_t *x, const uint8_t *y,      \
                                                          uint32_t n)                              \
    {                                                                                              \
        FP2_OP(i, 0, result, x, y);                                                                \
        reveal_bytes(result, 2 * n);                                                               \
        FP2_OP(i, 1, result, x, y);                                                                \
        reveal_bytes(result, 2 * n);                                                               \
        FP2_OP(i, 2, result, x, y);                                                                \
        reveal_bytes(result, 2 * n);                                                               \
        FP2_OP(i, 3, result, x, y);                                                                \
        reveal_bytes(result, 2 * n);                                                               \
    }
FP2_FIELD(0)
FP2_FIELD(1)

/* Mode 11 (see the top). */
__attribute__((noinline)) static void openvm_complex_run(void)
{
    static uint8_t two_moduli[2 * 48] __attribute__((aligned(4)));
    for (int i = 0; i < 2; i++) {
        uint32_t n = openvm_read_vec(record, sizeof(record)) / 5;
        memcpy(two_moduli, record, n);
        memcpy(two_moduli + n, record, n);
        const uint8_t *x = record + n, *y = record + 3 * n;
        if (i == 0) {
            openvm_complex_setup_0(two_moduli);
            openvm_complex_ops_0(x, y, n);
        } else {
            openvm_complex_setup_1(two_moduli);
            openvm_complex_ops_1(x, y, n);
        }
    }
}

/* Mode 12 (see the top): P's and Q's slices are (pointer, length), a register each. */
__attribute__((noinline)) static void openvm_pairing_run(void)
{
    static uint8_t pairs[2 * 192] __attribute__((aligned(4)));
    static uint8_t hint[24 * 32] __attribute__((aligned(4)));
    openvm_reg n = openvm_read_vec(pairs, sizeof(pairs)) / 192;
    openvm_reg p[2] = {(openvm_reg)(uintptr_t)pairs, n};
    openvm_reg q[2] = {(openvm_reg)(uintptr_t)(pairs + 64 * n), n};
    __asm__ volatile(".insn r 0x2b, 3, 0, x0, %0, %1" : : "r"(p), "r"(q) : "memory");
    openvm_hint_buffer(hint, sizeof(hint) / OPENVM_REG_BYTES);
    reveal_bytes(hint, sizeof(hint));
}

void openvm_main(void)
{
    static uint8_t first[64] __attribute__((aligned(4)));
    static uint8_t digest[32] __attribute__((aligned(4)));
    uint32_t len = openvm_read_vec(first, sizeof(first));
    switch (len ? first[0] : 0xff) {
    case 0: openvm_full_run(); openvm_terminate_ok();
    case 1: openvm_terminate_42();
    case 2: __asm__ volatile(".insn r 0x2b, 1, 0, a0, a0, a0"); break;
    case 3: openvm_hint_word(); break;
    case 4: __asm__ volatile("ecall"); break;
    case 5: openvm_hint_input(); break;
    case 6: openvm_reveal_u32(*(volatile uint32_t *)0x20000000u); break;
    case 7: openvm_modular_run(); openvm_terminate_ok();
    case 8: MODULAR(0, numbers, numbers, numbers); break;
    case 9:
        openvm_native_keccak256(first + 1, len - 1, digest);
        reveal_bytes(digest, 32);
        openvm_terminate_ok();
    case 10: openvm_curves_run(); openvm_terminate_ok();
    case 11: openvm_complex_run(); openvm_terminate_ok();
    case 12: openvm_pairing_run(); openvm_terminate_ok();
    case 13: {
        uint32_t n = read_curve_record();
        openvm_sw_setup_0(record, ones);
        openvm_sw_double_0(result, record + 2 * n);
        break;
    }
    case 14: openvm_reveal_u32((uint32_t)access_once(first[1], first[2])); openvm_terminate_ok();
    }
    openvm_terminate_42();
}
