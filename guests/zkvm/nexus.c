/*
 * nexus: a guest written to Nexus zkVM 0.3's conventions, as its nexus-rt
 * crate does it: _start sets gp, sp = 0x8040_0000 and makes the
 * OverwriteStackPointer call; calls are `ecall` with the number in a7;
 * the public input is read with `rin` (custom-1) and the public output
 * written with `wou` (custom-2) at the addresses the words at 0x80 and
 * 0x84 hold. The private input tape's first byte is a mode:
 *   0  write to the public output (from byte 4 of the output space): the
 *      rest of the private tape, the public input (its length word, then
 *      its words), and the results of OverwriteStackPointer (sp unchanged:
 *      -1), OverwriteHeapPointer (0), Write to fd 2 (-1), Write "ok\n" to
 *      fd 1 (3), whether the ends of region "loop" kept a0 (1, twice) and
 *      the end of "none" (never started: -1); exit 0
 *   1  a call number Nexus does not have
 *   2  precompile 9 (custom-0, funct3 1, funct7 1), which no symbol registers
 *   3  load from 0x8040_0000, past Nexus's memory
 *   4  exit with code 42
 *   5  rin past the end of the public input
 *   6  CycleCount with a label that is not ^#NAME or $#NAME
 *   7  precompile 0 (custom-0, funct3 0, funct7 0): the one PRECOMPILE_0
 *      registers, as nexus-precompiles' use_precompiles! does for its
 *      dummy_div example (a &str in .note.nexus-precompiles naming the
 *      crate's path): exit with 200 / 4 = 50, DummyDiv's rd = rs1 / rs2
 *   8  one access (zkvm_guest.h: access_once), op and offset the next
 *      two private input bytes: exit with its result's low 7 bits
 * The functions are named nexus_rt_*, as the crate's symbols are.
 */
#include "zkvm_guest.h"

__asm__(ZKVM_START_GP "  li sp, 0x80400000\n"
                      "  li a7, 0x402\n"
                      "  ecall\n"
                      "  call nexus_rt_start_rust\n");

enum {
    WRITE = 0x200,
    EXIT = 0x201,
    READ_PRIVATE_INPUT = 0x400,
    CYCLE_COUNT = 0x401,
    OVERWRITE_SP = 0x402,
    OVERWRITE_HEAP = 0x403,
};

/* The precompile metadata use_precompiles! emits: a &str (pointer, length) and its text. */
struct rust_str {
    const char *ptr;
    uint32_t len;
};
__attribute__((used, section(".note.nexus-precompiles"))) static const char precompile_0_path[] =
    "\":: dummy_div :: DummyDiv\"";
__attribute__((used, section(".note.nexus-precompiles")))
const struct rust_str PRECOMPILE_0 = {precompile_0_path, sizeof(precompile_0_path) - 1};

__attribute__((noinline)) uint32_t nexus_rt_ecall(uint32_t nr, uint32_t arg0, uint32_t arg1,
                                                  uint32_t arg2)
{
    register uint32_t a7 __asm__("a7") = nr;
    register uint32_t a0 __asm__("a0") = arg0;
    register uint32_t a1 __asm__("a1") = arg1;
    register uint32_t a2 __asm__("a2") = arg2;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
    return a0;
}

__attribute__((noinline)) uint32_t nexus_rt_read_input(uint32_t at)
{
    uint32_t base, v;
    __asm__ volatile("lw %0, 0x80(x0)" : "=r"(base)); /* as nexus-rt: where the input is */
    __asm__ volatile(".insn i 0x2b, 0, %0, 0(%1)" : "=r"(v) : "r"(base + at));
    return v;
}

static uint32_t out_at = 4; /* word 0 of the output space is the exit code's */

__attribute__((noinline)) void nexus_rt_write_output(uint32_t word)
{
    uint32_t base;
    __asm__ volatile("lw %0, 0x84(x0)" : "=r"(base));
    __asm__ volatile(".insn s 0x5b, 0, %0, 0(%1)" : : "r"(word), "r"(base + out_at) : "memory");
    out_at += 4;
}

__attribute__((noreturn)) static void nexus_rt_exit(uint32_t code)
{
    nexus_rt_ecall(EXIT, code, 0, 0);
    __builtin_unreachable();
}

static uint32_t length(const char *s)
{
    uint32_t n = 0;
    while (s[n])
        n++;
    return n;
}

__attribute__((noinline)) uint32_t nexus_rt_cycle_count(const char *label)
{
    return nexus_rt_ecall(CYCLE_COUNT, (uint32_t)label, length(label), 0x1234);
}

/* Mode 0 (see the top). */
__attribute__((noinline)) static void nexus_rt_full_run(void)
{
    uint32_t b, word = 0, n = 0;
    while ((b = nexus_rt_ecall(READ_PRIVATE_INPUT, 0, 0, 0)) != 0xFFFFFFFFu) {
        word |= b << (8 * (n % 4));
        if (++n % 4 == 0) {
            nexus_rt_write_output(word);
            word = 0;
        }
    }
    if (n % 4)
        nexus_rt_write_output(word);
    uint32_t len = nexus_rt_read_input(0);
    nexus_rt_write_output(len);
    for (uint32_t at = 4; at < 4 + len; at += 4)
        nexus_rt_write_output(nexus_rt_read_input(at));
    nexus_rt_write_output(nexus_rt_ecall(OVERWRITE_SP, 7, 0, 0));
    nexus_rt_write_output(nexus_rt_ecall(OVERWRITE_HEAP, 7, 0, 0));
    nexus_rt_write_output(nexus_rt_ecall(WRITE, 2, (uint32_t) "err", 3));
    nexus_rt_write_output(nexus_rt_ecall(WRITE, 1, (uint32_t) "ok\n", 3));
    volatile uint32_t sum = 0;
    for (int i = 0; i < 2; i++) {
        nexus_rt_cycle_count("^#loop");
        for (int k = 0; k < 100; k++)
            sum += k;
        const char *end = "$#loop";
        nexus_rt_write_output(nexus_rt_cycle_count(end) == (uint32_t)end); /* a0 kept */
    }
    nexus_rt_write_output(nexus_rt_cycle_count("$#none"));
}

void nexus_rt_start_rust(void)
{
    switch (nexus_rt_ecall(READ_PRIVATE_INPUT, 0, 0, 0)) {
    case 0: nexus_rt_full_run(); nexus_rt_exit(0);
    case 1: nexus_rt_ecall(0x300, 0, 0, 0); break;
    case 2: __asm__ volatile(".insn r 0x0b, 1, 1, a0, a0, a0"); break;
    case 3: nexus_rt_exit(*(volatile uint32_t *)0x80400000u);
    case 4: nexus_rt_exit(42);
    case 5: nexus_rt_exit(nexus_rt_read_input(nexus_rt_read_input(0) + 4));
    case 6: nexus_rt_cycle_count("start#x"); break;
    case 7: {
        register uint32_t x __asm__("a0") = 200, y __asm__("a1") = 4, q __asm__("a2");
        __asm__ volatile(".insn r 0x0b, 0, 0, a2, a0, a1" : "=r"(q) : "r"(x), "r"(y));
        nexus_rt_exit((int)q);
    }
    case 8: {
        uint32_t op = nexus_rt_ecall(READ_PRIVATE_INPUT, 0, 0, 0);
        nexus_rt_exit((int)(access_once(op, nexus_rt_ecall(READ_PRIVATE_INPUT, 0, 0, 0)) & 0x7f));
    }
    }
    nexus_rt_exit(7);
}
