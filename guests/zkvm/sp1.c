/*
 * sp1: a guest written to SP1's conventions, as its sp1-zkvm crate does
 * it: _start sets gp and sp (0x0020_0400; v6, RV64: 0x7800_0000), calls
 * are `ecall` with the code in t0. The first stdin item is a mode byte:
 *   0  read two items (x, then y and a modulus), time a region with
 *      cycle-tracker lines, and write to the public values (fd 13):
 *      SHA-256("abc") by SHA_EXTEND/SHA_COMPRESS, Keccak-256("") by
 *      KECCAK_PERMUTE, x * y mod m by UINT256_MUL; COMMIT the SHA digest;
 *      say "ok" on stdout; halt 0
 *   1  call VERIFY_SP1_PROOF, which the executor does not implement
 *   2  load from past the end of SP1's memory
 *   3  halt with exit code 42
 *   4  HINT_READ with no item left
 *   5  as 0 with x = 3, y = 5, m = 7 of its own (one item in all)
 *   6  read a secp256k1 point G and a bn254 point H (x, y: 8 little-endian
 *      words each) and write 2G, 3G, 2H and x(2H) * y(2H) mod p
 *   7  an unconstrained block that overwrites a static word, 3 pages of a
 *      buffer and s1, and writes a hint to fd 14; after it: write the
 *      enter's result, the word, the buffer's sum, s1 and the hint read back
 *   8  ENTER_UNCONSTRAINED twice; 9  HINT_LEN inside a block
 *   10 write the next item's bytes after its first (the fd) to that fd
 *      (a hook), then write each stdin item left as [u32 length][bytes]
 *   11 call a precompile: the next item is [code][a1][a2][a3][a4] (u32 LE
 *      each; an argument with bit 31 set is that value less bit 31, else
 *      an offset into the data) and the data, which a0 points to; then
 *      write the data
 *   12 call the code in the next item [code][a0][a1] (u32 LE each, raw) and write t0
 *   13 the next item is [op][offset] (u32 LE each): make one access
 *      (zkvm_guest.h: access_once) and write its result (a register's bytes)
 * The functions are named sp1_zkvm_*, as the crate's symbols are.
 */
#include "sp1_guest.h"
#include "zkvm_guest.h"

#if __riscv_xlen == 64
#define STACK_TOP "0x78000000"
typedef uint64_t sha_slot; /* v6: a SHA-256 word is the low half of a u64 */
#else
#define STACK_TOP "0x00200400"
typedef uint32_t sha_slot;
#endif

__asm__(ZKVM_START_GP "  li sp, " STACK_TOP "\n"
                      "  call sp1_zkvm_start\n");

enum {
    HALT = 0x00000000,
    WRITE = 0x00000002,
    SHA_EXTEND = 0x00300105,
    SHA_COMPRESS = 0x00010106,
    KECCAK_PERMUTE = 0x00010109,
    VERIFY_SP1_PROOF = 0x0000001B,
    SECP256K1_ADD = 0x0001010A,
    SECP256K1_DOUBLE = 0x0000010B,
    BN254_DOUBLE = 0x0000010F,
    BN254_FP_MUL = 0x00010128,
    COMMIT = 0x00000010,
    UINT256_MUL = 0x0001011D,
    HINT_LEN = 0x000000F0,
    HINT_READ = 0x000000F1,
    ENTER_UNCONSTRAINED = 0x00000003,
    EXIT_UNCONSTRAINED = 0x00000004,
    FD_PUBLIC_VALUES = 13,
    FD_HINT = 14,
};

/* A call with five arguments (U256XU2048_MUL, the v6 UINT256_*_CARRY calls). */
__attribute__((noinline)) uintptr_t sp1_zkvm_syscall5(uintptr_t code, const uintptr_t arg[5])
{
    register uintptr_t t0 __asm__("t0") = code;
    register uintptr_t a0 __asm__("a0") = arg[0];
    register uintptr_t a1 __asm__("a1") = arg[1];
    register uintptr_t a2 __asm__("a2") = arg[2];
    register uintptr_t a3 __asm__("a3") = arg[3];
    register uintptr_t a4 __asm__("a4") = arg[4];
    __asm__ volatile("ecall" : "+r"(t0) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(a4) : "memory");
    return t0;
}

static void write_fd(int fd, const void *p, size_t n)
{
    sp1_zkvm_syscall(WRITE, (uintptr_t)fd, (uintptr_t)p, n);
}

static void write_text(int fd, const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    write_fd(fd, s, n);
}

static uint8_t item[1024] __attribute__((aligned(8)));

