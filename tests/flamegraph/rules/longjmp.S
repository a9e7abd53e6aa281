/*
 * longjmp: a RETURN to an address that is no frame's return address but
 * lies in the function of a frame below the top (as longjmp lands in the
 * function that called setjmp): the frames above that one are popped.
 * a keeps the address `resume` (inside a, not a return address: the
 * instruction after `jal b` is another one) in s2 and calls b, b calls c,
 * c returns to `resume`: b and c are popped, a goes on and returns.
 *   _start          jal a, exit(3)                       4
 *   _start;a        mv, LA(2), jal b, + addi, mv, ret    7
 *   _start;a;b      jal c                                1
 *   _start;a;b;c    mv, ret                              2
 */
#include "rule.h"
TEXT
FUNC(_start)
	jal ra, a		/* _start 1 */
	EXIT			/* _start 2, 3, 4 */
END(_start)

FUNC(a)
	addi s1, ra, 0		/* a 1 */
	LA(s2, resume)		/* a 2, 3 */
	jal ra, b		/* a 4 */
	addi a0, a0, 100	/* never runs (b's return address) */
resume:
	addi a0, a0, 1		/* a 5 */
	addi ra, s1, 0		/* a 6 */
	ret			/* a 7 */
END(a)

FUNC(b)
	jal ra, c		/* b 1 */
	ret			/* never runs */
END(b)

FUNC(c)
	addi ra, s2, 0		/* c 1 */
	ret			/* c 2: RETURN into a: pop c and b */
END(c)
