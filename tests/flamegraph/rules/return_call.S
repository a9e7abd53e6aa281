/*
 * return_call: jalr with rd link and rs1 the other link register
 * (jalr ra, 0(t0) and jalr t0, 0(ra)) is RETURN, then CALL t: the top
 * frame is popped, then t pushed with return address pc+4 (a coroutine
 * switch).
 *
 * f: `jalr ra, 0(t0)` pops f and pushes g (return address f_back), so
 *    the stack is _start;g. g's ret returns to f_back, the return address
 *    of the top frame g: popped, the stack is _start while f's remaining
 *    code runs (it counts in _start). Its final ret goes to _start's code
 *    with only the root frame left: RETURN finds no frame to pop, no frame
 *    below the top, so it is a JUMP inside the root's function: nothing
 *    moves.
 * h: the same with `jalr t0, 0(ra)` (ra = k) and k returning by `jr t0`.
 * _start itself first runs `jalr ra, 0(t0)`: the root is never popped, so
 * that is just CALL g (_start;g), and g returns to _start.
 *
 *   _start      LA(2), jalr g, jal f, jal h, exit(3)  8
 *               + f after the switch: addi, mv, ret    3
 *               + h after the switch: addi, mv, ret    3   = 14
 *   _start;f    mv, jalr                               2
 *   _start;g    addi, ret (twice)                      4
 *   _start;h    mv, LA(2), jalr                        4
 *   _start;k    addi, jr t0                            2
 */
#include "rule.h"
TEXT
FUNC(_start)
	LA(t0, g)		/* _start 1, 2 */
	jalr ra, 0(t0)		/* _start 3: RETURN (the root stays), then CALL g */
	jal ra, f		/* _start 4 */
	jal ra, h		/* _start 5 */
	EXIT			/* _start 6, 7, 8 */
END(_start)

FUNC(f)
	addi s1, ra, 0		/* f 1 */
	jalr ra, 0(t0)		/* f 2: RETURN (pop f), then CALL g */
f_back:
	addi a0, a0, 1		/* in _start */
	addi ra, s1, 0		/* in _start */
	ret			/* in _start: RETURN from the root: JUMP, nothing moves */
END(f)

FUNC(g)
	addi a0, a0, 5		/* g 1 */
	ret			/* g 2: RETURN to _start / to f_back: pop g */
END(g)

FUNC(h)
	addi s1, ra, 0		/* h 1 */
	LA(ra, k)		/* h 2, 3 */
	jalr t0, 0(ra)		/* h 4: RETURN (pop h), then CALL k */
	addi a0, a0, 1		/* in _start */
	addi ra, s1, 0		/* in _start */
	ret			/* in _start */
END(h)

FUNC(k)
	addi a0, a0, 7		/* k 1 */
	jr t0			/* k 2: RETURN: pop k */
END(k)
