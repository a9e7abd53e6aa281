/*
 * jolt: a guest written to Jolt's conventions, as its jolt-sdk crate does
 * it (RV64IMAC: built with C, so compressed instructions throughout):
 * _start sets sp and calls the program, which ends by storing 1 to the
 * termination word (0x7FFF_C008) and spinning. The input is read in place
 * at 0x7FFF_A000, the output written at 0x7FFF_B000 (Jolt's default
 * memory layout). Prints and cycle markers are ecalls (and the custom-2
 * 0x5B word) with a0 = 0x505249 (0x5052494E earlier) or 0xC7C1E; inlines
 * are custom-0 0x0B R-type words. The input's first byte is a mode:
 *   0  output: the input's next 4 bytes, Keccak-f of the zero state
 *      (KECCAK256_INLINE, inside the cycle span "keccak"), SHA-256("abc")
 *      from SHA256_INIT_INLINE and again from SHA256_INLINE on the IV;
 *      print "jolt" (0x5B, earlier number) and "ok" (ecall), each a line;
 *      terminate
 *   1  store to the panic word (0x7FFF_C000)
 *   2  store to 0x8800_0000, past Jolt's RAM
 *   3  the secp256k1 inline (funct7 5), not run here
 *   4  an ecall with a0 = 7, no call of Jolt's
 *   5  store into the read-only input
 * The functions are named jolt_sdk_*, as the crate's symbols are.
 */
#include "zkvm_guest.h"

__asm__(ZKVM_START_GP "  li sp, 0x81000000\n"
                      "  call jolt_sdk_main\n"
                      "  li t0, 0x7FFFC008\n"
                      "  li t1, 1\n"
                      "  sb t1, 0(t0)\n"
                      "1: j 1b\n");

#define INPUT_ADDR  0x7FFFA000ul
#define OUTPUT_ADDR 0x7FFFB000ul
#define PANIC_ADDR  0x7FFFC000ul
#define PRINT       0x505249ul
#define PRINT_OLD   0x5052494Eul /* jolt-sdk before jolt_platform */
#define CYCLE_TRACK 0xC7C1Eul

#define JOLT_INLINE(funct3, funct7, rs1, rs2)                                                      \
    __asm__ volatile(".insn r 0x0b, " #funct3 ", " #funct7 ", x0, %0, %1"                          \
                     :                                                                             \
                     : "r"(rs1), "r"(rs2)                                                          \
                     : "memory")

static size_t out_at;

static void output_bytes(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        ((volatile uint8_t *)OUTPUT_ADDR)[out_at++] = b[i];
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

/* A print through Jolt's custom-2 word, with the earlier print number. */
__attribute__((noinline)) void jolt_sdk_println_custom(const char *s)
{
    register uint64_t r0 __asm__("a0") = PRINT_OLD;
    register uint64_t r1 __asm__("a1") = (uint64_t)s;
    register uint64_t r2 __asm__("a2") = length(s);
    register uint64_t r3 __asm__("a3") = 2;
    __asm__ volatile(".insn r 0x5b, 0, 0, x0, x0, x0"
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
    output_bytes((const void *)(INPUT_ADDR + 1), 4);
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

void jolt_sdk_main(void)
{
    static uint64_t p[4];
    switch (*(const volatile uint8_t *)INPUT_ADDR) {
    case 0: jolt_sdk_full_run(); break;
    case 1: *(volatile uint8_t *)PANIC_ADDR = 1; break;
    case 2: *(volatile uint64_t *)0x88000000ul = 1; break;
    case 3: JOLT_INLINE(0, 5, p, p); break;
    case 4: jolt_sdk_ecall(7, 0, 0, 0); break;
    case 5: *(volatile uint8_t *)INPUT_ADDR = 1; break;
    }
}