/* The next stdin item into `item`; its length. */
__attribute__((noinline)) size_t sp1_zkvm_read_item(void)
{
    uintptr_t len = sp1_zkvm_syscall(HINT_LEN, 0, 0, 0);
    if (len > sizeof(item) - 8)
        halt(9);
    sp1_zkvm_syscall(HINT_READ, (uintptr_t)item, len, 0);
    return len;
}

__attribute__((noinline)) void sp1_zkvm_sha256_compress(sha_slot w[64], sha_slot h[8])
{
    sp1_zkvm_syscall(SHA_EXTEND, (uintptr_t)w, 0, 0);
    sp1_zkvm_syscall(SHA_COMPRESS, (uintptr_t)w, (uintptr_t)h, 0);
}

static void sha256_abc(uint8_t digest[32])
{
    static sha_slot w[64], h[8];
    uint32_t block[16], state[8];
    sha256_pad_block((const uint8_t *)"abc", 3, block);
    for (int i = 0; i < 16; i++)
        w[i] = block[i];
    for (int i = 0; i < 8; i++)
        h[i] = sha256_iv[i];
    sp1_zkvm_sha256_compress(w, h);
    for (int i = 0; i < 8; i++)
        state[i] = (uint32_t)h[i];
    sha256_state_bytes(state, digest);
}

__attribute__((noinline)) void sp1_zkvm_keccak_permute(uint64_t state[25])
{
    sp1_zkvm_syscall(KECCAK_PERMUTE, (uintptr_t)state, 0, 0);
}

/* Keccak-256 of the empty message: one block of padding (rate 136 bytes). */
static void keccak256_empty(uint8_t digest[32])
{
    static uint64_t state[25];
    memset(state, 0, sizeof(state));
    state[0] ^= 0x01;
    state[16] ^= 0x8000000000000000ull; /* byte 135 */
    sp1_zkvm_keccak_permute(state);
    memcpy(digest, state, 32);
}

__attribute__((noinline)) static void full_run(int read_operands)
{
    static uint32_t x[8] = {3}, ym[16] = {5, [8] = 7}; /* mode 5: 3 * 5 mod 7 */
    uint8_t sha[32], keccak[32];
    if (read_operands) {
        if (sp1_zkvm_read_item() != 32)
            halt(10);
        memcpy(x, item, 32);
        if (sp1_zkvm_read_item() != 64)
            halt(11);
        memcpy(ym, item, 64);
    }

    write_text(1, "cycle-tracker-report-start: hashes");
    sha256_abc(sha);
    keccak256_empty(keccak);
    write_text(1, "cycle-tracker-report-end: hashes");
    sp1_zkvm_syscall(UINT256_MUL, (uintptr_t)x, (uintptr_t)ym, 0);

    write_fd(FD_PUBLIC_VALUES, sha, 32);
    write_fd(FD_PUBLIC_VALUES, keccak, 32);
    write_fd(FD_PUBLIC_VALUES, x, 32);
    for (int i = 0; i < 8; i++) {
        uint32_t word;
        memcpy(&word, sha + 4 * i, 4);
        sp1_zkvm_syscall(COMMIT, (uintptr_t)i, word, 0);
    }
    write_text(1, "ok\n");
}

static void curves(void)
{
    static uint32_t g[16], p[16], h[16];
    if (sp1_zkvm_read_item() != 64)
        halt(10);
    memcpy(g, item, 64);
    memcpy(p, item, 64);
    if (sp1_zkvm_read_item() != 64)
        halt(11);
    memcpy(h, item, 64);
    sp1_zkvm_syscall(SECP256K1_DOUBLE, (uintptr_t)p, 0, 0);
    write_fd(FD_PUBLIC_VALUES, p, 64);
    sp1_zkvm_syscall(SECP256K1_ADD, (uintptr_t)p, (uintptr_t)g, 0);
    write_fd(FD_PUBLIC_VALUES, p, 64);
    sp1_zkvm_syscall(BN254_DOUBLE, (uintptr_t)h, 0, 0);
    write_fd(FD_PUBLIC_VALUES, h, 64);
    sp1_zkvm_syscall(BN254_FP_MUL, (uintptr_t)h, (uintptr_t)(h + 8), 0);
    write_fd(FD_PUBLIC_VALUES, h, 32);
}

/* As sp1-zkvm's syscall_enter_unconstrained: true inside the block, false after it. */
__attribute__((noinline)) int sp1_zkvm_enter_unconstrained(void)
{
    return sp1_zkvm_syscall(ENTER_UNCONSTRAINED, 0, 0, 0) == 1;
}

