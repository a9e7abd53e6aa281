/*
 * fault: on a guest fault the flamegraph of what ran is still written
 * (docs/CONTRACT.md#long-runs); `cli execute` exits 70. f runs two
 * instructions and then an illegal one (the all-zero word), which faults
 * and does not retire, so it is not counted.
 *   _start      jal f                1
 *   _start;f    addi, addi           2
 * (No qemu comparison for this guest: qemu logs the faulting instruction
 * and dies of SIGILL.)
 */
#include "rule.h"
TEXT
FUNC(_start)
	jal ra, f		/* _start 1 */
	EXIT			/* never runs */
END(_start)

FUNC(f)
	addi a0, a0, 1		/* f 1 */
	addi a0, a0, 1		/* f 2 */
	.word 0			/* illegal instruction: fault, not retired */
	ret
END(f)
