/*
 * tail_call: `j b` (jal x0) and `jr t1` (jalr x0, 0(t1), rs1 not link)
 * into other functions are tail calls: the top frame is replaced and keeps
 * its return address, so c's ret returns straight to _start.
 *   _start         jal a, exit(3)          4
 *   _start;a       addi, j b               2
 *   _start;b       addi, LA(2), jr t1      4
 *   _start;c       addi, ret               2
 */
#include "rule.h"
TEXT
FUNC(_start)
	jal ra, a		/* _start 1 */
	EXIT			/* _start 2, 3, 4 */
END(_start)

FUNC(a)
	addi a0, a0, 1		/* a 1 */
	j b			/* a 2: JUMP to another function: tail call b */
END(a)

FUNC(b)
	addi a0, a0, 1		/* b 1 */
	LA(t1, c)		/* b 2, 3 */
	jr t1			/* b 4: JUMP to another function: tail call c */
END(b)

FUNC(c)
	addi a0, a0, 1		/* c 1 */
	ret			/* c 2: RETURN: the top frame's return address */
END(c)
