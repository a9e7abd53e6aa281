/*
 * nexus02: a guest written to Nexus zkVM 0.2's conventions, as its nexus-rt
 * crate does it (nexus-xyz/nexus-zkvm runtime/asm.S, runtime/src/ecalls.rs,
 * v0.2.4 = 0b787f2e): linked from 0, _start sets gp and sp = __memory_top
 * - 4 (0x3F_FFFC), calls the Rust entry and halts with `unimp` (the word
 * 0xc0001073), main's result in a0; abort halts the same way with a0 = 1.
 * Calls are `ecall` with the number in s2 (each call sets it right before,
 * as the crate's ecall! macro does), arguments in a1 and a2, the result in
 * a0. The private input tape's first byte is a mode:
 *   0  write "ok\n" with WriteLog; write to the output tape (WriteToOutput)
 *      the rest of the private tape, WriteLog's result (0), the read past
 *      the tape's end (-1), WriteToOutput's (0) and ProfileCycles' (5)
 *      results (region "loop", twice); halt with a0 = 0
 *   1  call number 4, which Nexus 0.2 does not have
 *   2  abort: halt with a0 = 1
 *   3  ProfileCycles "$#none", a region never started
 *   4  `rin` (custom-1), an instruction Nexus 0.2 does not have
 *   5  halt with a0 = 42
 * The functions are named nexus_rt_*, as the crate's symbols are.
 */
#include "zkvm_guest.h"

__asm__(ZKVM_START_GP "  li sp, 0x3ffffc\n"
                      "  mv s0, sp\n"
                      "  jal ra, nexus_rt_start_rust\n"
                      "  unimp\n" /* the assembler's unimp: csrrw x0, cycle, x0 */
                      ".globl nexus_rt_abort\n"
                      "nexus_rt_abort:\n"
                      "  li a0, 1\n"
                      "  unimp\n");

enum {
    WRITE_LOG = 1,
    READ_FROM_PRIVATE_INPUT = 2,
    WRITE_TO_OUTPUT = 3,
    PROFILE_CYCLES = 5,
};

void nexus_rt_abort(void) __attribute__((noreturn));

/* ecall! (runtime/src/ecalls.rs): the number in s2, a1 and a2 in, a0 out. */
#define NEXUS_ECALL(n, in1, in2)                                                                   \
    ({                                                                                             \
        register uint32_t s2_ __asm__("s2") = (n);                                                 \
        register uint32_t a1_ __asm__("a1") = (uint32_t)(in1);                                     \
        register uint32_t a2_ __asm__("a2") = (uint32_t)(in2);                                     \
        register uint32_t a0_ __asm__("a0");                                                       \
        __asm__ volatile("ecall" : "=r"(a0_) : "r"(s2_), "r"(a1_), "r"(a2_) : "memory");           \
        a0_;                                                                                       \
    })

static uint32_t length(const char *s)
{
    uint32_t n = 0;
    while (s[n])
        n++;
    return n;
}

__attribute__((noinline)) uint32_t nexus_rt_write_log(const char *s)
{
    return NEXUS_ECALL(WRITE_LOG, s, length(s));
}

__attribute__((noinline)) uint32_t nexus_rt_read_from_private_input(void)
{
    return NEXUS_ECALL(READ_FROM_PRIVATE_INPUT, 0, 0);
}

__attribute__((noinline)) uint32_t nexus_rt_write_to_output(const void *p, uint32_t len)
{
    return NEXUS_ECALL(WRITE_TO_OUTPUT, p, len);
}

__attribute__((noinline)) uint32_t nexus_rt_cycle_count_ecall(const char *label)
{
    return NEXUS_ECALL(PROFILE_CYCLES, label, length(label));
}

static uint32_t write_word(uint32_t word)
{
    return nexus_rt_write_to_output(&word, 4);
}

/* Mode 0 (see the top). */
__attribute__((noinline)) static void nexus_rt_full_run(void)
{
    uint32_t b, results[6], n = 0;
    uint8_t byte;
    results[n++] = nexus_rt_write_log("ok\n");
    while ((b = nexus_rt_read_from_private_input()) != 0xFFFFFFFFu) {
        byte = (uint8_t)b;
        nexus_rt_write_to_output(&byte, 1);
    }
    results[n++] = nexus_rt_read_from_private_input(); /* the tape stays at its end */
    volatile uint32_t sum = 0;
    for (int i = 0; i < 2; i++) {
        results[n++] = nexus_rt_cycle_count_ecall("^#loop");
        for (int k = 0; k < 100; k++)
            sum += k;
        results[n++] = nexus_rt_cycle_count_ecall("$#loop");
    }
    for (uint32_t i = 0; i < n; i++)
        write_word(results[i]);
    write_word(write_word(0x12345678)); /* WriteToOutput's own result */
}

uint32_t nexus_rt_start_rust(void)
{
    switch (nexus_rt_read_from_private_input()) {
    case 0: nexus_rt_full_run(); return 0;
    case 1: NEXUS_ECALL(4, 0, 0); break;
    case 2: nexus_rt_abort();
    case 3: nexus_rt_cycle_count_ecall("$#none"); break;
    case 4: {
        uint32_t v;
        __asm__ volatile(".insn i 0x2b, 0, %0, 0(x0)" : "=r"(v));
        return v;
    }
    case 5: return 42;
    }
    return 7;
}
