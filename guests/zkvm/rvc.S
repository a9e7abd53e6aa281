/*
 * rvc: a guest built with C (the ELF's e_flags say EF_RISCV_RVC) for the
 * zkVM ABIs whose executors have no C (tests/zkvm/test_zkvm.py, class
 * WithoutC): SP1's memory map (text at 0x0020_0800), and it halts under
 * SP1 (t0 = 0, HALT) and Linux (a7 = 93, exit) alike, with a0:
 *   plain:              4-byte instructions only (.option norvc): exit 7
 *   -DFIRST_COMPRESSED: a c.li a0, 7 first: illegal without C
 *   -DHALF_TARGET:      a jr to a 2-byte aligned c.li a0, 9: misaligned
 *                       without C; exit 9 with C
 *   -DHALF_ENTRY:       a c.nop before _start, so the entry is 2-byte
 *                       aligned: refused without C
 */
    .section .text._start, "ax"
    .option norvc
#ifdef HALF_ENTRY
    .option rvc
    c.nop
    .option norvc
#endif
    .globl _start
    .type _start, @function
_start:
#ifdef FIRST_COMPRESSED
    .option rvc
    c.li a0, 7
    .option norvc
#else
    addi a0, zero, 7
#endif
#ifdef HALF_TARGET
    auipc t1, 0
    addi t1, t1, 14           /* auipc + 12 bytes: the c.li after the c.nop below */
    jalr zero, 0(t1)
    .option rvc
    c.nop
    c.li a0, 9
    .option norvc
#endif
    addi t0, zero, 0          /* SP1: HALT */
    addi a7, zero, 93         /* Linux: exit */
    ecall
    .size _start, . - _start
