/*
 * return_jump: a RETURN (ret) to an address that is no frame's return
 * address and that no frame below the top holds is treated as a JUMP:
 * - in _start, with the root frame alone, to a label inside _start:
 *   nothing moves (the root frame is never popped);
 * - in a, to the start of z, another function: a tail call, z replaces a
 *   and keeps a's return address, so z's ret (with the real return address
 *   put back) returns to _start.
 *   _start      LA(2), ret, jal a, exit(3)       7
 *   _start;a    mv, LA(2), ret                   4
 *   _start;z    addi, mv, ret                    3
 */
#include "rule.h"
TEXT
FUNC(_start)
	LA(ra, 1f)		/* _start 1, 2 */
	ret			/* _start 3: RETURN from the root: nothing moves */
1:	jal ra, a		/* _start 4 */
	EXIT			/* _start 5, 6, 7 */
END(_start)

FUNC(a)
	addi s1, ra, 0		/* a 1 */
	LA(ra, z)		/* a 2, 3 */
	ret			/* a 4: RETURN to z = JUMP = tail call z */
END(a)

FUNC(z)
	addi a0, a0, 1		/* z 1 */
	addi ra, s1, 0		/* z 2 */
	ret			/* z 3: RETURN to _start: pop z */
END(z)
