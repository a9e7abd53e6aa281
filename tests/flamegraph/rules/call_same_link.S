/*
 * call_same_link: jalr whose rd and rs1 are the same link register
 * (jalr ra, 0(ra) and jalr t0, 0(t0)) is a plain CALL: f stays on the
 * stack under g and h (a RETURN-then-CALL reading would give _start;g).
 *   _start        jal f, exit(3)                              4
 *   _start;f      mv, LA(2), jalr, LA(2), jalr, mv, ret        9
 *   _start;f;g    addi, ret                                   2
 *   _start;f;h    addi, jr t0                                 2
 */
#include "rule.h"
TEXT
FUNC(_start)
	jal ra, f		/* _start 1 */
	EXIT			/* _start 2, 3, 4 */
END(_start)

FUNC(f)
	addi s1, ra, 0		/* f 1 */
	LA(ra, g)		/* f 2, 3 */
	jalr ra, 0(ra)		/* f 4: CALL g */
	LA(t0, h)		/* f 5, 6 */
	jalr t0, 0(t0)		/* f 7: CALL h */
	addi ra, s1, 0		/* f 8 */
	ret			/* f 9 */
END(f)

FUNC(g)
	addi a0, a0, 1		/* g 1 */
	ret			/* g 2 */
END(g)

FUNC(h)
	addi a0, a0, 1		/* h 1 */
	jr t0			/* h 2 */
END(h)
