/* jalr: t = (rs1 + sext(imm12)) & ~1; rd = pc + 4; pc = t. Checks the
 * link value, that bit 0 of the target is cleared (odd register or odd
 * offset), negative and extreme offsets, rd == rs1 (the target uses the
 * old rs1), rd = x0 and a call/return pair. */
#include "test_macros.h"

TEST_BEGIN

  /* Link value and target. */
  TEST_NUM(1)
  li x1, 0
  LA_ABS(x12, 1f)
  jalr x1, 0(x12)
ret_1:
  j fail
1:
  LA_ABS(x15, ret_1)
  bne x1, x15, fail
  LA_ABS(x15, 1b)
  bne x12, x15, fail               /* rs1 left alone */

  /* Odd address in the register: bit 0 cleared. */
  TEST_NUM(2)
  LA_ABS(x12, 1f)
  addi x12, x12, 1
  jalr x14, 0(x12)
ret_2:
  j fail
1:
  LA_ABS(x15, ret_2)
  bne x14, x15, fail

  /* Odd offset: bit 0 of the sum cleared. */
  TEST_NUM(3)
  LA_ABS(x12, 1f)
  jalr x14, 1(x12)
ret_3:
  j fail
1:
  LA_ABS(x15, ret_3)
  bne x14, x15, fail

  /* Negative offset. */
  TEST_NUM(4)
  LA_ABS(x12, 1f + 8)
  jalr x14, -8(x12)
  j fail
1:

  /* Offset -2048 and +2047 (odd, so also cleared). */
  TEST_NUM(5)
  LA_ABS(x12, 1f + 2048)
  jalr x14, -2048(x12)
  j fail
1:
  LA_ABS(x12, 2f - 2046)
  jalr x14, 2047(x12)
  j fail
2:

  /* rd == rs1: the target comes from the old value. */
  TEST_NUM(6)
  LA_ABS(x12, 1f)
  jalr x12, 0(x12)
ret_6:
  j fail
1:
  LA_ABS(x15, ret_6)
  bne x12, x15, fail

  /* rd == rs1 == ra, with an odd offset giving an odd sum. */
  TEST_NUM(7)
  LA_ABS(x1, 1f - 2)
  jalr x1, 3(x1)
ret_7:
  j fail
1:
  LA_ABS(x15, ret_7)
  bne x1, x15, fail

  /* rd = x0 (`jr`): nothing written. */
  TEST_NUM(8)
  LA_ABS(x12, 1f)
  jalr x0, 0(x12)
  j fail
1:
  bnez x0, fail
  LA_ABS(x15, 1b)
  bne x12, x15, fail

  /* Backward. */
  TEST_NUM(9)
  j 2f
1:
  j 3f
2:
  LA_ABS(x12, 1b)
  jalr x14, 0(x12)
ret_9:
  j fail
3:
  LA_ABS(x15, ret_9)
  bne x14, x15, fail

  /* Call and return: jal ra, then `ret` (jalr x0, 0(ra)); and the same
   * through t0. */
  TEST_NUM(10)
  li x14, 0
  jal x1, func_inc
  jal x1, func_inc
  CHECK(x14, 2)
  jal x5, func_inc_t0
  CHECK(x14, 3)
  /* jalr ra, 0(t0) used as call from a register. */
  LA_ABS(x13, func_inc)
  jalr x1, 0(x13)
  CHECK(x14, 4)
  j 9f

func_inc:
  addi x14, x14, 1
  ret
func_inc_t0:
  addi x14, x14, 1
  jalr x0, 0(x5)
9:

TEST_END
