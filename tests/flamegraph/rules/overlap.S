/*
 * overlap: overlapping sized functions, as libgcc's -msave-restore
 * millicode has them: __riscv_save_12 / _10 / _4 are entry points at
 * different addresses into one block, each sized to the block's common
 * end. Here s12 = [s12, end), s10 = [s10, end), s4 = [s4, end).
 * A JUMP from the s12 frame to a label past s10's (or s4's) start lies
 * inside s12, the function of the current frame: nothing moves (the
 * target also lies in s10 and s4, but that does not make it a tail call).
 * Entered at s10 or s4, the frame is named after the function holding
 * its target (the one with the greatest start).
 *   _start         jal t0 s12, jal t0 s10, jal t0 s4, exit(3)   6
 *   _start;s12     addi, j, addi, j, addi, jr t0                 6
 *   _start;s10     addi, addi, j, addi, jr t0                    5
 *   _start;s4      addi, addi, jr t0                             3
 */
#include "rule.h"
TEXT
FUNC(_start)
	jal t0, s12		/* _start 1 */
	jal t0, s10		/* _start 2 */
	jal t0, s4		/* _start 3 */
	EXIT			/* _start 4, 5, 6 */
END(_start)

	.globl s12
	.type s12, @function
	.globl s10
	.type s10, @function
	.globl s4
	.type s4, @function
s12:
	addi t1, x0, 0		/* s12 1 */
	j 1f			/* s12 2: inside s12 (and s10): nothing moves */
s10:
	addi t1, x0, -16	/* s10 1 */
1:	addi a0, a0, 1		/* s12 3, s10 2 */
	j 2f			/* s12 4, s10 3: inside the frame's function */
s4:
	addi t1, x0, -32	/* s4 1 */
2:	addi a0, a0, 1		/* s12 5, s10 4, s4 2 */
	jr t0			/* s12 6, s10 5, s4 3: RETURN */
	.size s12, . - s12
	.size s10, . - s10
	.size s4, . - s4
