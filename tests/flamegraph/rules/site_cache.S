/*
 * site_cache: call and tail-call sites that the executor's translated
 * blocks reach from more than one caller (their site caches, executor/
 * translate/translate_block.h). g calls f1 and f2 in turn, so each call
 * finds the slot above set up for the other; _start calls g twice in a
 * row, then h, which calls g too: g's sites see g's node under _start
 * (again: the same link) and under h (another). g and h end in a tail
 * call to f3, whose node hangs under the tail-calling frame's parent.
 *   _start         li, 3 x (jal g, jal g, jal h, addi, bne), exit(3)   19
 *   _start;g       6 x (mv, jal f1, jal f2, mv, j f3)                  30
 *   _start;g;f1    6 x (addi, ret)                                     12
 *   _start;g;f2    6 x (2 addi, ret)                                   18
 *   _start;f3      9 x (3 addi, ret): g's 6 tail calls, h's 3          36
 *   _start;h       3 x (mv, jal g, mv, j f3)                           12
 *   _start;h;g     3 x g's 5                                           15
 *   _start;h;g;f1  3 x 2                                                6
 *   _start;h;g;f2  3 x 3                                                9
 *   _start;h;f3    3 x 4: g's tail calls under h                       12
 */
#include "rule.h"
TEXT
FUNC(_start)
	addi s1, x0, 3		/* _start 1 */
1:	jal ra, g		/* _start 2, 7, 12 */
	jal ra, g		/* _start 3, 8, 13 */
	jal ra, h		/* _start 4, 9, 14 */
	addi s1, s1, -1		/* _start 5, 10, 15 */
	bne s1, x0, 1b		/* _start 6, 11, 16 */
	EXIT			/* _start 17, 18, 19 */
END(_start)

FUNC(g)
	addi t0, ra, 0		/* g 1 */
	jal ra, f1		/* g 2 */
	jal ra, f2		/* g 3 */
	addi ra, t0, 0		/* g 4 */
	jal x0, f3		/* g 5: a tail call */
END(g)

FUNC(h)
	addi t1, ra, 0		/* h 1 */
	jal ra, g		/* h 2 */
	addi ra, t1, 0		/* h 3 */
	jal x0, f3		/* h 4: a tail call */
END(h)

FUNC(f1)
	addi a0, a0, 1		/* f1 1 */
	ret			/* f1 2 */
END(f1)

FUNC(f2)
	addi a0, a0, 1		/* f2 1 */
	addi a0, a0, 1		/* f2 2 */
	ret			/* f2 3 */
END(f2)

FUNC(f3)
	addi a0, a0, 1		/* f3 1 */
	addi a0, a0, 1		/* f3 2 */
	addi a0, a0, 1		/* f3 3 */
	ret			/* f3 4 */
END(f3)
