/*
 * jump_to_nosym: a JUMP from a function into code that no symbol covers.
 * docs/CONTRACT.md ("How the stack moves", JUMP t): inside the top frame's
 * function nothing moves; into another function it is a tail call; where
 * neither the top frame nor t lies in a function, nothing moves.
 * Only the case where *neither* side has a function is exempted, so t not
 * lying inside the current frame's function, with the current frame in
 * one, is read as a tail call: the frame f is replaced by a frame for t,
 * written 0x10118, which keeps f's return address; the ret there returns
 * to _start. (The other reading, nothing moves, would give _start;f 4.)
 *   _start = 0x10100 (16 bytes), f = 0x10110 (8 bytes), anon = 0x10118
 *   _start             jal f, exit(3)        4
 *   _start;f           addi, j anon          2
 *   _start;0x10118     addi, ret             2
 */
#include "rule.h"
TEXT
FUNC(_start)
	jal ra, f		/* _start 1 */
	EXIT			/* _start 2, 3, 4 */
END(_start)

FUNC(f)
	addi a0, a0, 1		/* f 1 */
	j anon			/* f 2: JUMP out of every function: tail call */
END(f)

anon:
	addi a0, a0, 2		/* 0x10118 1 */
	ret			/* 0x10118 2: RETURN to _start: pop */
