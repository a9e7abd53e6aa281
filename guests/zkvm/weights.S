/*
 * weights: a guest whose instruction mix, calls and page touches are known
 * by hand, for the weight tests (tests/zkvm/test_weights.py): every
 * instruction is written out (no pseudo-instruction that could expand in
 * two ways). Built for SP1 (-DSP1: RV32 text at 0x0020_0800, RV64 at
 * 0x7800_0800), RISC Zero (text at 0x0020_0800), ZisK (-DZISK, RV64, ROM
 * at 0x8000_0000) and OpenVM (-DOPENVM, text at 0x0020_0800).
 *
 *   _start: the buffer's address (lui; ZisK: lui, slli), addi, 1 auipc,
 *           1 jal to work, then one precompile call and the exit:
 *           SP1: lui, addi, SHA_EXTEND on the zero words at the buffer,
 *                addi, addi, HALT with 0
 *           RISC Zero: 5 addi, SHA of one block, 3 addi, HALT with 0
 *           ZisK: keccakf (csrs 0x800) on the buffer, addi, addi, exit
 *           OpenVM: KECCAK256 of 0 bytes to the buffer, TERMINATE 0
 *   work:   the buffer's address, addi, then 10 rounds of mul, div, lw,
 *           sw, xor, slli, srli, sltu, addi, bne; jalr back
 * The one data page is the buffer, 0x0010_0000 (ZisK: 0xA0A0_0000 in its
 * RAM), loaded first, then stored (RISC Zero: paged in, then out; the
 * rounds after the first access it inline, as paged); the one code page
 * the text's first.
 */
#include "weights_buffer.h"

    .section .text._start, "ax"
    .globl _start
    .type _start, @function
    .option norvc
_start:
    buffer a0
    addi a1, zero, 10         /* add: the rounds */
    auipc a7, 0               /* auipc */
    jal ra, work              /* jump */
#ifdef SP1
    lui t0, 0x300             /* add */
    addi t0, t0, 0x105        /* add: t0 = SHA_EXTEND (0x0030_0105) */
    ecall                     /* [ecall:SHA_EXTEND]: w[16..64] at a0 */
    addi t0, zero, 0          /* add: HALT */
    addi a0, zero, 0          /* add: exit code 0 */
    ecall                     /* [ecall:HALT] */
#elif defined(ZISK)
    csrs 0x800, a0            /* [ecall:keccakf]: the 25 lanes at a0 */
    addi a7, zero, 93         /* exit */
    addi a0, zero, 0          /* exit code 0 */
    ecall                     /* [ecall:exit] */
#elif defined(OPENVM)
    .insn r 0x0b, 4, 0, a0, a0, zero /* [ecall:KECCAK256]: of [a0], 0 bytes, to [a0] */
    .insn i 0x0b, 0, zero, zero, 0   /* [ecall:TERMINATE] with 0 */
#else
    addi t0, zero, 3          /* add: SHA */
    addi a1, a0, 0            /* add: in state = out state = the buffer */
    addi a2, a0, 64           /* add: the block's first half */
    addi a3, a0, 96           /* add: its second half */
    addi a4, zero, 1          /* add: one block */
    ecall                     /* [ecall:SHA] */
    addi t0, zero, 0          /* add: HALT */
    addi a1, a0, 0            /* add: the output digest, at the buffer */
    addi a0, zero, 0          /* add: TERMINATE, exit code 0 */
    ecall                     /* [ecall:HALT] */
#endif
    .size _start, . - _start

    .globl work
    .type work, @function
work:
    buffer a4
    addi a2, zero, 0          /* add */
1:
    mul a3, a1, a1            /* mul */
    div a3, a3, a1            /* div */
    lw a5, 0(a4)              /* load */
    sw a3, 0(a4)              /* store */
    xor a2, a2, a5            /* logic */
    slli a5, a5, 1            /* shift_left */
    srli a5, a5, 1            /* shift_right */
    sltu a6, a5, a2           /* slt */
    addi a1, a1, -1           /* add */
    bne a1, zero, 1b          /* branch */
    jalr zero, 0(ra)          /* jump */
    .size work, . - work
