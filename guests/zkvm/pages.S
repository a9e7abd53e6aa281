/*
 * pages: a RISC Zero guest that walks memory 1 KiB page by page, for the
 * segment tests (tests/zkvm/test_weights.py): 4 instructions a round,
 * every instruction written out.
 *
 *   _start: lui, addi (a0 = 0x0010_0000, a1 = ROUNDS)
 *   store:  ROUNDS x (sw a1 to the page at a0, addi a0 += 1024, addi a1 -= 1, bne)
 *           lui, addi (back to the first page and ROUNDS)
 *   load:   ROUNDS x (lw from the page at a0, addi, addi, bne)
 *           addi t0 = 0 (HALT), addi a1 = a0 - 1024, addi a0 = 0, ecall
 */
#define ROUNDS 200
    .section .text._start, "ax"
    .globl _start
    .type _start, @function
    .option norvc
_start:
    lui a0, 0x100
    addi a1, zero, ROUNDS
1:
    sw a1, 0(a0)
    addi a0, a0, 1024
    addi a1, a1, -1
    bne a1, zero, 1b
    lui a0, 0x100
    addi a1, zero, ROUNDS
2:
    lw a2, 0(a0)
    addi a0, a0, 1024
    addi a1, a1, -1
    bne a1, zero, 2b
    addi t0, zero, 0
    addi a1, a0, -1024
    addi a0, zero, 0
    ecall
    .size _start, . - _start
