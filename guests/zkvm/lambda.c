/*
 * lambda: a guest written to lambda_vm's conventions, as its
 * lambda_vm_syscalls crate does it: _start keeps the stack lambda_vm
 * gives (sp = 0xFFFF_FFFF_FFFF_FFF0, every other register 0), calls main
 * and halts; calls are `ecall` with the number in a7; memcpy is done by
 * DmaMemcpy calls of at most 256 bytes; the private input is read in
 * place at 0xFF00_0000 (a u32 length, then the bytes). Its first byte is
 * a mode:
 *   0  commit, in order: the rest of the input (copied with memcpy),
 *      Keccak-256("") by KeccakPermute, SHA-256("abc") by Sha256, the
 *      hints 3^-1 mod p, 3^-1 mod n and sqrt(4) mod p; print "ok"; halt 0
 *   1  a call number lambda_vm does not have
 *   2  panic with "boom"
 *   3  load a doubleword that runs past the top of the 64-bit space
 *   4  halt with code 42
 *   5  jump to address 0, which ends the run
 *   6  load from 4 GiB, above what the executor holds of lambda_vm's memory
 *   7  secp256k1 scalar multiplications: records of a kind byte, then k,
 *      xG, yG (32 bytes little-endian each); kind 0 commits Ecsm's xR, 1
 *      EcsmAffine's xR yR, 2 the same written over the input point; 3
 *      passes k inside the point, 4 an xG that crosses 4 GiB (both faults)
 * The functions are named lambda_vm_syscalls_*, as the crate's symbols are.
 */
#include "zkvm_guest.h"

__asm__(".section .text._start, \"ax\"\n"
        ".globl _start\n"
        "_start:\n"
        "  call lambda_vm_syscalls_main\n"
        "  li a0, 0\n"
        "  li a7, 93\n"
        "  ecall\n"
        ".previous\n");

enum {
    PRINT = 1,
    PANIC = 2,
    COMMIT = 64,
    HALT = 93,
    DMA_MAX = 256,
    HINT_FIELD_INV = 0,
    HINT_SCALAR_INV = 1,
    HINT_FIELD_SQRT = 2,
};

#define SHA256_CALL   (~0ul)
#define KECCAK_CALL   (~0ul - 1)
#define DMA_MEMCPY    (~0ul - 2)
#define HINT_CALL     (~0ul - 30)
#define ECSM          (~0ul - 10)
#define ECSM_AFFINE   (~0ul - 11)
#define PRIVATE_INPUT 0xFF000000ul

__attribute__((noinline)) void lambda_vm_syscalls_ecall(uintptr_t nr, uintptr_t arg0,
                                                        uintptr_t arg1, uintptr_t arg2)
{
    register uintptr_t a7 __asm__("a7") = nr;
    register uintptr_t a0 __asm__("a0") = arg0;
    register uintptr_t a1 __asm__("a1") = arg1;
    register uintptr_t a2 __asm__("a2") = arg2;
    __asm__ volatile("ecall" : : "r"(a7), "r"(a0), "r"(a1), "r"(a2) : "memory");
}

