/*
 * slot_evict: one caller calling five callees in turn, twice. A slot of
 * the shadow stack remembers four nodes (executor/trace.h), so every call
 * here finds the node it needs forgotten: the slot's oldest node is
 * handed its count and dropped each time. Each callee runs a different
 * number of instructions, so a count handed to the wrong node shows.
 *   _start     li, 2 x (5 x jal, addi, bne), exit(3)    1 + 14 + 3 = 18
 *   _start;f1  2 x (ret)                                          2
 *   _start;f2  2 x (addi, ret)                                    4
 *   _start;f3  2 x (2 addi, ret)                                  6
 *   _start;f4  2 x (3 addi, ret)                                  8
 *   _start;f5  2 x (4 addi, ret)                                 10
 */
#include "rule.h"
TEXT
FUNC(_start)
	addi s1, x0, 2		/* _start 1 */
1:	jal ra, f1		/* _start 2, 9 */
	jal ra, f2		/* _start 3, 10 */
	jal ra, f3		/* _start 4, 11 */
	jal ra, f4		/* _start 5, 12 */
	jal ra, f5		/* _start 6, 13 */
	addi s1, s1, -1		/* _start 7, 14 */
	bne s1, x0, 1b		/* _start 8, 15 */
	EXIT			/* _start 16, 17, 18 */
END(_start)

FUNC(f1)
	ret			/* f1 1 */
END(f1)

FUNC(f2)
	addi a0, a0, 1		/* f2 1 */
	ret			/* f2 2 */
END(f2)

FUNC(f3)
	addi a0, a0, 1		/* f3 1 */
	addi a0, a0, 1		/* f3 2 */
	ret			/* f3 3 */
END(f3)

FUNC(f4)
	addi a0, a0, 1		/* f4 1 */
	addi a0, a0, 1		/* f4 2 */
	addi a0, a0, 1		/* f4 3 */
	ret			/* f4 4 */
END(f4)

FUNC(f5)
	addi a0, a0, 1		/* f5 1 */
	addi a0, a0, 1		/* f5 2 */
	addi a0, a0, 1		/* f5 3 */
	addi a0, a0, 1		/* f5 4 */
	ret			/* f5 5 */
END(f5)
