/*
 * openvm_at0: an OpenVM program linked at address 0, as OpenVM's toolchain
 * tests link theirs (crates/toolchain/tests/tests/data): no runtime, no
 * ecall; it works out 6 * 7 and ends with OpenVM's terminate (custom-0
 * funct3 0, rd = rs1 = x0, the exit code in the immediate): 0 when the
 * product is 42, 1 when not.
 */
    .section .text._start, "ax"
    .globl _start
_start:
    li a0, 6
    li a1, 7
    mul a2, a0, a1
    li a3, 42
    bne a2, a3, 1f
    .insn i 0x0b, 0, x0, x0, 0
1:  .insn i 0x0b, 0, x0, x0, 1