__attribute__((noinline)) void *memcpy(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    while (n) {
        size_t chunk = n < DMA_MAX ? n : DMA_MAX;
        lambda_vm_syscalls_ecall(DMA_MEMCPY, (uintptr_t)d, (uintptr_t)s, chunk);
        d += chunk;
        s += chunk;
        n -= chunk;
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    volatile uint8_t *d = dst;
    while (n--)
        *d++ = (uint8_t)c;
    return dst;
}

__attribute__((noreturn)) static void halt(int code)
{
    lambda_vm_syscalls_ecall(HALT, (uintptr_t)code, 0, 0);
    __builtin_unreachable();
}

static void commit(const void *p, size_t n)
{
    lambda_vm_syscalls_ecall(COMMIT, 1, (uintptr_t)p, n);
}

static size_t length(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

__attribute__((noinline)) void lambda_vm_syscalls_print_string(const char *s)
{
    lambda_vm_syscalls_ecall(PRINT, (uintptr_t)s, length(s), 0);
}

static uint8_t echo[1024];

/* The input after the mode byte, copied out of the input region and committed. */
__attribute__((noinline)) static void commit_input(uint32_t len, const uint8_t *bytes)
{
    if (len - 1 > sizeof(echo))
        halt(9);
    memcpy(echo, bytes + 1, len - 1);
    commit(echo, len - 1);
}

/* Keccak-256 of the empty message: one block of padding (rate 136 bytes). */
__attribute__((noinline)) static void commit_keccak256_empty(void)
{
    static uint64_t state[25];
    memset(state, 0, sizeof(state));
    state[0] ^= 0x01;
    state[16] ^= 0x8000000000000000ull; /* byte 135 */
    lambda_vm_syscalls_ecall(KECCAK_CALL, (uintptr_t)state, 0, 0);
    commit(state, 32);
}

/* SHA-256("abc"): one compression of the padded block into the big-endian state. */
__attribute__((noinline)) static void commit_sha256_abc(void)
{
    uint8_t state[32], block[64];
    uint32_t w[16];
    sha256_state_bytes(sha256_iv, state);
    sha256_pad_block((const uint8_t *)"abc", 3, w);
    for (int i = 0; i < 64; i++)
        block[i] = (uint8_t)(w[i / 4] >> (24 - 8 * (i % 4)));
    lambda_vm_syscalls_ecall(SHA256_CALL, (uintptr_t)state, (uintptr_t)block, 0);
    commit(state, 32);
}

/* The hint of the small number x (32 bytes, big-endian). */
__attribute__((noinline)) static void commit_hint(unsigned kind, uint8_t x)
{
    uint8_t in[32] = {0}, out[32];
    in[31] = x;
    lambda_vm_syscalls_ecall(HINT_CALL, kind, (uintptr_t)in, (uintptr_t)out);
    commit(out, 32);
}

enum { ECSM_RECORD = 1 + 3 * 32 };

/* Mode 7: one Ecsm or EcsmAffine call per record of the input (see the top). */
__attribute__((noinline)) static void commit_ecsm(uint32_t len, const uint8_t *bytes)
{
    static uint8_t k[32], point[64], out[64];
    for (uint32_t at = 1; at + ECSM_RECORD <= len; at += ECSM_RECORD) {
        memcpy(k, bytes + at + 1, sizeof(k));
        memcpy(point, bytes + at + 33, sizeof(point));
        uintptr_t pk = (uintptr_t)k, pp = (uintptr_t)point, po = (uintptr_t)out;
        switch (bytes[at]) {
        case 0:
            lambda_vm_syscalls_ecall(ECSM, po, pp, pk);
            commit(out, 32);
            break;
        case 1:
            lambda_vm_syscalls_ecall(ECSM_AFFINE, po, pp, pk);
            commit(out, 64);
            break;
        case 2:
            lambda_vm_syscalls_ecall(ECSM_AFFINE, pp, pp, pk);
            commit(point, 64);
            break;
        case 3: lambda_vm_syscalls_ecall(ECSM_AFFINE, po, pp, pp + 32); break;
        case 4: lambda_vm_syscalls_ecall(ECSM, po, 0xFFFFFFE8ul, pk); break;
        }
    }
}

void lambda_vm_syscalls_main(void)
{
    uint32_t len = *(volatile uint32_t *)PRIVATE_INPUT;
    const uint8_t *bytes = (const uint8_t *)(PRIVATE_INPUT + 4);
    if (len == 0)
        halt(8);
    switch (bytes[0]) {
    case 0:
        commit_input(len, bytes);
        commit_keccak256_empty();
        commit_sha256_abc();
        commit_hint(HINT_FIELD_INV, 3);
        commit_hint(HINT_SCALAR_INV, 3);
        commit_hint(HINT_FIELD_SQRT, 4);
        lambda_vm_syscalls_print_string("ok");
        return;
    case 1: lambda_vm_syscalls_ecall(12345, 0, 0, 0); break;
    case 2: lambda_vm_syscalls_ecall(PANIC, (uintptr_t) "boom", 4, 0); break;
    case 3: { /* an `ld`, which GCC would split into two in-range words */
        uint64_t v;
        __asm__ volatile("ld %0, -4(zero)" : "=r"(v));
        halt((int)v);
    }
    case 4: halt(42);
    case 5: __asm__ volatile("jr zero"); break;
    case 6: halt((int)*(volatile uint8_t *)(uintptr_t)0x100000000ull);
    case 7: commit_ecsm(len, bytes); return;
    }
    halt(7);
}
