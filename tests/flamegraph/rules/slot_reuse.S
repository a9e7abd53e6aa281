/*
 * slot_reuse: repeated calls and tail calls from one frame, the cases the
 * executor takes without the full rules once it has seen them (a caller
 * alternating between two callees, a tail call made before). The counts
 * must not depend on that.
 *   _start    li, 3 x (jal a, addi, bne), li, 3 x (jal b, jal c, addi,
 *             bne), exit(3)                                        26
 *   _start;a  3 x (addi, j d): a tail call to d                     6
 *   _start;d  3 x (addi, ret)                                        6
 *   _start;b  3 x (addi, ret)                                        6
 *   _start;c  3 x (addi, ret)                                        6
 */
#include "rule.h"
TEXT
FUNC(_start)
	addi s1, x0, 3		/* _start 1 */
1:	jal ra, a		/* _start 2, 5, 8 */
	addi s1, s1, -1		/* _start 3, 6, 9 */
	bne s1, x0, 1b		/* _start 4, 7, 10 */
	addi s1, x0, 3		/* _start 11 */
2:	jal ra, b		/* _start 12, 16, 20 */
	jal ra, c		/* _start 13, 17, 21 */
	addi s1, s1, -1		/* _start 14, 18, 22 */
	bne s1, x0, 2b		/* _start 15, 19, 23 */
	EXIT			/* _start 24, 25, 26 */
END(_start)

FUNC(a)
	addi a0, a0, 1		/* a 1 */
	j d			/* a 2: JUMP to another function: tail call d */
END(a)

FUNC(d)
	addi a0, a0, 1		/* d 1 */
	ret			/* d 2: RETURN to _start */
END(d)

FUNC(b)
	addi a0, a0, 1		/* b 1 */
	ret			/* b 2 */
END(b)

FUNC(c)
	addi a0, a0, 1		/* c 1 */
	ret			/* c 2 */
END(c)
