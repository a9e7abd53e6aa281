/*
 * return_lower: a RETURN to the return address of a lower frame. a saves
 * its ra (into _start) on the stack and calls b, b calls c, c loads a's
 * saved ra from the stack and returns with it: not the top frame's return
 * address (that is in b), but a's, so c, b and a are popped together.
 *   _start          jal a, exit(3)                       4
 *   _start;a        addi sp, store ra, jal b             3
 *   _start;a;b      jal c                                1
 *   _start;a;b;c    load ra, addi sp, ret                3
 */
#include "rule.h"
TEXT
FUNC(_start)
	jal ra, a		/* _start 1 */
	EXIT			/* _start 2, 3, 4 */
END(_start)

FUNC(a)
	addi sp, sp, -16	/* a 1 */
	SREG ra, 0(sp)		/* a 2 */
	jal ra, b		/* a 3 */
	addi a0, a0, 100	/* never runs */
	ret
END(a)

FUNC(b)
	jal ra, c		/* b 1 */
	addi a0, a0, 100	/* never runs */
	ret
END(b)

FUNC(c)
	LREG ra, 0(sp)		/* c 1: a's return address */
	addi sp, sp, 16		/* c 2 */
	ret			/* c 3: RETURN to a lower frame's return address */
END(c)
