/*
 * nosym: code that no function symbol covers. `pre` is at the start of
 * .text, before the first function symbol; `anon1` and `anon2` follow
 * sized functions (_start, f) and end where the next one starts (local
 * labels are no functions). Frames whose target no symbol covers are
 * written 0x<hex> (.text is at 0x10100 for RV32 and RV64: see rule.h):
 *   pre = 0x10100, _start = 0x10108, anon1 = 0x1011c.
 * - _start calls anon1: frame 0x1011c.
 * - anon1 `j anon2`: neither the current frame (anon1) nor anon2 lies in
 *   a function: nothing moves.
 * - f (called from anon1) calls pre: frame 0x10100.
 * - anon2 `j g`: g is a function, the current frame's target is in none:
 *   a tail call, g replaces the 0x1011c frame and keeps its return
 *   address, so g's ret returns to _start.
 *   _start                       addi, jal, exit(3)               5
 *   _start;0x1011c               mv, jal f, mv, j; addi, j g      6
 *   _start;0x1011c;f             mv, jal pre, mv, ret             4
 *   _start;0x1011c;f;0x10100     addi, ret                        2
 *   _start;g                     addi, ret                        2
 */
#include "rule.h"
TEXT
pre:
	addi a0, a0, 3		/* 0x10100 1 */
	ret			/* 0x10100 2 */

FUNC(_start)
	addi a0, x0, 0		/* _start 1 */
	jal ra, anon1		/* _start 2 */
	EXIT			/* _start 3, 4, 5 */
END(_start)

anon1:
	addi s1, ra, 0		/* 0x1011c 1 */
	jal ra, f		/* 0x1011c 2 */
	addi ra, s1, 0		/* 0x1011c 3 */
	j anon2			/* 0x1011c 4: JUMP, no function on either side */

FUNC(f)
	addi s2, ra, 0		/* f 1 */
	jal ra, pre		/* f 2 */
	addi ra, s2, 0		/* f 3 */
	ret			/* f 4 */
END(f)

anon2:
	addi a0, a0, 2		/* 0x1011c 5 */
	j g			/* 0x1011c 6: tail call g */

FUNC(g)
	addi a0, a0, 1		/* g 1 */
	ret			/* g 2 */
END(g)
