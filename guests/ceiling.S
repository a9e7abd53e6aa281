/*
 * ceiling.S: straight-line loops of one kind of instruction, to measure
 * what the executor's dispatch and register file cost per instruction at
 * best (scripts/bench_ceiling). KIND picks the loop body, 96 instructions
 * run 2^20 times (about 101 M instructions in all):
 *   1  lui t_i, imm             no register read; 1 write
 *   2  addi t_i, a_i, imm       1 read, 1 write
 *   3  add t_i, a_i, a_(i+1)    2 reads, 1 write, no instruction reads
 *                               what another one of the loop writes
 *   4  add a0, a0, a1           one dependency chain through a0
 * Exits 0 through the Linux exit system call, so qemu-riscv32/64 run it
 * too.
 */
	.option norvc

#ifndef KIND
#error "build with -DKIND=1..4"
#endif

/* One instruction of the body; register arguments are numbers (x<n>). */
	.macro	BODY_INSN rd, rs1, rs2, imm
#if KIND == 1
	lui	x\rd, \imm
#elif KIND == 2
	addi	x\rd, x\rs1, \imm
#elif KIND == 3
	add	x\rd, x\rs1, x\rs2
#else
	add	x10, x10, x11
#endif
	.endm

	.altmacro
	.text
	.globl	_start
	.type	_start, @function
_start:
	lui	s0, 0x100		/* 2^20 iterations */
	li	a0, 1
	li	a1, 2
	li	a2, 3
	li	a3, 4
	li	a4, 5
	li	a5, 6
1:
	.set	i, 0
	.rept	96
	/* rd: t0-t2, t3-t5 (x5-x7, x28-x30); sources: a0-a5 (x10-x15) */
	.set	rd, 5 + (i % 6) + 20 * ((i % 6) / 3)
	BODY_INSN %rd, %(10 + i % 6), %(10 + (i + 1) % 6), %(i + 1)
	.set	i, i + 1
	.endr
	addi	s0, s0, -1
	bnez	s0, 1b
	li	a0, 0
	li	a7, 93
	ecall
	.size	_start, . - _start
