/*
 * openvm64: a guest written to OpenVM's RV64 conventions (2.1: the
 * v2.1.0-preview tag, the perf/ecc-projective-coord branch): the memory
 * map and custom-0 encodings of the RV32 releases (openvm.c), with a
 * register's 8 bytes as the unit of the hint stream and public values:
 * an input item is its length as a u64, then its bytes padded to 8
 * (HintInput, HINT_STORED, HINT_BUFFER in dwords), REVEAL stores a
 * dword, HintRandom gives dwords. The first item's first byte is a mode:
 *   0  reveal, dword by dword from public value 0: the rest of the first
 *      item (zero-padded to 8 bytes); the SHA-256 compress (custom-0
 *      funct3 4 funct7 2) of the initial state with the padded block of
 *      "abc"; the SHA-512 compress (funct7 3) likewise; the first 8
 *      bytes of Keccak-f (funct7 0) on the zero state; an 8-byte load at
 *      an odd address after an 8-byte store there; print "ok\n", take
 *      two random dwords (HintRandom); terminate 0
 *   1  HintInput with no item left
 *   2  REVEAL at a negative imm from public value 16: reveal 8 at 0
 *      first, then 7 at [16] - 8
 * The functions are named openvm_*, as the crates' symbols are.
 */
#include "openvm_guest.h"

__attribute__((noinline)) void openvm_sha256_compress(const void *state, const void *block,
                                                      void *out)
{
    __asm__ volatile(".insn r 0x0b, 4, 2, %0, %1, %2"
                     :
                     : "r"(out), "r"(state), "r"(block)
                     : "memory");
}

__attribute__((noinline)) void openvm_sha512_compress(const void *state, const void *block,
                                                      void *out)
{
    __asm__ volatile(".insn r 0x0b, 4, 3, %0, %1, %2"
                     :
                     : "r"(out), "r"(state), "r"(block)
                     : "memory");
}

__attribute__((noinline)) void openvm_keccakf(void *state)
{
    __asm__ volatile(".insn r 0x0b, 4, 0, %0, x0, x0" : : "r"(state) : "memory");
}

__attribute__((noinline)) void openvm_print_str(const char *s, uint64_t len)
{
    __asm__ volatile(".insn i 0x0b, 3, %0, %1, 1" : : "r"(s), "r"(len) : "memory");
}

__attribute__((noinline)) void openvm_hint_random(uint64_t dwords)
{
    __asm__ volatile(".insn i 0x0b, 3, %0, x0, 2" : : "r"(dwords) : "memory");
}

static const uint64_t sha512_iv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                      0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                      0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

/* SHA-256 and SHA-512 of "abc" by one compress each, the digests revealed. */
static void sha2_abc(void)
{
    static uint8_t block[128] __attribute__((aligned(8)));
    static uint32_t h32[8] __attribute__((aligned(8)));
    static uint64_t h64[8];
    uint8_t digest[64];
    memset(block, 0, sizeof(block));
    memcpy(block, "abc", 3);
    block[3] = 0x80;
    block[63] = 24;
    openvm_sha256_compress(sha256_iv, block, h32); /* the state: u32 words, little-endian */
    sha256_state_bytes(h32, digest);
    reveal_bytes(digest, 32);
    block[63] = 0;
    block[127] = 24;
    openvm_sha512_compress(sha512_iv, block, h64);
    for (int i = 0; i < 64; i++)
        digest[i] = (uint8_t)(h64[i / 8] >> (56 - 8 * (i % 8)));
    reveal_bytes(digest, 64);
}

/* An 8-byte store and load at an odd address: RV64 OpenVM takes them. */
__attribute__((noinline)) uint64_t openvm_misaligned(uint64_t v)
{
    static uint8_t buf[24] __attribute__((aligned(8)));
    register uint8_t *at = buf + 3;
    uint64_t r;
    __asm__ volatile("sd %1, 0(%2)\n  ld %0, 0(%2)" : "=&r"(r) : "r"(v), "r"(at) : "memory");
    return r;
}

__attribute__((noreturn)) void openvm_main(void)
{
    static uint8_t item[256] __attribute__((aligned(8)));
    static uint64_t keccak_state[25];
    uint64_t len = openvm_read_vec(item, sizeof(item));
    switch (len ? item[0] : 0) {
    case 0:
        if (len > 1) {
            memset(item + len, 0, 8);
            reveal_bytes(item + 1, (len - 1 + 7) / 8 * 8);
        }
        sha2_abc();
        openvm_keccakf(keccak_state);
        openvm_reveal_u64(keccak_state[0]);
        openvm_reveal_u64(openvm_misaligned(0x0123456789abcdefull));
        openvm_print_str("ok\n", 3);
        openvm_hint_random(2);
        openvm_hint_dword();
        openvm_hint_dword();
        openvm_terminate_ok();
    case 1: openvm_read_vec(item, sizeof(item)); openvm_terminate_ok();
    case 2: {
        uint64_t at = 16;
        openvm_reveal_u64(8);
        __asm__ volatile(".insn i 0x0b, 2, %0, %1, -8" : : "r"(at), "r"(7ull) : "memory");
        openvm_terminate_ok();
    }
    default: openvm_terminate_42();
    }
}
