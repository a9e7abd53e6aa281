/*
 * t0_link: x5 (t0) as the link register, the way -msave-restore millicode
 * uses it: f calls save with `jal t0, save` (CALL, return address in t0),
 * save returns with `jr t0` (jalr x0, 0(t0): rs1 link, RETURN), f leaves
 * with `j restore` (jal x0: JUMP into another function = tail call: the
 * frame f is replaced by restore, which keeps f's return address), and
 * restore's `ret` returns to _start.
 *   _start             jal f, jal f, exit(3)            5
 *   _start;f           3 per call                       6
 *   _start;f;save      3 per call                       6
 *   _start;restore     3 per call                       6
 */
#include "rule.h"
TEXT
FUNC(_start)
	jal ra, f		/* _start 1 */
	jal ra, f		/* _start 2 */
	EXIT			/* _start 3, 4, 5 */
END(_start)

FUNC(f)
	jal t0, save		/* f 1: CALL save, return address in t0 */
	addi a0, a0, 1		/* f 2 */
	j restore		/* f 3: tail call restore */
END(f)

FUNC(save)
	addi sp, sp, -16	/* save 1 */
	SREG ra, 0(sp)		/* save 2 */
	jr t0			/* save 3: RETURN to f */
END(save)

FUNC(restore)
	LREG ra, 0(sp)		/* restore 1 */
	addi sp, sp, 16		/* restore 2 */
	ret			/* restore 3: RETURN to _start (f's return address) */
END(restore)
