/*
 * mutual_recursion: even(n) / odd(n) calling each other with jal ra and
 * returning with ret; recursion is kept, one frame per level.
 * even(4) -> odd(3) -> even(2) -> odd(1) -> even(0).
 *   _start                               addi, jal, exit(3)      5
 *   each level but the last: bne, addi sp, store ra, addi a0, jal,
 *   load ra, addi sp, ret                                        8
 *   the last (even(0)): bne, addi, ret                           3
 */
#include "rule.h"
TEXT
FUNC(_start)
	addi a0, x0, 4		/* _start 1 */
	jal ra, even		/* _start 2 */
	EXIT			/* _start 3, 4, 5 */
END(_start)

FUNC(even)
	bne a0, x0, 1f		/* 1 */
	addi a0, x0, 1		/* 2 */
	ret			/* 3 */
1:	addi sp, sp, -16	/* 2 */
	SREG ra, 0(sp)		/* 3 */
	addi a0, a0, -1		/* 4 */
	jal ra, odd		/* 5 */
	LREG ra, 0(sp)		/* 6 */
	addi sp, sp, 16		/* 7 */
	ret			/* 8 */
END(even)

FUNC(odd)
	bne a0, x0, 1f		/* 1 */
	addi a0, x0, 0		/* 2 */
	ret			/* 3 */
1:	addi sp, sp, -16	/* 2 */
	SREG ra, 0(sp)		/* 3 */
	addi a0, a0, -1		/* 4 */
	jal ra, even		/* 5 */
	LREG ra, 0(sp)		/* 6 */
	addi sp, sp, 16		/* 7 */
	ret			/* 8 */
END(odd)
