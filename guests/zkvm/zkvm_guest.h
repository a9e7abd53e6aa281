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

#endif
