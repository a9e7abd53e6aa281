/*
 * risc0: a guest written to RISC Zero's conventions, as its
 * risc0-zkvm-platform crate does it: _start sets gp and sp (0x0020_0400),
 * an ecall's kind is in t0, software calls name themselves by a string at
 * a2. Standard input (fd 0) starts with a mode byte:
 *   0  read 32 + 64 more bytes (x, then y and a modulus: the first with
 *      whole words in a1 as the 1.x platform does, the second with a
 *      byte count in a1 as later ones do), and write to the journal
 *      (fd 3): SHA-256("abc") by the SHA ecall and x * y mod m by BIGINT;
 *      log a line, say "ok" on stdout, halt 0 with the SHA digest as the
 *      output digest
 *   1  an ecall of kind USER, which the executor does not implement
 *   2  load from past the end of user memory
 *   3  panic with the message "boom"
 *   4  halt with exit code 7
 *   5  BIGINT2: read u32 blob words, u32 words per operand (at most 128),
 *      the blob (its 4-word header, then the programs and constants), the
 *      six operands; call the blob with a1-a6 at the operands (sp lowered
 *      by the blob's temporary space, as the platform does) and write the
 *      operands to the journal
 *   6  POSEIDON2: read u32 use-state, u32 calls, then per call u32 flags
 *      (a3) and u32 words and the input words; call with word addresses,
 *      the state (when used) and output kept across calls; write the
 *      output and the state (8 words each) to the journal
 *   7  INPUT: read a u32 index, write the word the call returns
 *   8  SYS_ARGC, then SYS_ARGV: write argc, read a u32 index and ask for
 *      that argument (with none, the executor faults)
 *   9  SYS_VERIFY_INTEGRITY (u32 1) or 2 (u32 2): read u32 a4 and 64
 *      bytes (a claim digest and a control root), write what a0 returns
 *  10  SYS_KECCAK permutations: read u32 length and a message, write its
 *      SHA3-256 (a sponge over the call's Keccak-f[1600])
 *  11  SYS_KECCAK batches: read u32 permutations, u32 prove-every (0:
 *      never), u32 mode of the permute calls; permute one state again
 *      and again, proving (mode 1) every so many; write how many calls
 *      returned 1 (batch full), the first that did (~0: none), the state
 *  12  SYS_PIPE: make a pipe, write the bytes read (u32 length, bytes)
 *      into it in two writes, read them back with 4 more asked; write
 *      the call's a0, both fds, the bytes read back, their count, and a
 *      second pipe's fd
 *  13  a software call named by input (u32 length, the name): write a0
 *  14  read u32 op and u32 offset, make one access (zkvm_guest.h:
 *      access_once) and write its result
 * The functions are named risc0_zkvm_platform_*, as the crate's are.
 */
#include "zkvm_guest.h"

__asm__(ZKVM_START_GP "  li sp, 0x00200400\n"
                      "  call risc0_zkvm_platform_start\n");

enum {
    HALT = 0,
    INPUT = 1,
    SOFTWARE = 2,
    SHA = 3,
    BIGINT = 4,
    USER = 5,
    BIGINT2 = 6,
    POSEIDON2 = 7
};
enum { JOURNAL = 3, ARG_WORDS = 128, BLOB_WORDS = 4096 };

#define NR "risc0_zkvm_platform::syscall::nr::"

struct ret2 {
    uint32_t a0, a1;
};

__attribute__((noinline)) struct ret2 risc0_zkvm_platform_ecall(uint32_t kind, uint32_t arg0,
                                                                uint32_t arg1, uint32_t arg2,
                                                                uint32_t arg3, uint32_t arg4,
                                                                uint32_t arg5)
{
    register uint32_t t0 __asm__("t0") = kind;
    register uint32_t a0 __asm__("a0") = arg0;
    register uint32_t a1 __asm__("a1") = arg1;
    register uint32_t a2 __asm__("a2") = arg2;
    register uint32_t a3 __asm__("a3") = arg3;
    register uint32_t a4 __asm__("a4") = arg4;
    register uint32_t a5 __asm__("a5") = arg5;
    __asm__ volatile("ecall"
                     : "+r"(a0), "+r"(a1)
                     : "r"(t0), "r"(a2), "r"(a3), "r"(a4), "r"(a5)
                     : "memory");
    return (struct ret2){a0, a1};
}

