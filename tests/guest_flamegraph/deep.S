/*
 * deep.S: a million-level recursion for the flamegraph's push and pop
 * (tests/guest_flamegraph/test_guest_flamegraph.py, class Deep).
 *
 * The private input holds two little-endian 32-bit words: the depth D
 * (default 1000000 when the input is shorter than 4 bytes; D >= 1) and a
 * flag (0 when absent). The guest then
 *   1. calls rec(D): D frames of rec, one per level, each returning
 *      normally (RETURN to its own return address: one pop per level);
 *   2. calls recj(D): D frames of recj; the deepest one loads `resume`
 *      (an address in _start that is no frame's return address) into ra
 *      and returns there, as longjmp does: RETURN to t pops all D frames
 *      at once (the root _start holds t);
 *   3. writes "done\n" to stdout; then exits 0, or, when the flag is
 *      nonzero, spins in a loop inside _start forever (for a test that
 *      watches the run and kills it: see the Python test).
 * Every level uses 16 bytes of guest stack (D = 1e6 needs --stack-size of
 * more than 16 MiB).
 *
 * Instructions per stack (hand counted; the test derives the expected
 * folded file from them):
 *   _start                  33 with an input of 4 or more bytes (32
 *                           without: no `lw s1`); the spin loop adds more
 *   _start;rec x k          8 for k < D, 3 for k = D
 *   _start;recj x k         5 for k < D, 4 for k = D
 */
	.option norvc
	.option norelax

#if __riscv_xlen == 64
#define SREG sd
#define LREG ld
#else
#define SREG sw
#define LREG lw
#endif

	.text
	.globl	_start
	.type	_start, @function
_start:
	addi	sp, sp, -16		/*  1: read(0, sp, 8) into zeros */
	sw	x0, 0(sp)		/*  2 */
	sw	x0, 4(sp)		/*  3 */
	addi	a0, x0, 0		/*  4 */
	addi	a1, sp, 0		/*  5 */
	addi	a2, x0, 8		/*  6 */
	addi	a7, x0, 63		/*  7 */
	ecall				/*  8 */
	lui	s1, 0xf4		/*  9: s1 = 1000000 = 0xf4240 */
	addi	s1, s1, 0x240		/* 10 */
	addi	t1, x0, 4		/* 11 */
	blt	a0, t1, 1f		/* 12: fewer than 4 bytes: the default */
	lw	s1, 0(sp)		/* 13 (only with input) */
1:	lw	s3, 4(sp)		/* 14: the spin flag */
	addi	sp, sp, 16		/* 15 */
	addi	a0, s1, 0		/* 16 */
	jal	ra, rec			/* 17: phase 1 */
	addi	a0, s1, 0		/* 18 */
	lui	s2, %hi(resume)		/* 19 */
	addi	s2, s2, %lo(resume)	/* 20 */
	addi	s4, sp, 0		/* 21: sp to restore at resume */
	jal	ra, recj		/* 22: phase 2, never returns here */
	ebreak				/* recj's return address: never runs */
resume:
	addi	sp, s4, 0		/* 23: write(1, "done\n", 5) */
	lui	a1, %hi(done)		/* 24 */
	addi	a1, a1, %lo(done)	/* 25 */
	addi	a0, x0, 1		/* 26 */
	addi	a2, x0, 5		/* 27 */
	addi	a7, x0, 64		/* 28 */
	ecall				/* 29 */
	bne	s3, x0, spin		/* 30 */
	addi	a0, x0, 0		/* 31: exit(0) */
	addi	a7, x0, 93		/* 32 */
	ecall				/* 33 */
spin:
	jal	x0, spin		/* a loop inside _start: nothing moves */
	.size	_start, . - _start

/* rec(n): n levels of rec, each calling the next, returning normally. */
	.globl	rec
	.type	rec, @function
rec:
	addi	a0, a0, -1		/* 1 */
	beq	a0, x0, 1f		/* 2 */
	addi	sp, sp, -16		/* 3 */
	SREG	ra, 0(sp)		/* 4 */
	jal	ra, rec			/* 5 */
	LREG	ra, 0(sp)		/* 6 */
	addi	sp, sp, 16		/* 7 */
1:	jalr	x0, 0(ra)		/* 8 (3 at the bottom) */
	.size	rec, . - rec

/* recj(n): n levels of recj; the deepest returns to s2 (`resume`). */
	.globl	recj
	.type	recj, @function
recj:
	addi	a0, a0, -1		/* 1 */
	beq	a0, x0, 1f		/* 2 */
	addi	sp, sp, -16		/* 3 */
	SREG	ra, 0(sp)		/* 4 */
	jal	ra, recj		/* 5 */
	ebreak				/* never runs: no recj returns normally */
1:	addi	ra, s2, 0		/* 3 */
	jalr	x0, 0(ra)		/* 4: RETURN to resume, in _start */
	.size	recj, . - recj

	.section .rodata
done:
	.ascii	"done\n"
