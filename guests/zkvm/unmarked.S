/*
 * unmarked: a guest with no zkVM's marks and no Linux ones, for the
 * detection tests (tests/zkvm/test_zkvm.py, class Detection): linked at
 * 0x0020_0800 as OpenVM, SP1 and RISC Zero link theirs, it has no symbols
 * a toolchain leaves, no custom instruction and an ecall with no call
 * number set, so auto-detection cannot decide and names the candidates.
 */
    .section .text._start, "ax"
    .globl _start
    .type _start, @function
    .option norvc
_start:
    ecall
1:
    jal zero, 1b
    .size _start, . - _start
