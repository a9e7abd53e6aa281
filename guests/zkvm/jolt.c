/*
 * jolt: a guest written to Jolt's conventions, as its jolt-sdk crate does
 * it (RV64IMAC: built with C, so compressed instructions throughout):
 * _start sets sp and calls the program, which ends by storing 1 to the
 * termination word and spinning. The I/O addresses are those of Jolt's
 * MemoryLayout::new (common/src/jolt_device.rs @ 01f78185) for the sizes
 * the guest is built with, computed here as jolt-sdk's macro computes them:
 * from the JOLT_MAX_*_SIZE constants (Jolt's defaults, 4096 each, unless
 * given: the addresses baked into the code, as upstream's macro does), or,
 * with JOLT_SIZES_FROM_SYMBOLS, from the values of the linker symbols
 * __jolt_max_{input,output,trusted_advice,untrusted_advice}_size (as
 * jolt-sdk builds that declare them do). The input is read in place, the
 * output written in place. Prints and cycle markers are ecalls (and the
 * custom-2 0x5B word) with a0 = 0x505249 (0x5052494E earlier) or 0xC7C1E;
 * inlines are custom-0 0x0B R-type words. The input's first byte is a mode:
 *   0  output: the input's next 4 bytes, Keccak-f of the zero state
 *      (KECCAK256_INLINE, inside the cycle span "keccak"), SHA-256("abc")
 *      from SHA256_INIT_INLINE and again from SHA256_INLINE on the IV;
 *      print "jolt" (VirtualHostIO, 0x5B funct3 2, as jolt_platform's
 *      print.rs @ 01f78185) and "ok" (ecall), each a line;
 *      terminate
 *   1  store to the panic word
 *   2  store to 0x8800_0000, past Jolt's RAM
 *   3  secp256k1's reserved inline (funct7 5 funct3 3): no such inline
 *   4  an ecall with a0 = 7, no call of Jolt's
 *   5  store into the read-only input
 *   6  output the input's bytes from its 4th on, as many as its bytes 1-2
 *      (little-endian) say; terminate
 *   7  one access (zkvm_guest.h: access_once): op and offset in the
 *      input's bytes 1 and 2; output its result (8 bytes)
 *   8  BLAKE2b of the input's bytes from its 3rd (jolt_sdk_blake2b)
 *   9  secp256k1's base field, as jolt-inlines/secp256k1's sdk calls it:
 *      a, b the input's bytes 1-32 and 33-64 (little-endian limbs);
 *      output a b mod p (SECP256K1_MULQ), then that / b (SECP256K1_DIVQ);
 *      then the advice tape: the product's first 8 bytes written with an
 *      ecall (01f78185's AdviceWriter) and its next 8 with the 0x5B
 *      VirtualHostIO word (HEAD's), read back with an advice LD of each
 *      encoding (0x5B funct3 6; funct3 0 funct7 3 rs1 x0) and output
 *   10 an advice LD on the empty tape (no compute_advice pass fills it)
 * The functions are named jolt_sdk_*, as the crate's symbols are.
 */
#include "zkvm_guest.h"

__asm__(ZKVM_START_GP "  li sp, 0x81000000\n"
                      "  call jolt_sdk_start\n"
                      "1: j 1b\n");

#ifndef JOLT_MAX_INPUT_SIZE
#define JOLT_MAX_INPUT_SIZE 4096
#endif
#ifndef JOLT_MAX_OUTPUT_SIZE
#define JOLT_MAX_OUTPUT_SIZE 4096
#endif
#ifndef JOLT_MAX_TRUSTED_ADVICE_SIZE
#define JOLT_MAX_TRUSTED_ADVICE_SIZE 4096
#endif
#ifndef JOLT_MAX_UNTRUSTED_ADVICE_SIZE
#define JOLT_MAX_UNTRUSTED_ADVICE_SIZE 4096
#endif

