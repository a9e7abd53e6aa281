/*
 * root_tail: the root frame (the function at the ELF entry) replaced by
 * tail calls: `j main2` from _start, then a ret from the root (main2) to
 * fin, which no frame holds: a JUMP into another function, a tail call
 * that replaces the root again. The root is never popped.
 *   _start       addi, j main2                 2
 *   main2        jal f, LA(2), ret             4
 *   main2;f      addi, ret                     2
 *   fin          exit(3)                       3
 */
#include "rule.h"
TEXT
FUNC(_start)
	addi a0, x0, 0		/* _start 1 */
	j main2			/* _start 2: tail call main2 (replaces the root) */
END(_start)

FUNC(main2)
	jal ra, f		/* main2 1 */
	LA(ra, fin)		/* main2 2, 3 */
	ret			/* main2 4: RETURN with the root alone: tail call fin */
END(main2)

FUNC(f)
	addi a0, a0, 1		/* f 1 */
	ret			/* f 2 */
END(f)

FUNC(fin)
	EXIT			/* fin 1, 2, 3 */
END(fin)