static uint32_t block_word = 5;
static uint8_t block_buffer[3 * 4096 + 100];

static void unconstrained_block(void)
{
    static const char hint[] = "hint-from-block";
    register uintptr_t s1 __asm__("s1") = 0x1234;
    uintptr_t entered = 0;
    __asm__ volatile("" : "+r"(s1));
    for (size_t i = 0; i < sizeof(block_buffer); i++)
        block_buffer[i] = (uint8_t)i;
    if (sp1_zkvm_enter_unconstrained()) {
        entered = 1; /* undone at the exit, as every register is */
        block_word = 99;
        memset(block_buffer, 0xee, sizeof(block_buffer));
        __asm__ volatile("li s1, 0x777" : "+r"(s1));
        write_fd(FD_HINT, hint, sizeof(hint) - 1);
        sp1_zkvm_syscall(EXIT_UNCONSTRAINED, 0, 0, 0);
    }
    __asm__ volatile("" : "+r"(s1), "+r"(entered));
    uint32_t sum = 0, regs[2] = {(uint32_t)entered, (uint32_t)s1};
    for (size_t i = 0; i < sizeof(block_buffer); i++)
        sum += block_buffer[i];
    write_fd(FD_PUBLIC_VALUES, regs, sizeof(regs));
    write_fd(FD_PUBLIC_VALUES, &block_word, 4);
    write_fd(FD_PUBLIC_VALUES, &sum, 4);
    size_t n = sp1_zkvm_read_item();
    write_fd(FD_PUBLIC_VALUES, item, n);
}

/* Every stdin item left, each as [u32 length][bytes], to the public values. */
static void drain_items(void)
{
    while (sp1_zkvm_syscall(HINT_LEN, 0, 0, 0) != (uintptr_t)-1) {
        uint32_t n = (uint32_t)sp1_zkvm_read_item();
        write_fd(FD_PUBLIC_VALUES, &n, 4);
        write_fd(FD_PUBLIC_VALUES, item, n);
    }
}

static void hook(void)
{
    static uint8_t request[1024];
    size_t n = sp1_zkvm_read_item();
    memcpy(request, item, n);
    write_fd(request[0], request + 1, n - 1);
    drain_items();
}

static void precompile(void)
{
    static uint8_t data[1024] __attribute__((aligned(8)));
    uint32_t head[5];
    size_t n = sp1_zkvm_read_item();
    memcpy(head, item, sizeof(head));
    memcpy(data, item + sizeof(head), n - sizeof(head));
    uintptr_t arg[5] = {(uintptr_t)data};
    for (int i = 1; i < 5; i++)
        arg[i] = head[i] >> 31 ? head[i] & 0x7fffffffu : (uintptr_t)(data + head[i]);
    sp1_zkvm_syscall5(head[0], arg);
    write_fd(FD_PUBLIC_VALUES, data, n - sizeof(head));
}

void sp1_zkvm_start(void)
{
    sp1_zkvm_read_item();
    switch (item[0]) {
    case 0: full_run(1); break;
    case 1: sp1_zkvm_syscall(VERIFY_SP1_PROOF, (uintptr_t)item, (uintptr_t)item, 0); break;
    case 2: {
        volatile uint32_t *past_the_end = (volatile uint32_t *)(uintptr_t)0x78001000u;
        halt((int)*past_the_end);
    }
    case 3: halt(42);
    case 4: sp1_zkvm_syscall(HINT_READ, (uintptr_t)item, 4, 0); break;
    case 5: full_run(0); break;
    case 6: curves(); break;
    case 7: unconstrained_block(); break;
    case 8:
        sp1_zkvm_enter_unconstrained();
        sp1_zkvm_enter_unconstrained();
        break;
    case 9:
        if (sp1_zkvm_enter_unconstrained())
            sp1_zkvm_syscall(HINT_LEN, 0, 0, 0);
        break;
    case 10: hook(); break;
    case 11: precompile(); break;
    case 12: {
        uint32_t call[3];
        sp1_zkvm_read_item();
        memcpy(call, item, sizeof(call));
        uintptr_t t0 = sp1_zkvm_syscall(call[0], call[1], call[2], 0);
        write_fd(FD_PUBLIC_VALUES, &t0, sizeof(t0));
        break;
    }
    case 13: {
        uint32_t at[2];
        sp1_zkvm_read_item();
        memcpy(at, item, sizeof(at));
        uintptr_t v = access_once(at[0], at[1]);
        write_fd(FD_PUBLIC_VALUES, &v, sizeof(v));
        break;
    }
    }
    halt(0);
}