/* The value of an absolute symbol below 2^31 (lui sign-extends): the linker's, not a load. */
#define SYMBOL_VALUE(name)                                                                         \
    ({                                                                                             \
        uint64_t v_;                                                                               \
        __asm__("lui %0, %%hi(" #name ")\n addi %0, %0, %%lo(" #name ")" : "=r"(v_));              \
        v_;                                                                                        \
    })

/* The addresses of MemoryLayout::new this guest uses. */
struct jolt_io {
    uint64_t input, output, panic, termination;
};

static uint64_t align_up8(uint64_t v)
{
    return (v + 7) / 8 * 8;
}

/* MemoryLayout::new's I/O addresses for the four sizes (RAM_START_ADDRESS 0x8000_0000). */
static struct jolt_io memory_layout(uint64_t in, uint64_t out, uint64_t trusted, uint64_t untrusted)
{
    in = align_up8(in);
    out = align_up8(out);
    trusted = align_up8(trusted);
    untrusted = align_up8(untrusted);
    uint64_t words = 1;
    while (words < (in + out + trusted + untrusted + 16) / 8)
        words *= 2;
    uint64_t advice_end = 0x80000000ul - words * 8 + trusted + untrusted;
    struct jolt_io io = {.input = advice_end, .output = advice_end + in};
    io.panic = io.output + out;
    io.termination = io.panic + 8;
    return io;
}

static struct jolt_io jolt_io(void)
{
#ifdef JOLT_SIZES_FROM_SYMBOLS
    return memory_layout(SYMBOL_VALUE(__jolt_max_input_size), SYMBOL_VALUE(__jolt_max_output_size),
                         SYMBOL_VALUE(__jolt_max_trusted_advice_size),
                         SYMBOL_VALUE(__jolt_max_untrusted_advice_size));
#else
    return memory_layout(JOLT_MAX_INPUT_SIZE, JOLT_MAX_OUTPUT_SIZE, JOLT_MAX_TRUSTED_ADVICE_SIZE,
                         JOLT_MAX_UNTRUSTED_ADVICE_SIZE);
#endif
}

#define PRINT        0x505249ul
#define PRINT_OLD    0x5052494Eul /* jolt-sdk before jolt_platform */
#define CYCLE_TRACK  0xC7C1Eul
#define ADVICE_WRITE 0xADBABEul

#define JOLT_INLINE(funct3, funct7, rs1, rs2)                                                      \
    __asm__ volatile(".insn r 0x0b, " #funct3 ", " #funct7 ", x0, %0, %1"                          \
                     :                                                                             \
                     : "r"(rs1), "r"(rs2)                                                          \
                     : "memory")

/* An inline with an output address in rd (the sdk's `rd = in(reg) out`). */
#define JOLT_INLINE_RD(funct3, funct7, rd, rs1, rs2)                                               \
    __asm__ volatile(".insn r 0x0b, " #funct3 ", " #funct7 ", %0, %1, %2"                          \
                     :                                                                             \
                     : "r"(rd), "r"(rs1), "r"(rs2)                                                 \
                     : "memory")

static struct jolt_io io;
static size_t out_at;

static void output_bytes(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        ((volatile uint8_t *)io.output)[out_at++] = b[i];
}

static uint64_t length(const char *s)
{
    uint64_t n = 0;
    while (s[n])
        n++;
    return n;
}

__attribute__((noinline)) uint64_t jolt_sdk_ecall(uint64_t nr, uint64_t a1, uint64_t a2,
                                                  uint64_t a3)
{
    register uint64_t r0 __asm__("a0") = nr;
    register uint64_t r1 __asm__("a1") = a1;
    register uint64_t r2 __asm__("a2") = a2;
    register uint64_t r3 __asm__("a3") = a3;
    __asm__ volatile("ecall" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3) : "memory");
    return r0;
}

__attribute__((noinline)) void jolt_sdk_println(const char *s)
{
    jolt_sdk_ecall(PRINT, (uint64_t)s, length(s), 2);
}

