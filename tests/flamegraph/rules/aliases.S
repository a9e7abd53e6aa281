/*
 * aliases: which symbols are functions, zero-size ranges, and the name
 * priority where several symbols share an address (STT_FUNC before
 * STT_NOTYPE, global before weak before local, sized before zero-size,
 * then the bytewise smallest name). The code is contiguous, so every
 * sized function ends exactly where the next one starts.
 *
 * _start     global NOTYPE, zero-size: a function (global, executable
 *            section) that extends to the next function (group 1).
 * group 1    a1_notype_global (global NOTYPE) / z1_func_local (local
 *            FUNC, sized): STT_FUNC first               -> z1_func_local
 * group 2    z2_global / a2_weak / a2_local (FUNC, sized) -> z2_global
 * group 3    z3_weak / a3_local (FUNC, sized)             -> z3_weak
 * group 4    z4_sized / a4_zero (global FUNC)             -> z4_sized
 * group 5    a5_name / _5_name / B5_name (global FUNC, sized): bytewise
 *            smallest, 'B' < '_' < 'a'                    -> B5_name
 * group 6    zlabel (global NOTYPE, zero-size), entered at the local
 *            label zmid in its middle: zlabel extends to group 7, the
 *            local labels inside do not split it; its `j zloop` loop moves
 *            nothing
 *                                                         -> zlabel
 * group 7    w7_weak_label (weak NOTYPE, zero-size)       -> w7_weak_label
 * group 8    g8 (FUNC, sized), entered at its local label l8_inner
 *                                                         -> g8
 * group 9    a9_func_zero (global FUNC, zero-size) / z9_notype (global
 *            NOTYPE, sized): STT_FUNC first               -> a9_func_zero
 *
 * Counts: _start 9 jal + exit(3) = 12; zlabel: addi, (addi, beq, j),
 * (addi, beq), ret = 7; every other group: addi, ret = 2.
 */
#include "rule.h"
TEXT
	.globl _start
_start:
	jal ra, a1_notype_global
	jal ra, a2_local
	jal ra, a3_local
	jal ra, a4_zero
	jal ra, a5_name
	jal ra, zmid
	jal ra, w7_weak_label
	jal ra, l8_inner
	jal ra, z9_notype
	EXIT

/* group 1 */
	.globl a1_notype_global
	.type z1_func_local, @function
a1_notype_global:
z1_func_local:
	addi a0, a0, 1
	ret
	.size z1_func_local, . - z1_func_local

/* group 2 */
	.globl z2_global
	.type z2_global, @function
	.weak a2_weak
	.type a2_weak, @function
	.type a2_local, @function
z2_global:
a2_weak:
a2_local:
	addi a0, a0, 1
	ret
	.size z2_global, . - z2_global
	.size a2_weak, . - a2_weak
	.size a2_local, . - a2_local

/* group 3 */
	.weak z3_weak
	.type z3_weak, @function
	.type a3_local, @function
z3_weak:
a3_local:
	addi a0, a0, 1
	ret
	.size z3_weak, . - z3_weak
	.size a3_local, . - a3_local

/* group 4 */
	.globl z4_sized
	.type z4_sized, @function
	.globl a4_zero
	.type a4_zero, @function
z4_sized:
a4_zero:
	addi a0, a0, 1
	ret
	.size z4_sized, . - z4_sized

/* group 5 */
	.globl a5_name
	.type a5_name, @function
	.globl _5_name
	.type _5_name, @function
	.globl B5_name
	.type B5_name, @function
a5_name:
_5_name:
B5_name:
	addi a0, a0, 1
	ret
	.size a5_name, . - a5_name
	.size _5_name, . - _5_name
	.size B5_name, . - B5_name

/* group 6 */
	.globl zlabel
zlabel:
	addi a0, a0, 1		/* not run: entered at zmid */
zmid:
	addi t1, x0, 2		/* 1 */
zloop:
	addi t1, t1, -1		/* 2, 5 */
	beq t1, x0, zdone	/* 3, 6 */
	j zloop			/* 4: JUMP inside zlabel's range: nothing moves */
zdone:
	ret			/* 7 */

/* group 7 */
	.weak w7_weak_label
w7_weak_label:
	addi a0, a0, 1
	ret

/* group 8 */
FUNC(g8)
	addi a0, a0, 1		/* not run: entered at l8_inner */
l8_inner:
	addi a0, a0, 1
	ret
END(g8)

/* group 9 */
	.globl a9_func_zero
	.type a9_func_zero, @function
	.globl z9_notype
a9_func_zero:
z9_notype:
	addi a0, a0, 1
	ret
	.size z9_notype, . - z9_notype
