/*
 * ceno: a guest written to Ceno's conventions (scroll-tech/ceno ceno_rt:
 * ceno_link.x, memory.x, mmio.rs, at ac1642550), for the layout of 2025-08
 * and later: ROM (text) at 0x0800_0000, data at 0x1000_0000, the stack
 * below 0x2000_0000, hints at 0x2800_0000 read as ceno_rt reads them (the
 * data offset, the alignment, each item's length, then the items). Calls
 * are `ecall` with the number in t0, arguments in a0, a1. The output is
 * ceno_rt's `commit`: Keccak-256 of the bytes (here by KECCAK_PERMUTE),
 * whose 8 words go to PUB_IO_COMMIT. The first item is a mode:
 *   0  the next item is [t0][a0 offset][a1 is an offset: 1, a value: 0]
 *      [a1][bytes]: the bytes go to a buffer, the call runs with a0 (and
 *      a1) pointing into it, and the buffer is committed; halt 0
 *   1  halt with the exit code in byte 1
 *   2  commit the next item, between two PHANTOM_LOG_PC_CYCLE labels
 *   3  access_once(byte 1, byte 2) (zkvm_guest.h); commit what it returns
 * The functions are named ceno_rt_*, as the crate's symbols are.
 *
 * Built with -DCENO_RKYV, it reads its items as ceno_rt's mmio.rs did
 * before cff9d41d (2025-12-31), when ceno_host wrote them with rkyv: the
 * n-th u32 of the region is where the n-th item ends, read_slice is
 * hints[..end], and (as rkyv finds its root from the end) each item here
 * ends with its length, a u32. With -DCENO_OLD_LAYOUT too, it is linked
 * as in 2024-25 (ROM 0x2000_0000, RAM 0x8000_0000, hints 0x4000_0000).
 */
#include "zkvm_guest.h"

#ifdef CENO_OLD_LAYOUT
#define HINTS     0x40000000u
#define STACK_TOP "0xC0000000" /* memory.x: RAM 1 GiB from 0x8000_0000 */
#else
#define HINTS     0x28000000u
#define STACK_TOP "0x20000000"
#endif

__asm__(ZKVM_START_GP "  li sp, " STACK_TOP "\n"
                      "  call ceno_rt_main\n"
                      "  .text\n"); /* back to .text, where GCC expects its functions */

enum {
    HALT = 0,
    KECCAK_PERMUTE = 0x00010109,
    LOG_PC_CYCLE = 0x00000003,
    PUB_IO_COMMIT = 0x00000010,
};

__attribute__((noinline)) void ceno_rt_syscall(uint32_t nr, uint32_t a0, uint32_t a1)
{
    register uint32_t t0 __asm__("t0") = nr;
    register uint32_t r0 __asm__("a0") = a0;
    register uint32_t r1 __asm__("a1") = a1;
    __asm__ volatile("ecall" : : "r"(t0), "r"(r0), "r"(r1) : "memory");
}

__attribute__((noreturn)) static void halt(uint32_t code)
{
    ceno_rt_syscall(HALT, code, 0);
    __builtin_unreachable();
}

#ifdef CENO_RKYV
/* What ceno_rt's rkyv access panics with: a guest of those years has the string. */
static const char access_failed[] = "Deserialised access failed.";