/* A print through Jolt's VirtualHostIO word (`.insn i 0x5B, 2, x0, x0, 0`). */
__attribute__((noinline)) void jolt_sdk_println_custom(const char *s)
{
    register uint64_t r0 __asm__("a0") = PRINT;
    register uint64_t r1 __asm__("a1") = (uint64_t)s;
    register uint64_t r2 __asm__("a2") = length(s);
    register uint64_t r3 __asm__("a3") = 2;
    __asm__ volatile(".insn i 0x5b, 2, x0, x0, 0"
                     :
                     : "r"(r0), "r"(r1), "r"(r2), "r"(r3)
                     : "memory");
}

__attribute__((noinline)) void jolt_sdk_cycle_marker(const char *label, uint64_t kind)
{
    jolt_sdk_ecall(CYCLE_TRACK, (uint64_t)label, length(label), kind);
}

__attribute__((noinline)) void jolt_sdk_keccak_f(uint64_t state[25])
{
    JOLT_INLINE(0, 1, state, 0);
}

__attribute__((noinline)) void jolt_sdk_sha256_init(uint32_t state[8], const uint32_t block[16])
{
    JOLT_INLINE(1, 0, state, block);
}

__attribute__((noinline)) void jolt_sdk_sha256_compress(uint32_t state[8], const uint32_t block[16])
{
    JOLT_INLINE(0, 0, state, block);
}

__attribute__((noinline)) static void jolt_sdk_full_run(void)
{
    static uint64_t state[25];
    static uint32_t h[8], w[16];
    static uint8_t digest[32];
    output_bytes((const void *)(io.input + 1), 4);
    jolt_sdk_cycle_marker("keccak", 1);
    jolt_sdk_keccak_f(state);
    jolt_sdk_cycle_marker("keccak", 2);
    output_bytes(state, sizeof(state));
    sha256_pad_block((const uint8_t *)"abc", 3, w);
    jolt_sdk_sha256_init(h, w);
    sha256_state_bytes(h, digest);
    output_bytes(digest, sizeof(digest));
    memcpy(h, sha256_iv, sizeof(h));
    jolt_sdk_sha256_compress(h, w);
    sha256_state_bytes(h, digest);
    output_bytes(digest, sizeof(digest));
    jolt_sdk_println_custom("jolt");
    jolt_sdk_println("ok");
}

__attribute__((noinline)) void jolt_sdk_blake2b_compress(uint64_t state[8], const uint64_t msg[18])
{
    JOLT_INLINE(0, 2, state, msg);
}

/*
 * Mode 8: BLAKE2b (64-byte digest, no key) of the input's bytes from its
 * 3rd, as many as its byte 1 says (at most 128: one final block), as
 * jolt-inlines/blake2's sdk digest() calls the inline: the state IV with
 * 0x01010040 in word 0, the block, then the length and 1 (final).
 */
__attribute__((noinline)) static void jolt_sdk_blake2b(void)
{
    static const uint64_t iv[8] = {0x6a09e667f3bcc908ul, 0xbb67ae8584caa73bul, 0x3c6ef372fe94f82bul,
                                   0xa54ff53a5f1d36f1ul, 0x510e527fade682d1ul, 0x9b05688c2b3e6c1ful,
                                   0x1f83d9abfb41bd6bul, 0x5be0cd19137e2179ul};
    static uint64_t h[8], msg[18];
    const volatile uint8_t *in = (const volatile uint8_t *)io.input;
    size_t n = in[1] > 128 ? 128 : in[1];
    memcpy(h, iv, sizeof(h));
    h[0] ^= 0x01010040;
    for (size_t i = 0; i < n; i++)
        msg[i / 8] |= (uint64_t)in[2 + i] << 8 * (i % 8);
    msg[16] = n;
    msg[17] = 1;
    jolt_sdk_blake2b_compress(h, msg);
    output_bytes(h, sizeof(h));
}

__attribute__((noinline)) void jolt_sdk_secp256k1_mulq(uint64_t out[4], const uint64_t a[4],
                                                       const uint64_t b[4])
{
    JOLT_INLINE_RD(0, 5, out, a, b);
}

__attribute__((noinline)) void jolt_sdk_secp256k1_divq(uint64_t out[4], const uint64_t a[4],
                                                       const uint64_t b[4])
{
    JOLT_INLINE_RD(2, 5, out, a, b);
}

