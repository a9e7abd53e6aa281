/*
 * unpushed: leaf calls that return within a translated block, which keeps
 * their frames unpushed until a way out needs them (executor/translate/
 * translate_block.c, "Unpushed leaf calls"). f's branch leaves the block
 * on every other call (the path the block follows is the not-taken one),
 * and on the others f returns in the block;
 * g returns past the instruction after its call, so the block's check of
 * its return fails and the interpreter takes that return: a RETURN to an
 * address no frame expects, which pops to _start's frame.
 *   _start  li, 4 x (andi, jal f, addi, jal g, addi, bne), exit(3)  1 + 24 + 3 = 28
 *   _start;f  4 x (addi, beq, addi, ret)                                16
 *   _start;g  4 x (addi ra, ret)                                         8
 */
#include "rule.h"
TEXT
FUNC(_start)
	addi s1, x0, 4		/* _start 1 */
1:	andi a1, s1, 1		/* _start 2: a1 = 0 on every other pass */
	jal ra, f		/* _start 3 */
	addi s3, s3, 1		/* _start 4: f's return goes on here in the block */
	jal ra, g		/* _start 5 */
	addi s2, s2, 1		/* never runs: g returns past it */
	addi s1, s1, -1		/* _start 6 */
	bne s1, x0, 1b		/* _start 7 */
	EXIT			/* _start 26, 27, 28 */
END(_start)

FUNC(f)
	addi a0, a0, 1		/* f 1 */
	beq a1, x0, 2f		/* f 2: taken when a1 is 0 */
	addi a0, a0, 2		/* f 3 */
	ret			/* f 4 */
2:	addi a0, a0, 5		/* f 3 */
	ret			/* f 4 */
END(f)

FUNC(g)
	addi ra, ra, 4		/* g 1: past the instruction after the call */
	ret			/* g 2 */
END(g)
