/*
 * sp1_guest.h: what the SP1 test guests share: a call as sp1-zkvm's
 * syscall wrappers make it (the code in t0, arguments in a0 to a2, the
 * result in t0), named as the crate's symbols are, and HALT. One guest
 * source includes it.
 */
#ifndef GUESTS_ZKVM_SP1_GUEST_H
#define GUESTS_ZKVM_SP1_GUEST_H

#include <stdint.h>

__attribute__((noinline)) uintptr_t sp1_zkvm_syscall(uintptr_t code, uintptr_t arg0, uintptr_t arg1,
                                                     uintptr_t arg2)
{
    register uintptr_t t0 __asm__("t0") = code;
    register uintptr_t a0 __asm__("a0") = arg0;
    register uintptr_t a1 __asm__("a1") = arg1;
    register uintptr_t a2 __asm__("a2") = arg2;
    __asm__ volatile("ecall" : "+r"(t0) : "r"(a0), "r"(a1), "r"(a2) : "memory");
    return t0;
}

/* HALT (code 0) with the exit code. */
__attribute__((noreturn)) static inline void halt(int code)
{
    sp1_zkvm_syscall(0x00000000, (uintptr_t)code, 0, 0);
    __builtin_unreachable();
}

#endif
