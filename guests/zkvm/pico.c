/*
 * pico: a guest written to Pico's conventions, as its pico-sdk crate does
 * it: _start sets gp, loads sp from the static word STACK_TOP
 * (0x0020_0400), so the stack grows below the text at 0x0020_0800; calls
 * are `ecall` with the code in t0. The first stdin item is a mode byte:
 *   0  read two items (x, then y and a modulus), time a region with
 *      cycle-tracker lines, and write to the public values (fd 3):
 *      SHA-256("abc") by SHA_EXTEND/SHA_COMPRESS, Keccak-256("") by
 *      KECCAK_PERMUTE, x * y mod m by UINT256_MUL; COMMIT the SHA digest;
 *      say "ok" on stdout; halt 0
 *   1  POSEIDON2_PERMUTE of the all-zero state: write the 16 words out
 *   2  read [x: 8 words][y: 8 words] and write x * y, x + y, x - y mod
 *      secp256k1's p (SECP256K1_FP_MUL, _ADD, _SUB: Pico's codes 0x1012C-E)
 *   3  halt with exit code 42
 *   4  HINT_READ with no item left
 *   5  (the mode item is [5][n]) write "pushed" to fd 4 (an item at the
 *      back of the stream), then write n + 1 items as [u32 length][bytes]
 *   6  an unconstrained block that overwrites a static word and pushes an
 *      item (fd 4); after it: the enter's result, the word, the item
 *   7  the next item is [fd][count][bytes]: write the bytes to that fd (a
 *      hook), then write `count` items as [u32 length][bytes]
 *   8  call the code in the next item [code][a0][a1] (u32 LE each, raw) and write t0
 * The functions are named pico_sdk_*, as the crate's symbols are.
 */
#include "zkvm_guest.h"

/* pico-sdk's _start: sp is loaded from a static word, not set by an immediate. */
__asm__(ZKVM_START_GP "  la sp, pico_sdk_stack_top\n"
                      "  lw sp, 0(sp)\n"
                      "  call pico_sdk_start\n");

const uint32_t pico_sdk_stack_top = 0x00200400;

enum {
    HALT = 0x00000000,
    WRITE = 0x00000002,
    ENTER_UNCONSTRAINED = 0x00000003,
    EXIT_UNCONSTRAINED = 0x00000004,
    SHA_EXTEND = 0x00300105,
    SHA_COMPRESS = 0x00010106,
    KECCAK_PERMUTE = 0x00010109,
    COMMIT = 0x00000010,
    UINT256_MUL = 0x0001011D,
    SECP256K1_FP_ADD = 0x0001012C,
    SECP256K1_FP_SUB = 0x0001012D,
    SECP256K1_FP_MUL = 0x0001012E,
    POSEIDON2_PERMUTE = 0x0001012F,
    HINT_LEN = 0x000000F0,
    HINT_READ = 0x000000F1,
    FD_PUBLIC_VALUES = 3,
    FD_INPUT = 4,
};

__attribute__((noinline)) uint32_t pico_sdk_syscall(uint32_t code, uint32_t arg0, uint32_t arg1,
                                                    uint32_t arg2)
{
    register uint32_t t0 __asm__("t0") = code;
    register uint32_t a0 __asm__("a0") = arg0;
    register uint32_t a1 __asm__("a1") = arg1;
    register uint32_t a2 __asm__("a2") = arg2;
    __asm__ volatile("ecall" : "+r"(t0) : "r"(a0), "r"(a1), "r"(a2) : "memory");
    return t0;
}

__attribute__((noreturn)) static void halt(int code)
{
    pico_sdk_syscall(HALT, (uint32_t)code, 0, 0);
    __builtin_unreachable();
}

static void write_fd(int fd, const void *p, size_t n)
{
    pico_sdk_syscall(WRITE, (uint32_t)fd, (uint32_t)(uintptr_t)p, n);
}

static void write_text(int fd, const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    write_fd(fd, s, n);
}

static uint8_t item[1024] __attribute__((aligned(8)));

/* The next stdin item into `item`; its length. A fresh buffer each time, as Pico wants. */
__attribute__((noinline)) size_t pico_sdk_read_item(void)
{
    static uint8_t buffers[8][1024] __attribute__((aligned(4)));
    static unsigned used;
    uint32_t len = pico_sdk_syscall(HINT_LEN, 0, 0, 0);
    if (len > sizeof(item) || used == 8)
        halt(9);
    uint8_t *buf = buffers[used++];
    pico_sdk_syscall(HINT_READ, (uint32_t)(uintptr_t)buf, len, 0);
    memcpy(item, buf, len);
    return len;
}

__attribute__((noinline)) void pico_sdk_sha256_compress(uint32_t w[64], uint32_t h[8])
{
    pico_sdk_syscall(SHA_EXTEND, (uint32_t)(uintptr_t)w, 0, 0);
    pico_sdk_syscall(SHA_COMPRESS, (uint32_t)(uintptr_t)w, (uint32_t)(uintptr_t)h, 0);
}

static void sha256_abc(uint8_t digest[32])
{
    static uint32_t w[64], h[8];
    sha256_pad_block((const uint8_t *)"abc", 3, w);
    for (int i = 0; i < 8; i++)
        h[i] = sha256_iv[i];
    pico_sdk_sha256_compress(w, h);
    sha256_state_bytes(h, digest);
}