/* mmio.rs before cff9d41d: hints[..end]; here the item before its trailing length. */
__attribute__((noinline)) const uint8_t *ceno_rt_read_slice(uint32_t *len)
{
    static const uint32_t *next_end = (const uint32_t *)HINTS;
    const uint8_t *hints = (const uint8_t *)HINTS;
    uint32_t end = *next_end++;
    if (end < 4) {
        ceno_rt_syscall(LOG_PC_CYCLE, (uint32_t)(uintptr_t)access_failed,
                        sizeof(access_failed) - 1);
        halt(8);
    }
    const uint8_t *tail = hints + end - 4;
    *len = tail[0] | tail[1] << 8 | tail[2] << 16 | (uint32_t)tail[3] << 24;
    if (*len > end - 4 || (end - 4 - *len) % 16) /* rkyv's items start 16-aligned */
        halt(7);
    return tail - *len;
}
#else
/* mmio.rs RegionState: the lengths after two header words, the data at the offset. */
__attribute__((noinline)) const uint8_t *ceno_rt_read_slice(uint32_t *len)
{
    static const uint32_t *next_len;
    static const uint8_t *next_data;
    static uint32_t alignment;
    if (!next_len) {
        const uint32_t *head = (const uint32_t *)HINTS;
        next_data = (const uint8_t *)HINTS + head[0];
        alignment = head[1];
        next_len = head + 2;
    }
    *len = *next_len++;
    const uint8_t *p = next_data;
    next_data += (*len + alignment - 1) / alignment * alignment;
    return p;
}
#endif

/* Keccak-256 of n bytes, by KECCAK_PERMUTE (rate 136 bytes, padding 0x01 .. 0x80). */
__attribute__((noinline)) void ceno_rt_keccak256(const uint8_t *data, uint32_t n, uint8_t out[32])
{
    static uint64_t state[25];
    memset(state, 0, sizeof(state));
    uint8_t *s = (uint8_t *)state;
    for (;;) {
        uint32_t take = n < 136 ? n : 136;
        for (uint32_t i = 0; i < take; i++)
            s[i] ^= data[i];
        if (take < 136) {
            s[take] ^= 0x01;
            s[135] ^= 0x80;
            ceno_rt_syscall(KECCAK_PERMUTE, (uint32_t)(uintptr_t)state, 0);
            break;
        }
        ceno_rt_syscall(KECCAK_PERMUTE, (uint32_t)(uintptr_t)state, 0);
        data += 136;
        n -= 136;
    }
    memcpy(out, state, 32);
}

/* ceno_rt's commit: the digest's 8 little-endian words to PUB_IO_COMMIT. */
__attribute__((noinline)) void ceno_rt_commit(const uint8_t *data, uint32_t n)
{
    static uint32_t digest[8];
    ceno_rt_keccak256(data, n, (uint8_t *)digest);
    ceno_rt_syscall(PUB_IO_COMMIT, (uint32_t)(uintptr_t)digest, 0);
}

static void call(void)
{
    static uint8_t buf[1024] __attribute__((aligned(8)));
    uint32_t n, spec[4];
    const uint8_t *item = ceno_rt_read_slice(&n);
    if (n < 16 || n - 16 > sizeof(buf))
        halt(9);
    memcpy(spec, item, 16);
    memcpy(buf, item + 16, n - 16);
    uint32_t a1 = spec[2] ? (uint32_t)(uintptr_t)(buf + spec[3]) : spec[3];
    ceno_rt_syscall(spec[0], (uint32_t)(uintptr_t)(buf + spec[1]), a1);
    ceno_rt_commit(buf, n - 16);
}

static void labelled_commit(void)
{
    static const char label[] = "commit";
    uint32_t n;
    const uint8_t *item = ceno_rt_read_slice(&n);
    ceno_rt_syscall(LOG_PC_CYCLE, (uint32_t)(uintptr_t)label, sizeof(label) - 1);
    ceno_rt_commit(item, n);
    ceno_rt_syscall(LOG_PC_CYCLE, (uint32_t)(uintptr_t)label, sizeof(label) - 1);
}

void ceno_rt_main(void)
{
    uint32_t n;
    const uint8_t *mode = ceno_rt_read_slice(&n);
    switch (mode[0]) {
    case 0: call(); break;
    case 1: halt(mode[1]);
    case 2: labelled_commit(); break;
    case 3: {
        uint32_t got = (uint32_t)access_once(mode[1], mode[2]);
        ceno_rt_commit((const uint8_t *)&got, 4);
        break;
    }
    }
    halt(0);
}
