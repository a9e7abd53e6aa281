/*
 * indirect_call: calls through jalr ra, off(a5) (rd link, rs1 not link:
 * CALL t). The frame's target is where the jalr lands; its name is that of
 * the function holding the target, so g entered at g+4 and at g+0 are two
 * different raw frames but one named stack (merged: 3 + 4 = 7).
 *   _start:      LA(2) jalr f; LA(2) jalr g+4; LA(2) jalr g; exit(3)   12
 *   _start;f     addi, ret                                               2
 *   _start;g     from g+4: 3 (addi, addi, ret); from g: 4               7
 */
#include "rule.h"
TEXT
FUNC(_start)
	LA(a5, f)		/* _start 1, 2 */
	jalr ra, 0(a5)		/* _start 3: CALL f */
	LA(a4, g)		/* _start 4, 5 */
	jalr ra, 4(a4)		/* _start 6: CALL g+4 */
	LA(a3, g)		/* _start 7, 8 */
	jalr ra, 0(a3)		/* _start 9: CALL g */
	EXIT			/* _start 10, 11, 12 */
END(_start)

FUNC(f)
	addi a0, a0, 1		/* f 1 */
	ret			/* f 2 */
END(f)

FUNC(g)
	addi a0, a0, 2		/* g 1 (only when entered at g) */
	addi a0, a0, 3		/* g 1 / 2 */
	addi a0, a0, 4		/* g 2 / 3 */
	ret			/* g 3 / 4 */
END(g)
