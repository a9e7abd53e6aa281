/*
 * zkvm_guest.h: what the test guests for the zkVM ABIs share, freestanding
 * (no libc: a zkVM's guest runtime is its own): byte helpers the compiler
 * may call, SHA-256 padding of one short message, and Keccak-256 padding.
 */
#ifndef GUESTS_ZKVM_ZKVM_GUEST_H
#define GUESTS_ZKVM_ZKVM_GUEST_H

#include <stddef.h>
#include <stdint.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

/* The SHA-256 initial hash value. */
/*
 * The start of every guest's `_start` (but lambda_vm's, whose guests start
 * with gp = 0): gp set without linker relaxation, as the zkVMs' own start
 * code does. Each guest goes on with its stack and its entry call.
 */
#define ZKVM_START_GP                                                                              \
    ".section .text._start, \"ax\"\n"                                                              \
    ".globl _start\n"                                                                              \
    "_start:\n"                                                                                    \
    ".option push\n"                                                                               \
    ".option norelax\n"                                                                            \
    "  la gp, __global_pointer$\n"                                                                 \
    ".option pop\n"

static const uint32_t sha256_iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

/* The one padded block of a message of at most 55 bytes, as 16 big-endian words. */
static inline void sha256_pad_block(const uint8_t *msg, size_t len, uint32_t w[16])
{
    uint8_t block[64];
    memset(block, 0, sizeof(block));
    memcpy(block, msg, len);
    block[len] = 0x80;
    block[63] = (uint8_t)(len * 8);
    block[62] = (uint8_t)(len * 8 >> 8);
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
               (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
}

/* The digest bytes of a SHA-256 state. */
static inline void sha256_state_bytes(const uint32_t h[8], uint8_t out[32])
{
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

/*
 * One load or store at byte `offset` of a 32-byte buffer holding bytes
 * 0, 1, ..., 31, by the instruction `op` names: 0 lb, 1 lh, 2 lhu, 3 lw,
 * 4 sb, 5 sh, 6 sw, on RV64 7 lwu, 8 ld, 9 sd, and with C 10 c.lw,
 * 11 c.sw, on RV64 12 c.ld, 13 c.sd (a store writes 0xff bytes). In
 * assembly, the 4-byte forms with C off, so that neither the compiler
 * nor the assembler changes the access. Returns what a load read, or the
 * buffer's first word after a store to it.
 */
#define NORVC(insn) ".option push\n.option norvc\n" insn "\n.option pop"
static inline uintptr_t access_once(uint32_t op, uint32_t offset)
{
    static uint8_t buf[32] __attribute__((aligned(8)));
    for (int i = 0; i < 32; i++)
        buf[i] = (uint8_t)i;
    register uint8_t *at __asm__("a1") = buf + (offset & 15); /* x8-x15 for the C forms */
    register uintptr_t v __asm__("a0") = 0;
    uintptr_t ones = ~(uintptr_t)0;
    switch (op) {
    case 0: __asm__ volatile(NORVC("lb %0, 0(%1)") : "=r"(v) : "r"(at) : "memory"); break;
    case 1: __asm__ volatile(NORVC("lh %0, 0(%1)") : "=r"(v) : "r"(at) : "memory"); break;
    case 2: __asm__ volatile(NORVC("lhu %0, 0(%1)") : "=r"(v) : "r"(at) : "memory"); break;
    case 3: __asm__ volatile(NORVC("lw %0, 0(%1)") : "=r"(v) : "r"(at) : "memory"); break;
    case 4: __asm__ volatile(NORVC("sb %0, 0(%1)") : : "r"(ones), "r"(at) : "memory"); break;
    case 5: __asm__ volatile(NORVC("sh %0, 0(%1)") : : "r"(ones), "r"(at) : "memory"); break;
    case 6: __asm__ volatile(NORVC("sw %0, 0(%1)") : : "r"(ones), "r"(at) : "memory"); break;
#if __riscv_xlen == 64
    case 7: __asm__ volatile(NORVC("lwu %0, 0(%1)") : "=r"(v) : "r"(at) : "memory"); break;
    case 8: __asm__ volatile(NORVC("ld %0, 0(%1)") : "=r"(v) : "r"(at) : "memory"); break;
    case 9: __asm__ volatile(NORVC("sd %0, 0(%1)") : : "r"(ones), "r"(at) : "memory"); break;
#endif
    }
#ifdef __riscv_compressed
    register uintptr_t c_ones __asm__("a2") = ones;
    switch (op) {
    case 10: __asm__ volatile("c.lw %0, 0(%1)" : "=r"(v) : "r"(at) : "memory"); break;
    case 11: __asm__ volatile("c.sw %0, 0(%1)" : : "r"(c_ones), "r"(at) : "memory"); break;
#if __riscv_xlen == 64
    case 12: __asm__ volatile("c.ld %0, 0(%1)" : "=r"(v) : "r"(at) : "memory"); break;
    case 13: __asm__ volatile("c.sd %0, 0(%1)" : : "r"(c_ones), "r"(at) : "memory"); break;
#endif
    }
#endif
    uintptr_t loaded = v, first; /* before the call below, which may reuse a0 */
    memcpy(&first, buf, sizeof(first));
    return op == 4 || op == 5 || op == 6 || op == 9 || op == 11 || op == 13 ? first : loaded;
}

#endif
