/*
 * r0calls: a RISC Zero guest that makes one call of most kinds with
 * arguments known by hand, for the `cycles` weight's test of what each
 * call costs in RISC Zero's executor (tests/zkvm/test_weights.py,
 * docs/ZKVMS.md "Weights"). Every instruction is written out; text at
 * 0x0020_0800 (one 1 KiB code page), registers zero at entry, no stack.
 *
 *   _start: INPUT word 0; jal to io; sys_write of 4 bytes to the journal;
 *           sys_random of 300 words at 0x0010_2000; sys_cycle_count; SHA
 *           of 11 blocks at 0x0010_3400, the state at 0x0010_3000;
 *           POSEIDON2 of 2 blocks of elements at 0x0010_4400 with the
 *           state at 0x0010_4000, the output to 0x0010_4800; BIGINT of the
 *           zeros at 0x0010_5400/20/40 into 0x0010_5000; HALT, the
 *           digest at 0x0010_0000
 *   io:     sys_read of 1030 bytes from fd 0 to 0x0010_1002; jalr back
 * Each call's registers are set with addi or lui (and addi) only.
 */
    .option norvc
    .option norelax

    .macro name reg, label   /* 2: the call's name */
    lui \reg, %hi(\label)
    addi \reg, \reg, %lo(\label)
    .endm

    .section .text._start, "ax"
    .globl _start
    .type _start, @function
_start:
    addi t0, zero, 1          /* INPUT, word a0 = 0 */
    ecall                     /* [ecall:INPUT] */
    jal ra, io
    addi t0, zero, 2          /* SOFTWARE: sys_write, fd 3, 4 bytes at 0x0010_0000 */
    name a2, name_write
    addi a3, zero, 3
    lui a4, 0x100
    addi a5, zero, 4
    ecall                     /* [ecall:sys_write] */
    name a2, name_random      /* sys_random: a0 = the buffer, a1 = 300 words */
    lui a0, 0x102
    addi a1, zero, 300
    ecall                     /* [ecall:sys_random] */
    name a2, name_cycles      /* sys_cycle_count: no buffer */
    addi a0, zero, 0
    addi a1, zero, 0
    ecall                     /* [ecall:sys_cycle_count] */
    addi t0, zero, 3          /* SHA: out = in state, blocks, count */
    lui a0, 0x103
    addi a1, a0, 0
    lui a2, 0x103
    addi a2, a2, 0x400
    addi a3, a2, 32
    addi a4, zero, 11
    ecall                     /* [ecall:SHA] */
    addi t0, zero, 7          /* POSEIDON2: word addresses, elements, 2 blocks */
    lui a0, 0x41
    lui a1, 0x41
    addi a1, a1, 0x100
    lui a2, 0x41
    addi a2, a2, 0x200
    lui a3, 0x80000
    addi a3, a3, 2
    ecall                     /* [ecall:POSEIDON2] */
    addi t0, zero, 4          /* BIGINT: z, op 0, x, y, N */
    lui a0, 0x105
    addi a1, zero, 0
    lui a2, 0x105
    addi a2, a2, 0x400
    addi a3, a2, 32
    addi a4, a2, 64
    ecall                     /* [ecall:BIGINT] */
    addi t0, zero, 0          /* HALT: TERMINATE, exit code 0, the digest */
    addi a0, zero, 0
    lui a1, 0x100
    ecall                     /* [ecall:HALT] */
    .size _start, . - _start

    .globl io
    .type io, @function
io:
    addi t0, zero, 2          /* SOFTWARE: sys_read, fd 0, 1030 bytes */
    name a2, name_read
    lui a0, 0x101
    addi a0, a0, 2
    addi a1, zero, 1030
    addi a3, zero, 0
    addi a4, zero, 1030
    ecall                     /* [ecall:sys_read] */
    jalr zero, 0(ra)
    .size io, . - io

    .section .rodata
name_read:
    .asciz "risc0_zkvm_platform::syscall::nr::SYS_READ"
name_write:
    .asciz "risc0_zkvm_platform::syscall::nr::SYS_WRITE"
name_random:
    .asciz "risc0_zkvm_platform::syscall::nr::SYS_RANDOM"
name_cycles:
    .asciz "risc0_zkvm_platform::syscall::nr::SYS_CYCLE_COUNT"
