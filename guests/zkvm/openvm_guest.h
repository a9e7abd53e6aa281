/*
 * openvm_guest: what openvm.c (RV32) and openvm64.c (RV64) share, OpenVM's
 * start and its hint and reveal instructions (custom-0, 0x0b) over a
 * register-wide unit: a u32 word on RV32, a u64 dword on RV64, as the
 * openvm-platform crate moves hint words and public values a register at
 * a time. The functions keep the names the crates' symbols have at each
 * width (openvm_hint_word / openvm_hint_dword, openvm_reveal_u32 /
 * openvm_reveal_u64), which the tests look for in the flamegraphs.
 */
#ifndef GUESTS_ZKVM_OPENVM_GUEST_H
#define GUESTS_ZKVM_OPENVM_GUEST_H

#include "zkvm_guest.h"

#if __riscv_xlen == 64
typedef uint64_t openvm_reg;
#define openvm_hint_reg   openvm_hint_dword
#define openvm_reveal_reg openvm_reveal_u64
#else
typedef uint32_t openvm_reg;
#define openvm_hint_reg   openvm_hint_word
#define openvm_reveal_reg openvm_reveal_u32
#endif
#define OPENVM_REG_BYTES sizeof(openvm_reg)

__asm__(ZKVM_START_GP "  li sp, 0x00200400\n"
                      "  call openvm_main\n");

__attribute__((noreturn, noinline)) void openvm_terminate_ok(void)
{
    __asm__ volatile(".insn i 0x0b, 0, x0, x0, 0");
    __builtin_unreachable();
}

__attribute__((noreturn, noinline)) void openvm_terminate_42(void)
{
    __asm__ volatile(".insn i 0x0b, 0, x0, x0, 42");
    __builtin_unreachable();
}

__attribute__((noinline)) void openvm_hint_input(void)
{
    __asm__ volatile(".insn i 0x0b, 3, x0, x0, 0" ::: "memory");
}

/* HINT_STORE: the next register-wide unit of the hint stream. */
__attribute__((noinline)) openvm_reg openvm_hint_reg(void)
{
    openvm_reg w;
    openvm_reg *p = &w;
    __asm__ volatile(".insn i 0x0b, 1, %0, x0, 0" : : "r"(p) : "memory");
    return w;
}

/* HINT_BUFFER: `units` register-wide units of the hint stream into dst. */
__attribute__((noinline)) void openvm_hint_buffer(void *dst, openvm_reg units)
{
    __asm__ volatile(".insn i 0x0b, 1, %0, %1, 1" : : "r"(dst), "r"(units) : "memory");
}

/* The next input item into buf (at most `cap` bytes, a multiple of a unit); its length. */
__attribute__((noinline)) openvm_reg openvm_read_vec(uint8_t *buf, openvm_reg cap)
{
    openvm_hint_input();
    openvm_reg len = openvm_hint_reg();
    openvm_reg units = (len + OPENVM_REG_BYTES - 1) / OPENVM_REG_BYTES;
    if (OPENVM_REG_BYTES * units > cap)
        openvm_terminate_42();
    if (units)
        openvm_hint_buffer(buf, units);
    return len;
}

static openvm_reg revealed; /* the byte index of the next public value */

/* REVEAL: x as the public value at byte index `revealed`. */
__attribute__((noinline)) void openvm_reveal_reg(openvm_reg x)
{
    openvm_reg at = revealed;
    __asm__ volatile(".insn i 0x0b, 2, %0, %1, 0" : : "r"(at), "r"(x) : "memory");
    revealed += OPENVM_REG_BYTES;
}

/* n bytes (a multiple of a unit) as public values, little-endian units. */
static void reveal_bytes(const uint8_t *b, openvm_reg n)
{
    for (openvm_reg i = 0; i < n; i += OPENVM_REG_BYTES) {
        openvm_reg v = 0;
        for (int j = (int)OPENVM_REG_BYTES - 1; j >= 0; j--)
            v = v << 8 | b[i + j];
        openvm_reveal_reg(v);
    }
}

#endif
