/*
 * guest.h: what the guest programs share: the Linux RISC-V ecall numbers
 * the executor implements, a raw ecall, and helpers for the private input
 * (fd 0) and the public output (fd 3). Implemented in syscalls.c/guest.c.
 */
#ifndef GUEST_H
#define GUEST_H

#include <stddef.h>
#include <stdint.h>

#define GUEST_SYS_READ       63
#define GUEST_SYS_WRITE      64
#define GUEST_SYS_EXIT       93
#define GUEST_SYS_EXIT_GROUP 94
#define GUEST_SYS_BRK        214

#define GUEST_FD_PRIVATE_INPUT 0
#define GUEST_FD_PUBLIC_OUTPUT 3

/* ecall with up to three arguments; returns a0 (negative errno on error). */
static inline long guest_ecall3(long nr, long arg0, long arg1, long arg2)
{
    register long a7 __asm__("a7") = nr;
    register long a0 __asm__("a0") = arg0;
    register long a1 __asm__("a1") = arg1;
    register long a2 __asm__("a2") = arg2;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
    return a0;
}

/* The raw brk ecall: returns the new break, or the old one on failure;
 * guest_brk(0) returns the current break. */
static inline uintptr_t guest_brk(uintptr_t addr)
{
    return (uintptr_t)guest_ecall3(GUEST_SYS_BRK, (long)addr, 0, 0);
}

/* Reads the private input until EOF or `cap` bytes; returns the count. */
size_t guest_read_all(void *buf, size_t cap);

/* Writes all of buf to the public output (fd 3). */
void guest_write_public(const void *buf, size_t len);

/* Parses the first decimal number in s[0..len) (leading blanks allowed);
 * returns `dflt` when there is none. Saturates on overflow. */
uint64_t guest_parse_u64(const char *s, size_t len, uint64_t dflt);

/* Reads the (short) private input and parses it as a decimal number;
 * `dflt` when the input is empty or holds no number. */
uint64_t guest_input_u64(uint64_t dflt);

#endif