static struct ret2 software(const char *name, void *buf, uint32_t words, uint32_t a3, uint32_t a4,
                            uint32_t a5)
{
    return risc0_zkvm_platform_ecall(SOFTWARE, (uint32_t)(uintptr_t)buf, words,
                                     (uint32_t)(uintptr_t)name, a3, a4, a5);
}

static void write_fd(int fd, const void *p, size_t n)
{
    software(NR "SYS_WRITE", 0, 0, (uint32_t)fd, (uint32_t)(uintptr_t)p, n);
}

__attribute__((noreturn)) static void halt(int code, const uint32_t digest[8])
{
    risc0_zkvm_platform_ecall(HALT, (uint32_t)code << 8, (uint32_t)(uintptr_t)digest, 0, 0, 0, 0);
    __builtin_unreachable();
}

static const uint32_t zero_digest[8];
static uint32_t x[8], ym[16], out_digest[8];
static uint8_t mode[4];

/* Reads n bytes (a multiple of 4) from fd 0, the 1.x way: whole words in a1. */
__attribute__((noinline)) uint32_t risc0_zkvm_platform_read_words(void *buf, uint32_t n)
{
    return software(NR "SYS_READ", buf, n / 4, 0, n, 0).a0;
}

/* Reads n bytes from fd 0 the later way: a byte count in a1 as in a4. */
__attribute__((noinline)) uint32_t risc0_zkvm_platform_read_bytes(void *buf, uint32_t n)
{
    return software(NR "SYS_READ", buf, n, 0, n, 0).a0;
}

static void full_run(void)
{
    static uint32_t block[16], state_in[8], state_out[8];
    uint8_t sha[32];
    if (risc0_zkvm_platform_read_words(x, 32) != 32)
        halt(10, zero_digest);
    if (risc0_zkvm_platform_read_bytes(ym, 64) != 64)
        halt(11, zero_digest);

    sha256_pad_block((const uint8_t *)"abc", 3, block);
    /* The SHA ecall takes states and blocks as the bytes of big-endian words. */
    uint8_t iv[32];
    sha256_state_bytes(sha256_iv, iv);
    memcpy(state_in, iv, 32);
    uint8_t block_bytes[64];
    sha256_state_bytes(block, block_bytes);
    sha256_state_bytes(block + 8, block_bytes + 32);
    memcpy(block, block_bytes, 64);
    risc0_zkvm_platform_ecall(SHA, (uint32_t)(uintptr_t)state_out, (uint32_t)(uintptr_t)state_in,
                              (uint32_t)(uintptr_t)block, (uint32_t)(uintptr_t)(block + 8), 1, 0);
    memcpy(sha, state_out, 32);

    static uint32_t z[8];
    risc0_zkvm_platform_ecall(BIGINT, (uint32_t)(uintptr_t)z, 0, (uint32_t)(uintptr_t)x,
                              (uint32_t)(uintptr_t)ym, (uint32_t)(uintptr_t)(ym + 8), 0);
    write_fd(JOURNAL, sha, 32);
    write_fd(JOURNAL, z, 32);
    static const char line[] = "hello from the log";
    software(NR "SYS_LOG", 0, 0, (uint32_t)(uintptr_t)line, sizeof(line) - 1, 0);
    write_fd(1, "ok\n", 3);
    memcpy(out_digest, sha, 32);
    halt(0, out_digest);
}

static uint32_t read_u32(void)
{
    uint32_t v = 0;
    if (risc0_zkvm_platform_read_bytes(&v, 4) != 4)
        halt(13, zero_digest);
    return v;
}

static void read_exact(void *buf, uint32_t n)
{
    if (risc0_zkvm_platform_read_bytes(buf, n) != n)
        halt(14, zero_digest);
}

/* Reads up to n bytes of fd (a byte count in a1), as sys_read does. */
static uint32_t read_from(uint32_t fd, void *buf, uint32_t n)
{
    return software(NR "SYS_READ", buf, n, fd, n, 0).a0;
}

static void write_u32(uint32_t v)
{
    write_fd(JOURNAL, &v, 4);
}

static void args_run(void)
{
    static uint32_t arg[4];
    write_u32(software(NR "SYS_ARGC", 0, 0, 0, 0, 0).a0);
    software(NR "SYS_ARGV", arg, 4, read_u32(), 0, 0);
}

