/*
 * loop_switch: a loop and a jump table inside one function. The `jr t3`
 * through the table (jalr x0, 0(t3): rd not link, rs1 not link) is a JUMP
 * whose target lies in the current frame's function, as are the `j next`
 * and the loop branch: nothing moves. The case labels are local symbols
 * (STT_NOTYPE, STB_LOCAL, in .symtab): they never split the function.
 *   _start              jal, exit(3)                                  4
 *   _start;dispatch     2 + iterations i = 0..3, case i & 3:
 *                       7 (andi, slli, LA(2), add, lw, jr)
 *                       + case 2 (addi, j) or 1 (case3) + next 2
 *                       = 11 + 11 + 11 + 10, + ret 1                  46
 */
#include "rule.h"
TEXT
FUNC(_start)
	jal ra, dispatch	/* _start 1 */
	EXIT			/* _start 2, 3, 4 */
END(_start)

FUNC(dispatch)
	addi s0, x0, 0		/* 1: i */
	addi s1, x0, 4		/* 2: n */
loop:
	andi t2, s0, 3
	slli t2, t2, 2
	LA(t3, table)
	add t3, t3, t2
	lw t3, 0(t3)
	jr t3			/* JUMP inside dispatch */
case0:
	addi a0, a0, 1
	j next
case1:
	addi a0, a0, 2
	j next
case2:
	addi a0, a0, 3
	j next
case3:
	addi a0, a0, 4
next:
	addi s0, s0, 1
	blt s0, s1, loop
	ret
END(dispatch)

	.section .rodata
	.balign 4
table:
	.word case0, case1, case2, case3