/* The advice write as 01f78185's AdviceWriter makes it (an ecall), or HEAD's (VirtualHostIO). */
__attribute__((noinline)) void jolt_sdk_advice_write(const void *p, uint64_t n, int host_io)
{
    register uint64_t r0 __asm__("a0") = ADVICE_WRITE;
    register uint64_t r1 __asm__("a1") = (uint64_t)p;
    register uint64_t r2 __asm__("a2") = n;
    if (host_io)
        __asm__ volatile(".insn i 0x5b, 2, x0, x0, 0" : : "r"(r0), "r"(r1), "r"(r2) : "memory");
    else
        __asm__ volatile("ecall" : "+r"(r0) : "r"(r1), "r"(r2) : "memory");
}

/* 8 advice bytes: AdviceReader::read_u64 of 01f78185 (funct3 6) or of HEAD (funct3 0 funct7 3). */
__attribute__((noinline)) uint64_t jolt_sdk_advice_read_u64(int head)
{
    uint64_t x;
    if (head)
        __asm__ volatile(".insn r 0x5b, 0, 3, %0, x0, x0" : "=r"(x) : : "memory");
    else
        __asm__ volatile(".insn i 0x5b, 6, %0, x0, 0" : "=r"(x) : : "memory");
    return x;
}

/* Mode 9: a b mod p and back (secp256k1's base field), then two advice round trips. */
__attribute__((noinline)) static void jolt_sdk_secp256k1(void)
{
    static uint64_t a[4], b[4], product[4], quotient[4], advice[2];
    memcpy(a, (const void *)(io.input + 1), sizeof(a));
    memcpy(b, (const void *)(io.input + 33), sizeof(b));
    jolt_sdk_secp256k1_mulq(product, a, b);
    jolt_sdk_secp256k1_divq(quotient, product, b);
    output_bytes(product, sizeof(product));
    output_bytes(quotient, sizeof(quotient));
    jolt_sdk_advice_write(&product[0], 8, 0);
    jolt_sdk_advice_write(&product[1], 8, 1);
    advice[0] = jolt_sdk_advice_read_u64(0);
    advice[1] = jolt_sdk_advice_read_u64(1);
    output_bytes(advice, sizeof(advice));
}

/* Mode 6: the input's bytes from its 4th, as many as its bytes 1-2 say. */
__attribute__((noinline)) static void jolt_sdk_echo(void)
{
    const volatile uint8_t *in = (const volatile uint8_t *)io.input;
    size_t n = in[1] | (size_t)in[2] << 8;
    for (size_t i = 0; i < n; i++)
        ((volatile uint8_t *)io.output)[out_at++] = in[3 + i];
}

void jolt_sdk_main(void)
{
    static uint64_t p[4];
    switch (*(const volatile uint8_t *)io.input) {
    case 0: jolt_sdk_full_run(); break;
    case 1: *(volatile uint8_t *)io.panic = 1; break;
    case 2: *(volatile uint64_t *)0x88000000ul = 1; break;
    case 3: JOLT_INLINE(3, 5, p, p); break;
    case 4: jolt_sdk_ecall(7, 0, 0, 0); break;
    case 5: *(volatile uint8_t *)io.input = 1; break;
    case 6: jolt_sdk_echo(); break;
    case 8: jolt_sdk_blake2b(); break;
    case 9: jolt_sdk_secp256k1(); break;
    case 10: jolt_sdk_advice_read_u64(0); break;
    case 7: {
        const volatile uint8_t *in = (const volatile uint8_t *)io.input;
        uintptr_t v = access_once(in[1], in[2]);
        for (size_t i = 0; i < sizeof(v); i++)
            ((volatile uint8_t *)io.output)[out_at++] = (uint8_t)(v >> 8 * i);
        break;
    }
    }
}

/* As jolt-sdk's main: the program, then 1 to the termination word. */
void jolt_sdk_start(void)
{
    io = jolt_io();
    jolt_sdk_main();
    *(volatile uint8_t *)io.termination = 1;
}