static void verify_run(void)
{
    static uint32_t claim[16];
    uint32_t which = read_u32(), len = read_u32();
    read_exact(claim, sizeof(claim));
    const char *name = which == 2 ? NR "SYS_VERIFY_INTEGRITY2" : NR "SYS_VERIFY_INTEGRITY";
    write_u32(software(name, 0, 0, (uint32_t)(uintptr_t)claim, len, 0).a0);
}

/* As sys_keccak (3.x): mode 0 permutes the lanes at in into out; a0 says the batch is full. */
__attribute__((noinline)) uint32_t risc0_zkvm_platform_sys_keccak(const uint64_t *in, uint64_t *out,
                                                                  uint32_t mode)
{
    return software(NR "SYS_KECCAK", out, 50, mode, (uint32_t)(uintptr_t)in, 0).a0;
}

/* As sys_prove_keccak (3.x): SYS_KECCAK mode 1 with a claim digest and a control root. */
__attribute__((noinline)) uint32_t risc0_zkvm_platform_sys_prove_keccak(const uint32_t *claim,
                                                                        const uint32_t *root)
{
    return software(NR "SYS_KECCAK", 0, 0, 1, (uint32_t)(uintptr_t)claim, (uint32_t)(uintptr_t)root)
        .a0;
}

enum { SHA3_RATE = 136, MAX_MESSAGE = 1024 };

static void sha3_run(void)
{
    static uint8_t msg[MAX_MESSAGE + SHA3_RATE];
    static uint64_t state[25];
    uint32_t len = read_u32();
    if (len > MAX_MESSAGE)
        halt(15, zero_digest);
    read_exact(msg, len);
    uint32_t padded = (len / SHA3_RATE + 1) * SHA3_RATE;
    memset(msg + len, 0, padded - len);
    msg[len] = 0x06; /* SHA-3's domain bits and the first pad bit */
    msg[padded - 1] |= 0x80;
    for (uint32_t b = 0; b < padded; b += SHA3_RATE) {
        uint8_t *lanes = (uint8_t *)state;
        for (uint32_t i = 0; i < SHA3_RATE; i++)
            lanes[i] ^= msg[b + i];
        risc0_zkvm_platform_sys_keccak(state, state, 0);
    }
    write_fd(JOURNAL, state, 32);
}

static void keccak_batch_run(void)
{
    static uint64_t state[25];
    static const uint32_t claim[8] = {1}, root[8] = {2};
    uint32_t count = read_u32(), every = read_u32(), mode = read_u32();
    uint32_t full = 0, first_full = ~0u;
    for (uint32_t i = 0; i < count; i++) {
        if (risc0_zkvm_platform_sys_keccak(state, state, mode)) {
            full++;
            if (first_full == ~0u)
                first_full = i;
        }
        if (every && (i + 1) % every == 0)
            risc0_zkvm_platform_sys_prove_keccak(claim, root);
    }
    write_u32(full);
    write_u32(first_full);
    write_fd(JOURNAL, state, sizeof(state));
}

static void pipe_run(void)
{
    static uint32_t fds[2], more[2];
    static uint8_t data[256], back[260];
    uint32_t made = software(NR "SYS_PIPE", fds, 2, 0, 0, 0).a0, n = read_u32();
    if (n > sizeof(data))
        halt(15, zero_digest);
    read_exact(data, n);
    software(NR "SYS_WRITE", 0, 0, fds[1], (uint32_t)(uintptr_t)data, n / 2);
    software(NR "SYS_WRITE", 0, 0, fds[1], (uint32_t)(uintptr_t)(data + n / 2), n - n / 2);
    uint32_t got = read_from(fds[0], back, n + 4);
    software(NR "SYS_PIPE", more, 2, 0, 0, 0);
    write_u32(made);
    write_fd(JOURNAL, fds, 8);
    write_u32(got);
    write_fd(JOURNAL, back, got);
    write_u32(more[0]);
}

static void named_call_run(void)
{
    static char name[100];
    uint32_t len = read_u32();
    if (len >= sizeof(name))
        halt(15, zero_digest);
    read_exact(name, len);
    write_u32(software(name, 0, 0, 0, 0, 0).a0);
}

