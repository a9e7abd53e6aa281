/*
 * costmix: one of each instruction the weights guest (weights.S) leaves
 * out, and other precompiles, for the per-opcode tables of SP1 v6 gas, ZisK
 * area and OpenVM cells (tests/zkvm/test_weights.py). Built for SP1 v6
 * (-DSP1, RV64, text at 0x7800_0800), ZisK (-DZISK, RV64, ROM at
 * 0x8000_0000) and OpenVM (-DOPENVM, RV32, text at 0x0020_0800). Every
 * instruction is written out and runs once:
 *   _start: the buffer's address (lui; ZisK: lui, slli), jal to mix, then
 *           SP1: lui, 2 addi, KECCAK_PERMUTE on the buffer, 2 addi, HALT
 *           ZisK: 2 addi and 2 sd (the operand block), sha256f, 2 addi, exit
 *           OpenVM: SHA256 of 0 bytes, addi, ADD256, TERMINATE
 *   mix:    the lines below, down to a jalr back by an offset that is not
 *           a multiple of 4 (RV64 builds: the W forms, sd, ld, lwu too)
 * The buffer is 0x0010_0000 (ZisK: 0xA0A0_0000 in its RAM).
 */
#include "weights_buffer.h"

    .section .text._start, "ax"
    .globl _start
    .type _start, @function
    .option norvc
_start:
    buffer a0
    jal ra, mix
#if defined(SP1)
    lui t0, 0x10
    addi t0, t0, 0x109        /* KECCAK_PERMUTE (0x0001_0109) */
    addi a1, zero, 0
    ecall                     /* [ecall:KECCAK_PERMUTE]: the 25 lanes at a0 */
    addi t0, zero, 0          /* HALT */
    addi a0, zero, 0
    ecall                     /* [ecall:HALT] */
#elif defined(ZISK)
    addi a1, a0, 64           /* the state */
    sd a1, 0(a0)
    addi a1, a0, 128          /* the block */
    sd a1, 8(a0)
    csrs 0x805, a0            /* [ecall:sha256f]: {state, block} at a0 */
    addi a7, zero, 93
    addi a0, zero, 0
    ecall                     /* [ecall:exit] */
#else
    .insn r 0x0b, 4, 1, a0, a0, zero /* [ecall:SHA256] of 0 bytes to [a0] */
    addi a1, a0, 64
    .insn r 0x0b, 5, 0, a0, a0, a1   /* [ecall:ADD256]: [a0] = [a0] + [a1] */
    .insn i 0x0b, 0, zero, zero, 0   /* [ecall:TERMINATE] with 0 */
#endif
    .size _start, . - _start

    .globl mix
    .type mix, @function
mix:
    addi a1, zero, 100
    addi a2, zero, 7
    add a3, a1, a2
    sub a3, a1, a2
    sll a3, a1, a2
    sra a3, a1, a2
    slt a3, a1, a2
    slti a3, a1, 5
    andi a3, a1, 7
    ori a3, a1, 7
    mulh a3, a1, a2
    mulhu a3, a1, a2
    divu a3, a1, a2
    rem a3, a1, a2
    remu a3, a1, a2
    sb a1, 0(a0)
    sh a1, 2(a0)
    lb a3, 0(a0)
    lbu a3, 0(a0)
    lh a3, 2(a0)
    lhu a3, 2(a0)
    addi zero, a1, 1          /* to x0: OpenVM makes it a nop */
    add zero, a1, a2          /* the same */
    blt a2, a1, 1f            /* taken, to the next line */
1:
#if __riscv_xlen == 64
    addw a3, a1, a2
    subw a3, a1, a2
    addiw a3, a1, 3
    sllw a3, a1, a2
    sraiw a3, a1, 1
    mulw a3, a1, a2
    divw a3, a1, a2
    remuw a3, a1, a2
    sd a1, 8(a0)
    ld a3, 8(a0)
    lwu a3, 8(a0)
#endif
    addi t0, ra, -2           /* t0: a link register, so the jalr is a return */
    jalr zero, 2(t0)          /* back to _start */
    .size mix, . - mix