/* Keccak-256 of the empty message: one block of padding (rate 136 bytes). */
static void keccak256_empty(uint8_t digest[32])
{
    static uint64_t state[25];
    memset(state, 0, sizeof(state));
    state[0] ^= 0x01;
    state[16] ^= 0x8000000000000000ull; /* byte 135 */
    pico_sdk_syscall(KECCAK_PERMUTE, (uint32_t)(uintptr_t)state, 0, 0);
    memcpy(digest, state, 32);
}

__attribute__((noinline)) static void full_run(void)
{
    static uint32_t x[8], ym[16];
    uint8_t sha[32], keccak[32];
    if (pico_sdk_read_item() != 32)
        halt(10);
    memcpy(x, item, 32);
    if (pico_sdk_read_item() != 64)
        halt(11);
    memcpy(ym, item, 64);

    write_text(1, "cycle-tracker-start: hashes\n");
    sha256_abc(sha);
    keccak256_empty(keccak);
    write_text(1, "cycle-tracker-end: hashes\n");
    pico_sdk_syscall(UINT256_MUL, (uint32_t)(uintptr_t)x, (uint32_t)(uintptr_t)ym, 0);

    write_fd(FD_PUBLIC_VALUES, sha, 32);
    write_fd(FD_PUBLIC_VALUES, keccak, 32);
    write_fd(FD_PUBLIC_VALUES, x, 32);
    for (int i = 0; i < 8; i++) {
        uint32_t word;
        memcpy(&word, sha + 4 * i, 4);
        pico_sdk_syscall(COMMIT, (uint32_t)i, word, 0);
    }
    write_text(1, "ok\n");
}

static void poseidon2_zero(void)
{
    static uint32_t in[16], out[16];
    pico_sdk_syscall(POSEIDON2_PERMUTE, (uint32_t)(uintptr_t)in, (uint32_t)(uintptr_t)out, 0);
    write_fd(FD_PUBLIC_VALUES, out, sizeof(out));
}

static void secp256k1_fp(void)
{
    static const uint32_t ops[3] = {SECP256K1_FP_MUL, SECP256K1_FP_ADD, SECP256K1_FP_SUB};
    static uint32_t x[8], y[8];
    if (pico_sdk_read_item() != 64)
        halt(10);
    for (int i = 0; i < 3; i++) {
        memcpy(x, item, 32);
        memcpy(y, item + 32, 32);
        pico_sdk_syscall(ops[i], (uint32_t)(uintptr_t)x, (uint32_t)(uintptr_t)y, 0);
        write_fd(FD_PUBLIC_VALUES, x, 32);
    }
}

/* Every stdin item left, each as [u32 length][bytes], to the public values. */
static void drain_items(unsigned count)
{
    for (unsigned i = 0; i < count; i++) {
        uint32_t n = (uint32_t)pico_sdk_read_item();
        write_fd(FD_PUBLIC_VALUES, &n, 4);
        write_fd(FD_PUBLIC_VALUES, item, n);
    }
}

/* As pico-sdk's syscall_enter_unconstrained: true inside the block, false after it. */
__attribute__((noinline)) int pico_sdk_enter_unconstrained(void)
{
    return pico_sdk_syscall(ENTER_UNCONSTRAINED, 0, 0, 0) == 1;
}

static uint32_t block_word = 5;

static void unconstrained_block(void)
{
    static const char pushed[] = "from-block";
    uint32_t entered = 0;
    if (pico_sdk_enter_unconstrained()) {
        entered = 1; /* undone at the exit, as every register is */
        block_word = 99;
        write_fd(FD_INPUT, pushed, sizeof(pushed) - 1);
        pico_sdk_syscall(EXIT_UNCONSTRAINED, 0, 0, 0);
    }
    __asm__ volatile("" : "+r"(entered));
    write_fd(FD_PUBLIC_VALUES, &entered, 4);
    write_fd(FD_PUBLIC_VALUES, &block_word, 4);
    drain_items(1);
}

static void hook(void)
{
    static uint8_t request[1024];
    size_t n = pico_sdk_read_item();
    memcpy(request, item, n);
    write_fd(request[0], request + 2, n - 2);
    drain_items(request[1]);
}

void pico_sdk_start(void)
{
    pico_sdk_read_item();
    switch (item[0]) {
    case 0: full_run(); break;
    case 1: poseidon2_zero(); break;
    case 2: secp256k1_fp(); break;
    case 3: halt(42);
    case 4: pico_sdk_syscall(HINT_READ, (uint32_t)(uintptr_t)item, 4, 0); break;
    case 5:
        write_text(FD_INPUT, "pushed");
        drain_items(item[1] + 1u);
        break;
    case 6: unconstrained_block(); break;
    case 7: hook(); break;
    case 8: {
        uint32_t call[3];
        pico_sdk_read_item();
        memcpy(call, item, sizeof(call));
        uint32_t t0 = pico_sdk_syscall(call[0], call[1], call[2], 0);
        write_fd(FD_PUBLIC_VALUES, &t0, sizeof(t0));
        break;
    }
    }
    halt(0);
}