/* As risc0-zkvm-platform's sys_bigint2_6: the blob's temporary space comes off sp. */
__attribute__((noinline)) void risc0_zkvm_platform_sys_bigint2_6(const uint32_t *blob,
                                                                 uint32_t *const args[6])
{
    register uint32_t t0 __asm__("t0") = BIGINT2;
    register const uint32_t *t1 __asm__("t1") = blob + 4;
    register const uint32_t *t2 __asm__("t2") = blob + 4 + blob[0];
    register const uint32_t *t3 __asm__("t3") = blob + 4 + blob[0] + blob[1];
    register const uint32_t *a0 __asm__("a0") = blob;
    register uint32_t *a1 __asm__("a1") = args[0];
    register uint32_t *a2 __asm__("a2") = args[1];
    register uint32_t *a3 __asm__("a3") = args[2];
    register uint32_t *a4 __asm__("a4") = args[3];
    register uint32_t *a5 __asm__("a5") = args[4];
    register uint32_t *a6 __asm__("a6") = args[5];
    uint32_t temp = blob[3] << 2;
    __asm__ volatile("sub sp, sp, %[temp]\n"
                     "ecall\n"
                     "add sp, sp, %[temp]"
                     :
                     : [temp] "r"(temp), "r"(t0), "r"(t1), "r"(t2), "r"(t3), "r"(a0), "r"(a1),
                       "r"(a2), "r"(a3), "r"(a4), "r"(a5), "r"(a6)
                     : "memory");
}

static void bigint2_run(void)
{
    static uint32_t blob[BLOB_WORDS], args[6][ARG_WORDS];
    uint32_t blob_words = read_u32(), arg_words = read_u32();
    if (blob_words > BLOB_WORDS || arg_words > ARG_WORDS)
        halt(15, zero_digest);
    read_exact(blob, 4 * blob_words);
    uint32_t *ptrs[6];
    for (int i = 0; i < 6; i++) {
        read_exact(args[i], 4 * arg_words);
        ptrs[i] = args[i];
    }
    risc0_zkvm_platform_sys_bigint2_6(blob, ptrs);
    for (int i = 0; i < 6; i++)
        write_fd(JOURNAL, args[i], 4 * arg_words);
}

/* As sys_poseidon2: word addresses in a0-a2. */
__attribute__((noinline)) void risc0_zkvm_platform_sys_poseidon2(uint32_t *state,
                                                                 const uint32_t *in, uint32_t *out,
                                                                 uint32_t flags)
{
    risc0_zkvm_platform_ecall(POSEIDON2, (uint32_t)(uintptr_t)state / 4,
                              (uint32_t)(uintptr_t)in / 4, (uint32_t)(uintptr_t)out / 4, flags, 0,
                              0);
}

static void poseidon2_run(void)
{
    static uint32_t state[8], out[8], in[512];
    uint32_t use_state = read_u32(), calls = read_u32();
    for (uint32_t c = 0; c < calls; c++) {
        uint32_t flags = read_u32(), words = read_u32();
        if (words > 512)
            halt(15, zero_digest);
        read_exact(in, 4 * words);
        risc0_zkvm_platform_sys_poseidon2(use_state ? state : 0, in, out, flags);
    }
    write_fd(JOURNAL, out, 32);
    write_fd(JOURNAL, state, 32);
}

void risc0_zkvm_platform_start(void)
{
    if (risc0_zkvm_platform_read_bytes(mode, 1) != 1)
        halt(12, zero_digest);
    switch (mode[0]) {
    case 0: full_run(); break;
    case 1: risc0_zkvm_platform_ecall(USER, 0, 0, 0, 0, 0, 0); break;
    case 2: halt((int)*(volatile uint32_t *)(uintptr_t)0xC0000000u, zero_digest);
    case 3: {
        static const char boom[] = "boom";
        software(NR "SYS_PANIC", 0, 0, (uint32_t)(uintptr_t)boom, 4, 0);
        break;
    }
    case 4: halt(7, zero_digest);
    case 5: bigint2_run(); break;
    case 6: poseidon2_run(); break;
    case 7: {
        uint32_t word = risc0_zkvm_platform_ecall(INPUT, read_u32(), 0, 0, 0, 0, 0).a0;
        write_fd(JOURNAL, &word, 4);
        break;
    }
    case 8: args_run(); break;
    case 9: verify_run(); break;
    case 10: sha3_run(); break;
    case 11: keccak_batch_run(); break;
    case 12: pipe_run(); break;
    case 13: named_call_run(); break;
    case 14: { /* one access (zkvm_guest.h: access_once), its result in the journal */
        uint32_t op = read_u32(), offset = read_u32();
        uint32_t v = (uint32_t)access_once(op, offset);
        write_fd(JOURNAL, &v, 4);
        break;
    }
    }
    halt(0, zero_digest);
}
