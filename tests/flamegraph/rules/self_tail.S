/*
 * self_tail: self tail recursion, a JUMP back to the start of the
 * function of the current frame (`j f`, and `jr t1` with t1 = g): nothing
 * moves, one frame however many times it loops.
 *   _start      addi, addi, jal f, jal g, exit(3)               7
 *   _start;f    a0 = 3: 3 x (beq, addi, j) + (beq, ret)      11
 *   _start;g    a1 = 2: 2 x (beq, addi, LA(2), jr) + 2       12
 */
#include "rule.h"
TEXT
FUNC(_start)
	addi a0, x0, 3		/* _start 1 */
	addi a1, x0, 2		/* _start 2 */
	jal ra, f		/* _start 3 */
	jal ra, g		/* _start 4 */
	EXIT			/* _start 5, 6, 7 */
END(_start)

FUNC(f)
	beq a0, x0, 1f
	addi a0, a0, -1
	j f			/* JUMP to f itself: nothing moves */
1:	ret
END(f)

FUNC(g)
	beq a1, x0, 1f
	addi a1, a1, -1
	LA(t1, g)
	jr t1			/* JUMP to g itself: nothing moves */
1:	ret
END(g)
