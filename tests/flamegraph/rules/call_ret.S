/*
 * call_ret: direct calls (jal ra, f) and returns (ret = jalr x0, 0(ra)).
 *
 * _start calls f twice; f saves ra in s1, calls g, returns.
 *   _start:        addi, jal f, jal f, exit(3)         6
 *   _start;f       4 per call (mv, jal g, mv, ret)      8
 *   _start;f;g     2 per call (addi, ret)               4
 * The jal counts in the caller, the callee's first instruction in the
 * callee, the ret in the callee.
 */
#include "rule.h"
TEXT
FUNC(_start)
	addi s0, x0, 2		/* _start 1 */
	jal ra, f		/* _start 2: CALL f */
	jal ra, f		/* _start 3: CALL f */
	EXIT			/* _start 4, 5, 6 */
END(_start)

FUNC(f)
	addi s1, ra, 0		/* f 1 */
	jal ra, g		/* f 2: CALL g */
	addi ra, s1, 0		/* f 3 */
	ret			/* f 4: RETURN to _start */
END(f)

FUNC(g)
	addi a0, a0, 1		/* g 1 */
	ret			/* g 2: RETURN to f */
END(g)
